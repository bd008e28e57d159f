// The mark: IDs carry times up to the published mark (ServerState::durable_until_us), which is the
// progress of the replication origin idtypes_high_water (origin.cpp says why an origin). Written ahead:
// when an ID passes the mark minus half the reserve, one session (the first to get mark_lock without
// waiting) writes the next one, max(clock, ID) + reserve, while the others go on below the old mark; only an
// ID beyond the mark waits for it (asleep on its latch, at most 10 s, a cancel ends the wait). A write: the
// origin advanced (a WAL record; the origin locked against a drop only around it), the record flushed, and
// where synchronous replication is configured, confirmed by the synchronous standbys as a commit's would
// be; only then is the mark published. When the mark cannot be moved, generation fails rather than issue an
// ID a restart or a failover could forget. Failures are returned (Outcome) up to where they may be raised.
// The file in the data directory holds only the uid11_generate_random key (fullrand_key.cpp); the mark
// an older idtypes wrote there is read once, at the state's start, as a floor.
// mark_lock is not an LWLock: its holder waits (a heavyweight lock on the origin, the WAL flush, the
// synchronous standbys, the key file's fsync), and an LWLock holds off interrupts, so none of those waits
// would end at statement_timeout, lock_timeout or a cancel. It is a PID in shared memory, taken by
// compare-and-swap, waited for on a condition variable, and released by the (sub)transaction's abort or the
// process's exit that an error causes (cleanup callbacks), as an LWLock would be.
#include "pg/mark/writer.hpp"

#include "core/mark_floors.hpp"
#include "pg/common/abort_cleanup.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/mark/older_stores.hpp"
#include "pg/mark/rebuild.hpp"

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "replication/syncrep.h"
#include "storage/condition_variable.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/timeout.h"
}

namespace idtypes::pg {

namespace {

// How long a session waits for another one's write of the mark before it gives up.
constexpr std::int64_t mark_wait_limit_us = 10000000;

// That wait's bound in this session: the session's lock_timeout where it is shorter, as for any lock
// (mark_lock is one, kept in shared memory, where PostgreSQL's lock manager does not apply it).
std::int64_t mark_wait_us()
{
	const std::int64_t lock_us = static_cast<std::int64_t>(LockTimeout) * 1000;
	return LockTimeout > 0 && lock_us < mark_wait_limit_us ? lock_us : mark_wait_limit_us;
}

// The longest sleep of that wait between two looks at the lock. Its release wakes the waiters at once; this
// bounds the wait after a writer that ended by an error, which releases the lock without waking them.
constexpr long mark_wait_look_ms = 100;

// The hint of an unusable file: what repairs it (the state reads a file it understood once, so a restart is
// needed).
constexpr const char *repair_hint = "Restore the file from a backup, or remove it (the fullrand key of "
                                    "uid11_generate_random is then drawn again); then restart the server.";

[[noreturn]] void report_unusable_key_file(const KeyFileRead &file)
{
	const char *path = psprintf("%s/%s", DataDir, key_file_name);
	switch (file.state) {
	case KeyFileState::unreadable:
		ereport(
		    ERROR,
		    (errcode(ERRCODE_IO_ERROR),
		     errmsg("idtypes could not read its high-water mark \"%s\": %s", path, strerror(file.error_number)),
		     errdetail("uid11_generate_random stops while it cannot be read: another key could map a new value "
		               "onto one issued before."),
		     errhint("Make the file readable by the server's user (generation resumes at once), or: %s", repair_hint)));
		break;
	case KeyFileState::newer_layout:
		ereport(
		    ERROR,
		    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		     errmsg("idtypes' high-water mark \"%s\" has layout %d, which this version of idtypes cannot read", path,
		            file.layout),
		     errdetail("A later version of idtypes wrote it; this one reads layouts 1 to %d.", key_file_text::layout),
		     errhint("Install the version of idtypes that wrote it, or: %s", repair_hint)));
		break;
	default:
		ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("idtypes' high-water mark \"%s\" is garbled", path),
		                errdetail("uid11_generate_random stops: another key could map a new value onto one issued "
		                          "before."),
		                errhint("%s", repair_hint)));
	}
	pg_unreachable();
}

