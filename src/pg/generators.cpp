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
#include "pg/glue.hpp"
#include "pg/high_water.hpp"
#include "pg/mark_wal.hpp"
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
constexpr const char *state_name = "idtypes generators v5";
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

// The fullrand key. Drawn at first use unless the mark file holds this instance's key; written there before
// any value made with it is issued (a restart must find the same key: another one could map a new ticket
// onto a value issued before). A key the file holds is checked first: it may be the key of the server
// this data directory was copied from (see this_instance()), which a copy must not share.
enum KeyState : std::uint32_t { key_missing, key_unchecked, key_unsaved, key_saved };

struct ServerState {
	pg_atomic_uint64 durable_until_us; // IDs may carry times up to here (Unix µs): the mark on disk
	std::int64_t writer;               // drawn at the state's start: names its marks in the replicated row
	LWLock mark_lock;                  // held by the one session writing the mark file or settling the key
	int mark_lock_tranche;
	pg_atomic_uint32 mark_writer_pid; // who holds mark_lock, for the error of a session that gave up waiting
	ConditionVariable mark_released;  // broadcast when mark_lock is released: wakes the waiting sessions
	// Under mark_lock. A file that cannot be understood stops generation until a restart; one that could not
	// be read is read again at each attempt (file_usable).
	FileState file_state;
	int file_error_number;
	int file_layout;
	WriteFailure logged_failure; // under mark_lock: the write failure last logged (step none after a success)
	pg_atomic_uint64 timeid_last_micros;
	pg_atomic_uint32 timeid_clock_id; // for idtypes.timeid_clock_id = -1; drawn at first use
	pg_atomic_uint64 uid11_last;
	pg_atomic_uint64 fullrand_last_ticket;
	pg_atomic_uint32 fullrand_key_state; // a KeyState, changed under mark_lock
	high_water::Contents fullrand_key;   // the key and its owner (its mark unused), changed under mark_lock
	slock_t tbsl_lock;                   // held only around tbsl::step: never waits
	tbsl::State tbsl;
	pg_atomic_uint64 tbsl_issued; // TBSLs issued, changed under tbsl_lock: tells a step it was overtaken
	slock_t scru160_lock;
	scru160::State scru160;
	slock_t uuid7_lock; // held only around uuid7::next: a pure step that never waits
	uuid7::V7 uuid7_last;
};

enum class Home { none, preloaded, dsm_registry, main_segment };

ServerState *state = nullptr;
Home home = Home::none;

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

// Why this session could not move the mark (or get the key): raised by report_not_durable. needs_wal: the
// mark's WAL record must be prepared first, where errors may be raised (the tbsl stepper cannot).
enum class Durable : std::uint8_t { ok, write_failed, busy, interrupted, unusable_file, needs_wal };
Durable last_outcome = Durable::ok;
WriteFailure last_write_failure{WriteStep::none, 0};
// The file's state when this session last found it unusable, for the error (the shared one may change).
FileRead last_file_problem{FileState::ok, 0, 0, {}};

void advance_to(pg_atomic_uint64 *last, std::uint64_t floor)
{
	std::uint64_t seen = pg_atomic_read_u64(last);
	while (seen < floor && !pg_atomic_compare_exchange_u64(last, &seen, floor)) {
	} // `seen` refreshed on failure
}

// Every generator past the IDs a mark covers, whatever it issued already (the replicated mark: mark_wal.cpp).
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
	if (!pg_strong_random(&s->writer, sizeof s->writer)) // then the start time tells states apart
		s->writer = GetCurrentTimestamp();
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
bool file_usable(ServerState &s)
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
	last_file_problem = FileRead{s.file_state, s.file_error_number, s.file_layout, {}};
	return false;
}

