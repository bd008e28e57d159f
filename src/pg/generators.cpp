// The one home of generator state. A server has exactly one state, shared by every session, so that no two
// sessions (running at once, or one after another on a reused backend id) can issue the same ID, whatever
// the settings or arguments. Where it lives:
// - preloaded (shared_preload_libraries): memory reserved at server start;
// - otherwise, PostgreSQL 17 and later: a named dynamic shared memory segment (the DSM registry), created by
//   the first session that generates and kept until the server stops;
// - otherwise, PostgreSQL 15 and 16: the same named struct, allocated by the first session that generates
//   from the spare space PostgreSQL keeps in its main shared memory segment (ShmemInitStruct works in any
//   backend; the few KB needed fit the ~100 kB reserve). If that space is gone, generation is refused with a
//   hint to preload idtypes, never served from per-session state.
// Across restarts and crash restarts, which start the state afresh, a high-water mark on disk keeps
// generators above every ID issued before (src/pg/high_water.cpp): no ID carries a time past the mark until
// the mark is written (durably, reserved 200 ms ahead, so the cost is a rare write, never one per ID), and a
// new state starts past the mark (timeid, uid11 and tbsl at its last value + 1, scru160 by its counter
// rule). When the mark cannot be moved, generation fails (58030) rather than issue an ID a restart could
// forget; when the file cannot be understood, generation stops until it is repaired, and while it cannot be
// read (permissions, no file descriptor left), until it can be: it is read again at each attempt.
#include "pg/generators.hpp"

#include "core/mark_floors.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"
#include "pg/carrier.hpp"
#include "pg/glue.hpp"
#include "pg/high_water.hpp"
#include "pg/mark_rebuild.hpp"
#include "pg/origins.hpp"
#include "pg/server_state.hpp"
#include "pg/wait_event.hpp"

#include <new>

