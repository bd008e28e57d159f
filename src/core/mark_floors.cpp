#include "core/mark_floors.hpp"

#include "core/uid11.hpp"

namespace idtypes::mark_floors {

Floors floors_past(std::int64_t mark_us) noexcept
{
	const std::int64_t mark_ms = mark_us / 1000;
	Floors f{};
	f.timeid_last_micros = static_cast<std::uint64_t>(mark_us);
	f.uid11_last =
	    mark_ms > uid11::xid_epoch_ms
	        ? uid11::make_xid(static_cast<std::uint64_t>(mark_ms - uid11::xid_epoch_ms), uid11::xid_max_random)
	        : 0;
	f.fullrand_last_ticket = uid11::last_ticket_of(mark_us);
	f.tbsl_last_us = mark_us > 0 ? mark_us + 1 : -1;
	f.scru160_ms = static_cast<std::uint64_t>(mark_ms);
	f.scru160_counter = mark_us > 0 ? 0xFFFF : 0;
	f.uuid7_last = uuid7::last_of_ms(static_cast<std::uint64_t>(mark_ms));
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
