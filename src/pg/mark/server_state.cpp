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
// The state's struct is in server_state.hpp; its mark in writer.cpp; the generators in generators.cpp.
#include "pg/mark/server_state.hpp"

#include "pg/common/settings.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/mark/rebuild.hpp"
#include "pg/mark/state_registry.hpp"
#include "pg/mark/writer.hpp"

#include <new>

extern "C" {
#include "access/xlog.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace idtypes::pg {

namespace {

// The layout is part of the name: a library with another layout must not attach to this one (and the
// registry makes sure no library issues beside it: state_registry.cpp).
constexpr char state_name_format[] = "idtypes generators %08x";
char state_name[40] = {}; // "idtypes generators 89abcdef"

const char *named_state()
{
	if (state_name[0] == '\0')
		snprintf(state_name, sizeof state_name, state_name_format, state_layout);
	return state_name;
}

enum class Home { none, preloaded, dsm_registry, main_segment };

ServerState *state = nullptr;
Home home = Home::none;

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

// Never raises (it may run in the postmaster, and inside the DSM registry's initialisation).
void init_state(void *memory)
{
	auto *s = static_cast<ServerState *>(memory);
	const KeyFileRead file = read_key_file();
	pg_atomic_init_u64(&s->durable_until_us, 0);
	pg_atomic_init_u32(&s->replicated_applied, 0);
	init_rebuild_progress(s->rebuild);
	pg_atomic_init_u32(&s->mark_writer_pid, 0);
	pg_atomic_init_u32(&s->mark_writer_step, 0);
	ConditionVariableInit(&s->mark_released);
	s->logged_failure = WriteFailure{WriteStep::none, 0};
	pg_atomic_init_u64(&s->timeid_last_micros, 0);
	pg_atomic_init_u32(&s->timeid_clock_id, clock_id_not_drawn);
	pg_atomic_init_u64(&s->uid11_last, 0);
	pg_atomic_init_u64(&s->fullrand_last_ticket, 0);
	pg_atomic_init_u32(&s->fullrand_key_state, key_missing);
	s->fullrand_key_adopted = false;
	s->fullrand_range_count = 0;
	pg_atomic_init_u32(&s->key_record_maker, 0);
	pg_atomic_init_u32(&s->key_record_worker, 0);
	s->key_record_after_taken = false;
	s->key_record_after = 0;
	pg_atomic_init_u64(&s->key_record_lsn, 0);
	ConditionVariableInit(&s->key_record_changed);
	SpinLockInit(&s->tbsl_lock);
	new (&s->tbsl) tbsl::State();
	pg_atomic_init_u64(&s->tbsl_issued, 0);
	SpinLockInit(&s->scru160_lock);
	new (&s->scru160) scru160::State();
	SpinLockInit(&s->uuid7_lock);
	s->uuid7_last = uuid7::V7{};
	start_from_key_file(s, file);
	if (file.state != KeyFileState::ok && file.state != KeyFileState::missing)
		elog(LOG, "idtypes cannot use \"%s\": uid11_generate_random is stopped until it is repaired", key_file_name);
}

// Finds or creates the named struct in the main segment, initialising it once (callers serialise on
// AddinShmemInitLock, as PostgreSQL's own modules do); null when another library's state is the server's.
ServerState *main_segment_state()
{
	bool found = false;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	if (!claim_in_main_segment()) {
		LWLockRelease(AddinShmemInitLock);
		return nullptr;
	}
	auto *s = static_cast<ServerState *>(ShmemInitStruct(named_state(), sizeof(ServerState), &found));
	if (!found)
		init_state(s);
	LWLockRelease(AddinShmemInitLock);
	return s;
}

void attach(ServerState *s, Home where)
{
	state = s;
	home = where;
}

void request_memory()
{
	if (previous_request_hook)
		previous_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(ServerState)) + registry_space);
}

// Runs in the postmaster (and again after a crash restart); backends inherit the pointer by fork (null when
// another library's state is the server's: they then report it).
void attach_at_startup()
{
	if (previous_startup_hook)
		previous_startup_hook();
	ServerState *s = main_segment_state();
	if (s != nullptr)
		attach(s, Home::preloaded);
}

