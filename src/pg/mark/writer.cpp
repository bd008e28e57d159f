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
#include "pg/mark/writer.hpp"

#include "core/mark_floors.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/mark/older_stores.hpp"
#include "pg/mark/rebuild.hpp"

extern "C" {
#include "access/xlog.h"
#include "replication/syncrep.h"
#include "storage/condition_variable.h"
#include "storage/latch.h"
}

namespace idtypes::pg {

namespace {

// How long a session waits for another one's write of the mark before it gives up.
constexpr std::int64_t mark_wait_limit_us = 10000000;
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

// Whether the synchronous standbys confirmed the WAL up to `end`, waited for as a commit waits for them
// (SyncRepWaitForLSN; nothing to wait for without synchronous_standby_names, or when the session's
// synchronous_commit is local or off). `commit` false: a record that is not a commit is confirmed at the
// standbys' flush (remote_apply waits no further: only commit records report their apply). A cancel or a
// termination request ends the wait with PostgreSQL's WARNING, and it returns as if confirmed (a commit is
// then durable locally only); so it is asked again with a cancel pending, which it takes only if it still
// has to wait (its fast path returns at once, the cancel untouched, when the standbys have confirmed).
bool confirmed_by_standbys(XLogRecPtr end)
{
	SyncRepWaitForLSN(end, false);
	if (ProcDiePending)
		return false;
	const bool cancel_pending = QueryCancelPending;
	QueryCancelPending = true;
	SyncRepWaitForLSN(end, false);
	const bool confirmed = QueryCancelPending;
	QueryCancelPending = cancel_pending;
	return confirmed;
}

// Under mark_lock: `mark` written into the origin (locked against a drop only around the record), flushed,
// confirmed by the synchronous standbys, then published. The origin's write may raise (no free replication
// state, the origin in use by a session): the lock is released by the error, the mark not published.
Outcome write_mark(ServerState &s, std::int64_t mark, OriginId origin)
{
	Outcome outcome;
	lock_origin(origin);
	if (find_origin(mark_origin_name) != origin) { // dropped (perhaps made again) since it was looked up
		release_origin(origin);
		outcome.what = Durable::origin_dropped;
		return outcome;
	}
	const XLogRecPtr end = advance_origin(origin, static_cast<std::uint64_t>(mark));
	release_origin(origin);
	XLogFlush(end);
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

} // namespace

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

// Takes mark_lock, waiting for another session's write (at most mark_wait_limit_us) asleep on the process's
// latch, seen in pg_stat_activity as the extension's wait event (an LWLock wait itself could not be
// interrupted). The session is on the state's condition variable's list before each look at the lock, so that
// the writer's release (ConditionVariableBroadcast) sets its latch; so do a cancel, statement_timeout and a
// termination request, which end the wait at once: the caller then raises (report_not_durable). Never raises
// itself (ConditionVariableSleep would, on a cancel: its own CHECK_FOR_INTERRUPTS). An ERROR or FATAL while
// the lock is held releases it.
Durable take_mark_lock(ServerState &s)
{
	Durable outcome = Durable::ok;
	if (!LWLockConditionalAcquire(&s.mark_lock, LW_EXCLUSIVE)) {
		const TimestampTz start = GetCurrentTimestamp();
		for (;;) {
			ConditionVariablePrepareToSleep(&s.mark_released);
			if (LWLockConditionalAcquire(&s.mark_lock, LW_EXCLUSIVE))
				break;
			if (QueryCancelPending || ProcDiePending) {
				outcome = Durable::interrupted;
				break;
			}
			const std::int64_t left_us = mark_wait_limit_us - (GetCurrentTimestamp() - start);
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
	if (outcome == Durable::ok)
		pg_atomic_write_u32(&s.mark_writer_pid, static_cast<std::uint32_t>(MyProcPid));
	return outcome;
}

void release_mark_lock(ServerState &s)
{
	pg_atomic_write_u32(&s.mark_writer_pid, 0);
	LWLockRelease(&s.mark_lock);
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
	case Durable::busy:
		if (SyncRepStandbyNames != nullptr && SyncRepStandbyNames[0] != '\0')
			ereport(ERROR,
			        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			         errmsg("idtypes gave up waiting for its mark to be written"),
			         errdetail("Another session (PID %u) has been writing it for more than %d s: the synchronous "
			                   "standbys (synchronous_standby_names = '%s') have not confirmed it, or the WAL "
			                   "flush has not completed.",
			                   pg_atomic_read_u32(&s.mark_writer_pid), static_cast<int>(mark_wait_limit_us / 1000000),
			                   SyncRepStandbyNames),
			         errhint("Check that the synchronous standbys are running and connected "
			                 "(pg_stat_replication), as the commits of this server need them too.")));
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR), errmsg("idtypes gave up waiting for its mark to be written"),
		         errdetail("Another session (PID %u) has been writing it for more than %d s: the WAL flush (or the "
		                   "write of uid11_generate_random's key \"%s\") does not complete.",
		                   pg_atomic_read_u32(&s.mark_writer_pid), static_cast<int>(mark_wait_limit_us / 1000000),
		                   key_file_name),
		         errhint("Check the file system of pg_wal and of the data directory (a stalled disk or network "
		                 "mount).")));
		break;
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
	if (!LWLockConditionalAcquire(&s.mark_lock, LW_EXCLUSIVE))
		return;
	pg_atomic_write_u32(&s.mark_writer_pid, static_cast<std::uint32_t>(MyProcPid));
	Outcome outcome;
	if (id_time_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)) - reserve_ahead_us / 2)
		outcome = write_mark(s, next_mark(id_time_us), origin);
	release_mark_lock(s);
	if (outcome.what == Durable::not_replicated) // the statement was cancelled: it ends so
		report_not_durable(s, outcome);
	// origin_dropped: the next ID tries again
}

} // namespace idtypes::pg