extern "C" {
#include "access/xlog.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace idtypes::pg {

namespace {

// The layout is part of the name: a library with another layout must not attach to this one.
constexpr const char *state_name = "idtypes generators v6";
// The mark lock's tranche, as wait events and pg_stat_activity name it.
constexpr const char *lock_tranche_name = "idtypes";

constexpr std::uint32_t clock_id_not_drawn = 0xFFFFFFFF;

constexpr std::int64_t reserve_ahead_us = 200000;
// How long a session waits for another one's write of the mark before it gives up.
constexpr std::int64_t mark_wait_limit_us = 10000000;
// The longest sleep of that wait between two looks at the lock. Its release wakes the waiters at once; this
// bounds the wait after a writer that ended by an error, which releases the lock without waking them.
constexpr long mark_wait_look_ms = 100;
// How many times in a row a TBSL step may find its clock reading overtaken by another session's TBSL
// before it reads the clock under the lock (see step_tbsl).
constexpr int tbsl_max_overtaken = 4;

enum class Home { none, preloaded, dsm_registry, main_segment };

ServerState *state = nullptr;
Home home = Home::none;

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

// Why a session could not move the mark (or get the key), returned up to where it is raised
// (report_not_durable): never kept in a static. needs_wal: the mark's origin write must be prepared first,
// where errors may be raised (the tbsl stepper cannot).
enum class Durable : std::uint8_t { ok, write_failed, busy, interrupted, unusable_file, needs_wal };
struct Outcome {
	Durable what = Durable::ok;
	WriteFailure write{WriteStep::none, 0}; // write_failed: which step, which errno
	FileRead file{FileState::ok, 0, 0, {}}; // unusable_file: the file's state then (the shared one may change)
};

// A write of the replicated mark (the origin idtypes_high_water), prepared where errors may be raised:
// the origin looked up (created first when missing: mark_rebuild.cpp) and kept from being dropped until
// finish_mark_record. Empty (nothing to write) in recovery, where no WAL can be written.
struct MarkRecord {
	RepOriginId origin = InvalidRepOriginId;
};

MarkRecord prepare_mark_record()
{
	MarkRecord record;
	if (RecoveryInProgress())
		return record;
	require_origins();
	for (;;) {
		const RepOriginId id = ensure_mark_origin(); // waits for workers: no lock may be held here
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
	if (record.origin != InvalidRepOriginId)
		release_origins();
	record = MarkRecord{};
}

} // namespace

void advance_to(pg_atomic_uint64 *last, std::uint64_t floor)
{
	std::uint64_t seen = pg_atomic_read_u64(last);
	while (seen < floor && !pg_atomic_compare_exchange_u64(last, &seen, floor)) {
	} // `seen` refreshed on failure
}

namespace {

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

// Never raises (it may run in the postmaster, and inside the DSM registry's initialisation).
void init_state(void *memory)
{
	auto *s = static_cast<ServerState *>(memory);
	const FileRead file = read_high_water_file();
	pg_atomic_init_u64(&s->durable_until_us, 0);
	pg_atomic_init_u32(&s->replicated_applied, 0);
	pg_atomic_init_u32(&s->rebuild_pid, 0);
	pg_atomic_init_u64(&s->rebuild_max, 0);
	pg_atomic_init_u32(&s->rebuild_done, 0);
	s->mark_lock_tranche = new_lwlock_tranche(lock_tranche_name);
	LWLockInitialize(&s->mark_lock, s->mark_lock_tranche);
	pg_atomic_init_u32(&s->mark_writer_pid, 0);
	ConditionVariableInit(&s->mark_released);
	s->logged_failure = WriteFailure{WriteStep::none, 0};
	pg_atomic_init_u64(&s->timeid_last_micros, 0);
	pg_atomic_init_u32(&s->timeid_clock_id, clock_id_not_drawn);
	pg_atomic_init_u64(&s->uid11_last, 0);
	pg_atomic_init_u64(&s->fullrand_last_ticket, 0);
	pg_atomic_init_u32(&s->fullrand_key_state, key_missing);
	SpinLockInit(&s->tbsl_lock);
	new (&s->tbsl) tbsl::State();
	pg_atomic_init_u64(&s->tbsl_issued, 0);
	SpinLockInit(&s->scru160_lock);
	new (&s->scru160) scru160::State();
	SpinLockInit(&s->uuid7_lock);
	s->uuid7_last = uuid7::V7{};
	start_past_mark(s, file);
	if (file.state != FileState::ok && file.state != FileState::missing)
		elog(LOG, "idtypes cannot use its high-water mark \"%s\": generation is stopped until it is repaired",
		     high_water_file);
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
	if (record.origin != InvalidRepOriginId)
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

// Finds or creates the named struct in the main segment, initialising it once (callers serialise on
// AddinShmemInitLock, as PostgreSQL's own modules do).
ServerState *main_segment_state()
{
	bool found = false;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	auto *s = static_cast<ServerState *>(ShmemInitStruct(state_name, sizeof(ServerState), &found));
	if (!found)
		init_state(s);
	LWLockRelease(AddinShmemInitLock);
	return s;
}

// Every process names the lock's tranche for itself (wait events, pg_stat_activity).
void attach(ServerState *s, Home where)
{
	name_lwlock_tranche(s->mark_lock_tranche, lock_tranche_name);
	state = s;
	home = where;
}

void request_memory()
{
	if (previous_request_hook)
		previous_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(ServerState)));
}

// Runs in the postmaster (and again after a crash restart); backends inherit the pointer by fork.
void attach_at_startup()
{
	if (previous_startup_hook)
		previous_startup_hook();
	attach(main_segment_state(), Home::preloaded);
}

#if PG_VERSION_NUM >= 170000
void attach_later()
{
	bool found = false;
	attach(static_cast<ServerState *>(named_dsm_segment<init_state>(state_name, sizeof(ServerState), &found)),
	       Home::dsm_registry);
}
#else
void attach_later()
{
	MemoryContext context = CurrentMemoryContext;
	ServerState *s = nullptr;
	PG_TRY();
	{
		s = main_segment_state();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(context);
		ErrorData *e = CopyErrorData();
		FlushErrorState();
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("idtypes cannot keep its generator state in shared memory"), errdetail("%s", e->message),
		                errhint("Add idtypes to shared_preload_libraries and restart the server.")));
	}
	PG_END_TRY();
	attach(s, Home::main_segment);
}
#endif

