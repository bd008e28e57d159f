// The generators over the server's one state (server_state.cpp says where it lives): each issues only below
// the mark (writer.cpp), waiting for it only when an ID is beyond it; after each ID the next mark is
// written ahead if the ID passed half the reserve, and its database's carrier is told the ID's time and the
// mark (carrier.cpp). In recovery only scru160 and uuid_v7 generate (standby_rule.cpp): their random
// bits keep them apart from the primary's, and the mark, which a standby cannot write, is not used.
#include "pg/generate/generators.hpp"

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/mark/carrier.hpp"
#include "pg/mark/fullrand_key.hpp"
#include "pg/mark/server_state.hpp"
#include "pg/mark/writer.hpp"

extern "C" {
#include "access/xlog.h"
#include "storage/latch.h"
}

namespace idtypes::pg {

namespace {

// How many times in a row a TBSL step may find its clock reading overtaken by another session's TBSL
// before it reads the clock under the lock (see step_tbsl).
constexpr int tbsl_max_overtaken = 4;

// After an ID of time `id_time_us` was issued under the mark: the next mark written ahead if due, and this
// database's carrier told (carrier.cpp).
void issued(ServerState &s, std::int64_t id_time_us)
{
	write_ahead(s, id_time_us);
	carry_mark(id_time_us, static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us)));
}

// Whether an ID up to `until_us` may be issued now: under the mark, or in recovery (scru160 and uuid_v7 only,
// kept apart by their random bits; the mark is not written there).
bool covered(ServerState &s, std::int64_t until_us, bool in_recovery)
{
	return in_recovery || until_us <= static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
}

std::int64_t read_clock(void *) noexcept { return clock_now_us(); }

// One step of tbsl::generate. The clock is read outside the lock (PostgreSQL's rule for spinlocks: a few
// instructions; without vDSO a clock reading is a system call), and only a step under the mark: otherwise
// the step says so (no_clock) and next_tbsl moves the mark, where errors may be raised, rather than issue a
// TBSL a restart could forget or one behind the clock. A reading found behind the last TBSL
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
			return tbsl::Step{tbsl::StepResult::no_clock, {}, 0, now};
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
// statement_timeout, 17's transaction_timeout or a termination request sets it: the wait ends at once; seen
// in pg_stat_activity as the wait event IdtypesClock); gives up on such a request, which the caller then
// services outside the core. Never raises (WaitLatch with WL_EXIT_ON_PM_DEATH exits the process if the
// postmaster died).
bool interrupt_asked() { return QueryCancelPending || ProcDiePending || transaction_timeout_pending(); }
bool pause_briefly(void *) noexcept
{
	if (interrupt_asked())
		return false;
	(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, clock_wait_event());
	ResetLatch(MyLatch);
	return !interrupt_asked();
}

} // namespace

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
	issued(s, static_cast<std::int64_t>(micros));
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
	std::int64_t until_us;
	do {
		g = uid11::next_xid(last, now_ms, random);
		if (!g.ok)
			return g;
		until_us = unix_us_of(uid11::descriptor.scale, uid11::units(g.value)) + uid11::descriptor.scale.unit_us - 1;
		durable_or_error(s, until_us);
	} while (!pg_atomic_compare_exchange_u64(&s.uid11_last, &last, g.value)); // `last` refreshed on failure
	issued(s, until_us);
	return g;
}

// A ticket whose value another key of this server's history issued is skipped (fullrand_key.cpp).
uid11::Generated next_fullrand(std::int64_t now_us)
{
	ServerState &s = server_state();
	const uid11::FullrandKey &key = fullrand_key(s);
	for (;;) {
		std::uint64_t last = pg_atomic_read_u64(&s.fullrand_last_ticket);
		uid11::Generated ticket;
		do {
			ticket = uid11::next_ticket(last, now_us);
			if (!ticket.ok)
				return ticket;
			durable_or_error(s, uid11::ticket_time_us(ticket.value));
		} while (!pg_atomic_compare_exchange_u64(&s.fullrand_last_ticket, &last, ticket.value)); // `last` refreshed
		issued(s, uid11::ticket_time_us(ticket.value));
		const std::uint64_t value = uid11::fullrand_of_ticket(ticket.value, key);
		if (uid11::fullrand_clear(value, s.fullrand_ranges, s.fullrand_range_count))
			return uid11::Generated{value, true};
	}
}

tbsl::Generated next_tbsl(const tbsl::Request &request)
{
	ServerState &s = server_state();
	for (;;) {
		tbsl::Generated g =
		    tbsl::generate(tbsl::Stepper{step_tbsl, &s}, request, tbsl::Clock{read_clock, pause_briefly, &s});
		if (g.status != tbsl::Status::clock_unavailable) {
			if (g.status == tbsl::Status::ok) {
				issued(s, tbsl::units(g.value.data()));
			}
			return g;
		}
		durable_or_error(s, clock_now_us()); // the step found the clock past the mark: moved here
	}
}

scru160::Generated next_scru160(std::int64_t now_ms, const scru160::Randomness &random)
{
	ServerState &s = server_state();
	const bool in_recovery = RecoveryInProgress();
	for (;;) {
		// a step issues at most one millisecond past both the clock and the last SCRU160 (counter overflow)
		SpinLockAcquire(&s.scru160_lock);
		std::int64_t last_ms = static_cast<std::int64_t>(s.scru160.timestamp);
		std::int64_t bound_us = unix_us_of(scru160::descriptor.scale, (now_ms > last_ms ? now_ms : last_ms) + 1) +
		                        scru160::descriptor.scale.unit_us - 1;
		if (covered(s, bound_us, in_recovery)) {
			scru160::Generated g = scru160::generate(s.scru160, now_ms, random);
			SpinLockRelease(&s.scru160_lock);
			issued(s, bound_us);
			return g;
		}
		SpinLockRelease(&s.scru160_lock);
		durable_or_error(s, bound_us);
	}
}

// Read-only, for idtypes_identity(): attaches to the state, changes nothing (not even the mark applied:
// idtypes_identity() answers while that mark is refused, for the one who diagnoses it).
GeneratorReport generator_report()
{
	ServerState &s = attached_state();
	std::uint32_t id = pg_atomic_read_u32(&s.timeid_clock_id);
	return GeneratorReport{id != clock_id_not_drawn, id,
	                       static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us))};
}

uuid7::Generated next_uuid7(std::int64_t now_us, std::uint64_t random)
{
	ServerState &s = server_state();
	const bool in_recovery = RecoveryInProgress();
	for (;;) {
		// a value is issued only once its millisecond is below the mark: else the mark moves on first
		SpinLockAcquire(&s.uuid7_lock);
		uuid7::Generated g = uuid7::next(s.uuid7_last, now_us, random);
		const std::int64_t until_us = uuid7::last_us_of(g.value);
		if (!g.ok || covered(s, until_us, in_recovery)) {
			if (g.ok)
				s.uuid7_last = g.value;
			SpinLockRelease(&s.uuid7_lock);
			if (g.ok)
				issued(s, until_us);
			return g;
		}
		SpinLockRelease(&s.uuid7_lock);
		durable_or_error(s, until_us);
	}
}

} // namespace idtypes::pg
