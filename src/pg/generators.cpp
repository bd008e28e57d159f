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
// A crash restart reinitialises shared memory and so this state with it (as for every mode).
#include "pg/generators.hpp"

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "pg/glue.hpp"

#include <new>

extern "C" {
#include "port/atomics.h"
#include "storage/ipc.h"
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
constexpr const char *state_name = "idtypes generators v2";

constexpr std::uint32_t clock_id_not_drawn = 0xFFFFFFFF;

struct ServerState {
	pg_atomic_uint64 timeid_last_micros;
	pg_atomic_uint32 timeid_clock_id; // for idtypes.timeid_clock_id = -1; drawn at first use
	pg_atomic_uint64 uid11_last;
	slock_t tbsl_lock; // held only around tbsl::step and scru160::generate: pure steps that never wait
	tbsl::State tbsl;
	slock_t scru160_lock;
	scru160::State scru160;
};

enum class Home { none, preloaded, dsm_registry, main_segment };

ServerState *state = nullptr;
Home home = Home::none;

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

void init_state(void *memory)
{
	auto *s = static_cast<ServerState *>(memory);
	pg_atomic_init_u64(&s->timeid_last_micros, 0);
	pg_atomic_init_u32(&s->timeid_clock_id, clock_id_not_drawn);
	pg_atomic_init_u64(&s->uid11_last, 0);
	SpinLockInit(&s->tbsl_lock);
	new (&s->tbsl) tbsl::State();
	SpinLockInit(&s->scru160_lock);
	new (&s->scru160) scru160::State();
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
	state = main_segment_state();
	home = Home::preloaded;
}

#if PG_VERSION_NUM >= 170000
void attach_later()
{
	bool found = false;
	state = static_cast<ServerState *>(GetNamedDSMSegment(state_name, sizeof(ServerState), init_state, &found));
	home = Home::dsm_registry;
}
#else
void attach_later()
{
	MemoryContext context = CurrentMemoryContext;
	PG_TRY();
	{
		state = main_segment_state();
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
	home = Home::main_segment;
}
#endif

ServerState &server_state()
{
	if (state == nullptr)
		attach_later();
	return *state;
}

tbsl::Step step_tbsl(void *ctx, const tbsl::Request &req, std::int64_t now) noexcept
{
	auto *s = static_cast<ServerState *>(ctx);
	SpinLockAcquire(&s->tbsl_lock);
	tbsl::Step step = tbsl::step(s->tbsl, req, now);
	SpinLockRelease(&s->tbsl_lock);
	return step;
}

std::int64_t read_clock(void *) noexcept { return clock_now_us(); }

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
	} while (!pg_atomic_compare_exchange_u64(&s.uid11_last, &last, g.value)); // `last` refreshed on failure
	return g;
}

tbsl::Generated next_tbsl(const tbsl::Request &request)
{
	return tbsl::generate(tbsl::Stepper{step_tbsl, &server_state()}, request,
	                      tbsl::Clock{read_clock, pause_briefly, nullptr});
}

scru160::Generated next_scru160(std::int64_t now_ms, const scru160::Randomness &random)
{
	ServerState &s = server_state();
	SpinLockAcquire(&s.scru160_lock);
	scru160::Generated g = scru160::generate(s.scru160, now_ms, random);
	SpinLockRelease(&s.scru160_lock);
	return g;
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_mode);

// Where the server's generator state lives (attaching to it first).
Datum idtypes_generator_mode(PG_FUNCTION_ARGS)
{
	using namespace idtypes::pg;
	server_state();
	const char *where = home == Home::preloaded      ? "shared (preloaded)"
	                    : home == Home::dsm_registry ? "shared (named DSM segment)"
	                                                 : "shared (allocated at first use)";
	PG_RETURN_TEXT_P(cstring_to_text(where));
}

} // extern "C"