// Under mark_lock: `mark` written into the origin (locked against a drop only around the record), flushed,
// confirmed by the synchronous standbys, then published. The origin's lock, a cancel or timeout in its wait,
// and the origin's write may raise (no free replication state, the origin in use by a session): mark_lock
// is released by the error's abort, the mark not published.
Outcome write_mark(ServerState &s, std::int64_t mark, OriginId origin)
{
	Outcome outcome;
	set_step(s, MarkStep::origin_lock);
	lock_origin(origin);
	if (find_origin(mark_origin_name) != origin) { // dropped (perhaps made again) since it was looked up
		release_origin(origin);
		outcome.what = Durable::origin_dropped;
		return outcome;
	}
	const XLogRecPtr end = advance_origin(origin, static_cast<std::uint64_t>(mark));
	release_origin(origin);
	set_step(s, MarkStep::wal_flush);
	XLogFlush(end);
	set_step(s, MarkStep::standbys);
	if (!confirmed_by_standbys(end)) {
		outcome.what = Durable::not_replicated;
		return outcome;
	}
	pg_atomic_write_u64(&s.durable_until_us, static_cast<std::uint64_t>(mark));
	return outcome;
}

// The next mark: the reserve past the clock or past the ID that needs it, whichever is later.
std::int64_t next_mark(std::int64_t until_us)
{
	const std::int64_t now = clock_now_us();
	return (until_us > now ? until_us : now) + reserve_ahead_us;
}

// The origin to write the mark into (made first when missing: rebuild.cpp). May raise or wait, so
// never under mark_lock.
OriginId mark_origin()
{
	require_origins();
	return ensure_mark_origin();
}

#if PG_VERSION_NUM >= 170000
// transaction_timeout ends the wait for the synchronous standbys (SyncRepWaitForLSN reads only a cancel and
// a termination request): at its deadline this timeout asks for a cancel too, and transaction_timeout's own
// handler has set what then ends the transaction (CHECK_FOR_INTERRUPTS: FATAL, as it says).
TimeoutId standby_wait_timeout = MAX_TIMEOUTS;
void cancel_standby_wait()
{
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
}
#endif

} // namespace