// Once per state outside recovery (at its start, or at the first ID after a promotion), before any ID is
// issued: the generators raised past the replicated mark, the origin idtypes_high_water (rebuilt first from
// the databases' carriers when it is missing: mark_rebuild.cpp). After a promotion it is the old primary's
// mark, written before any ID it issued past its previous one, so no database of the new primary repeats an
// ID any database of the old one issued, whatever the order in which they generate. At a restart it is at
// or below the mark file's (written first), unless the file was lost. Applied only once: later the origin
// holds this state's own mark, up to the reserve ahead of the clock, which must not move IDs ahead.
// A standby does not follow it (it changes with every replayed write, and cannot be written there): its IDs
// are kept apart from its primary's by its own identity (identity.cpp), its own file keeps it past its own.
// A mark more than a day ahead of the clock is refused, never followed: every generator then raises the
// error until the clock or the mark is put right.
void apply_replicated_mark(ServerState &s)
{
	const RepOriginId id = ensure_mark_origin(); // may start workers: before the state's lock
	const Durable taken = take_mark_lock(s);
	if (taken != Durable::ok) {
		Outcome outcome;
		outcome.what = taken;
		report_not_durable(s, outcome);
	}
	if (pg_atomic_read_u32(&s.replicated_applied) == 0) {
		const std::uint64_t progress = origin_progress(id);
		const std::int64_t mark = progress > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(progress);
		if (mark > clock_now_us() + mark_ahead_limit_us) {
			release_mark_lock(s);
			report_mark_ahead(mark);
		}
		raise_generators(s, mark);
		pg_write_barrier(); // the generators raised before a session sees them applied
		pg_atomic_write_u32(&s.replicated_applied, 1);
	}
	release_mark_lock(s);
}

ServerState &server_state()
{
	if (state == nullptr)
		attach_later();
	mark_write_wait_event(); // registered here, where it may raise: the wait for the mark must not
	if (pg_atomic_read_u32(&state->replicated_applied) == 0 && !RecoveryInProgress())
		apply_replicated_mark(*state);
	pg_read_barrier();
	return *state;
}

// After an ID was issued under the server's mark: this database's carrier holds that mark (carrier.cpp).
void carry(ServerState &s) { carry_mark(static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))); }

std::int64_t read_clock(void *) noexcept { return clock_now_us(); }

// One step of tbsl::generate. The clock is read outside the lock (PostgreSQL's rule for spinlocks: a few
// instructions; without vDSO a clock reading is a system call), and only a step under the mark: otherwise the
// mark is moved first, outside the lock, and when that cannot be done the step says so (no_clock) rather
// than issue a TBSL a restart could forget or one behind the clock. A reading found behind the last TBSL
// counts only if no TBSL was issued since just before it was taken: else another session's later reading
// may have overtaken it, which would look like a clock gone backwards (a false alarm under clock_backward =
// 'error'), and the clock is read again; after tbsl_max_overtaken such overtakings in a row (sessions
// issuing without pause), the reading is taken under the lock, where nothing can overtake it.
struct TbslContext {
	ServerState *state;
	Outcome outcome; // why the last step could not move the mark (no_clock)
};

tbsl::Step step_tbsl(void *ctx, const tbsl::Request &req, const tbsl::Clock &clock) noexcept
{
	auto *c = static_cast<TbslContext *>(ctx);
	ServerState *s = c->state;
	for (int overtaken = 0;;) {
		const bool read_under_lock = overtaken >= tbsl_max_overtaken;
		const std::uint64_t issued_before = pg_atomic_read_u64(&s->tbsl_issued);
		pg_read_barrier(); // the count before the clock reading
		std::int64_t now = read_under_lock ? 0 : clock.now_us(clock.ctx);
		SpinLockAcquire(&s->tbsl_lock);
		if (read_under_lock)
			now = clock.now_us(clock.ctx);
		if (now > static_cast<std::int64_t>(pg_atomic_read_u64(&s->durable_until_us))) {
			SpinLockRelease(&s->tbsl_lock);
			c->outcome = make_durable(*s, now, nullptr);
			if (c->outcome.what != Durable::ok)
				return tbsl::Step{tbsl::StepResult::no_clock, {}, 0, now};
			continue;
		}
		const std::uint64_t issued = pg_atomic_read_u64(&s->tbsl_issued);
		tbsl::Step step = tbsl::step(s->tbsl, req, now);
		if (step.result == tbsl::StepResult::issued)
			pg_atomic_write_u64(&s->tbsl_issued, issued + 1);
		SpinLockRelease(&s->tbsl_lock);
		if (step.result == tbsl::StepResult::behind && issued != issued_before && !read_under_lock) {
			++overtaken;
			continue;
		}
		return step;
	}
}

// Sleeps a little while the clock catches up, on the process's latch like the wait for the mark (a cancel,
// statement_timeout or termination request sets it: the wait ends at once; seen in pg_stat_activity as the
// extension's wait event); gives up on such a request, which the caller then services outside the core.
// Never raises (WaitLatch with WL_EXIT_ON_PM_DEATH exits the process if the postmaster died).
bool pause_briefly(void *) noexcept
{
	if (QueryCancelPending || ProcDiePending)
		return false;
	(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, mark_write_wait_event());
	ResetLatch(MyLatch);
	return !(QueryCancelPending || ProcDiePending);
}

} // namespace

