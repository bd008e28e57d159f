#include "pg/public/keyring.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "pg/common/origin_names.hpp"
#include "pg/common/postgres.hpp"
#include "pg/mark/origin.hpp"
#include "pg/mark/writer.hpp"

extern "C" {
#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid_d.h"
#include "catalog/pg_control.h"
#include "catalog/pg_database.h" // get_database_oid from 19 on (commands/dbcommands.h before)
#include "catalog/pg_replication_origin.h"
#include "commands/dbcommands.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "replication/origin.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
}

namespace idtypes::pg::keyring {

namespace {

namespace kt = keyring_text;

constexpr int kept = 4; // generations kept for the parallel workers of statements begun under them
constexpr std::size_t page = 4096;
constexpr long startup_wait_ms = 10000; // how long a session waits for the worker's first check after a start
constexpr int recheck_seconds = 2;      // a standby's keyring against the replayed records

struct SharedEntry {
	kt::Entry e;
	std::uint8_t fingerprint[aes::fingerprint_bytes];
	bool remembered;          // not a line of the file: a version the server loaded before, now retired
	bool pending;             // a standby's line its primary has not recorded yet (with this key): refused
	bool unlisted;            // a remembered version of this key did not fit (max_entries): counts as retired
	std::int16_t n_databases; // -1: every database
	std::int16_t n_roles;     // -1: every role granted EXECUTE
	Oid databases[kt::max_scope_names];
	Oid roles[kt::max_scope_names];
};

enum class State : std::int32_t { none, ok, unusable };

// A keyring: in the shared mapping's slots, in the worker's staging copy and in each session's copy. Key
// bytes: never outside such a struct. Copied up to `count` entries.
struct Contents {
	State state;
	std::int32_t count;
	bool any_pending;  // some entry is pending (a standby: its log names the lines)
	char message[512]; // when unusable: why (the file, a line, a field's position; never a field's text)
	SharedEntry entries[kt::max_entries];
};
constexpr std::size_t used_size(const Contents &c)
{
	return offsetof(Contents, entries) + static_cast<std::size_t>(c.count) * sizeof(SharedEntry);
}

struct Slot {
	pg_atomic_uint64 seq; // odd while written; a reader copies until it sees it even and unchanged
	std::uint64_t generation;
	Contents contents;
};

struct Shared {
	pg_atomic_uint64 current; // the newest checked generation (0: none yet); written by the worker
	std::uint64_t last_generation;
	TimestampTz started;           // the postmaster's last start (or crash restart)
	TimestampTz postmaster_reload; // the reload the postmaster's reading stands for
	pg_atomic_uint32 pending;      // 1: the postmaster's reading awaits the worker's check
	pg_atomic_uint32 worker_pid;
	TimestampTz worker_started, worker_stopped, loaded_at, refused_at;
	char file[1024];
	char refusal[512];
	Slot postmaster_reading; // written by the postmaster only
	Slot slots[kept];        // written by the worker only: generation g in slots[g % kept]
};

char *keyring_path = nullptr;     // idtypes.keyring
char *keyring_database = nullptr; // idtypes.keyring_database: where the worker reads pg_replication_origin
int leader_generation = 0;        // idtypes.keyring_generation: set by a leader for its parallel workers
// A parallel worker's copy of it, taken when its plan starts: before any function of the plan runs, so that a
// function's SET clause (applied in the worker too) cannot give the worker another generation. -1: not taken.
std::int64_t worker_generation = -1;
bool preloaded = false;
Shared *shared = nullptr;

// Page-aligned and excluded from core dumps (dont_dump) before the first key byte is written.
alignas(page) Contents staging; // the reader's (postmaster, worker)
alignas(page) Contents local;   // the session's
std::uint64_t local_generation = 0;
aes::Key *expanded[kt::max_entries];
Oid scope_checked_for[kt::max_entries]; // the user each verdict below is for (InvalidOid: none)
bool in_scope[kt::max_entries];
bool pinned = false; // the keyring is taken for this transaction
bool callback_registered = false;

alignas(page) char file_bytes[kt::max_file + 1]; // wiped after each reading
alignas(page) kt::Entry parsed[kt::max_entries]; // the parser's output, wiped after each reading

ExecutorStart_hook_type previous_executor_start = nullptr;

constexpr std::size_t rounded(std::size_t n) { return (n + page - 1) / page * page; }

// Asks the kernel to leave the pages out of core dumps; says so once in the log if it cannot.
void dont_dump(void *start, std::size_t len)
{
	static bool logged = false;
	if (madvise(start, rounded(len), MADV_DONTDUMP) != 0 && !logged) {
		const int e = errno;
		logged = true;
		ereport(LOG, (errmsg("idtypes cannot exclude the keyring's memory from core dumps: %s", strerror(e))));
	}
}

void wipe(Contents &c) { explicit_bzero(&c, used_size(c) > sizeof c ? sizeof c : used_size(c)); }

const char *file_path()
{
	const bool named = keyring_path != nullptr && keyring_path[0] != '\0';
	return named ? keyring_path : "idtypes.keyring"; // the data directory is the working directory
}

// ---- reading the file (the postmaster and the worker; never raises) ---------------------------------------

bool refuse(Contents &c, const char *format, ...) __attribute__((format(printf, 2, 3)));

bool refuse(Contents &c, const char *format, ...)
{
	char why[sizeof c.message];
	va_list args;
	va_start(args, format);
	vsnprintf(why, sizeof why, format, args);
	va_end(args);
	wipe(c);
	c.state = State::unusable;
	snprintf(c.message, sizeof c.message, "keyring file \"%s\"%s%s", file_path(), why[0] == 'l' ? ", " : ": ", why);
	return false;
}

// Opens without blocking (a FIFO or a device at the path fails at once, never hangs the reader), then checks
// it is a regular file readable by the server's user only, as PostgreSQL checks its SSL key.
bool read_file(Contents &c, std::size_t &size)
{
	const char *path = file_path();
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return refuse(c, "cannot open it: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return refuse(c, "cannot examine it: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(c, "it is not a regular file");
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return refuse(c,
		              "it has group or world access (mode %04o); like PostgreSQL's SSL key, the keyring must be "
		              "readable by the server's user only (chmod 0600)",
		              static_cast<unsigned>(st.st_mode & 07777));
	}
	size = 0;
	for (;;) {
		ssize_t got = read(fd, file_bytes + size, kt::max_file + 1 - size);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return refuse(c, "cannot read it: %s", strerror(e));
		}
		if (got == 0)
			break;
		size += static_cast<std::size_t>(got);
		if (size > kt::max_file) {
			close(fd);
			return refuse(c, "it is larger than %zu bytes", kt::max_file);
		}
	}
	close(fd);
	return true;
}

// The file as it is now, into `c`: state none (no file where no setting names one), ok or unusable. Scopes
// are not resolved here (the postmaster has no catalog): the worker's check does it.
void read_keyring(Contents &c)
{
	wipe(c);
	c.count = 0;
	const bool named = keyring_path != nullptr && keyring_path[0] != '\0';
	std::size_t size = 0;
	if (!named && access(file_path(), F_OK) != 0 && errno == ENOENT) {
		c.state = State::none;
		return;
	}
	if (read_file(c, size)) {
		const kt::Result r = kt::parse(std::string_view(file_bytes, size), parsed, kt::max_entries);
		if (r.problem != kt::Problem::none) {
			char why[sizeof c.message];
			(void)kt::describe(r, why, sizeof why);
			(void)refuse(c, "%s", why);
		} else {
			c.state = State::ok;
			c.count = r.count;
			for (int i = 0; i < r.count && c.state == State::ok; i++) {
				SharedEntry &e = c.entries[i];
				std::memset(&e, 0, sizeof e);
				e.e = parsed[i];
				e.n_databases = e.n_roles = -1;
				if (e.e.stage != Stage::retired && !aes::fingerprint(e.e.key, e.fingerprint))
					(void)refuse(c, "line %d: OpenSSL could not compute the key's fingerprint", e.e.line);
			}
		}
		explicit_bzero(parsed, sizeof parsed);
	}
	explicit_bzero(file_bytes, sizeof file_bytes);
}

// ---- slots ----------------------------------------------------------------------------------------------

void write_slot(Slot &slot, std::uint64_t generation, const Contents &c)
{
	pg_atomic_fetch_add_u64(&slot.seq, 1); // odd: being written
	pg_write_barrier();
	slot.generation = generation;
	std::memcpy(&slot.contents, &c, used_size(c));
	pg_write_barrier();
	pg_atomic_fetch_add_u64(&slot.seq, 1);
}

// Copies `slot` into `out` if it holds `generation` (any when 0); false when it holds another.
bool read_slot(const Slot &slot, std::uint64_t generation, Contents &out)
{
	for (int attempt = 0;; attempt++) {
		const std::uint64_t before = pg_atomic_read_u64(const_cast<pg_atomic_uint64 *>(&slot.seq));
		if (before % 2 == 0) {
			pg_read_barrier();
			const bool same = generation == 0 || slot.generation == generation;
			if (same) {
				std::int32_t count = slot.contents.count;
				if (count < 0 || count > kt::max_entries)
					count = 0;
				std::memcpy(&out, &slot.contents, offsetof(Contents, entries) + count * sizeof(SharedEntry));
				out.count = count;
			}
			pg_read_barrier();
			if (pg_atomic_read_u64(const_cast<pg_atomic_uint64 *>(&slot.seq)) == before &&
			    (generation == 0 || slot.generation == generation))
				return same;
		}
		if (attempt > 10)
			pg_usleep(1000L);
	}
}

// ---- the worker's check: the versions the server remembers, the scopes --------------------------------------

// A record: the name of a replication origin `idtypes_keyring <name digest> <version> <key digest>`, digests
// keyed by the cluster's secret (the mock authentication nonce of pg_control, in every copy and standby of the
// data directory, shown by no SQL function): pg_replication_origin is readable by every role, and shows
// neither the key's name nor anything of its bytes.
constexpr const char *record_prefix = "idtypes_keyring ";

struct Record {
	std::uint8_t name[aes::fingerprint_bytes];
	std::int32_t version;
	std::uint8_t key[aes::fingerprint_bytes];
};

bool digest(const char *label, const void *data, std::size_t len, std::uint8_t (&out)[aes::fingerprint_bytes])
{
	return aes::keyed_digest(label, reinterpret_cast<const std::uint8_t *>(GetMockAuthenticationNonce()),
	                         MOCK_AUTH_NONCE_LEN, static_cast<const std::uint8_t *>(data), len, out);
}

// A retired line has no key: its record's key digest is all zeros ("unknown"), which holds its symbol only.
bool record_of(const SharedEntry &e, Record &r)
{
	r.version = e.e.version;
	std::memset(r.key, 0, sizeof r.key);
	return digest("idtypes keyring name", e.e.name, std::strlen(e.e.name), r.name) &&
	       (e.e.stage == Stage::retired || digest("idtypes keyring key", e.e.key, sizeof e.e.key, r.key));
}

bool key_unknown(const Record &r)
{
	for (std::uint8_t b : r.key)
		if (b != 0)
			return false;
	return true;
}

void hex(const std::uint8_t (&b)[aes::fingerprint_bytes], char *out)
{
	for (std::size_t i = 0; i < aes::fingerprint_bytes; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

void record_name(const Record &r, char (&out)[80])
{
	char n[17], k[17];
	hex(r.name, n);
	hex(r.key, k);
	snprintf(out, sizeof out, "%s%s %d %s", record_prefix, n, r.version, k);
}

bool parse_record(const char *s, std::size_t len, Record &r)
{
	char copy[80];
	if (len >= sizeof copy || len < std::strlen(record_prefix) ||
	    std::memcmp(s, record_prefix, std::strlen(record_prefix)) != 0)
		return false;
	std::memcpy(copy, s, len);
	copy[len] = '\0';
	char n[17], k[17];
	int version = 0, consumed = 0;
	if (sscanf(copy + std::strlen(record_prefix), "%16[0-9a-f] %d %16[0-9a-f]%n", n, &version, k, &consumed) != 3 ||
	    std::strlen(n) != 16 || std::strlen(k) != 16 || consumed != static_cast<int>(len - std::strlen(record_prefix)))
		return false;
	r.version = version;
	for (std::size_t i = 0; i < aes::fingerprint_bytes; i++) {
		unsigned a, b;
		sscanf(n + 2 * i, "%2x", &a);
		sscanf(k + 2 * i, "%2x", &b);
		r.name[i] = static_cast<std::uint8_t>(a);
		r.key[i] = static_cast<std::uint8_t>(b);
	}
	return true;
}

Record mine_of[kt::max_entries]; // the records of the reading's entries (a retired one's key digest: zeros)

// Every record (the worker, in a transaction: the array is the transaction's). All of them: a record left out
// would let a new version take the symbol it holds (the catalog holds at most 65535 origins).
Record *read_records(int &count)
{
	count = 0;
	int room = 1024;
	Record *records = static_cast<Record *>(palloc(room * sizeof(Record)));
	auto take = [&](std::string_view name) {
		if (count == room) {
			room *= 2;
			records = static_cast<Record *>(repalloc(records, room * sizeof(Record)));
		}
		if (parse_record(name.data(), name.size(), records[count]))
			count++;
	};
	for_each_origin_name(take);
	return records;
}

// A scope's names as OIDs; a name that is no role (database) is left out, with a WARNING naming it, by its
// position in the scope only when it holds 8 hex digits in a row, or when the scope's missing names hold 16
// hex digits together: they may be parts of a key (hex_digits).
void resolve(const SharedEntry &e, const char *scope, bool roles, Oid *out, std::int16_t &n)
{
	n = -1;
	if (scope[0] == '\0')
		return;
	n = 0;
	std::size_t at = 0;
	std::string_view name;
	int missing_hex = 0; // the hex digits of the missing names, all of them counted before any is shown
	bool missing[kt::max_scope_names] = {};
	for (int k = 0; kt::next_name(scope, at, name) && k < kt::max_scope_names; k++) {
		char c[NAMEDATALEN];
		snprintf(c, sizeof c, "%.*s", static_cast<int>(name.size()), name.data());
		const Oid oid = roles ? get_role_oid(c, true) : get_database_oid(c, true);
		if (OidIsValid(oid))
			out[n++] = oid;
		else {
			missing[k] = true;
			missing_hex += kt::hex_digits(name);
		}
	}
	at = 0;
	for (int k = 0; kt::next_name(scope, at, name) && k < kt::max_scope_names; k++) {
		if (!missing[k])
			continue;
		char shown[NAMEDATALEN + 64];
		if (kt::hex_in_name(name) || missing_hex >= 16)
			snprintf(shown, sizeof shown, "name %d of %s= (not shown: it may be part of a key)", k + 1,
			         roles ? "roles" : "databases");
		else
			snprintf(shown, sizeof shown, "\"%.*s\"", static_cast<int>(Min(name.size(), NAMEDATALEN - 1)), name.data());
		ereport(WARNING, (errmsg("keyring file \"%s\", line %d: %s %s does not exist", file_path(), e.e.line,
		                         roles ? "role" : "database", shown),
		                  errdetail("The key is not granted through it. Scopes are looked up at each reading of the "
		                            "keyring: a role or database created or renamed later counts from the next "
		                            "reload.")));
	}
}

// The checks of a reading against the server's memory and its catalogs, and the memory written (on a primary)
// before any session may use a version; false with c.message set. In a transaction. On a standby, a line its
// primary has not recorded with the same key is pending (refused) until the record replays. `again`: a re-check
// of a published keyring (its scopes resolved already; its remembered entries, at its end, dropped first).
bool check(Contents &c, bool again = false)
{
	int n_records = 0;
	const Record *records = read_records(n_records);
	const bool standby = RecoveryInProgress();
	while (again && c.count > 0 && c.entries[c.count - 1].remembered)
		c.count--;
	c.any_pending = false;
	const int file_count = c.count;
	for (int i = 0; i < file_count; i++)
		c.entries[i].unlisted = false;
	for (int i = 0; i < file_count; i++) {
		SharedEntry &e = c.entries[i];
		Record &mine = mine_of[i];
		if (!record_of(e, mine))
			return refuse(c, "line %d: OpenSSL could not compute the key's record", e.e.line);
		e.pending = standby && e.e.stage != Stage::retired;
		bool retired_unknown = false, keyed = false; // records of this version: retired (key unknown), this key
		for (int j = 0; j < n_records; j++) {
			const Record &r = records[j];
			if (std::memcmp(r.name, mine.name, sizeof r.name) != 0)
				continue;
			const bool same_symbol = r.version % public_id::version_symbols == e.e.version % public_id::version_symbols;
			const bool same_key = std::memcmp(r.key, mine.key, sizeof r.key) == 0;
			if (r.version == e.e.version && same_key && !key_unknown(r))
				e.pending = false;
			retired_unknown |= r.version == e.e.version && key_unknown(r);
			keyed |= r.version == e.e.version && same_key && !key_unknown(r);
			if (e.e.stage != Stage::retired && r.version == e.e.version && !same_key && !key_unknown(r))
				return refuse(
				    c,
				    "line %d: version %d of this key had another key when this server loaded it before (or, on a "
				    "standby, its primary): a version's key never changes (give the new key a new version)",
				    e.e.line, e.e.version);
			if (e.e.stage != Stage::retired && r.version != e.e.version && same_symbol)
				return refuse(c,
				              "line %d: version %d takes the symbol of version %d of this key, which this server has "
				              "loaded before: forms made under version %d would decode under version %d (a version "
				              "symbol is taken for good: use another version number, or a new key name)",
				              e.e.line, e.e.version, r.version, r.version, e.e.version);
		}
		// A version the server first knew retired (a new server's first reading of it, as after pg_upgrade) never
		// gets a key: the one its forms were made with is unknown here, so another would decode them silently.
		// A standby leaves it pending (its forms refused) rather than refuse its file: its primary refuses it.
		if (!standby && e.e.stage != Stage::retired && retired_unknown && !keyed)
			return refuse(c,
			              "line %d: version %d of this key was first recorded retired, its key unknown (as after "
			              "pg_upgrade): a key given to it now could not be checked against the one its forms were "
			              "made with (give the key a new version)",
			              e.e.line, e.e.version);
		c.any_pending |= e.pending;
		if (e.e.stage == Stage::retired || again)
			continue;
		resolve(e, e.e.databases, false, e.databases, e.n_databases);
		resolve(e, e.e.roles, true, e.roles, e.n_roles);
	}
	// a remembered version no longer in the file: retired (its forms are refused by name)
	for (int j = 0; j < n_records; j++) {
		const Record &r = records[j];
		int of = -1;
		bool present = false;
		for (int i = 0; i < file_count; i++) {
			if (std::memcmp(r.name, mine_of[i].name, sizeof r.name) != 0)
				continue;
			of = i;
			present |= c.entries[i].e.version % public_id::version_symbols == r.version % public_id::version_symbols;
		}
		for (int i = file_count; i < c.count && !present; i++)
			present = std::strcmp(c.entries[i].e.name, c.entries[of].e.name) == 0 &&
			          c.entries[i].e.version % public_id::version_symbols == r.version % public_id::version_symbols;
		if (of < 0 || present)
			continue;
		if (c.count == kt::max_entries) {
			c.entries[of].unlisted = true;
			continue;
		}
		SharedEntry &add = c.entries[c.count++];
		std::memset(&add, 0, sizeof add);
		std::memcpy(add.e.name, c.entries[of].e.name, sizeof add.e.name);
		add.e.version = r.version;
		add.e.stage = Stage::retired;
		add.remembered = true;
		add.n_databases = add.n_roles = -1;
	}
	if (standby) // its primary's records reach it through WAL
		return true;
	LockRelationOid(ReplicationOriginRelationId, ExclusiveLock); // one maker at a time: a name is made once
	for (int i = 0; i < file_count; i++) {
		// a retired line: recorded (key unknown) unless a record of its version exists, so that a memory lost
		// (pg_upgrade, a new cluster) is rebuilt from the lines kept in the file
		bool known = false;
		for (int j = 0; j < n_records && c.entries[i].e.stage == Stage::retired && !known; j++)
			known = std::memcmp(records[j].name, mine_of[i].name, sizeof records[j].name) == 0 &&
			        records[j].version == mine_of[i].version;
		if (known)
			continue;
		char name[80];
		record_name(mine_of[i], name);
		if (replorigin_by_name(name, true) == no_origin)
			(void)replorigin_create(name);
	}
	return true;
}

// ---- publishing (the worker) ----------------------------------------------------------------------------------

void note_refusal(const char *message)
{
	shared->refused_at = GetCurrentTimestamp();
	// snprintf, not strlcpy: Debian 12's glibc has none, and 17's and 18's headers (newer suites) do not declare
	// PostgreSQL's own (as state_registry.cpp)
	snprintf(shared->refusal, sizeof shared->refusal, "%s", message);
}

void publish(const Contents &c)
{
	const std::uint64_t g = ++shared->last_generation;
	write_slot(shared->slots[g % kept], g, c);
	pg_write_barrier();
	pg_atomic_write_u64(&shared->current, g);
	shared->loaded_at = GetCurrentTimestamp();
	snprintf(shared->file, sizeof shared->file, "%s", file_path());
	int waiting = 0;
	for (int i = 0; i < c.count; i++)
		waiting += c.entries[i].pending;
	char activity[160], more[64] = "";
	if (waiting > 0)
		snprintf(more, sizeof more, ", %d waiting for the primary's record", waiting);
	snprintf(activity, sizeof activity, "keyring generation %llu: %d key versions (%s%s)",
	         static_cast<unsigned long long>(g), c.count, c.state == State::ok ? "usable" : "unusable", more);
	pgstat_report_activity(STATE_IDLE, activity);
}

// The lines of a standby's pending versions, "2, 5" (the first ten), for the log: each such version is
// refused on the standby until its primary's record replays, which only the errors would say otherwise.
void pending_lines(const Contents &c, char (&out)[96])
{
	out[0] = '\0';
	std::size_t used = 0;
	for (int i = 0, n = 0; i < c.count && n < 10; i++)
		if (c.entries[i].pending && used < sizeof out) {
			used += snprintf(out + used, sizeof out - used, "%s%d", n++ > 0 ? ", " : "", c.entries[i].e.line);
		}
}

// Checks `staging` and publishes it, or keeps the last good keyring (logged). `at_reload`: read now (a reload),
// else the postmaster's reading.
void check_and_publish(bool at_reload)
{
	if (staging.state == State::ok) {
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		(void)check(staging);
		PopActiveSnapshot();
		const XLogRecPtr before = XactLastCommitEnd;
		CommitTransactionCommand(); // synchronous_commit local: the records flushed before any form uses them
		// and, under synchronous replication, confirmed by the synchronous standbys (as the mark is): else a
		// failover to one of them would forget a version whose forms the primary made, and take it with the
		// promoted standby's key (a form decoding to another ID). Meanwhile the last keyring stays in use.
		if (XactLastCommitEnd != before) { // in a transaction of its own: the wait sets a setting for its time
			const XLogRecPtr end = XactLastCommitEnd;
			StartTransactionCommand();
			const bool confirmed = confirmed_by_standbys(end);
			CommitTransactionCommand();
			if (!confirmed)
				(void)refuse(staging, "its records were not confirmed by the synchronous standbys (the wait was "
				                      "cancelled): reload again once they are connected");
		}
	}
	const std::uint64_t current = pg_atomic_read_u64(&shared->current);
	const bool have_good = current != 0 && shared->slots[current % kept].contents.state == State::ok;
	if (staging.state == State::unusable) {
		note_refusal(staging.message);
		ereport(WARNING, (errmsg("%s", staging.message),
		                  errdetail(have_good ? "The keyring of the public forms stays as it was before."
		                                      : "The public forms are refused until the file is fixed and the "
		                                        "configuration reloaded."),
		                  errhint("Fix the file, then reload the configuration (SELECT pg_reload_conf()).")));
		if (have_good) {
			wipe(staging);
			return;
		}
	}
	publish(staging);
	if (staging.state == State::ok && staging.any_pending) {
		char lines[96];
		pending_lines(staging, lines);
		ereport(LOG,
		        (errmsg("idtypes read the keyring of the public forms: %d key versions (generation %llu); "
		                "on this standby, the versions of lines %s wait for their primary's record",
		                staging.count, static_cast<unsigned long long>(pg_atomic_read_u64(&shared->current)), lines),
		         errdetail("Their forms are refused here (55000) until the primary loads the same lines and "
		                   "its records replay.")));
	} else if (at_reload && staging.state == State::ok)
		ereport(LOG, (errmsg("idtypes read the keyring of the public forms: %d key versions (generation %llu)",
		                     staging.count, static_cast<unsigned long long>(pg_atomic_read_u64(&shared->current)))));
	wipe(staging);
}

// A standby's keyring against the records replayed since (the worker, every few seconds): a version its
// primary has now recorded becomes usable; a record contradicting the keyring makes it unusable (logged naming
// the line), never a wrong answer: the primary given another key for a version (its record of the first
// dropped since, so that it forgot), or a version taking a symbol, while the standby still decodes with its own.
void recheck()
{
	const std::uint64_t current = pg_atomic_read_u64(&shared->current);
	const Contents &in_use = shared->slots[current % kept].contents;
	if (current == 0 || in_use.state != State::ok)
		return;
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	// Not waiting: a lock on the catalog (replayed from the primary's LOCK or VACUUM FULL of it) postpones this
	// re-check to the next round, rather than end the worker at its lock_timeout while the keyring is good.
	if (!ConditionalLockRelationOid(ReplicationOriginRelationId, AccessShareLock)) {
		CommitTransactionCommand();
		return;
	}
	std::memcpy(&staging, &in_use, used_size(in_use));
	PushActiveSnapshot(GetTransactionSnapshot());
	(void)check(staging, true);
	PopActiveSnapshot();
	CommitTransactionCommand();
	bool changed = staging.state != State::ok || staging.count != in_use.count;
	for (int i = 0; i < staging.count && !changed; i++)
		changed = staging.entries[i].pending != in_use.entries[i].pending;
	if (staging.state != State::ok) {
		note_refusal(staging.message);
		ereport(WARNING, (errmsg("%s", staging.message),
		                  errdetail("A record the primary made, replayed here, contradicts the standby's keyring: "
		                            "the public forms are refused until the file is fixed and the configuration "
		                            "reloaded.")));
	}
	if (changed) {
		publish(staging);
		if (staging.state == State::ok)
			ereport(LOG, (errmsg("idtypes: the primary's records replayed, %s (generation %llu)",
			                     staging.any_pending ? "some versions still pending" : "every version usable",
			                     static_cast<unsigned long long>(pg_atomic_read_u64(&shared->current)))));
	}
	wipe(staging);
}

// ---- the shared mapping ------------------------------------------------------------------------------------

shmem_startup_hook_type previous_startup_hook = nullptr;

// The postmaster, before its first child: the mapping every process inherits, kept across crash restarts.
void map_shared()
{
	const std::size_t size = rounded(sizeof(Shared));
	void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		const int e = errno;
		ereport(FATAL, (errmsg("idtypes could not map %zu bytes for the keyring: %s", size, strerror(e))));
	}
	dont_dump(p, size);
	shared = static_cast<Shared *>(p);
	pg_atomic_init_u64(&shared->current, 0);
	pg_atomic_init_u32(&shared->pending, 0);
	pg_atomic_init_u32(&shared->worker_pid, 0);
	pg_atomic_init_u64(&shared->postmaster_reading.seq, 0);
	for (Slot &s : shared->slots)
		pg_atomic_init_u64(&s.seq, 0);
	dont_dump(&staging, sizeof staging);
	dont_dump(parsed, sizeof parsed);
	dont_dump(file_bytes, sizeof file_bytes);
}

// The postmaster, at start and after a crash: the file as it is now, for the worker to check. What was checked
// before a crash stays in use meanwhile; a slot a crashed writer left half written is dropped.
void startup()
{
	if (previous_startup_hook)
		previous_startup_hook();
	if (shared == nullptr)
		return;
	for (Slot &s : shared->slots)
		if (pg_atomic_read_u64(&s.seq) % 2 != 0) {
			s.generation = 0;
			pg_atomic_fetch_add_u64(&s.seq, 1);
		}
	const std::uint64_t current = pg_atomic_read_u64(&shared->current);
	if (current != 0 && shared->slots[current % kept].generation != current)
		pg_atomic_write_u64(&shared->current, 0);
	pg_atomic_write_u32(&shared->worker_pid, 0);
	shared->started = GetCurrentTimestamp();
	shared->postmaster_reload = PgReloadTime;
	read_keyring(staging);
	if (staging.state == State::unusable)
		ereport(WARNING, (errmsg("%s", staging.message),
		                  errdetail("The last good keyring stays in use if the server had one before a crash; else "
		                            "the public forms are refused until the file is fixed and the configuration "
		                            "reloaded.")));
	write_slot(shared->postmaster_reading, 0, staging);
	wipe(staging);
	pg_atomic_write_u32(&shared->pending, 1);
}

void register_worker()
{
	BackgroundWorker worker{};
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
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
	for (int i = 0; i < local.count && i < kt::max_entries; i++) {
		aes::release(expanded[i]);
		expanded[i] = nullptr;
		scope_checked_for[i] = InvalidOid;
	}
	wipe(local);
	local.count = 0;
	local_generation = 0;
}

void unpin(XactEvent event, void *)
{
	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT && event != XACT_EVENT_PREPARE &&
	    event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT)
		return;
	pinned = false;
	for (Oid &user : scope_checked_for) // memberships and databases may change between transactions
		user = InvalidOid;
}

[[noreturn]] void refuse_worker(const char *why)
{
	ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	                errmsg("the keyring of the public forms is not checked: %s", why),
	                errdetail("The background worker \"idtypes keyring\" checks every reading of the keyring file "
	                          "before any session uses it; idtypes_keyring_status() shows it."),
	                errhint("It takes one of max_worker_processes (raise it if every slot is in use, then restart the "
	                        "server) and connects to the database idtypes.keyring_database names; the server log "
	                        "says why it ended.")));
	pg_unreachable();
}

