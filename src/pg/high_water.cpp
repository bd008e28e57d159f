#include "pg/high_water.hpp"

#include "pg/glue.hpp"

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

FileRead read_high_water_file()
{
	FileRead r{FileState::missing, 0, 0, {}};
	int fd = open(high_water_file, O_RDONLY | PG_BINARY);
	if (fd < 0) {
		r.state = errno == ENOENT ? FileState::missing : FileState::unreadable;
		r.error_number = errno;
		return r;
	}
	char text[high_water::max_text + 1];
	ssize_t len = read(fd, text, sizeof text); // a longer file is garbled: the parse sees its first bytes only
	r.error_number = errno;
	close(fd);
	if (len < 0) {
		r.state = FileState::unreadable;
		return r;
	}
	high_water::Parsed p = high_water::parse(std::string_view(text, static_cast<std::size_t>(len)));
	r.state = p.status == high_water::Parse::ok             ? FileState::ok
	          : p.status == high_water::Parse::newer_layout ? FileState::newer_layout
	                                                        : FileState::garbled;
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
	case WriteStep::fsync: return "could not fsync file \"pg_idtypes_high_water.tmp\"";
	case WriteStep::rename: return "could not rename file \"pg_idtypes_high_water.tmp\" to \"pg_idtypes_high_water\"";
	case WriteStep::fsync_directory: return "could not fsync the data directory";
	}
	return "no failure";
}

bool write_high_water_file(const high_water::Contents &contents, WriteFailure &failure)
{
	char text[high_water::max_text];
	auto len = static_cast<ssize_t>(high_water::format(contents, text));
	int fd = open(high_water_temp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY, pg_file_create_mode);
	if (fd < 0) {
		failure = WriteFailure{WriteStep::create, errno};
		return false;
	}
	errno = ENOSPC; // a short write sets no errno: it ran out of room
	if (write(fd, text, static_cast<std::size_t>(len)) != len)
		failure = WriteFailure{WriteStep::write, errno};
	else if (pg_fsync(fd) != 0)
		failure = WriteFailure{WriteStep::fsync, errno};
	else
		failure = WriteFailure{WriteStep::none, 0};
	close(fd);
	if (failure.step != WriteStep::none)
		return false;
	if (rename(high_water_temp, high_water_file) != 0) {
		failure = WriteFailure{WriteStep::rename, errno};
		return false;
	}
	// the rename itself is durable once the directory is
	int dir = open(".", O_RDONLY | PG_BINARY);
	if (dir < 0 || pg_fsync(dir) != 0) {
		failure = WriteFailure{WriteStep::fsync_directory, errno};
		if (dir >= 0)
			close(dir);
		return false;
	}
	close(dir);
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
//   keeps inode and birth time. The README says so.
high_water::Instance this_instance()
{
	high_water::Instance me{GetSystemIdentifier(), 0, 0, 0};
	struct statx sx;
	if (statx(AT_FDCWD, ".", 0, STATX_INO | STATX_BTIME, &sx) == 0) {
		me.device = (static_cast<std::uint64_t>(sx.stx_dev_major) << 32) | sx.stx_dev_minor;
		me.inode = sx.stx_ino;
		if (sx.stx_mask & STATX_BTIME)
			me.birth_ns = static_cast<std::int64_t>(sx.stx_btime.tv_sec) * 1000000000 + sx.stx_btime.tv_nsec;
	}
	return me;
}

} // namespace idtypes::pg
