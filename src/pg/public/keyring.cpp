#include "pg/public/keyring.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "pg/common/postgres.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/pg_authid_d.h"
#include "commands/dbcommands.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/shmem.h"
#include "utils/acl.h"
}

namespace idtypes::pg::keyring {

namespace {

constexpr int max_entries = 128;         // key versions in one file
constexpr std::size_t max_scope = 256;   // databases=… or roles=… (comma-separated names)
constexpr std::size_t max_message = 512; // why the file was refused, for the log and superusers
constexpr std::size_t page = 4096;

struct SharedEntry {
	char name[public_id::max_key_name + 1];
	std::int32_t version;
	Stage stage;
	std::uint8_t key[aes::key_bytes];
	std::uint8_t fingerprint[aes::fingerprint_bytes];
	char databases[max_scope]; // empty: every database
	char roles[max_scope];     // empty: every role granted EXECUTE
};

enum class State : std::int32_t { none, ok, unusable };

// The keyring's contents: in shared memory (one writer at a time: the postmaster at start, then the worker),
// in the writer's staging copy and in each session's copy. Key bytes: never outside such a struct.
struct Contents {
	State state;
	std::int32_t count;
	char message[max_message]; // when unusable: why (names the file, never a key byte)
	SharedEntry entries[max_entries];
};

struct Shared {
	pg_atomic_uint64 generation;   // odd while the writer writes; readers copy until they see it even and unchanged
	TimestampTz postmaster_reload; // the postmaster's reload time the contents stand for (0: a later reload's)
	Contents contents;
};

char *keyring_path = nullptr; // idtypes.keyring
bool preloaded = false;
Shared *shared = nullptr;

// Page-aligned and excluded from core dumps (dont_dump) before the first key byte is written.
alignas(page) Contents staging; // the writer's
alignas(page) Contents local;   // the session's
std::uint64_t local_generation = 0;
aes::Key *expanded[max_entries];
Oid scope_checked_for[max_entries]; // the user each verdict below is for (InvalidOid: none)
bool in_scope[max_entries];
bool pinned = false; // the keyring is taken for this transaction
bool callback_registered = false;

constexpr std::size_t file_limit = 64 * 1024;
alignas(page) char file_bytes[file_limit + 1]; // wiped after each reading

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

constexpr std::size_t rounded(std::size_t n) { return (n + page - 1) / page * page; }

// Asks the kernel to leave the pages out of core dumps; says so once in the log if it cannot (huge pages).
void dont_dump(void *start, std::size_t len)
{
	static bool logged = false;
	if (madvise(start, rounded(len), MADV_DONTDUMP) != 0 && !logged) {
		const int e = errno;
		logged = true;
		ereport(LOG, (errmsg("idtypes cannot exclude the keyring's memory from core dumps: %s", strerror(e))));
	}
}

void wipe(Contents &c) { explicit_bzero(&c, sizeof c); }

// ---- reading and checking the file (the postmaster and the worker; never raises) ---------------------------

bool refuse(Contents &c, const char *path, int line, const char *format, ...) __attribute__((format(printf, 4, 5)));

bool refuse(Contents &c, const char *path, int line, const char *format, ...)
{
	char why[max_message];
	va_list args;
	va_start(args, format);
	vsnprintf(why, sizeof why, format, args);
	va_end(args);
	if (line > 0)
		snprintf(c.message, sizeof c.message, "keyring file \"%s\", line %d: %s", path, line, why);
	else
		snprintf(c.message, sizeof c.message, "keyring file \"%s\": %s", path, why);
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

struct Field {
	const char *start;
	std::size_t len;
	bool is(const char *word) const { return len == std::strlen(word) && std::memcmp(start, word, len) == 0; }
	bool starts(const char *prefix) const
	{
		return len >= std::strlen(prefix) && std::memcmp(start, prefix, std::strlen(prefix)) == 0;
	}
};
constexpr int max_fields = 7;

// Fields separated by spaces or tabs, up to a # comment; returns max_fields + 1 when there are more.
int split_fields(const char *line, std::size_t len, Field (&fields)[max_fields])
{
	int n = 0;
	std::size_t i = 0;
	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == len || line[i] == '#')
			break;
		std::size_t start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
		if (n == max_fields)
			return max_fields + 1;
		fields[n++] = Field{line + start, i - start};
	}
	return n;
}

// A scope's names: comma-separated, none empty, no quote or backslash.
bool valid_scope(const char *s, std::size_t len)
{
	if (len == 0 || len >= max_scope || s[0] == ',' || s[len - 1] == ',')
		return false;
	for (std::size_t i = 0; i < len; i++)
		if (s[i] == '"' || s[i] == '\\' || (s[i] == ',' && s[i + 1] == ','))
			return false;
	return true;
}

// Opens without blocking (a FIFO or a device at the path fails at once, never hangs the reader), then checks
// it is a regular file readable by the server's user only, as PostgreSQL checks its SSL key.
bool read_file(Contents &c, const char *path, std::size_t &size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return refuse(c, path, 0, "cannot open it: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return refuse(c, path, 0, "cannot examine it: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(c, path, 0, "it is not a regular file");
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return refuse(c, path, 0,
		              "it has group or world access (mode %04o); like PostgreSQL's SSL key, the keyring must be "
		              "readable by the server's user only (chmod 0600)",
		              static_cast<unsigned>(st.st_mode & 07777));
	}
	size = 0;
	for (;;) {
		ssize_t got = read(fd, file_bytes + size, file_limit + 1 - size);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return refuse(c, path, 0, "cannot read it: %s", strerror(e));
		}
		if (got == 0)
			break;
		size += static_cast<std::size_t>(got);
		if (size > file_limit) {
			close(fd);
			return refuse(c, path, 0, "it is larger than %zu bytes", file_limit);
		}
	}
	close(fd);
	return true;
}