// Generation `g` into `local` (unless there already); false when no slot holds it any more.
bool copy_generation(std::uint64_t g)
{
	if (local_generation == g)
		return true;
	release_local();
	if (!read_slot(shared->slots[g % kept], g, local)) {
		release_local();
		return false;
	}
	local_generation = g;
	return true;
}

void register_callback()
{
	if (callback_registered)
		return;
	RegisterXactCallback(unpin, nullptr);
	dont_dump(&local, sizeof local);
	callback_registered = true;
}

// The newest checked generation, waiting (a cancel or statement_timeout ends it) while the worker starts or
// restarts; refuses naming the worker when it could not start or has been gone for longer.
std::uint64_t newest()
{
	const TimestampTz since = Max(shared->started, shared->worker_stopped);
	const TimestampTz deadline = Max(since + startup_wait_ms * 1000, GetCurrentTimestamp()); // once: a worker
	for (;;) {                                                                               // that keeps failing
		const std::uint64_t g = pg_atomic_read_u64(&shared->current);
		if (g != 0 && pg_atomic_read_u32(&shared->worker_pid) != 0)
			return g;
		if (GetCurrentTimestamp() >= deadline)
			refuse_worker(g == 0 ? "its background worker has not started since the server did"
			                     : "its background worker is not running, so a reload would not reach it");
		(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

// Takes the keyring for this transaction (a parallel worker: its leader's); false (nothing raised) when
// `quiet` and it cannot be used.
bool take(bool quiet = false)
{
	if (!preloaded || shared == nullptr) {
		if (quiet)
			return false;
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("the public forms need idtypes in shared_preload_libraries"),
		                errdetail("The keyring is read when the server starts and at each reload, and kept in shared "
		                          "memory, so that every session uses the same keys."),
		                errhint("Add idtypes to shared_preload_libraries and restart the server.")));
	}
	register_callback();
	if (!pinned) {
		if (IsParallelWorker()) {
			if (worker_generation <= 0)
				ereport(ERROR,
				        (errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				         errmsg("the public forms cannot be computed in this parallel worker"),
				         errdetail("Its leader took no keyring for the statement: the keyring was unusable or "
				                   "not yet checked when the statement began, or the leader runs another library."),
				         errhint("Mark a function that calls them PARALLEL RESTRICTED.")));
			if (!copy_generation(static_cast<std::uint64_t>(worker_generation)))
				ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				                errmsg("the keyring this statement began with is no longer kept"),
				                errdetail("The keyring was reloaded %d times while the statement ran; a parallel "
				                          "worker uses its leader's keyring or none.",
				                          kept),
				                errhint("Run the statement again.")));
		} else if (quiet) {
			const std::uint64_t g = pg_atomic_read_u64(&shared->current);
			if (g == 0 || pg_atomic_read_u32(&shared->worker_pid) == 0 || !copy_generation(g))
				return false;
		} else {
			while (!copy_generation(newest()))
				CHECK_FOR_INTERRUPTS(); // replaced meanwhile kept times over: the newer one
		}
		pinned = true;
	}
	if (local.state == State::ok)
		return true;
	if (quiet)
		return false;
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
	return false;
}

