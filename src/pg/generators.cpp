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
// generators above every ID issued before: no ID carries a time past the mark until the mark is written
// (durably, reserved 200 ms ahead, so the cost is a rare write, never one per ID), and a new state starts
// at the mark (timeid and uid11 at its last value + 1, scru160 by its counter rule; tbsl waits for the clock
// or refuses, per idtypes.clock_backward).
#include "pg/generators.hpp"

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"
#include "pg/glue.hpp"

#include <cstdio>
#include <fcntl.h>
#include <new>
#include <unistd.h>

extern "C" {
#include "port/atomics.h"
#include "storage/fd.h"
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
constexpr const char *state_name = "idtypes generators v4";

constexpr std::uint32_t clock_id_not_drawn = 0xFFFFFFFF;

// In the data directory (every process's working directory).
constexpr const char *high_water_file = "pg_idtypes_high_water";
constexpr const char *high_water_temp = "pg_idtypes_high_water.tmp";
constexpr std::int64_t reserve_ahead_us = 200000;

struct ServerState {
	pg_atomic_uint64 durable_until_us; // IDs may carry times up to here (Unix µs): the mark on disk
	pg_atomic_flag writing_mark;       // taken by the one session writing the next mark
	pg_atomic_uint64 timeid_last_micros;
	pg_atomic_uint32 timeid_clock_id; // for idtypes.timeid_clock_id = -1; drawn at first use
	pg_atomic_uint64 uid11_last;
	pg_atomic_uint64 fullrand_last_ticket;
	pg_atomic_uint32 fullrand_key_state; // a KeyState
	slock_t fullrand_key_lock;           // held only while the key is set
	uid11::FullrandKey fullrand_key;
	slock_t tbsl_lock; // held only around tbsl::step and scru160::generate: pure steps that never wait
	tbsl::State tbsl;
	slock_t scru160_lock;
	scru160::State scru160;
	slock_t uuid7_lock; // held only around uuid7::next: a pure step that never waits
	uuid7::V7 uuid7_last;
};

enum class Home { none, preloaded, dsm_registry, main_segment };

// The fullrand key: drawn at first use unless the mark file holds one, and then written there before any
// value made with it is issued (a restart must find the same key: another one could map a new ticket
// onto a value issued before).
enum KeyState : std::uint32_t { key_missing, key_unsaved, key_saved };

ServerState *state = nullptr;
Home home = Home::none;

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

// What a previous run of the server left: the mark (0 when there is none) and the fullrand key, if any.
struct HighWater {
	std::int64_t mark = 0;
	bool has_key = false;
	uid11::FullrandKey key{};
};

HighWater read_high_water()
{
	HighWater h;
	if (FILE *f = fopen(high_water_file, "r")) {
		long long mark = 0;
		unsigned long long k0 = 0, k1 = 0;
		int fields = fscanf(f, "%lld %llx %llx", &mark, &k0, &k1);
		h.mark = fields >= 1 && mark > 0 ? mark : 0;
		h.has_key = fields == 3;
		h.key = uid11::FullrandKey{k0, k1};
		fclose(f);
	}
	return h;
}

// Writes the mark durably (a temporary file, fsync, rename, fsync of the directory), with the fullrand key
// once there is one; a key written for the first time is then marked saved. Never raises: it may run under
// the clock callbacks of the core; failures are logged and reported by the result.
bool write_high_water(ServerState &s, std::int64_t mark)
{
	char text[80];
	std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	pg_read_barrier(); // the key was stored before its state
	int len = key_state == key_missing
	              ? snprintf(text, sizeof text, "%lld\n", static_cast<long long>(mark))
	              : snprintf(text, sizeof text, "%lld %016llx %016llx\n", static_cast<long long>(mark),
	                         static_cast<unsigned long long>(s.fullrand_key.k0),
	                         static_cast<unsigned long long>(s.fullrand_key.k1));
	int fd = open(high_water_temp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY, S_IRUSR | S_IWUSR);
	bool written = fd >= 0 && write(fd, text, len) == len && pg_fsync(fd) == 0;
	int write_errno = errno; // before close() can change it
	if (fd >= 0)
		close(fd);
	if (!written) {
		elog(LOG, "idtypes could not write its high-water mark \"%s\": %s", high_water_temp, strerror(write_errno));
		return false;
	}
	if (durable_rename(high_water_temp, high_water_file, LOG) != 0) // which logs its own failure
		return false;
	if (key_state == key_unsaved)
		pg_atomic_compare_exchange_u32(&s.fullrand_key_state, &key_state, key_saved);
	return true;
}

void init_state(void *memory)
{
	auto *s = static_cast<ServerState *>(memory);
	const HighWater high_water = read_high_water();
	const std::int64_t mark = high_water.mark; // every ID issued before carries a time at or below it
	const std::int64_t mark_ms = mark / 1000;
	pg_atomic_init_u64(&s->durable_until_us, static_cast<std::uint64_t>(mark));
	pg_atomic_init_flag(&s->writing_mark);
	pg_atomic_init_u64(&s->timeid_last_micros, static_cast<std::uint64_t>(mark));
	pg_atomic_init_u32(&s->timeid_clock_id, clock_id_not_drawn);
	pg_atomic_init_u64(&s->uid11_last, mark_ms > uid11::xid_epoch_ms
	                                       ? uid11::make_xid(static_cast<std::uint64_t>(mark_ms - uid11::xid_epoch_ms),
	                                                         uid11::xid_max_random)
	                                       : 0);
	pg_atomic_init_u64(&s->fullrand_last_ticket, uid11::last_ticket_of(mark));
	pg_atomic_init_u32(&s->fullrand_key_state, high_water.has_key ? key_saved : key_missing);
	SpinLockInit(&s->fullrand_key_lock);
	s->fullrand_key = high_water.key;
	SpinLockInit(&s->tbsl_lock);
	new (&s->tbsl) tbsl::State();
	s->tbsl.last_us = mark;
	SpinLockInit(&s->scru160_lock);
	new (&s->scru160) scru160::State();
	s->scru160.timestamp = static_cast<std::uint64_t>(mark_ms); // with the counter used up: the next ms
	s->scru160.counter = mark > 0 ? 0xFFFF : 0;
	SpinLockInit(&s->uuid7_lock);
	s->uuid7_last = uuid7::last_of_ms(static_cast<std::uint64_t>(mark_ms)); // above every UUIDv7 up to the mark
}

// Makes sure IDs may carry times up to `until_us`: when that passes the mark on disk, one session writes
// the next mark (reserved ahead) while any other that needs it waits. False when the mark cannot be written.
bool make_durable(ServerState &s, std::int64_t until_us)
{
	for (int waited_ms = 0; until_us > static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));) {
		if (pg_atomic_test_set_flag(&s.writing_mark)) {
			bool ok = true;
			std::int64_t durable = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
			if (until_us > durable) {
				std::int64_t now = clock_now_us();
				std::int64_t mark = (until_us > now ? until_us : now) + reserve_ahead_us;
				ok = write_high_water(s, mark);
				if (ok)
					pg_atomic_write_u64(&s.durable_until_us, static_cast<std::uint64_t>(mark));
			}
			pg_atomic_clear_flag(&s.writing_mark);
			if (!ok)
				return false;
		} else if (++waited_ms > 10000) { // another session has been writing for 10 s
			return false;
		} else {
			pg_usleep(1000);
		}
	}
	return true;
}