// One key line into c.entries[c.count]; false with c.message set.
bool parse_line(Contents &c, const char *path, int line, const Field *f, int n)
{
	if (c.count == max_entries)
		return refuse(c, path, line, "more than %d key versions", max_entries);
	SharedEntry &e = c.entries[c.count];
	if (!valid_name(f[0].start, f[0].len))
		return refuse(c, path, line, "a key's name is 1 to 63 letters, digits, \"_\", \"-\" or \".\"");
	std::memcpy(e.name, f[0].start, f[0].len);
	e.name[f[0].len] = '\0';
	if (!parse_version(f[1].start, f[1].len, e.version))
		return refuse(c, path, line, "the version of key \"%s\" is not a whole number from 1 to %d", e.name,
		              PG_INT32_MAX);
	if (f[2].is("retired")) { // no key: the version's symbol stays taken, its forms are refused by name
		if (n > 3)
			return refuse(c, path, line, "a retired version's line is: name version retired");
		e.stage = Stage::retired;
	} else if (!parse_key(f[2].start, f[2].len, e.key))
		return refuse(c, path, line, "the key of \"%s\" version %d is not 64 hexadecimal digits (AES-256)", e.name,
		              e.version);
	else if (!aes::fingerprint(e.key, e.fingerprint))
		return refuse(c, path, line, "OpenSSL could not compute the fingerprint of \"%s\" version %d", e.name,
		              e.version);
	if (e.stage != Stage::retired)
		e.stage = Stage::active;
	bool staged = false;
	for (int i = 3; i < n; i++) {
		char *into = f[i].starts("databases=") ? e.databases : f[i].starts("roles=") ? e.roles : nullptr;
		if (into == nullptr && !staged && (f[i].is("active") || f[i].is("decrypt"))) {
			e.stage = f[i].is("active") ? Stage::active : Stage::decrypt;
			staged = true;
			continue;
		}
		if (into == nullptr)
			return refuse(c, path, line, // never the field itself: it might be a key
			              "field %d is neither a stage (active, decrypt) nor a scope (databases=…, roles=…)", i + 1);
		const char *value = static_cast<const char *>(std::memchr(f[i].start, '=', f[i].len)) + 1;
		std::size_t len = f[i].len - static_cast<std::size_t>(value - f[i].start);
		if (into[0] != '\0' || !valid_scope(value, len))
			return refuse(c, path, line,
			              "a scope is given once per line, as names separated by commas (at most %zu bytes)",
			              max_scope - 1);
		std::memcpy(into, value, len);
		into[len] = '\0';
	}
	for (int j = 0; j < c.count; j++) {
		const SharedEntry &o = c.entries[j];
		if (std::strcmp(o.name, e.name) != 0)
			continue;
		if (o.version == e.version)
			return refuse(c, path, line, "key \"%s\" version %d appears twice", e.name, e.version);
		if (o.version % public_id::version_symbols == e.version % public_id::version_symbols)
			return refuse(c, path, line,
			              "key \"%s\" has versions %d and %d, which a public form's version symbol cannot tell "
			              "apart (versions equal modulo 16): remove the older one",
			              e.name, o.version, e.version);
		if (o.stage != Stage::retired && e.stage != Stage::retired &&
		    (std::strcmp(o.databases, e.databases) != 0 || std::strcmp(o.roles, e.roles) != 0))
			return refuse(c, path, line,
			              "key \"%s\" version %d has another scope than version %d: every line of a key gives the "
			              "same databases= and roles=",
			              e.name, e.version, o.version);
	}
	c.count++;
	return true;
}

