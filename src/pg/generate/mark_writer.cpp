// The durability of the high-water mark. One session at a time (mark_lock) writes it; the others that need
// it sleep on the state's condition variable. Each write goes first to the mark file in the data directory
// (a restart, a crash restart), then to the replicated mark, the origin idtypes_high_water (a standby, a
// failover, a point-in-time restore: origins.cpp), and only then is it published to the generators. Failures
// are returned (Outcome) up to where they may be raised: the tbsl stepper, which must not raise, only
// reports them.
// Across restarts and crash restarts, which start the state afresh, a high-water mark on disk keeps
// generators above every ID issued before (src/pg/generate/mark_file.cpp): no ID carries a time past the mark until
// the mark is written (durably, reserved 200 ms ahead, so the cost is a rare write, never one per ID), and a
// new state starts past the mark (timeid, uid11 and tbsl at its last value + 1, scru160 by its counter
// rule). When the mark cannot be moved, generation fails (58030) rather than issue an ID a restart could
// forget; when the file cannot be understood, generation stops until it is repaired, and while it cannot be
// read (permissions, no file descriptor left), until it can be: it is read again at each attempt.
#include "pg/generate/mark_writer.hpp"

#include "core/mark_floors.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/replicate/upgrade_rebuild.hpp"

extern "C" {
#include "access/xlog.h"
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
constexpr const char *repair_hint =
    "Restore the file from a backup, or remove it if the server's clock is not behind the last IDs issued (the "
    "fullrand key of uid11_generate_random is then drawn again); then restart the server.";

[[noreturn]] void report_unusable_file(const FileRead &file)
{
	const char *path = psprintf("%s/%s", DataDir, high_water_file);
	switch (file.state) {
	case FileState::unreadable:
		ereport(
		    ERROR,
		    (errcode(ERRCODE_IO_ERROR),
		     errmsg("idtypes could not read its high-water mark \"%s\": %s", path, strerror(file.error_number)),
		     errdetail("Generation stops while it cannot be read: without the mark, IDs issued before could be "
		               "issued again."),
		     errhint("Make the file readable by the server's user (generation resumes at once), or: %s", repair_hint)));
		break;
	case FileState::newer_layout:
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("idtypes' high-water mark \"%s\" has layout %d, which this version of idtypes cannot read",
		                path, file.layout),
		         errdetail("A later version of idtypes wrote it; this one reads layouts 1 to %d.", high_water::layout),
		         errhint("Install the version of idtypes that wrote it, or: %s", repair_hint)));
		break;
	default:
		ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("idtypes' high-water mark \"%s\" is garbled", path),
		                errdetail("Generation stops: without the mark, IDs issued before could be issued again."),
		                errhint("%s", repair_hint)));
	}
	pg_unreachable();
}

} // namespace

MarkRecord prepare_mark_record()
{
	MarkRecord record;
	if (RecoveryInProgress())
		return record;
	require_origins();
	for (;;) {
		const OriginId id = ensure_mark_origin(); // waits for workers: no lock may be held here
		lock_origins();
		if (find_origin(mark_origin_name) == id) { // not dropped (and recreated) in between
			record.origin = id;
			return record;
		}
		release_origins();
	}
}

void finish_mark_record(MarkRecord &record)
{
	if (record.origin != no_origin)
		release_origins();
	record = MarkRecord{};
}

// Every generator past the IDs a mark covers, whatever it issued already (the replicated mark: origins.cpp).
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

