// The replication origins that carry idtypes' server-wide state to standbys (src/pg/replicate/origins.cpp says why
// origins): idtypes_high_water, whose progress is the replicated high-water mark, and idtypes_identity,
// whose progress is the identity the primary generates with.
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
inline constexpr const char *identity_origin_name = "idtypes_identity";
// A replicated mark further ahead of the clock than this is refused, never followed.
inline constexpr std::int64_t mark_ahead_limit_us = std::int64_t{86400} * 1000000;

// 55000 naming the setting when this server keeps no replication origin (max_replication_slots = 0 on 15
// to 17, max_active_replication_origins = 0 on 18 and later).
void require_origins();

// The origin's id, no_origin when there is none of that name. Needs a transaction (a catalog
// lookup, cached by the syscache).
OriginId find_origin(const char *name);

// Keeps every origin from being dropped until release_origins() (a lock on pg_replication_origin, as
// pg_replication_origin_advance takes): a write never goes to the id of an origin dropped meanwhile. Taken
// right before a write, released right after it, never to the end of the transaction.
void lock_origins();
void release_origins();

// Sets the origin's progress, WAL-logged and flushed (so that a standby receives it even when no commit
// follows). Forward only unless go_backward. May raise: no free replication state (all taken by other
// origins), or the origin in use by a session (pg_replication_origin_session_setup).
void advance_origin(OriginId id, std::uint64_t value, bool go_backward);
// The origin's progress, 0 when it has none (or no such origin).
std::uint64_t origin_progress(OriginId id);

// 55000: the replicated mark is more than mark_ahead_limit_us ahead of the clock.
[[noreturn]] void report_mark_ahead(std::int64_t mark_us);

// The identity the primary generates with, packed in idtypes_identity's progress: bit 63 says a primary
// wrote it (never 0, which is "no progress"); bit 62 and the low 16 bits its timeid clock id, bit 61 and
// bits 16 to 31 its tbsl machine id.
struct ReplicatedIdentity {
	bool known; // a primary wrote it (packing ignores it)
	bool has_clock;
	unsigned clock_id;
	bool has_machine;
	unsigned machine_id;
};
std::uint64_t pack_identity(const ReplicatedIdentity &identity);
ReplicatedIdentity unpack_identity(std::uint64_t progress);

} // namespace idtypes::pg