bool parse_file(Contents &c, const char *path, std::size_t size)
{
	int line = 0;
	for (std::size_t pos = 0; pos < size;) {
		const char *start = file_bytes + pos;
		const char *end = static_cast<const char *>(std::memchr(start, '\n', size - pos));
		std::size_t len = end != nullptr ? static_cast<std::size_t>(end - start) : size - pos;
		pos += len + 1;
		line++;
		Field f[max_fields];
		int n = split_fields(start, len, f);
		if (n == 0)
			continue;
		if (n < 3 || n > max_fields)
			return refuse(c, path, line,
			              "%s fields; a line is: name version key (64 hex digits) [active|decrypt] "
			              "[databases=…] [roles=…]",
			              n < 3 ? "too few" : "too many");
		if (!parse_line(c, path, line, f, n))
			return false;
	}
	return true;
}

// The file as it is now, into `staging`: state none (no file where no setting names one), ok or unusable.
void read_keyring()
{
	wipe(staging);
	const bool named = keyring_path != nullptr && keyring_path[0] != '\0';
	const char *path = named ? keyring_path : "idtypes.keyring"; // the data directory is the working directory
	std::size_t size = 0;
	if (!named && access(path, F_OK) != 0 && errno == ENOENT) {
		staging.state = State::none;
		return;
	}
	const bool ok = read_file(staging, path, size) && parse_file(staging, path, size);
	explicit_bzero(file_bytes, sizeof file_bytes);
	if (!ok) {
		char message[max_message];
		std::memcpy(message, staging.message, sizeof message);
		wipe(staging);
		std::memcpy(staging.message, message, sizeof message);
		staging.state = State::unusable;
		return;
	}
	staging.state = State::ok;
}

// Publishes `staging` (one writer at a time: the postmaster before any session, then the worker).
void publish()
{
	pg_atomic_fetch_add_u64(&shared->generation, 1); // odd: being written
	pg_write_barrier();
	std::memcpy(&shared->contents, &staging, sizeof staging);
	pg_write_barrier();
	pg_atomic_fetch_add_u64(&shared->generation, 1);
}

