#include "core/mark_floors.hpp"

#include "core/uid11.hpp"

#include <cstdint>

namespace idtypes::mark_floors {

// Each floor saturates at its format's last value: a mark past a format's range leaves that generator
// refusing (its "not ok"), never wrapped to an early time (uid11's xid field, fullrand's ticket and
// uuid7's millisecond are shifts that would drop the high bits) nor overflowed (mark + 1 at INT64_MAX).
Floors floors_past(std::int64_t mark_us) noexcept
{
	if (mark_us < 0)
		mark_us = 0;
	const std::int64_t mark_ms = mark_us / 1000;
	Floors f{};
	f.timeid_last_micros = static_cast<std::uint64_t>(mark_us);
	const std::int64_t xid_delta = mark_ms - uid11::xid_epoch_ms;
	f.uid11_last = xid_delta <= 0 ? 0
	               : static_cast<std::uint64_t>(xid_delta) > uid11::xid_max_delta
	                   ? uid11::make_xid(uid11::xid_max_delta, uid11::xid_max_random)
	                   : uid11::make_xid(static_cast<std::uint64_t>(xid_delta), uid11::xid_max_random);
	constexpr std::int64_t max_ticket_us = (std::int64_t{1} << (64 - uid11::ticket_sequence_bits)) - 1;
	f.fullrand_last_ticket = mark_us > max_ticket_us ? ~std::uint64_t{0} : uid11::last_ticket_of(mark_us);
	f.tbsl_last_us = mark_us == 0 ? -1 : mark_us < INT64_MAX ? mark_us + 1 : INT64_MAX;
	f.scru160_ms = static_cast<std::uint64_t>(mark_ms) < scru160::max_timestamp ? static_cast<std::uint64_t>(mark_ms)
	                                                                            : scru160::max_timestamp;
	f.scru160_counter = mark_us > 0 ? scru160::max_counter : 0;
	f.uuid7_last = uuid7::last_of_ms(
	    static_cast<std::uint64_t>(mark_ms) < uuid7::max_ms ? static_cast<std::uint64_t>(mark_ms) : uuid7::max_ms);
	return f;
}

void raise(tbsl::State &state, const Floors &floors) noexcept
{
	if (state.last_us < floors.tbsl_last_us)
		state.last_us = floors.tbsl_last_us;
}

void raise(scru160::State &state, const Floors &floors) noexcept
{
	if (state.timestamp < floors.scru160_ms ||
	    (state.timestamp == floors.scru160_ms && state.counter < floors.scru160_counter)) {
		state.timestamp = floors.scru160_ms;
		state.counter = floors.scru160_counter;
	}
}

void raise(uuid7::V7 &last, const Floors &floors) noexcept
{
	const uuid7::V7 &f = floors.uuid7_last;
	if (last.time < f.time || (last.time == f.time && last.random < f.random))
		last = f;
}

} // namespace idtypes::mark_floors