ServerState &attached_state()
{
	if (state == nullptr)
		attach_later();
	return *state;
}

void reserve_generator_state()
{
	previous_request_hook = shmem_request_hook;
	shmem_request_hook = request_memory;
	previous_startup_hook = shmem_startup_hook;
	shmem_startup_hook = attach_at_startup;
}

bool next_timeid_micros(std::int64_t now_us, std::uint64_t &micros)
{
	ServerState &s = server_state();
	std::uint64_t last = pg_atomic_read_u64(&s.timeid_last_micros);
	do {
		micros = timeid::next_micros(last, now_us);
		if (micros > timeid::max_micros)
			return false;
		durable_or_error(s, static_cast<std::int64_t>(micros));
	} while (!pg_atomic_compare_exchange_u64(&s.timeid_last_micros, &last, micros)); // `last` refreshed on failure
	carry(s);
	return true;
}

unsigned server_timeid_clock_id()
{
	ServerState &s = server_state();
	std::uint32_t id = pg_atomic_read_u32(&s.timeid_clock_id);
	if (id != clock_id_not_drawn)
		return id;
	std::uint32_t drawn;
	strong_random(&drawn, sizeof drawn);
	drawn &= timeid::max_clock_id;
	pg_atomic_compare_exchange_u32(&s.timeid_clock_id, &id, drawn); // on failure `id` holds another session's draw
	return id == clock_id_not_drawn ? drawn : id;
}

unsigned server_timeid_clock_id_other_than(unsigned avoid)
{
	ServerState &s = server_state();
	std::uint32_t id = pg_atomic_read_u32(&s.timeid_clock_id);
	while (id == clock_id_not_drawn || id == avoid) {
		std::uint32_t drawn;
		do {
			strong_random(&drawn, sizeof drawn);
			drawn &= timeid::max_clock_id;
		} while (drawn == avoid);
		if (pg_atomic_compare_exchange_u32(&s.timeid_clock_id, &id, drawn))
			return drawn;
	} // `id` refreshed: another session's draw
	return id;
}

uid11::Generated next_xid(std::int64_t now_ms, std::uint32_t random)
{
	ServerState &s = server_state();
	std::uint64_t last = pg_atomic_read_u64(&s.uid11_last);
	uid11::Generated g;
	do {
		g = uid11::next_xid(last, now_ms, random);
		if (!g.ok)
			return g;
		durable_or_error(s, (static_cast<std::int64_t>(uid11::xid_delta(g.value)) + uid11::xid_epoch_ms) * 1000 + 999);
	} while (!pg_atomic_compare_exchange_u64(&s.uid11_last, &last, g.value)); // `last` refreshed on failure
	carry(s);
	return g;
}

namespace {

// Under mark_lock: makes the state hold this instance's key, on disk (and the mark in `record`). A key read from the file is kept
// when its owner is this instance; a layout 1 file (idtypes 1.0, 1.1) names no owner: its key is kept by a
// server that is not in recovery (most likely the one that drew it) and replaced on a standby, which is a
// copy for certain.
Outcome settle_key(ServerState &s, const high_water::Instance &me, bool in_recovery, const uid11::FullrandKey &drawn,
                   const MarkRecord &record)
{
	high_water::Contents &key = s.fullrand_key;
	std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	if (key_state == key_unchecked) {
		bool adopt = key.has_owner ? high_water::same_instance(key.owner, me) : !in_recovery;
		key_state = adopt && key.has_owner ? key_saved : adopt ? key_unsaved : key_missing;
		if (adopt && !key.has_owner) { // written again with its owner
			key.owner = me;
			key.has_owner = true;
		}
	}
	if (key_state == key_missing) {
		key.key = drawn;
		key.owner = me;
		key.has_key = key.has_owner = true;
		key_state = key_unsaved;
	}
	pg_write_barrier(); // the key before its state
	pg_atomic_write_u32(&s.fullrand_key_state, key_state);
	if (key_state == key_saved)
		return Outcome{};
	// written with the mark as it is, or the reserve when there is none yet
	std::int64_t durable = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
	std::int64_t fresh = clock_now_us() + reserve_ahead_us;
	return write_mark(s, durable > fresh ? durable : fresh, record);
}

// The server's fullrand key, settled and written to the mark file first if need be.
const uid11::FullrandKey &fullrand_key(ServerState &s)
{
	if (pg_atomic_read_u32(&s.fullrand_key_state) != key_saved) {
		// what may raise, before the lock
		const high_water::Instance me = this_instance();
		const bool in_recovery = RecoveryInProgress();
		uid11::FullrandKey drawn;
		strong_random(&drawn, sizeof drawn);
		MarkRecord record = prepare_mark_record();
		Outcome outcome;
		outcome.what = take_mark_lock(s);
		if (outcome.what == Durable::ok) {
			// the file first: one read again only now may hold the key
			if (file_usable(s, outcome))
				outcome = settle_key(s, me, in_recovery, drawn, record);
			release_mark_lock(s);
		}
		finish_mark_record(record);
		if (outcome.what != Durable::ok)
			report_not_durable(s, outcome);
	}
	pg_read_barrier();
	return s.fullrand_key.key;
}

} // namespace

