// Why a replication origin is the generators' mark (the one store of it; docs/internals/generator-state.md):
// - One mark for the server, as the generator state is the server's: an origin is server-wide (the shared
//   catalog pg_replication_origin, progress in shared memory), so every database's sessions write and read
//   the same mark, whatever the database that generated last. (1.3's per-database row left a database's
//   row behind its IDs whenever another database's session held the server's mark ahead.)
// - Core replays it on every standby without the library: replorigin_advance(..., wal_log) writes an
//   XLOG_REPLORIGIN_SET record that replorigin_redo applies; the progress is kept across restarts (written
//   at every checkpoint and restartpoint, then WAL replay) and a point-in-time restore replays it up to its
//   target. The standby needs a free replication state to replay it: max_replication_slots (15 to 17) or
//   max_active_replication_origins (18 and later) above 0 there too, as their defaults are.
// - Only the server writes it: the pg_replication_origin_* functions are superuser-only (unless a superuser
//   grants them); no table grant, schema ownership or pg_write_all_data reaches an origin, and no schema
//   tool (ORMs' introspection, pg_dump of a database) lists one. The C calls here check no privilege: the
//   generators write it for any role.
// - Crash-safe and exact by WAL order: the record is inserted and flushed (and, under synchronous
//   replication, confirmed by the synchronous standbys) before the mark is published in shared memory, so
//   before any ID past the old mark is issued, and before the commit of any row holding such an ID; a
//   restart and a crash restart find it (checkpoint, then WAL replay), a standby receives WAL in order.
// - pg_upgrade does not carry origins: the carriers do (src/pg/mark/carrier.cpp), and a missing
//   origin is rebuilt from every database's carrier before any ID is issued (rebuild.cpp).
// - The cost: one small WAL record and one WAL flush per write of the mark, written ahead by one session
//   while the others go on (writer.cpp).
#include "pg/mark/origin.hpp"

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_replication_origin.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#if PG_VERSION_NUM < 180000
#include "replication/slot.h"
#endif
}

namespace idtypes::pg {

void require_origins()
{
#if PG_VERSION_NUM >= 180000
	constexpr const char *setting = "max_active_replication_origins";
	const int states = max_active_replication_origins;
#else
	constexpr const char *setting = "max_replication_slots";
	const int states = max_replication_slots;
#endif
	// idtypes keeps one origin, in a replication state of its own; a standby replaying it needs one too (with
	// none it stops: PostgreSQL's own PANIC or FATAL)
	if (states >= 1)
		return;
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("idtypes cannot generate: %s is %d, and idtypes keeps its mark in a replication origin", setting,
	                states),
	         errdetail("The mark, which keeps IDs apart across restarts and failovers, is the replication origin "
	                   "\"%s\": it needs one replication state, beside those of logical replication.",
	                   mark_origin_name),
	         errhint("Set %s to 1 more than logical replication needs (the default is 10) on this server and its "
	                 "standbys, and restart.",
	                 setting)));
}

OriginId find_origin(const char *name) { return replorigin_by_name(name, true); }

// 15 drops an origin under an ExclusiveLock on pg_replication_origin, which the RowExclusiveLock here
// excludes (replorigin_advance's own rule); 16 and later drop it under a RowExclusiveLock and a lock on the
// origin itself (LockSharedObject, AccessExclusiveLock), which the lock on the origin here excludes. Both
// locks are taken on every version, and both are released right after the record is inserted.
void lock_origin(OriginId id)
{
	LockRelationOid(ReplicationOriginRelationId, RowExclusiveLock);
	LockSharedObject(ReplicationOriginRelationId, id, 0, RowExclusiveLock);
}

void release_origin(OriginId id)
{
	UnlockSharedObject(ReplicationOriginRelationId, id, 0, RowExclusiveLock);
	UnlockRelationOid(ReplicationOriginRelationId, RowExclusiveLock);
}

XLogRecPtr advance_origin(OriginId id, std::uint64_t value)
{
	replorigin_advance(id, static_cast<XLogRecPtr>(value), InvalidXLogRecPtr, false, true);
	return XactLastRecEnd; // the end of the record just inserted by this process
}

std::uint64_t origin_progress(OriginId id)
{
	return id == no_origin ? 0 : static_cast<std::uint64_t>(replorigin_get_progress(id, false));
}

void report_mark_ahead(std::int64_t mark_us)
{
	constexpr TimeScale unix_us{0, 1, INT64_MAX};
	constexpr std::int64_t year_9999_us = 253402300799999999; // shown no later: the date is for humans
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("the replicated high-water mark, %s, is more than a day ahead of this server's clock",
	                timestamptz_to_str(timestamptz_of_units(unix_us, mark_us < year_9999_us ? mark_us : year_9999_us))),
	         errdetail("idtypes refuses to generate rather than date every ID after that mark. The mark is the "
	                   "progress of the replication origin \"%s\", written by this server or its primary: IDs up "
	                   "to it may exist, so it is never moved back.",
	                   mark_origin_name),
	         errhint("Put the clocks of this server and of its primary right. Then wait until the clock is within "
	                 "a day of the mark, or have the generators continue above it at once (dated after it): ALTER "
	                 "SYSTEM SET idtypes.mark_ahead = 'continue'; SELECT pg_reload_conf();")));
	pg_unreachable();
}

} // namespace idtypes::pg