// A parallel plan starting in a leader: its workers get the generation the leader took, in the setting
// idtypes.keyring_generation (parallel workers receive their leader's settings). A worker takes it at its first
// plan (its leader's), as the leader sent it; not at a plan a function of it starts later (SPI).
void executor_start(QueryDesc *query, int eflags)
{
	if (preloaded && IsParallelWorker() && worker_generation < 0)
		worker_generation = leader_generation;
	if (preloaded && !IsParallelWorker() && !IsInParallelMode() && query->plannedstmt->parallelModeNeeded) {
		char g[32];
		snprintf(g, sizeof g, "%llu", take(true) ? static_cast<unsigned long long>(local_generation) : 0ULL);
		(void)set_config_option("idtypes.keyring_generation", g, PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0,
		                        false);
	}
	if (previous_executor_start)
		previous_executor_start(query, eflags);
	else
		standard_ExecutorStart(query, eflags);
}

// Whether the caller (this database, the current user) may use entry i: OIDs resolved at the reading.
bool may_use(int i)
{
	const Oid user = GetUserId();
	if (scope_checked_for[i] != user) {
		const SharedEntry &e = local.entries[i];
		bool ok = true;
		if (e.n_databases >= 0) {
			ok = false;
			for (int k = 0; k < e.n_databases; k++)
				ok |= e.databases[k] == MyDatabaseId;
		}
		if (ok && e.n_roles >= 0) {
			ok = superuser_arg(user); // every roles= scope, even one whose every name is missing (the docs)
			for (int k = 0; k < e.n_roles && !ok; k++)
				ok = has_privs_of_role(user, e.roles[k]);
		}
		in_scope[i] = ok;
		scope_checked_for[i] = user;
	}
	return in_scope[i];
}