// Under mark_lock: writes `mark` with the key the state holds (this instance's, or the file's one not yet
// checked, kept as it was), then into this database's replicated row (`wal`), before the mark is published.
// While writes keep failing, each distinct failure is logged once.
Durable write_mark(ServerState &s, std::int64_t mark, MarkWal &wal)
{
	if (!file_usable(s))
		return Durable::unusable_file;
	const std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	high_water::Contents contents = s.fullrand_key;
	contents.mark = mark;
	contents.has_key = key_state != key_missing;
	if (!write_high_water_file(contents, last_write_failure)) {
		if (!(last_write_failure == s.logged_failure)) {
			elog(LOG, "idtypes could not write its high-water mark: %s: %s; no ID is issued past the mark until it can",
			     describe(last_write_failure.step), strerror(last_write_failure.error_number));
			s.logged_failure = last_write_failure;
		}
		return Durable::write_failed;
	}
	if (s.logged_failure.step != WriteStep::none) {
		elog(LOG, "idtypes wrote its high-water mark again");
		s.logged_failure = WriteFailure{WriteStep::none, 0};
	}
	write_mark_wal(wal, mark, s.writer);
	pg_atomic_write_u64(&s.durable_until_us, static_cast<std::uint64_t>(mark));
	if (key_state == key_unsaved) {
		pg_write_barrier(); // the key was stored before
		pg_atomic_write_u32(&s.fullrand_key_state, key_saved);
	}
	return Durable::ok;
}

// Makes sure IDs may carry times up to `until_us`: when that passes the mark on disk, one session writes
// the next mark (reserved ahead) while any other that needs it waits. Never raises (it runs under the
// core's tbsl stepper too); no lock while the mark is ahead. `wal` null: not prepared (needs_wal, unless
// in recovery, where no WAL is written).
Durable make_durable(ServerState &s, std::int64_t until_us, MarkWal *wal)
{
	if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
		return Durable::ok;
	MarkWal none;
	if (wal == nullptr && !RecoveryInProgress())
		return last_outcome = Durable::needs_wal;
	Durable outcome = take_mark_lock(s);
	if (outcome == Durable::ok) {
		if (until_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))) {
			std::int64_t now = clock_now_us();
			outcome = write_mark(s, (until_us > now ? until_us : now) + reserve_ahead_us, wal ? *wal : none);
		}
		release_mark_lock(s);
	}
	last_outcome = outcome;
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
[[noreturn]] void report_not_durable(ServerState &s, Durable outcome)
{
	switch (outcome) {
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
	case Durable::unusable_file: report_unusable_file(last_file_problem);
	case Durable::write_failed:
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR),
		         errmsg("idtypes could not write its high-water mark \"%s\" in the data directory", high_water_file),
		         errdetail("%s: %s. No ID is issued past a time that a restart could forget.",
		                   describe(last_write_failure.step), strerror(last_write_failure.error_number)),
		         errhint("Free space on the data directory's file system, or make it writable: generation resumes "
		                 "once the mark can be written.")));
		break;
	case Durable::needs_wal: // next_tbsl writes the record and the mark, never reports it
	case Durable::ok: elog(ERROR, "idtypes: no failure of the high-water mark to report"); break;
	}
	pg_unreachable();
}