// At start: whatever the file gives. At a reload: a good file replaces the keyring, a bad one is logged and
// changes nothing.
void load(bool at_reload)
{
	read_keyring();
	if (staging.state == State::unusable) {
		ereport(WARNING, (errmsg("%s", staging.message),
		                  errdetail(at_reload ? "The keyring of the public forms stays as it was before this reload."
		                                      : "The public forms are refused until the file is fixed and the "
		                                        "configuration reloaded."),
		                  errhint("Fix the file, then reload the configuration (SELECT pg_reload_conf()).")));
		if (at_reload && shared->contents.state == State::ok) {
			wipe(staging);
			return;
		}
	}
	if (std::memcmp(&staging, &shared->contents, sizeof staging) != 0) {
		publish();
		if (at_reload && staging.state == State::ok)
			ereport(LOG, (errmsg("idtypes read the keyring of the public forms: %d key versions", staging.count)));
	}
	wipe(staging);
}

// ---- the shared keyring and its worker ----------------------------------------------------------------------

constexpr const char *shared_name = "idtypes keyring v1";

void request_memory()
{
	if (previous_request_hook)
		previous_request_hook();
	RequestAddinShmemSpace(sizeof(Shared) + 2 * page);
}

// The postmaster, at start and after a crash: the file as it is now.
void startup()
{
	if (previous_startup_hook)
		previous_startup_hook();
	bool found = false;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	char *raw = static_cast<char *>(ShmemInitStruct(shared_name, sizeof(Shared) + 2 * page, &found));
	LWLockRelease(AddinShmemInitLock);
	// the contents (key bytes) on pages of their own, left out of core dumps in every process forked from here
	char *contents_page = reinterpret_cast<char *>(
	    (reinterpret_cast<std::uintptr_t>(raw) + offsetof(Shared, contents) + page - 1) / page * page);
	shared = reinterpret_cast<Shared *>(contents_page - offsetof(Shared, contents));
	dont_dump(contents_page, sizeof(Contents));
	dont_dump(&staging, sizeof staging);
	if (!found) {
		pg_atomic_init_u64(&shared->generation, 2);
		shared->postmaster_reload = PgReloadTime;
		std::memset(&shared->contents, 0, sizeof shared->contents);
		load(false);
	}
}

void register_worker()
{
	BackgroundWorker worker{};
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 1;
	snprintf(worker.bgw_library_name, sizeof worker.bgw_library_name, "idtypes");
	snprintf(worker.bgw_function_name, sizeof worker.bgw_function_name, "idtypes_keyring_main");
	snprintf(worker.bgw_name, sizeof worker.bgw_name, "idtypes keyring");
	snprintf(worker.bgw_type, sizeof worker.bgw_type, "idtypes keyring");
	RegisterBackgroundWorker(&worker);
}

// ---- a session's keyring --------------------------------------------------------------------------------------

void release_local()
{
	for (int i = 0; i < max_entries; i++) {
		aes::release(expanded[i]);
		expanded[i] = nullptr;
		scope_checked_for[i] = InvalidOid;
	}
	wipe(local);
}

void unpin(XactEvent event, void *)
{
	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT && event != XACT_EVENT_PREPARE)
		return;
	pinned = false;
	for (Oid &user : scope_checked_for) // memberships and databases may change between transactions
		user = InvalidOid;
}