aes::Key *key_of(int i)
{
	if (expanded[i] == nullptr) {
		expanded[i] = aes::expand(local.entries[i].e.key);
		if (expanded[i] == nullptr)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("OpenSSL could not expand a key of the keyring")));
	}
	return expanded[i];
}

// A standby's version its primary has not recorded (with this key) yet.
[[noreturn]] void not_recorded(const char *key_name, int version)
{
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("version %d of key \"%s\" is not usable on this standby yet: its primary has not recorded it",
	                version, key_name),
	         errdetail("A standby uses a version only once its primary's record of it, with the same key, has "
	                   "replayed, so that the two can never decode a form differently."),
	         errhint("Load the version on the primary first (the same line), then wait for the standby to "
	                 "replay it; the standby re-checks every few seconds.")));
	pg_unreachable();
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
	DefineCustomIntVariable("idtypes.keyring_generation", "The keyring generation a parallel leader took (internal).",
	                        "Set by the leader when a parallel plan starts; read by its parallel workers only.",
	                        &leader_generation, 0, 0, INT_MAX, PGC_SUSET,
	                        GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE | GUC_NO_RESET_ALL, nullptr,
	                        nullptr, nullptr);
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomStringVariable("idtypes.keyring_database",
	                           "Database the keyring's worker connects to (it reads and writes shared catalogs only).",
	                           "Like pg_cron's cron.database_name: the worker stays connected to it.",
	                           &keyring_database, "postgres", PGC_POSTMASTER, 0, nullptr, nullptr, nullptr);
	preloaded = true;
	map_shared();
	previous_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup;
	previous_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = executor_start;
	// Not under pg_upgrade: connected to idtypes.keyring_database, the worker would keep pg_restore from
	// dropping and re-creating that database (postgres), and the upgrade would fail.
	if (!IsBinaryUpgrade)
		register_worker();
}