void durable_or_error(ServerState &s, std::int64_t until_us)
{
	if (until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
		return;
	MarkWal wal = prepare_mark_wal();
	Durable outcome = make_durable(s, until_us, &wal);
	finish_mark_wal(wal);
	if (outcome != Durable::ok)
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

// Whether this backend raised the state past its database's replicated mark (mark_wal.cpp) since it left
// recovery (or started outside it): done before it generates anything.
bool replicated_mark_applied = false;

// On a standby the state keeps its own file mark (a hot standby generates as a server of its own); at a
// start and after a promotion it takes the larger of that and this database's replicated mark. A mark this
// state wrote itself is skipped: the state is past every ID it issued, and that mark may be up to the
// reserve ahead of the clock (raising to it would move IDs ahead of the time). One of another server (the
// old primary), of the server before a restore, or of an earlier start (at or below the file's mark, which
// is written first) is not.
void apply_replicated_mark(ServerState &s)
{
	if (RecoveryInProgress())
		return;
	const ReplicatedMark row = read_replicated_mark();
	if (row.mark_us > 0 && row.writer != s.writer)
		raise_generators(s, row.mark_us);
	replicated_mark_applied = true;
}

ServerState &server_state()
{
	if (state == nullptr)
		attach_later();
	mark_write_wait_event(); // registered here, where it may raise: the wait for the mark must not
	if (!replicated_mark_applied)
		apply_replicated_mark(*state);
	return *state;
}

std::int64_t read_clock(void *) noexcept { return clock_now_us(); }

// One step of tbsl::generate. The clock is read outside the lock (PostgreSQL's rule for spinlocks: a few
// instructions; without vDSO a clock reading is a system call), and only a step under the mark: otherwise the
// mark is moved first, outside the lock, and when that cannot be done the step says so (no_clock) rather
// than issue a TBSL a restart could forget or one behind the clock. A reading found behind the last TBSL
// counts only if no TBSL was issued since just before it was taken: else another session's later reading
// may have overtaken it, which would look like a clock gone backwards (a false alarm under clock_backward =
// 'error'), and the clock is read again; after tbsl_max_overtaken such overtakings in a row (sessions
// issuing without pause), the reading is taken under the lock, where nothing can overtake it.
tbsl::Step step_tbsl(void *ctx, const tbsl::Request &req, const tbsl::Clock &clock) noexcept
{
	auto *s = static_cast<ServerState *>(ctx);
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
			if (make_durable(*s, now, nullptr) != Durable::ok)
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

// Sleeps a little while the clock catches up; gives up on a cancel or termination request, which the
// caller then services outside the core.
bool pause_briefly(void *) noexcept
{
	if (QueryCancelPending || ProcDiePending)
		return false;
	pg_usleep(10);
	return true;
}

} // namespace

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
	return g;
}

namespace {

// Under mark_lock: makes the state hold this instance's key, on disk (and the mark in `wal`). A key read from the file is kept
// when its owner is this instance; a layout 1 file (idtypes 1.0, 1.1) names no owner: its key is kept by a
// server that is not in recovery (most likely the one that drew it) and replaced on a standby, which is a
// copy for certain.
Durable settle_key(ServerState &s, const high_water::Instance &me, bool in_recovery, const uid11::FullrandKey &drawn,
                   MarkWal &wal)
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
		return Durable::ok;
	// written with the mark as it is, or the reserve when there is none yet
	std::int64_t durable = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
	std::int64_t fresh = clock_now_us() + reserve_ahead_us;
	return write_mark(s, durable > fresh ? durable : fresh, wal);
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
		MarkWal wal = prepare_mark_wal();
		Durable outcome = take_mark_lock(s);
		if (outcome == Durable::ok) {
			// the file first: one read again only now may hold the key
			outcome = file_usable(s) ? settle_key(s, me, in_recovery, drawn, wal) : Durable::unusable_file;
			release_mark_lock(s);
		}
		finish_mark_wal(wal);
		last_outcome = outcome;
		if (outcome != Durable::ok)
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
	return uid11::Generated{uid11::fullrand_of_ticket(ticket.value, key), true};
}

tbsl::Generated next_tbsl(const tbsl::Request &request)
{
	ServerState &s = server_state();
	for (;;) {
		tbsl::Generated g =
		    tbsl::generate(tbsl::Stepper{step_tbsl, &s}, request, tbsl::Clock{read_clock, pause_briefly, &s});
		if (g.status != tbsl::Status::clock_unavailable || last_outcome != Durable::needs_wal)
			return g;
		durable_or_error(s, clock_now_us()); // the step could not write the mark's WAL record: written here
	}
}

void report_high_water_failure() { report_not_durable(server_state(), last_outcome); }

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