void durable_or_error(ServerState &s, std::int64_t until_us)
{
	if (!make_durable(s, until_us))
		ereport(ERROR,
		        (errcode(ERRCODE_IO_ERROR),
		         errmsg("idtypes could not write its high-water mark \"%s\" in the data directory", high_water_file),
		         errdetail("No ID is issued past a time that a restart could forget."),
		         errhint("See the server log for the reason.")));
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

// The clock tbsl::generate reads, never past the mark on disk: it first moves the mark on, and when that
// cannot be done the clock seems to stand still there (the generator then gives up like a clock that is
// behind: it never issues a TBSL a restart could forget).
std::int64_t read_clock(void *ctx) noexcept
{
	auto *s = static_cast<ServerState *>(ctx);
	std::int64_t now = clock_now_us();
	if (!make_durable(*s, now))
		return static_cast<std::int64_t>(pg_atomic_read_u64(&s->durable_until_us));
	return now;
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

// The server's fullrand key, drawn and written to the mark file first if need be.
const uid11::FullrandKey &fullrand_key(ServerState &s)
{
	std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	if (key_state == key_missing) {
		uid11::FullrandKey drawn;
		strong_random(&drawn, sizeof drawn);
		SpinLockAcquire(&s.fullrand_key_lock);
		if (pg_atomic_read_u32(&s.fullrand_key_state) == key_missing) {
			s.fullrand_key = drawn;
			pg_write_barrier();
			pg_atomic_write_u32(&s.fullrand_key_state, key_unsaved);
		}
		SpinLockRelease(&s.fullrand_key_lock);
	}
	// Only a write that began after the key was set holds it (and marks it saved): one that was under way
	// may end first and carry the mark past this session's request, hence the loop.
	while (pg_atomic_read_u32(&s.fullrand_key_state) != key_saved)
		durable_or_error(s, static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)) + 1);
	pg_read_barrier();
	return s.fullrand_key;
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
	return tbsl::generate(tbsl::Stepper{step_tbsl, &s}, request, tbsl::Clock{read_clock, pause_briefly, &s});
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
