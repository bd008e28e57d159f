// The replication origin idtypes_high_water, whose progress is the generators' mark (src/pg/mark/origin.cpp
// says why an origin).
#pragma once

#include <cstdint>

#include "pg/common/postgres.hpp"

extern "C" {
#include "replication/origin.h"
}

namespace idtypes::pg {

// An origin's id: 19 renamed the type (RepOriginId -> ReplOriginId) and its invalid value.
#if PG_VERSION_NUM >= 190000
using OriginId = ReplOriginId;
inline constexpr OriginId no_origin = InvalidReplOriginId;
#else
using OriginId = RepOriginId;
inline constexpr OriginId no_origin = InvalidRepOriginId;
#endif

inline constexpr const char *mark_origin_name = "idtypes_high_water";
// A replicated mark further ahead of the clock than this is refused, never followed.
inline constexpr std::int64_t mark_ahead_limit_us = std::int64_t{86400} * 1000000;

// 55000 naming the setting when this server keeps no replication state for an origin
// (max_replication_slots = 0 on 15 to 17, max_active_replication_origins = 0 on 18 and later).
void require_origins();

// The origin's id, no_origin when there is none of that name. Needs a transaction (a catalog
// lookup, cached by the syscache).
OriginId find_origin(const char *name);

// Keeps the origin `id` from being dropped until release_origin(id), on 15 to 19: a write never goes to the
// id of an origin dropped meanwhile. Taken right before the write, released right after it (before the WAL
// flush), never to the end of the transaction.
void lock_origin(OriginId id);
void release_origin(OriginId id);

// Sets the origin's progress forward, WAL-logged (replayed by every standby, and after a crash), under
// lock_origin; returns the end of the record, to flush. May raise: no free replication state (all taken by
// other origins), or the origin in use by a session (pg_replication_origin_session_setup).
XLogRecPtr advance_origin(OriginId id, std::uint64_t value);
// The origin's progress, 0 when it has none (or no such origin).
std::uint64_t origin_progress(OriginId id);

// 55000: the replicated mark is more than mark_ahead_limit_us ahead of the clock.
[[noreturn]] void report_mark_ahead(std::int64_t mark_us);

} // namespace idtypes::pg
