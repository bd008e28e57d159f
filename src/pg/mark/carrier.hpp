// The mark's carrier across pg_upgrade: the one-row materialized view idtypes_internal.high_water of each
// database (src/pg/mark/carrier.cpp says why it is one and how it is written).
#pragma once

#include <cstdint>

namespace idtypes::pg {

// How far past the server's mark a carrier is written: a database's carrier is rewritten about once per
// carrier_margin_us / 2 of its IDs' times, never per move of the mark.
inline constexpr std::int64_t carrier_margin_us = 10000000;

// After an ID of this database was issued (time `id_time_us`, under the server's published mark
// `server_mark_us`) and before it is returned: makes sure this database's carrier holds more than the ID's
// time, durably. The fast path is one comparison with what this backend last saw; the carrier is rewritten
// (server mark + carrier_margin_us, in place, generic WAL) only when the ID comes within carrier_margin_us / 2
// of its value, and the record is flushed before any ID passes the value it replaced. Nothing in recovery,
// nor where the database has no carrier. May raise.
void carry_mark(std::int64_t id_time_us, std::int64_t server_mark_us);

// Whether this transaction holds the lock on this database's carrier that keeps every other reader out (a
// REFRESH, CLUSTER, VACUUM FULL or ALTER of it, not committed yet): the rebuild, which reads it, would wait
// for this very session.
bool carrier_locked_here();

} // namespace idtypes::pg