Versions versions(const char *key_name)
{
	take();
	Versions out{};
	int first = -1;
	for (int i = 0; i < local.count; i++) {
		const kt::Entry &e = local.entries[i].e;
		if (std::strcmp(e.name, key_name) != 0)
			continue;
		out.retired += local.entries[i].unlisted; // a uuid form of it would decode under another version
		if (e.stage == Stage::retired) {
			out.retired++;
			continue;
		}
		if (first < 0 && !may_use(i)) // every version of a key has the same scope
			no_such_key(key_name);
		first = i;
		if (local.entries[i].pending) {
			out.pending++;
			continue;
		}
		// insert by version, newest first (a key has at most 16 versions: their symbols differ)
		int at = out.count++;
		for (; at > 0 && out.v[at - 1].version < e.version; at--)
			out.v[at] = out.v[at - 1];
		out.v[at] = Version{e.version, e.stage, false, key_of(i)};
	}
	if (out.count == 0 && out.pending == 0)
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
	std::int32_t current = -1;
	for (int i = 0; i < all.count; i++)
		if (all.v[i].current)
			current = all.v[i].version;
	for (int i = 0; i < local.count; i++) { // a newer active version pending: not an older one instead
		const SharedEntry &e = local.entries[i];
		if (e.pending && e.e.stage == Stage::active && std::strcmp(e.e.name, key_name) == 0 && e.e.version > current)
			not_recorded(key_name, e.e.version);
	}
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
	for (int i = 0; i < local.count; i++) {
		const SharedEntry &e = local.entries[i];
		if (e.pending && std::strcmp(e.e.name, key_name) == 0 &&
		    static_cast<unsigned>(e.e.version) % public_id::version_symbols == residue)
			not_recorded(key_name, e.e.version);
		if (e.e.stage == Stage::retired && std::strcmp(e.e.name, key_name) == 0 &&
		    static_cast<unsigned>(e.e.version) % public_id::version_symbols == residue)
			ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
			                errmsg("this public form was made under version %d of key \"%s\", which is retired",
			                       e.e.version, key_name),
			                e.remembered ? errdetail("The keyring file no longer has the version; the server "
			                                         "remembers every version it has loaded.")
			                             : 0));
	}
	bool unlisted = false;
	for (int i = 0; i < local.count; i++)
		unlisted |= local.entries[i].unlisted && std::strcmp(local.entries[i].e.name, key_name) == 0;
	ereport(ERROR,
	        (errcode(ERRCODE_UNDEFINED_OBJECT),
	         errmsg("no version of key \"%s\" in the keyring made this public form", key_name),
	         unlisted ? errdetail("Its first symbol names a version (modulo 16) that the keyring does not hold: "
	                              "either no version of this key this server has loaded, or a version it remembers "
	                              "that did not fit (at most %d versions, remembered ones included).",
	                              kt::max_entries)
	                  : errdetail("Its first symbol names a version (modulo 16) that the keyring does not hold: it "
	                              "was made under no version of this key that this server has loaded.")));
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
		const SharedEntry &s = local.entries[i];
		if (s.e.stage == Stage::retired || s.pending || !may_use(i))
			continue;
		Listed l{s.e.name, s.e.version, s.e.stage, false, {}};
		for (std::size_t j = 0; j < aes::fingerprint_bytes; j++)
			snprintf(l.fingerprint + 2 * j, 3, "%02x", s.fingerprint[j]);
		l.current = s.e.stage == Stage::active;
		for (int j = 0; j < local.count; j++)
			if (std::strcmp(local.entries[j].e.name, s.e.name) == 0 && local.entries[j].e.stage == Stage::active &&
			    local.entries[j].e.version > s.e.version)
				l.current = false;
		emit(l, arg);
	}
}