#if PG_VERSION_NUM >= 170000
void attach_later()
{
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	const bool claimed = claim_in_main_segment();
	LWLockRelease(AddinShmemInitLock);
	if (!claimed || !claim_in_dsm_registry())
		report_state_refused();
	bool found = false;
	attach(static_cast<ServerState *>(named_dsm_segment<init_state>(named_state(), sizeof(ServerState), &found)),
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
		                errhint("Restart the server: that frees what sessions of other idtypes libraries took; "
		                        "with idtypes in shared_preload_libraries, the restart reserves the memory.")));
	}
	PG_END_TRY();
	if (s == nullptr)
		report_state_refused();
	attach(s, Home::main_segment);
}
#endif

// Once per state outside recovery (at its start, or at the first ID after a promotion), before any ID is
// issued: the generators raised past the mark, the origin idtypes_high_water (rebuilt first from the
// databases' carriers when it is missing: rebuild.cpp), which becomes the published mark. At a
// restart or a crash restart it is this server's own, found again by PostgreSQL (checkpoint, then WAL
// replay); after a promotion, the old primary's, replayed, so no database of the new primary repeats an ID
// any database of the old one issued before the WAL the standby received (docs/failover.md). Applied only
// once: later the origin holds this state's own mark, up to the reserve ahead of the clock, which must not
// move IDs ahead. A standby does not follow it: generators that rest on it refuse in recovery
// (standby_rule.cpp). A mark more than a day ahead of the clock (a clock that jumped ahead, then was put
// right) is refused: every generator raises the error until the clock passes it, or until the server is
// set to continue above it (idtypes.mark_ahead = continue: IDs dated after the mark, never again at or below
// it, which IDs of that jump may carry). The mark is never moved back.
void apply_replicated_mark(ServerState &s)
{
	const OriginId id = ensure_mark_origin(); // may start workers: before the state's lock
	const Durable taken = take_mark_lock(s);
	if (taken != Durable::ok) {
		Outcome outcome;
		outcome.what = taken;
		report_not_durable(s, outcome);
	}
	if (pg_atomic_read_u32(&s.replicated_applied) == 0) {
		const std::uint64_t progress = origin_progress(id);
		const std::int64_t mark = progress > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(progress);
		if (mark > clock_now_us() + mark_ahead_limit_us && mark_ahead_setting == mark_ahead_refuse) {
			release_mark_lock(s);
			report_mark_ahead(mark);
		}
		raise_generators(s, mark);
		if (mark > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)))
			pg_atomic_write_u64(&s.durable_until_us, static_cast<std::uint64_t>(mark));
		pg_write_barrier(); // the generators raised before a session sees them applied
		pg_atomic_write_u32(&s.replicated_applied, 1);
	}
	release_mark_lock(s);
}

} // namespace

void advance_to(pg_atomic_uint64 *last, std::uint64_t floor)
{
	std::uint64_t seen = pg_atomic_read_u64(last);
	while (seen < floor && !pg_atomic_compare_exchange_u64(last, &seen, floor)) {
	} // `seen` refreshed on failure
}

ServerState &server_state()
{
	attached_state();
	// the wait events are registered here, where that may raise: the waits for the mark and the clock must not
	mark_write_wait_event();
	clock_wait_event();
	if (pg_atomic_read_u32(&state->replicated_applied) == 0 && !RecoveryInProgress())
		apply_replicated_mark(*state);
	pg_read_barrier();
	return *state;
}

ServerState &attached_state()
{
	if (state == nullptr)
		attach_later();
	if (!claim_in_dsm_registry()) // preloaded on 17 and later: an earlier library may have made its state there
		report_state_refused();
	return *state;
}

void reserve_generator_state()
{
	previous_request_hook = shmem_request_hook;
	shmem_request_hook = request_memory;
	previous_startup_hook = shmem_startup_hook;
	shmem_startup_hook = attach_at_startup;
}

const char *generator_mode()
{
	attached_state();
	return home == Home::preloaded      ? "shared (preloaded)"
	       : home == Home::dsm_registry ? "shared (named DSM segment)"
	                                    : "shared (allocated at first use)";
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_mode);

// Where the server's generator state lives (attaching to it first).
Datum idtypes_generator_mode(PG_FUNCTION_ARGS) { PG_RETURN_TEXT_P(cstring_to_text(idtypes::pg::generator_mode())); }

} // extern "C"
