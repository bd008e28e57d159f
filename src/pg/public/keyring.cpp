#include "pg/public/keyring.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "pg/common/postgres.hpp"

namespace idtypes::pg::keyring {

namespace {

char *keyring_path = nullptr; // idtypes.keyring
bool stale = true;            // read the file at the next use

// What the last reading gave: its entries (in their own memory context), or why it failed.
MemoryContext entries_context = nullptr;
Entry *entries = nullptr;
int entry_count = 0;

struct Failure {
	bool failed;
	int sqlstate;
	char message[256];
	char detail[256];
};
Failure failure;

constexpr std::size_t max_file_bytes = 64 * 1024;
char file_bytes[max_file_bytes + 1]; // wiped after each reading

// Every reload sets the setting again (from the configuration files): the next use reads the file anew,
// whether the path or only the file's content changed.
void keyring_assign(const char *, void *) { stale = true; }

void release_entries()
{
	for (int i = 0; i < entry_count; i++)
		aes::release(entries[i].key);
	entries = nullptr;
	entry_count = 0;
	if (entries_context != nullptr)
		MemoryContextDelete(entries_context);
	entries_context = nullptr;
}

bool fail(int sqlstate, const char *detail_format, ...) __attribute__((format(printf, 2, 3)));

// The error's text without the file's name; raise() adds it.
bool fail(int sqlstate, const char *detail_format, ...)
{
	failure.failed = true;
	failure.sqlstate = sqlstate;
	va_list args;
	va_start(args, detail_format);
	vsnprintf(failure.detail, sizeof failure.detail, detail_format, args);
	va_end(args);
	return false;
}

bool valid_name(const char *s, std::size_t len)
{
	if (len == 0 || len > public_id::max_key_name)
		return false;
	for (std::size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return false;
	}
	return true;
}

bool parse_version(const char *s, std::size_t len, std::int32_t &out)
{
	if (len == 0 || len > 10)
		return false;
	std::int64_t v = 0;
	for (std::size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < 1 || v > PG_INT32_MAX)
		return false;
	out = static_cast<std::int32_t>(v);
	return true;
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool parse_key(const char *s, std::size_t len, std::uint8_t (&out)[aes::key_bytes])
{
	if (len != 2 * aes::key_bytes)
		return false;
	for (std::size_t i = 0; i < aes::key_bytes; i++) {
		int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
	}
	return true;
}

// One line: `name version hex`, or blank, or a # comment. Fields are separated by spaces or tabs.
struct Field {
	const char *start;
	std::size_t len;
};
int split_fields(const char *line, std::size_t len, Field (&fields)[4])
{
	int n = 0;
	std::size_t i = 0;
	while (i < len && n < 4) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == len || line[i] == '#')
			break;
		std::size_t start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
		fields[n++] = Field{line + start, i - start};
	}
	return n;
}

// Reads the file's bytes into file_bytes; false (with the failure set) when the file cannot be used.
bool read_file(std::size_t &size)
{
	int fd = open(keyring_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(ERRCODE_CONFIG_FILE_ERROR, "The file cannot be opened: %s.", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return fail(ERRCODE_CONFIG_FILE_ERROR, "The file cannot be examined: %s.", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(ERRCODE_CONFIG_FILE_ERROR, "It is not a regular file.");
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return fail(ERRCODE_CONFIG_FILE_ERROR,
		            "It has group or world access (mode %04o); like PostgreSQL's SSL key, the keyring must be "
		            "readable by the server's user only (chmod 0600).",
		            static_cast<unsigned>(st.st_mode & 07777));
	}
	size = 0;
	for (;;) {
		ssize_t got = read(fd, file_bytes + size, max_file_bytes + 1 - size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return fail(ERRCODE_CONFIG_FILE_ERROR, "The file cannot be read: %s.", strerror(e));
		}
		if (got == 0)
			break;
		size += static_cast<std::size_t>(got);
		if (size > max_file_bytes) {
			close(fd);
			return fail(ERRCODE_CONFIG_FILE_ERROR, "The file is larger than %zu bytes.", max_file_bytes);
		}
	}
	close(fd);
	return true;
}

// Parses file_bytes[0..size) into entries (allocated in entries_context); false with the failure set.
bool parse_file(std::size_t size)
{
	int lines = 1;
	for (std::size_t i = 0; i < size; i++)
		lines += file_bytes[i] == '\n';
	entries = static_cast<Entry *>(MemoryContextAllocZero(entries_context, sizeof(Entry) * lines));
	int line_number = 0;
	for (std::size_t pos = 0; pos < size;) {
		const char *line = file_bytes + pos;
		const char *end = static_cast<const char *>(memchr(line, '\n', size - pos));
		std::size_t len = end != nullptr ? static_cast<std::size_t>(end - line) : size - pos;
		pos += len + 1;
		line_number++;
		Field f[4];
		int n = split_fields(line, len, f);
		if (n == 0)
			continue;
		if (n != 3)
			return fail(ERRCODE_CONFIG_FILE_ERROR,
			            "Line %d has %s fields; each line is: name version key (64 hex digits).", line_number,
			            n < 3 ? "too few" : "too many");
		Entry &e = entries[entry_count];
		if (!valid_name(f[0].start, f[0].len))
			return fail(ERRCODE_CONFIG_FILE_ERROR,
			            "Line %d: a key's name is 1 to 63 letters, digits, \"_\", \"-\" or \".\".", line_number);
		std::memcpy(e.name, f[0].start, f[0].len);
		e.name[f[0].len] = '\0';
		if (!parse_version(f[1].start, f[1].len, e.version))
			return fail(ERRCODE_CONFIG_FILE_ERROR,
			            "Line %d: the version of key \"%s\" is not a whole number from 1 to %d.", line_number, e.name,
			            PG_INT32_MAX);
		for (int j = 0; j < entry_count; j++) {
			const Entry &o = entries[j];
			if (std::strcmp(o.name, e.name) != 0)
				continue;
			if (o.version == e.version)
				return fail(ERRCODE_CONFIG_FILE_ERROR, "Line %d: key \"%s\" version %d appears twice.", line_number,
				            e.name, e.version);
			if (o.version % public_id::version_symbols == e.version % public_id::version_symbols)
				return fail(ERRCODE_CONFIG_FILE_ERROR,
				            "Line %d: key \"%s\" has versions %d and %d, which a public form's version symbol cannot "
				            "tell apart (versions equal modulo 16): remove the older one.",
				            line_number, e.name, o.version, e.version);
		}
		std::uint8_t key[aes::key_bytes];
		bool key_ok = parse_key(f[2].start, f[2].len, key) && aes::fingerprint(key, e.fingerprint);
		if (key_ok)
			e.key = aes::expand(key);
		explicit_bzero(key, sizeof key);
		if (!key_ok)
			return fail(ERRCODE_CONFIG_FILE_ERROR,
			            "Line %d: the key of \"%s\" version %d is not 64 hexadecimal digits (AES-256).", line_number,
			            e.name, e.version);
		if (e.key == nullptr)
			return fail(ERRCODE_OUT_OF_MEMORY, "Line %d: OpenSSL could not expand the key.", line_number);
		entry_count++;
	}
	for (int i = 0; i < entry_count; i++) {
		entries[i].current = true;
		for (int j = 0; j < entry_count; j++)
			if (std::strcmp(entries[i].name, entries[j].name) == 0 && entries[j].version > entries[i].version)
				entries[i].current = false;
	}
	return true;
}

void load()
{
	release_entries();
	failure.failed = false;
	stale = false;
	if (keyring_path == nullptr || keyring_path[0] == '\0') {
		fail(ERRCODE_CONFIG_FILE_ERROR, "idtypes.keyring is not set.");
		return;
	}
	entries_context = AllocSetContextCreate(TopMemoryContext, "idtypes keyring", ALLOCSET_SMALL_SIZES);
	std::size_t size = 0;
	bool ok = read_file(size) && parse_file(size);
	explicit_bzero(file_bytes, sizeof file_bytes);
	if (!ok)
		release_entries();
}

[[noreturn]] void raise(const char *key_name)
{
	const char *path = keyring_path != nullptr && keyring_path[0] != '\0' ? keyring_path : "(idtypes.keyring unset)";
	if (key_name != nullptr)
		ereport(ERROR, (errcode(failure.sqlstate),
		                errmsg("cannot use key \"%s\": the keyring file \"%s\" is unusable", key_name, path),
		                errdetail("%s", failure.detail),
		                errhint("Fix the file named by idtypes.keyring, then reload the configuration.")));
	ereport(ERROR, (errcode(failure.sqlstate), errmsg("the keyring file \"%s\" is unusable", path),
	                errdetail("%s", failure.detail),
	                errhint("Fix the file named by idtypes.keyring, then reload the configuration.")));
	pg_unreachable();
}

void ensure_loaded(const char *key_name)
{
	if (stale)
		load();
	if (failure.failed)
		raise(key_name);
}

} // namespace

void define_setting()
{
	DefineCustomStringVariable("idtypes.keyring",
	                           "File of the keys of the public forms (lines: name version 64-hex-digit key).",
	                           "Read by each session at its first use and again after a reload; refused when group "
	                           "or world can access it. Relative paths are relative to the data directory.",
	                           &keyring_path, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, nullptr, keyring_assign, nullptr);
}

Entries all()
{
	ensure_loaded(nullptr);
	return Entries{entries, entry_count};
}

const Entry &newest(const char *key_name)
{
	ensure_loaded(key_name);
	const Entry *found = nullptr;
	for (int i = 0; i < entry_count; i++)
		if (entries[i].current && std::strcmp(entries[i].name, key_name) == 0)
			found = &entries[i];
	if (found == nullptr)
		ereport(ERROR,
		        (errcode(ERRCODE_UNDEFINED_OBJECT),
		         errmsg("key \"%s\" is not in the keyring file \"%s\"", key_name, keyring_path),
		         errhint("Add a line \"%s 1 <64 hex digits>\" to the file, then reload the configuration.", key_name)));
	return *found;
}

const Entry &by_symbol(const char *key_name, unsigned residue)
{
	const Entry &current = newest(key_name);
	for (int i = 0; i < entry_count; i++)
		if (static_cast<unsigned>(entries[i].version) % public_id::version_symbols == residue &&
		    std::strcmp(entries[i].name, key_name) == 0)
			return entries[i];
	// The form was made when its version was the newest, so it is the latest version at or below the current
	// one with that symbol; unless the newest versions were removed too.
	std::int64_t version = current.version - (current.version - static_cast<std::int64_t>(residue) + 16 * 1024) % 16;
	if (version < 1)
		version = residue == 0 ? 16 : residue;
	ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
	                errmsg("key \"%s\" has no version %d in the keyring file \"%s\"", key_name,
	                       static_cast<int>(version), keyring_path),
	                errdetail("The public form was made with version %d of the key (or a version 16, 32, ... from "
	                          "it), which the keyring no longer holds: its forms do not decode any more.",
	                          static_cast<int>(version))));
	pg_unreachable();
}

} // namespace idtypes::pg::keyring