bool status(Status &out)
{
	std::memset(&out, 0, sizeof out);
	if (!preloaded || shared == nullptr)
		return false;
	out.worker_pid = static_cast<std::int32_t>(pg_atomic_read_u32(&shared->worker_pid));
	out.worker_started = shared->worker_started;
	out.loaded_at = shared->loaded_at;
	out.refused_at = shared->refused_at;
	out.generation = pg_atomic_read_u64(&shared->current);
	out.pending = pg_atomic_read_u32(&shared->pending) != 0;
	if (out.generation != 0) {
		const Slot &s = shared->slots[out.generation % kept];
		out.versions = s.contents.count;
		out.usable = s.contents.state == State::ok;
	}
	snprintf(out.file, sizeof out.file, "%s", shared->file);
	snprintf(out.refusal, sizeof out.refusal, "%s", shared->refusal);
	return true;
}

} // namespace idtypes::pg::keyring

extern "C" {

// The keyring's worker: checks the postmaster's reading, then reads the file at each reload (SIGHUP).
PGDLLEXPORT void idtypes_keyring_main(Datum);

void idtypes_keyring_main(Datum)
{
	using namespace idtypes::pg::keyring;
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	// a database: the relation cache of pg_replication_origin (a shared catalog) is built from pg_class
	BackgroundWorkerInitializeConnection(keyring_database, nullptr, BGWORKER_BYPASS_ALLOWCONN);
	// its commits flushed locally, whatever the configuration says; a session's source, under which
	// confirmed_by_standbys still sets it on for its wait for the synchronous standbys
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_SESSION);
	// A session holding a lock on pg_replication_origin must not leave a reload unread while the forms go on
	// with the keyring before it: the worker ends (logged, restarted a second later), so the forms are refused
	// naming it until the lock is released.
	SetConfigOption("lock_timeout", "5s", PGC_SUSET, PGC_S_OVERRIDE);
	on_shmem_exit(
	    [](int, Datum) {
		    shared->worker_stopped = GetCurrentTimestamp();
		    pg_atomic_write_u32(&shared->worker_pid, 0);
	    },
	    0);
	if (pg_atomic_read_u32(&shared->pending) != 0 && shared->postmaster_reload == PgReloadTime) {
		(void)read_slot(shared->postmaster_reading, 0, staging);
		check_and_publish(false);
	} else { // a reload that came while no worker ran: the file as it is now
		read_keyring(staging);
		check_and_publish(true);
	}
	pg_atomic_write_u32(&shared->pending, 0);
	shared->worker_started = GetCurrentTimestamp();
	pg_atomic_write_u32(&shared->worker_pid, static_cast<uint32>(MyProcPid));
	bool in_recovery = RecoveryInProgress();
	for (int tick = 1;; tick++) {
		(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | (in_recovery ? WL_TIMEOUT : 0), 1000,
		                PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		bool promoted = in_recovery && !RecoveryInProgress();
		in_recovery = !promoted && in_recovery;
		if (ConfigReloadPending || promoted) { // promoted: the versions in use recorded, as a primary does
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			read_keyring(staging);
			check_and_publish(true);
		} else if (in_recovery && tick % recheck_seconds == 0)
			recheck();
	}
}

} // extern "C"