// The shared keyring as of now, unless this transaction took one already.
void take()
{
	if (!preloaded || shared == nullptr)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("the public forms need idtypes in shared_preload_libraries"),
		                errdetail("The keyring is read when the server starts and at each reload, and kept in shared "
		                          "memory, so that every session uses the same keys."),
		                errhint("Add idtypes to shared_preload_libraries and restart the server.")));
	if (IsParallelWorker())
		ereport(ERROR, (errcode(ERRCODE_INVALID_TRANSACTION_STATE),
		                errmsg("the public forms cannot be computed in a parallel worker"),
		                errhint("Mark a function that calls them PARALLEL RESTRICTED.")));
	if (!callback_registered) {
		RegisterXactCallback(unpin, nullptr);
		dont_dump(&local, sizeof local);
		callback_registered = true;
	}
	for (int attempt = 0; !pinned; attempt++) {
		std::uint64_t before = pg_atomic_read_u64(&shared->generation);
		if (before == local_generation)
			break;
		if (before % 2 == 0) {
			release_local();
			pg_read_barrier();
			std::memcpy(&local, &shared->contents, sizeof local);
			pg_read_barrier();
			if (pg_atomic_read_u64(&shared->generation) == before) {
				local_generation = before;
				break;
			}
		}
		CHECK_FOR_INTERRUPTS();
		if (attempt > 10)
			pg_usleep(1000L);
	}
	pinned = true;
	if (local.state == State::ok)
		return;
	if (local.state == State::none)
		ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("idtypes has no keyring"),
		                errdetail("Neither idtypes.keyring nor the file idtypes.keyring in the data directory "
		                          "names one."),
		                errhint("docs/public-ids.md says how to make one.")));
	const bool may_see_path = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);
	ereport(ERROR, (errcode(ERRCODE_CONFIG_FILE_ERROR), errmsg("the keyring of the public forms is unusable"),
	                may_see_path ? errdetail("%s.", local.message) : 0,
	                errhint("The server log names the file and what is wrong with it; fix it, then reload the "
	                        "configuration.")));
}

bool listed(const char *names, const char *name)
{
	const std::size_t len = std::strlen(name);
	for (const char *p = names; *p != '\0';) {
		const char *comma = std::strchr(p, ',');
		const std::size_t n = comma != nullptr ? static_cast<std::size_t>(comma - p) : std::strlen(p);
		if (n == len && std::memcmp(p, name, n) == 0)
			return true;
		p += n + (comma != nullptr);
	}
	return false;
}

bool member_of_any(const char *roles, Oid user)
{
	char name[NAMEDATALEN];
	for (const char *p = roles; *p != '\0';) {
		const char *comma = std::strchr(p, ',');
		std::size_t n = comma != nullptr ? static_cast<std::size_t>(comma - p) : std::strlen(p);
		snprintf(name, sizeof name, "%.*s", static_cast<int>(n), p);
		const Oid role = get_role_oid(name, true);
		if (OidIsValid(role) && has_privs_of_role(user, role))
			return true;
		p += n + (comma != nullptr);
	}
	return false;
}

// Whether the caller (this database, the current user) may use entry i.
bool may_use(int i)
{
	const Oid user = GetUserId();
	if (scope_checked_for[i] != user) {
		const SharedEntry &e = local.entries[i];
		bool ok = true;
		if (e.databases[0] != '\0') {
			const char *database = get_database_name(MyDatabaseId);
			ok = database != nullptr && listed(e.databases, database);
		}
		if (ok && e.roles[0] != '\0')
			ok = member_of_any(e.roles, user);
		in_scope[i] = ok;
		scope_checked_for[i] = user;
	}
	return in_scope[i];
}

aes::Key *key_of(int i)
{
	if (expanded[i] == nullptr) {
		expanded[i] = aes::expand(local.entries[i].key);
		if (expanded[i] == nullptr)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("OpenSSL could not expand a key of the keyring")));
	}
	return expanded[i];
}

[[noreturn]] void no_such_key(const char *key_name)
{
	ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("key \"%s\" does not exist", key_name),
	                errhint("idtypes_keys() lists the keys this role may use in this database.")));
	pg_unreachable();
}

} // namespace

void define_setting()
{
	DefineCustomStringVariable("idtypes.keyring",
	                           "File of the keys of the public forms (empty: idtypes.keyring in the data directory).",
	                           "Read when the server starts and at each reload, never by a session; refused when "
	                           "group or world can access it. Relative paths are relative to the data directory.",
	                           &keyring_path, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, nullptr, nullptr, nullptr);
	if (!process_shared_preload_libraries_in_progress)
		return;
	preloaded = true;
	previous_request_hook = shmem_request_hook;
	shmem_request_hook = request_memory;
	previous_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup;
	register_worker();
}

