#include "pg/mark/key_file.hpp"

#include "pg/common/postgres.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" {
#include "access/xlog.h"
#include "common/file_perm.h"
#include "storage/fd.h"
}

namespace idtypes::pg {

// Files are opened as PostgreSQL opens its own (OpenTransientFile): counted against the process's file
// budget, and where the process or the system has no descriptor left, PostgreSQL closes one of its cached
// files and tries again. OpenTransientFile raises only when the process already holds its maximum of such
// files at once, a leak of other code (it never happens between two statements): the one exception to
// "never raises" below.
KeyFileRead read_key_file()
{
	KeyFileRead r{KeyFileState::missing, 0, 0, {}};
	int fd = OpenTransientFile(key_file_name, O_RDONLY | PG_BINARY);
	if (fd < 0) {
		r.state = errno == ENOENT ? KeyFileState::missing : KeyFileState::unreadable;
		r.error_number = errno;
		return r;
	}
	char text[key_file_text::max_text + 1];
	ssize_t len = read(fd, text, sizeof text); // a longer file is garbled: the parse sees its first bytes only
	r.error_number = errno;
	CloseTransientFile(fd);
	if (len < 0) {
		r.state = KeyFileState::unreadable;
		return r;
	}
	key_file_text::Parsed p = key_file_text::parse(std::string_view(text, static_cast<std::size_t>(len)));
	r.state = p.status == key_file_text::Parse::ok             ? KeyFileState::ok
	          : p.status == key_file_text::Parse::newer_layout ? KeyFileState::newer_layout
	                                                           : KeyFileState::garbled;
	r.layout = p.layout;
	r.contents = p.contents;
	return r;
}

const char *describe(WriteStep step)
{
	switch (step) {
	case WriteStep::none: break;
	case WriteStep::create: return "could not create file \"pg_idtypes_high_water.tmp\"";
	case WriteStep::write: return "could not write file \"pg_idtypes_high_water.tmp\"";
	case WriteStep::rename:
		return "could not rename file \"pg_idtypes_high_water.tmp\" to \"pg_idtypes_high_water\" durably";
	}
	return "no failure";
}

bool write_key_file(const key_file_text::Contents &contents, WriteFailure &failure)
{
	char text[key_file_text::max_text];
	auto len = static_cast<ssize_t>(key_file_text::format(contents, text));
	int fd = OpenTransientFile(key_file_temp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0) {
		failure = WriteFailure{WriteStep::create, errno};
		return false;
	}
	errno = ENOSPC; // a short write sets no errno: it ran out of room
	if (write(fd, text, static_cast<std::size_t>(len)) != len) {
		failure = WriteFailure{WriteStep::write, errno};
		CloseTransientFile(fd);
		return false;
	}
	if (CloseTransientFile(fd) != 0) {
		failure = WriteFailure{WriteStep::write, errno};
		return false;
	}
	// PostgreSQL's durable rename: the file fsynced, renamed, fsynced under its name, then the directory. Its
	// own message goes out at DEBUG1 only (the caller logs each distinct failure once, not once per call);
	// left unsent, it leaves errno as the failed step set it.
	if (durable_rename(key_file_temp, key_file_name, DEBUG1) != 0) {
		failure = WriteFailure{WriteStep::rename, errno};
		return false;
	}
	failure = WriteFailure{WriteStep::none, 0};
	return true;
}

// How a server tells that its data directory is a copy of the one whose server drew the fullrand key:
// - Everything inside the directory travels with a copy (pg_basebackup, a standby, a file copy, a restore),
//   the mark file included, so nothing written there can tell. What a copy cannot carry is the directory
//   itself: a copy is a new directory, with its own inode and birth time (set by the file system when the
//   directory is created; no tool can set it), while a restart, a crash restart or a reboot keeps both.
//   So the key is written with its owner (the system identifier, the directory's device, inode and birth
//   time), and a key whose owner is not this instance is another server's: a new one is drawn.
// - The system identifier tells clusters apart (a mark file put into another cluster), not copies: a copy
//   has the same one. The recovery state and the timeline change on one instance (a standby is promoted,
//   and keeps its key: no other server has it), so they are not part of the identity: a standby is told
//   from its primary by its directory, and draws its own key the first time it generates (it can write
//   its mark file, which is not WAL-logged), so both can generate at once with different keys.
// - The device number counts only where the file system has no birth time: it can change between boots
//   (device-mapper, disk order), which would make a server draw new keys for nothing.
// - What it cannot see: a clone of the whole file system (a disk image, a snapshot of a VM or volume)
//   keeps inode and birth time. docs/generators.md says so.
// - Where statx itself fails (a seccomp profile that returns EPERM or ENOSYS for it, say), the directory
//   cannot be told from its copies: every copy would report the same identity and share the key. That is
//   refused (an error naming the cause), never guessed.
// - On a file system without birth times (ext3, tmpfs, some FUSE and network file systems), the device and
//   the inode decide: a file copy still gets a new inode, or lands on another device; only a copy that
//   reuses the very inode number on the same device (a restore over a removed directory, by chance) goes
//   unseen. A device number that changes between boots makes the server draw a new key once, which costs
//   nothing but the guarantee of the old one: values then differ from earlier ones by the permutation's
//   randomness (a 2^-64 chance per pair), not by construction.
// - On a network mount (NFS, SMB, CephFS), the device number is the mount's, given at mount time, and can
//   change across remounts: as above, a new key after a remount, drawn for a server that was never copied.
//   Inode and birth time, where the server keeps them, stay.
key_file_text::Instance this_instance()
{
	key_file_text::Instance me{GetSystemIdentifier(), 0, 0, 0};
	struct statx sx;
	if (statx(AT_FDCWD, ".", 0, STATX_INO | STATX_BTIME, &sx) != 0) {
		const int error_number = errno;
		ereport(ERROR, (errcode(ERRCODE_SYSTEM_ERROR),
		                errmsg("idtypes cannot tell its data directory from a copy: statx(\"%s\") failed: %s", DataDir,
		                       strerror(error_number)),
		                errdetail("uid11_generate_random keeps a key of its own per data directory, told apart by the "
		                          "directory's inode and birth time; without them two copies could share the key "
		                          "and generate equal values."),
		                errhint("Allow the statx system call to the server (a container's seccomp profile).")));
	}
	me.device = (static_cast<std::uint64_t>(sx.stx_dev_major) << 32) | sx.stx_dev_minor;
	me.inode = sx.stx_ino;
	if (sx.stx_mask & STATX_BTIME)
		me.birth_ns = static_cast<std::int64_t>(sx.stx_btime.tv_sec) * 1000000000 + sx.stx_btime.tv_nsec;
	return me;
}

} // namespace idtypes::pg
