// The mark's carrier across pg_upgrade: the one-row materialized view idtypes_internal.high_water of each
// database (src/pg/replicate/upgrade_carrier.cpp says why it is one and how it is written).
#pragma once

#include <cstdint>

namespace idtypes::pg {

// Called after each ID, with the ID's time and the server's published mark (Unix µs): makes this database's
// carrier hold at least that mark, once per move of the mark seen by this session: a generic WAL record
// written in place, under a lock taken only if it can be had at once and released right after (else
// skipped: tried again at the next ID). Not in recovery (no WAL), nor where the database has no carrier.
// May raise (outside any lock of the state).
void carry_mark(std::int64_t id_time_us, std::int64_t server_mark_us);

// The largest mark this database's carrier holds (Unix µs; 0 when there is none): the matview of idtypes
// 1.4, or 1.3's table idtypes_high_water in a database not yet updated. May raise.
std::int64_t read_carrier();

} // namespace idtypes::pg