Versions versions(const char *key_name)
{
	take();
	Versions out{};
	int first = -1;
	for (int i = 0; i < local.count; i++) {
		if (std::strcmp(local.entries[i].name, key_name) != 0 || local.entries[i].stage == Stage::retired)
			continue;
		if (first < 0 && !may_use(i)) // every version of a key has the same scope
			no_such_key(key_name);
		first = i;
		// insert by version, newest first (a key has at most 16 versions: their symbols differ)
		int at = out.count++;
		for (; at > 0 && out.v[at - 1].version < local.entries[i].version; at--)
			out.v[at] = out.v[at - 1];
		out.v[at] = Version{local.entries[i].version, local.entries[i].stage, false, key_of(i)};
	}
	if (out.count == 0)
		no_such_key(key_name);
	for (int i = 0; i < out.count; i++)
		if (out.v[i].stage == Stage::active) {
			out.v[i].current = true;
			break;
		}
	return out;
}

Version encoder(const char *key_name)
{
	const Versions all = versions(key_name);
	for (int i = 0; i < all.count; i++)
		if (all.v[i].current)
			return all.v[i];
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("key \"%s\" has no active version", key_name),
	         errdetail("Its versions in the keyring only decode (stage decrypt)."),
	         errhint("Mark a version active in the keyring file, then reload the configuration.")));
	pg_unreachable();
}

Version by_symbol(const char *key_name, unsigned residue)
{
	const Versions all = versions(key_name);
	for (int i = 0; i < all.count; i++)
		if (static_cast<unsigned>(all.v[i].version) % public_id::version_symbols == residue)
			return all.v[i];
	for (int i = 0; i < local.count; i++)
		if (local.entries[i].stage == Stage::retired && std::strcmp(local.entries[i].name, key_name) == 0 &&
		    static_cast<unsigned>(local.entries[i].version) % public_id::version_symbols == residue)
			ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
			                errmsg("this public form was made under version %d of key \"%s\", which is retired",
			                       local.entries[i].version, key_name)));
	ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
	                errmsg("no version of key \"%s\" in the keyring made this public form", key_name),
	                errdetail("Its first symbol names a version (modulo 16) that the keyring does not hold: it was "
	                          "made under a version since retired, or under no version of this key.")));
	pg_unreachable();
}

void check_cipher(const Version &v)
{
	if (aes::take_failure(v.key))
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("OpenSSL failed to encrypt a block")));
}

void list(void (*emit)(const Listed &, void *), void *arg)
{
	take();
	for (int i = 0; i < local.count; i++) {
		if (local.entries[i].stage == Stage::retired || !may_use(i))
			continue;
		const SharedEntry &e = local.entries[i];
		Listed l{e.name, e.version, e.stage, false, {}};
		for (std::size_t j = 0; j < aes::fingerprint_bytes; j++)
			snprintf(l.fingerprint + 2 * j, 3, "%02x", e.fingerprint[j]);
		l.current = e.stage == Stage::active;
		for (int j = 0; j < local.count; j++)
			if (std::strcmp(local.entries[j].name, e.name) == 0 && local.entries[j].stage == Stage::active &&
			    local.entries[j].version > e.version)
				l.current = false;
		emit(l, arg);
	}
}

} // namespace idtypes::pg::keyring

extern "C" {

// The keyring's worker: reads the file at each reload (SIGHUP), as the postmaster did at start.
PGDLLEXPORT void idtypes_keyring_main(Datum);

void idtypes_keyring_main(Datum)
{
	using namespace idtypes::pg::keyring;
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	// A reload that came while no worker ran (it started late, or is restarting after a crash).
	if (shared->postmaster_reload != PgReloadTime) {
		shared->postmaster_reload = 0;
		load(true);
	}
	for (;;) {
		(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH, 0, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending) {
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			shared->postmaster_reload = 0;
			load(true);
		}
	}
}

} // extern "C"