uid11::Generated next_fullrand(std::int64_t now_us)
{
	ServerState &s = server_state();
	const uid11::FullrandKey &key = fullrand_key(s);
	std::uint64_t last = pg_atomic_read_u64(&s.fullrand_last_ticket);
	uid11::Generated ticket;
	do {
		ticket = uid11::next_ticket(last, now_us);
		if (!ticket.ok)
			return ticket;
		durable_or_error(s, uid11::ticket_time_us(ticket.value));
	} while (!pg_atomic_compare_exchange_u64(&s.fullrand_last_ticket, &last, ticket.value)); // `last` refreshed
	carry(s);
	return uid11::Generated{uid11::fullrand_of_ticket(ticket.value, key), true};
}

tbsl::Generated next_tbsl(const tbsl::Request &request)
{
	ServerState &s = server_state();
	for (;;) {
		TbslContext context{&s, Outcome{}};
		tbsl::Generated g = tbsl::generate(tbsl::Stepper{step_tbsl, &context}, request,
		                                   tbsl::Clock{read_clock, pause_briefly, &context});
		if (g.status != tbsl::Status::clock_unavailable) {
			if (g.status == tbsl::Status::ok)
				carry(s);
			return g;
		}
		if (context.outcome.what != Durable::needs_wal)
			report_not_durable(s, context.outcome);
		durable_or_error(s, clock_now_us()); // the step could not write the mark's origin: written here
	}
}

scru160::Generated next_scru160(std::int64_t now_ms, const scru160::Randomness &random)
{
	ServerState &s = server_state();
	for (;;) {
		// a step issues at most one millisecond past both the clock and the last SCRU160 (counter overflow)
		SpinLockAcquire(&s.scru160_lock);
		std::int64_t last_ms = static_cast<std::int64_t>(s.scru160.timestamp);
		std::int64_t bound_us = ((now_ms > last_ms ? now_ms : last_ms) + 1) * 1000 + 999;
		if (bound_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))) {
			scru160::Generated g = scru160::generate(s.scru160, now_ms, random);
			SpinLockRelease(&s.scru160_lock);
			carry(s);
			return g;
		}
		SpinLockRelease(&s.scru160_lock);
		durable_or_error(s, bound_us);
	}
}

// Read-only, for idtypes_identity(): attaches to the state like any generator, changes nothing.
GeneratorReport generator_report()
{
	ServerState &s = server_state();
	std::uint32_t id = pg_atomic_read_u32(&s.timeid_clock_id);
	return GeneratorReport{id != clock_id_not_drawn, id,
	                       static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))};
}

const char *generator_mode()
{
	server_state();
	return home == Home::preloaded      ? "shared (preloaded)"
	       : home == Home::dsm_registry ? "shared (named DSM segment)"
	                                    : "shared (allocated at first use)";
}

uuid7::Generated next_uuid7(std::int64_t now_us, std::uint64_t random)
{
	ServerState &s = server_state();
	for (;;) {
		// a value is issued only once its millisecond is below the mark: else the mark moves on first
		SpinLockAcquire(&s.uuid7_lock);
		uuid7::Generated g = uuid7::next(s.uuid7_last, now_us, random);
		const std::int64_t until_us = uuid7::last_us_of(g.value);
		if (!g.ok || until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))) {
			if (g.ok)
				s.uuid7_last = g.value;
			SpinLockRelease(&s.uuid7_lock);
			if (g.ok)
				carry(s);
			return g;
		}
		SpinLockRelease(&s.uuid7_lock);
		durable_or_error(s, until_us);
	}
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_mode);

// Where the server's generator state lives (attaching to it first).
Datum idtypes_generator_mode(PG_FUNCTION_ARGS) { PG_RETURN_TEXT_P(cstring_to_text(idtypes::pg::generator_mode())); }

} // extern "C"