// Whether the synchronous standbys confirmed the WAL up to `end`, waited for as a commit waits for them
// (SyncRepWaitForLSN; nothing to wait for without synchronous_standby_names). The mark is the server's, so
// the server's configuration decides, not this session's synchronous_commit: SyncRepWaitForLSN reads it
// (local and off skip the wait), so it is set to on for the wait only, as a function's SET clause would be
// (a GUC nest level, undone by the abort of an error). `commit` false: a record that is not a commit is
// confirmed at the standbys' flush, whatever the level (remote_apply waits no further: only commit records
// report their apply; remote_write is raised to the flush). A cancel or a termination request ends the wait
// with PostgreSQL's WARNING, and it returns as if confirmed (a commit is then durable locally only); so it is
// asked again with a cancel pending, which it takes only if it still has to wait (its fast path returns at
// once, the cancel untouched, when the standbys have confirmed). On 17 and later it ends at the session's
// transaction_timeout too (standby_wait_timeout), for the mark's writer and a key record alike, and does not
// begin once that timeout has fired.
bool confirmed_by_standbys(XLogRecPtr end)
{
#if PG_VERSION_NUM >= 170000
	const bool bounded = get_timeout_active(TRANSACTION_TIMEOUT);
	if (bounded) {
		if (standby_wait_timeout == MAX_TIMEOUTS)
			standby_wait_timeout = RegisterTimeout(USER_TIMEOUT, cancel_standby_wait);
		enable_timeout_at(standby_wait_timeout, get_timeout_finish_time(TRANSACTION_TIMEOUT));
	} else if (transaction_timeout_pending()) {
		// it fired before this wait began (in a wait that does not end the transaction, a WAL flush): its
		// timer is gone, so nothing would end this wait; the caller's CHECK_FOR_INTERRUPTS ends the transaction
		return false;
	}
#endif
	const int nest_level = NewGUCNestLevel();
	(void)set_config_option("synchronous_commit", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	HOLD_INTERRUPTS(); // as at a commit: the wait reads the cancel itself, and leaves its queue before returning
	SyncRepWaitForLSN(end, false);
	bool confirmed = !ProcDiePending;
	if (confirmed) {
		const bool cancel_pending = QueryCancelPending;
		QueryCancelPending = true;
		SyncRepWaitForLSN(end, false);
		confirmed = QueryCancelPending;
		QueryCancelPending = cancel_pending;
	}
	RESUME_INTERRUPTS();
	AtEOXact_GUC(true, nest_level);
#if PG_VERSION_NUM >= 170000
	if (bounded)
		disable_timeout(standby_wait_timeout, false);
#endif
	return confirmed;
}

// Every generator past the IDs a mark covers, whatever it issued already.
void raise_generators(ServerState &s, std::int64_t mark)
{
	const mark_floors::Floors floors = mark_floors::floors_past(mark);
	advance_to(&s.timeid_last_micros, floors.timeid_last_micros);
	advance_to(&s.uid11_last, floors.uid11_last);
	advance_to(&s.fullrand_last_ticket, floors.fullrand_last_ticket);
	SpinLockAcquire(&s.tbsl_lock);
	mark_floors::raise(s.tbsl, floors);
	SpinLockRelease(&s.tbsl_lock);
	SpinLockAcquire(&s.scru160_lock);
	mark_floors::raise(s.scru160, floors);
	SpinLockRelease(&s.scru160_lock);
	SpinLockAcquire(&s.uuid7_lock);
	mark_floors::raise(s.uuid7_last, floors);
	SpinLockRelease(&s.uuid7_lock);
}

// Takes the fullrand key the file holds, at the state's start and when a file that could not be read then is
// read later; the generators start past the mark an older idtypes wrote there (older_stores.cpp). An
// unusable file stops only uid11_generate_random (key_file_usable).
void start_from_key_file(ServerState *s, const KeyFileRead &file)
{
	s->key_file_state = file.state;
	s->key_file_error_number = file.error_number;
	s->key_file_layout = file.layout;
	const bool has_key = file.state == KeyFileState::ok && file.contents.has_key;
	s->fullrand_key = has_key ? file.contents : key_file_text::Contents{};
	pg_write_barrier(); // the key before its state
	pg_atomic_write_u32(&s->fullrand_key_state, has_key ? key_unchecked : key_missing);
	if (file.state == KeyFileState::ok)
		raise_generators(*s, old_file_mark(file));
}

namespace {

// This process's hold on mark_lock, released by an abort or an exit that ends a holder by an error.
ServerState *held = nullptr;

void release_held()
{
	if (held != nullptr)
		release_mark_lock(*held);
}

// Takes mark_lock if no process holds it. The first time in this process, registers the cleanup first (which
// may raise: out of memory).
bool try_mark_lock(ServerState &s)
{
	if (!claim_for_this_process(s.mark_writer_pid, release_held))
		return false;
	held = &s;
	set_step(s, MarkStep::none);
	return true;
}

} // namespace

void set_step(ServerState &s, MarkStep step)
{
	pg_atomic_write_u32(&s.mark_writer_step, static_cast<std::uint32_t>(step));
}

// Takes mark_lock, waiting for another session's write (at most mark_wait_us(): lock_timeout or 10 s) asleep
// on the process's latch, seen in pg_stat_activity as the extension's wait event. The session is on the
// state's condition variable's list before each look at the lock, so that the writer's release
// (ConditionVariableBroadcast) sets its latch; so do a cancel, statement_timeout, 17's transaction_timeout and
// a termination request, which end the wait at once: the caller then raises (report_not_durable). Never raises
// itself (ConditionVariableSleep would, on a cancel: its own CHECK_FOR_INTERRUPTS) but for the cleanup's first
// registration in this process, before any wait.
Durable take_mark_lock(ServerState &s)
{
	Durable outcome = Durable::ok;
	if (!try_mark_lock(s)) {
		const TimestampTz start = GetCurrentTimestamp();
		const std::int64_t limit_us = mark_wait_us();
		for (;;) {
			ConditionVariablePrepareToSleep(&s.mark_released);
			if (try_mark_lock(s))
				break;
			if (QueryCancelPending || ProcDiePending || transaction_timeout_pending()) {
				outcome = Durable::interrupted;
				break;
			}
			const std::int64_t left_us = limit_us - (GetCurrentTimestamp() - start);
			if (left_us <= 0) {
				outcome = Durable::busy;
				break;
			}
			const long sleep_ms = left_us / 1000 + 1;
			(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
			                sleep_ms < mark_wait_look_ms ? sleep_ms : mark_wait_look_ms, mark_write_wait_event());
			ResetLatch(MyLatch);
		}
		ConditionVariableCancelSleep();
	}
	return outcome;
}

void release_mark_lock(ServerState &s)
{
	held = nullptr;
	(void)pg_atomic_exchange_u32(&s.mark_writer_pid, 0); // a full barrier: what was written under it first
	ConditionVariableBroadcast(&s.mark_released);
}

// Under mark_lock: whether the key's file can be used. One that could not be read (its permissions, no file
// descriptor left in the server or the system, an I/O error) is read again, so that a passing failure stops
// uid11_generate_random only while it lasts; once read, it is taken as at the state's start.
bool key_file_usable(ServerState &s, Outcome &outcome)
{
	if (s.key_file_state == KeyFileState::unreadable) {
		const KeyFileRead file = read_key_file();
		if (file.state == KeyFileState::unreadable) {
			s.key_file_error_number = file.error_number;
		} else {
			start_from_key_file(&s, file);
			elog(LOG, "idtypes read its high-water mark \"%s\" again", key_file_name);
		}
	}
	if (s.key_file_state == KeyFileState::ok || s.key_file_state == KeyFileState::missing)
		return true;
	outcome.what = Durable::unusable_key_file;
	outcome.file = KeyFileRead{s.key_file_state, s.key_file_error_number, s.key_file_layout, {}};
	return false;
}

Outcome make_durable(ServerState &s, std::int64_t until_us, OriginId origin)
{
	Outcome outcome;
	if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
		return outcome;
	if (origin == no_origin) {
		outcome.what = Durable::needs_wal;
		return outcome;
	}
	outcome.what = take_mark_lock(s);
	if (outcome.what == Durable::ok) {
		if (until_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
			outcome = write_mark(s, next_mark(until_us), origin);
		release_mark_lock(s);
	}
	return outcome;
}

// The error of a session that gave up waiting for mark_lock: what its holder waits for, and what to do.
[[noreturn]] void report_busy(ServerState &s)
{
	const std::uint32_t pid = pg_atomic_read_u32(&s.mark_writer_pid);
	// what ended the wait: the session's lock_timeout (55P03, as a lock's wait ends), or the 10 s bound
	const std::int64_t waited_us = mark_wait_us();
	const bool lock_timeout = waited_us < mark_wait_limit_us;
	char limit[32];
	if (waited_us % 1000000 == 0)
		snprintf(limit, sizeof limit, "%d s", static_cast<int>(waited_us / 1000000));
	else
		snprintf(limit, sizeof limit, "%d ms", static_cast<int>(waited_us / 1000));
	switch (static_cast<MarkStep>(pg_atomic_read_u32(&s.mark_writer_step))) {
	case MarkStep::origin_lock:
		ereport(
		    ERROR,
		    (errcode(ERRCODE_LOCK_NOT_AVAILABLE), errmsg("idtypes gave up waiting for its mark to be written"),
		     errdetail("Another session (PID %u) has been waiting for more than %s for a lock on the replication "
		               "origin \"%s\" or on the catalog pg_replication_origin, held by a transaction that drops an "
		               "origin or locks that catalog.",
		               pid, limit, mark_origin_name),
		     errhint("Find that transaction in pg_locks (relation pg_replication_origin, or the origin's object) and "
		             "end it; then generate again.")));
		break;
	case MarkStep::standbys:
		ereport(ERROR,
		        (errcode(lock_timeout ? ERRCODE_LOCK_NOT_AVAILABLE : ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("idtypes gave up waiting for its mark to be written"),
		         errdetail("Another session (PID %u) has been waiting for more than %s for the synchronous standbys "
		                   "(synchronous_standby_names = '%s') to confirm it.",
		                   pid, limit, SyncRepStandbyNames != nullptr ? SyncRepStandbyNames : ""),
		         errhint("Check that the synchronous standbys are running and connected (pg_stat_replication), as the "
		                 "commits of this server need them too.")));
		break;
	case MarkStep::key_file:
		ereport(ERROR, (errcode(lock_timeout ? ERRCODE_LOCK_NOT_AVAILABLE : ERRCODE_IO_ERROR),
		                errmsg("idtypes gave up waiting for its mark to be written"),
		                errdetail("Another session (PID %u) has been writing uid11_generate_random's key \"%s\" for "
		                          "more than %s.",
		                          pid, key_file_name, limit),
		                errhint("Check the file system of the data directory (a stalled disk or network mount).")));
		break;
	case MarkStep::wal_flush:
	case MarkStep::none:
		ereport(ERROR,
		        (errcode(lock_timeout ? ERRCODE_LOCK_NOT_AVAILABLE : ERRCODE_IO_ERROR),
		         errmsg("idtypes gave up waiting for its mark to be written"),
		         errdetail("Another session (PID %u) has been flushing its WAL record for more than %s.", pid, limit),
		         errhint("Check the file system of pg_wal (a stalled disk or network mount).")));
		break;
	}
	pg_unreachable();
}

// The rebuild's result goes through here, as every write of the mark: under mark_lock, never below the
// published mark (an origin dropped while this server runs loses nothing), its record flushed and confirmed
// before it is published.
Outcome write_rebuilt_mark(ServerState &s, std::int64_t mark, OriginId origin)
{
	Outcome outcome;
	outcome.what = take_mark_lock(s);
	if (outcome.what == Durable::ok) {
		const auto published = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
		outcome = write_mark(s, next_mark(mark > published ? mark : published), origin);
		release_mark_lock(s);
	}
	return outcome;
}

// The error of a mark that could not be moved (or a key that could not be settled).
[[noreturn]] void report_not_durable(ServerState &s, const Outcome &outcome)
{
	switch (outcome.what) {
	case Durable::interrupted:
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
		                errmsg("canceled while waiting for another session to write the mark")));
		break;
	case Durable::not_replicated:
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
		                errmsg("canceled while waiting for the synchronous standbys to confirm the mark"),
		                errdetail("No ID is issued past a mark that a promoted synchronous standby could lack.")));
		break;
	case Durable::busy: report_busy(s); break;
	case Durable::unusable_key_file: report_unusable_key_file(outcome.file);
	case Durable::write_failed:
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR),
		         errmsg("idtypes could not write the key of uid11_generate_random into \"%s\" in the data directory",
		                key_file_name),
		         errdetail("%s: %s. No value is made with a key that a restart could forget.",
		                   describe(outcome.write.step), strerror(outcome.write.error_number)),
		         errhint("Free space on the data directory's file system, or make it writable: uid11_generate_random "
		                 "resumes once the key can be written.")));
		break;
	case Durable::needs_wal:      // the tbsl stepper's: next_tbsl writes the mark itself, never reports it
	case Durable::origin_dropped: // looked up again, never reported
	case Durable::ok: elog(ERROR, "idtypes: no failure of the high-water mark to report"); break;
	}
	pg_unreachable();
}

void durable_or_error(ServerState &s, std::int64_t until_us)
{
	for (;;) {
		if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
			return;
		const Outcome outcome = make_durable(s, until_us, mark_origin());
		if (outcome.what == Durable::ok)
			return;
		if (outcome.what != Durable::origin_dropped)
			report_not_durable(s, outcome);
	}
}

void write_ahead(ServerState &s, std::int64_t id_time_us)
{
	const auto mark = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
	if (id_time_us <= mark - reserve_ahead_us / 2 || pg_atomic_read_u32(&s.mark_writer_pid) != 0 ||
	    RecoveryInProgress())
		return; // not half used, or another session is writing the next mark
	const OriginId origin = mark_origin();
	if (!try_mark_lock(s))
		return;
	Outcome outcome;
	if (id_time_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)) - reserve_ahead_us / 2)
		outcome = write_mark(s, next_mark(id_time_us), origin);
	release_mark_lock(s);
	if (outcome.what == Durable::not_replicated) // the statement was cancelled: it ends so
		report_not_durable(s, outcome);
	// origin_dropped: the next ID tries again
}

} // namespace idtypes::pg