// Sets the generators past the file's mark (every ID issued before carries a time at or below it) and takes
// the fullrand key it holds: at the state's start, and when a file that could not be read at the start is read
// later (no ID was issued meanwhile: nothing passes a mark of 0 while the file is unusable; a replicated mark
// taken meanwhile stays, as the generators are only raised). With an unusable file the mark stays 0, so every
// generator asks for a write, which refuses.
void start_past_mark(ServerState *s, const FileRead &file)
{
	const std::int64_t mark = file.state == FileState::ok ? file.contents.mark : 0;
	s->file_state = file.state;
	s->file_error_number = file.error_number;
	s->file_layout = file.layout;
	const bool has_key = file.state == FileState::ok && file.contents.has_key;
	s->fullrand_key = has_key ? file.contents : high_water::Contents{};
	pg_write_barrier(); // the key before its state
	pg_atomic_write_u32(&s->fullrand_key_state, has_key ? key_unchecked : key_missing);
	raise_generators(*s, mark);
	pg_write_barrier(); // the generators past the mark before the mark allows them to issue
	pg_atomic_write_u64(&s->durable_until_us, static_cast<std::uint64_t>(mark));
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

// Under mark_lock: whether the mark file can be used. One that could not be read (its permissions, no file
// descriptor left in the server or the system, an I/O error) is read again, so that a passing failure stops
// generation only while it lasts; once read, the generators start past its mark as at the state's start.
bool file_usable(ServerState &s, Outcome &outcome)
{
	if (s.file_state == FileState::unreadable) {
		const FileRead file = read_high_water_file();
		if (file.state == FileState::unreadable) {
			s.file_error_number = file.error_number;
		} else {
			start_past_mark(&s, file);
			elog(LOG, "idtypes read its high-water mark \"%s\" again", high_water_file);
		}
	}
	if (s.file_state == FileState::ok || s.file_state == FileState::missing)
		return true;
	outcome.what = Durable::unusable_file;
	outcome.file = FileRead{s.file_state, s.file_error_number, s.file_layout, {}};
	return false;
}

// Under mark_lock: writes `mark` with the key the state holds (this instance's, or the file's one not yet
// checked, kept as it was), then into the replicated mark (`record`: the origin), before the mark is
// published. While writes keep failing, each distinct failure is logged once. The origin's write may raise
// (no free replication state, the origin in use by a session): the lock is released by the error, the mark
// not published, and the file's mark only ahead.
Outcome write_mark(ServerState &s, std::int64_t mark, const MarkRecord &record)
{
	Outcome outcome;
	if (!file_usable(s, outcome))
		return outcome;
	const std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	high_water::Contents contents = s.fullrand_key;
	contents.mark = mark;
	contents.has_key = key_state != key_missing;
	if (!write_high_water_file(contents, outcome.write)) {
		if (!(outcome.write == s.logged_failure)) {
			elog(LOG, "idtypes could not write its high-water mark: %s: %s; no ID is issued past the mark until it can",
			     describe(outcome.write.step), strerror(outcome.write.error_number));
			s.logged_failure = outcome.write;
		}
		outcome.what = Durable::write_failed;
		return outcome;
	}
	if (s.logged_failure.step != WriteStep::none) {
		elog(LOG, "idtypes wrote its high-water mark again");
		s.logged_failure = WriteFailure{WriteStep::none, 0};
	}
	if (record.origin != no_origin)
		advance_origin(record.origin, static_cast<std::uint64_t>(mark), false);
	pg_atomic_write_u64(&s.durable_until_us, static_cast<std::uint64_t>(mark));
	if (key_state == key_unsaved) {
		pg_write_barrier(); // the key was stored before
		pg_atomic_write_u32(&s.fullrand_key_state, key_saved);
	}
	return outcome;
}

// Makes sure IDs may carry times up to `until_us`: when that passes the mark on disk, one session writes
// the next mark (reserved ahead) while any other that needs it waits. No lock while the mark is ahead.
// `record` null: not prepared, which only the tbsl stepper does (it must not raise): needs_wal, unless in
// recovery, where nothing but the file is written (and nothing raises).
Outcome make_durable(ServerState &s, std::int64_t until_us, const MarkRecord *record)
{
	Outcome outcome;
	if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
		return outcome;
	const MarkRecord none;
	if (record == nullptr && !RecoveryInProgress()) {
		outcome.what = Durable::needs_wal;
		return outcome;
	}
	outcome.what = take_mark_lock(s);
	if (outcome.what == Durable::ok) {
		if (until_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))) {
			std::int64_t now = clock_now_us();
			outcome = write_mark(s, (until_us > now ? until_us : now) + reserve_ahead_us, record ? *record : none);
		}
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
		                errmsg("canceled while waiting for another session to write the high-water mark")));
		break;
	case Durable::busy:
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR),
		         errmsg("idtypes gave up waiting for its high-water mark \"%s\" to be written", high_water_file),
		         errdetail("Another session (PID %u) has been writing it for more than %d s: the data directory's "
		                   "file system does not complete the write.",
		                   pg_atomic_read_u32(&s.mark_writer_pid), static_cast<int>(mark_wait_limit_us / 1000000)),
		         errhint("Check the file system of the data directory (a stalled disk or network mount).")));
		break;
	case Durable::unusable_file: report_unusable_file(outcome.file);
	case Durable::write_failed:
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR),
		         errmsg("idtypes could not write its high-water mark \"%s\" in the data directory", high_water_file),
		         errdetail("%s: %s. No ID is issued past a time that a restart could forget.",
		                   describe(outcome.write.step), strerror(outcome.write.error_number)),
		         errhint("Free space on the data directory's file system, or make it writable: generation resumes "
		                 "once the mark can be written.")));
		break;
	case Durable::needs_wal: // next_tbsl prepares the record and writes the mark, never reports it
	case Durable::ok: elog(ERROR, "idtypes: no failure of the high-water mark to report"); break;
	}
	pg_unreachable();
}

void durable_or_error(ServerState &s, std::int64_t until_us)
{
	if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
		return;
	MarkRecord record = prepare_mark_record();
	const Outcome outcome = make_durable(s, until_us, &record);
	finish_mark_record(record);
	if (outcome.what != Durable::ok)
		report_not_durable(s, outcome);
}

} // namespace idtypes::pg
