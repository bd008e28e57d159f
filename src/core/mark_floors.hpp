// Where each generator stands once a high-water mark is known: the lowest "last issued" value past every ID
// that could have been issued up to the mark (a time in Unix µs). A generator state is raised there (the
// mark an older key file holds, at its start: src/pg/mark/older_stores.cpp; the replicated mark, before its
// first ID: src/pg/mark/server_state.cpp); raising never lowers what a state already issued.
#pragma once

#include <cstdint>

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/uuid7.hpp"

namespace idtypes::mark_floors {

struct Floors {
	std::uint64_t timeid_last_micros; // the mark itself: the next timeid is at least mark + 1
	std::uint64_t uid11_last;         // the last xid of the mark's millisecond (0 before the xid epoch)
	std::uint64_t fullrand_last_ticket;
	std::int64_t tbsl_last_us;     // mark + 1 (-1 without a mark): TBSLs carry the real time
	std::uint64_t scru160_ms;      // the mark's millisecond, with its counter used up
	std::uint32_t scru160_counter; // 0xFFFF with a mark, else 0
	uuid7::V7 uuid7_last;          // the last value of the mark's millisecond
};

// For a mark of 0 (none), what a state with no history starts from.
[[nodiscard]] Floors floors_past(std::int64_t mark_us) noexcept;

// The state raised to the floor where it is below it (under the caller's lock).
void raise(tbsl::State &state, const Floors &floors) noexcept;
void raise(scru160::State &state, const Floors &floors) noexcept;
void raise(uuid7::V7 &last, const Floors &floors) noexcept;

} // namespace idtypes::mark_floors
