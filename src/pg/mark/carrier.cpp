// Why a carrier, and why this one:
// - pg_upgrade carries relation files, not the replication origins nor the mark file (which belong to the
//   old cluster's data directory). So each database keeps an upper bound of every ID time issued in it in a
//   relation of its own: after pg_upgrade the origin is missing, and one launcher reads every database's
//   carrier before any ID is issued (rebuild.cpp). The carriers are what carry the mark across
//   pg_upgrade.
// - Outside the application's schemas: the schema idtypes_internal, created by the extension (so not
//   owned by the owner of the schema idtypes is installed in), which schema tools do not list.
// - A materialized view, not a table: no INSERT, UPDATE, DELETE, TRUNCATE or LOCK TABLE applies to one, so
//   no table grant (GRANT ... ON ALL TABLES, pg_write_all_data) can change, empty or block it. Its query,
//   run when it is created or refreshed (its owner, or MAINTAIN on 17 and later), is carrier_value() below:
//   the server's mark plus the margin, never below the value it holds, so a REFRESH cannot lower it; an event
//   trigger of the extension refuses REFRESH ... WITH NO DATA, which would empty it (high_water.sql).
// - Written coarsely: the value is the server's mark + carrier_margin_us, rewritten in place (its bigint; the
//   page stays a valid heap page) by a generic WAL record, which core replays on any standby without the
//   library and which needs no transaction id (it works in read-only transactions), only when an ID of this
//   database comes within half the margin of the value this backend last saw. The new value is written
//   ahead: the ID in hand is still below the old value, and the record is flushed before any ID passes it
//   (normally by the WAL writer, which the write wakes: XLogSetAsyncXactLSN; else here).
// - A database whose idtypes is 1.3 (the library updated, ALTER EXTENSION UPDATE not run yet) carries the
//   mark in 1.3's table idtypes_high_water, the same two columns: read and written the same way, the rows
//   the snapshot sees only (carrier_row.cpp).
#include "pg/mark/carrier.hpp"

#include "pg/mark/carrier_row.hpp"
#include "pg/mark/older_stores.hpp"
#include "pg/mark/server_state.hpp"

extern "C" {
#include "access/genam.h"
#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace idtypes::pg {

namespace {

// Whether the relation has the carrier's columns: its first two both bigint (the extension's other member
// tables, adoption's state, have others; relnatts is not asked, as 1.3's table may have had a column added and
// dropped, and the rebuild does not ask it either: database_carrier.cpp).
bool carrier_shaped(Oid relation) { return get_atttype(relation, 1) == INT8OID && get_atttype(relation, 2) == INT8OID; }

// The extension's own carrier by membership, as the rebuild finds it (database_carrier.cpp): the member of
// idtypes of the carrier's shape that is a permanent materialized view (1.4 and later), else one that is a
// table (1.3's).
Oid member_carrier(Oid extension)
{
	Relation depend = table_open(DependRelationId, AccessShareLock);
	ScanKeyData key[2];
	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
	            ObjectIdGetDatum(ExtensionRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(extension));
	SysScanDesc scan = systable_beginscan(depend, DependReferenceIndexId, true, nullptr, 2, key);
	Oid view = InvalidOid, table = InvalidOid;
	for (HeapTuple tuple; !OidIsValid(view) && (tuple = systable_getnext(scan)) != nullptr;) {
		auto form = reinterpret_cast<Form_pg_depend>(GETSTRUCT(tuple));
		if (form->deptype != DEPENDENCY_EXTENSION || form->classid != RelationRelationId || form->objsubid != 0 ||
		    get_rel_persistence(form->objid) != RELPERSISTENCE_PERMANENT || !carrier_shaped(form->objid))
			continue;
		const char kind = get_rel_relkind(form->objid);
		if (kind == RELKIND_MATVIEW)
			view = form->objid;
		else if (kind == RELKIND_RELATION && !OidIsValid(table))
			table = form->objid;
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	return OidIsValid(view) ? view : table;
}

// This database's carrier: idtypes_internal.high_water, else 1.3's table, and only one that belongs to
// idtypes (a relation a user made under that name is never read or written). The names find it at once;
// when they find none of idtypes' (the carrier renamed by its owner, a relation planted under its name),
// its membership does, so that the carrier the rebuild reads is the one written.
Oid carrier_oid()
{
	const Oid extension = get_extension_oid("idtypes", true);
	if (!OidIsValid(extension))
		return InvalidOid;
	const Oid internal = get_namespace_oid(carrier_schema, true);
	Oid relation = OidIsValid(internal) ? get_relname_relid(carrier_view_name, internal) : InvalidOid;
	if (!OidIsValid(relation))
		relation = carrier_table_1_3_oid(extension);
	if (OidIsValid(relation) && getExtensionOfObject(RelationRelationId, relation) == extension)
		return relation;
	return member_carrier(extension);
}

// What the carrier held when this backend last read or wrote it, and the part of it known flushed.
struct Seen {
	std::int64_t value;
	XLogRecPtr lsn;   // of the last change of its pages
	bool provisional; // its file or a row changed by this transaction: a rollback would bring back the one before
};

// Whether the relation's pg_class row was written by this transaction, not committed yet: every rewrite gives
// it a new file number, and creating it a row. Read from the catalog, as a parallel worker sees it too: a
// worker's relation cache is built anew, without the leader's marks of a file replaced or a relation created
// (rd_newRelfilenodeSubid, rd_createSubid), while its transaction is the leader's.
bool class_row_written_here(Oid relation)
{
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relation));
	if (!HeapTupleIsValid(tuple))
		return false;
	const bool here = TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data));
	ReleaseSysCache(tuple);
	return here;
}

// Reads the carrier (each page under an exclusive lock) and, when `raise_to` is above what it holds and the
// held value is within half a margin of `id_time_us`, writes `raise_to` into its rows (a generic WAL record
// per page). Returns what it holds then. The rows judged are those committed now (SnapshotSelf: a new MVCC
// snapshot cannot be taken inside a parallel operation, where the generators run too; no REFRESH of another
// session is in progress, its lock conflicting with the one held here), or this transaction's own: a carrier
// this transaction created, rewrote (its file replaced) or changed (its row), not committed yet, is
// provisional, read but never written, since a rollback would take back what was written into it. That
// holds for one it created too (CREATE EXTENSION, an ALTER EXTENSION UPDATE that makes it anew): the IDs
// given in the transaction outlive its rollback, the carrier written for them does not.
Seen read_or_raise(Relation relation, std::int64_t id_time_us, std::int64_t raise_to)
{
	Snapshot snapshot = SnapshotSelf;
	Seen seen{no_row, InvalidXLogRecPtr,
	          relation->rd_createSubid != InvalidSubTransactionId || file_replaced_in_transaction(relation) ||
	              class_row_written_here(RelationGetRelid(relation))};
	const BlockNumber blocks = RelationGetNumberOfBlocks(relation);
	for (BlockNumber block = 0; block < blocks; block++) {
		Buffer buffer = ReadBuffer(relation, block);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
		Page page = BufferGetPage(buffer);
		if (changed_by_this_transaction(page))
			seen.provisional = true;
		std::int64_t value = visible_mark(page, buffer, RelationGetRelid(relation), snapshot);
		if (!seen.provisional && value != no_row && value - carrier_margin_us / 2 < id_time_us && value < raise_to) {
			GenericXLogState *record = GenericXLogStart(relation);
			Page copy = GenericXLogRegisterBuffer(record, buffer, 0);
			if (raise_visible_marks(page, copy, buffer, RelationGetRelid(relation), snapshot, raise_to)) {
				(void)GenericXLogFinish(record);
				value = raise_to;
			} else {
				GenericXLogAbort(record);
			}
		}
		if (value > seen.value)
			seen.value = value;
		if (PageGetLSN(page) > seen.lsn)
			seen.lsn = PageGetLSN(page);
		UnlockReleaseBuffer(buffer);
	}
	return seen;
}

// The cache: IDs up to fast_until_us need nothing (the fast path); at or below durable_us, which this backend
// knows flushed into the committed carrier `cached_relation` (or into none: a database without one). It
// describes one file of that relation: PostgreSQL invalidates the relation's cache entry whenever its file is
// replaced (a REFRESH, a CLUSTER, a VACUUM FULL, ALTER ... SET TABLESPACE), when that commits, and when it is
// rolled back (the transaction's or a savepoint's abort): the cache is dropped then (forget_carrier), and
// the next ID reads the carrier as it is.
std::int64_t fast_until_us = 0;
std::int64_t durable_us = 0;
Oid cached_relation = InvalidOid;
bool watching = false;

void forget_carrier(Datum, Oid relation)
{
	if (relation == InvalidOid || relation == cached_relation) {
		fast_until_us = 0;
		durable_us = 0;
	}
}

[[noreturn]] void report_provisional(std::int64_t id_time_us)
{
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("idtypes issues no ID in a transaction that created, updated or rewrote this database's carrier "
	                "%s.%s",
	                carrier_schema, carrier_view_name),
	         errdetail("The ID (%lld µs since 1970) is past what the carrier held before: its REFRESH MATERIALIZED "
	                   "VIEW (CONCURRENTLY too), CLUSTER, ALTER ... SET TABLESPACE, or the CREATE EXTENSION or ALTER "
	                   "EXTENSION UPDATE that made it, is not committed yet, and a rollback would take back the value "
	                   "that carries the ID across pg_upgrade.",
	                   static_cast<long long>(id_time_us)),
	         errhint("Commit the CREATE EXTENSION idtypes or ALTER EXTENSION idtypes UPDATE (or the carrier's REFRESH, "
	                 "CLUSTER or SET TABLESPACE) first, in a transaction or migration of its own (psql without -1), "
	                 "then generate in a later transaction.")));
	pg_unreachable();
}

void carry_slowly(std::int64_t id_time_us, std::int64_t server_mark_us)
{
	if (!watching) {
		CacheRegisterRelcacheCallback(forget_carrier, 0);
		watching = true;
	}
	const Oid oid = carrier_oid();
	cached_relation = oid;
	if (!OidIsValid(oid)) {
		fast_until_us = id_time_us + carrier_margin_us / 2; // none (yet): looked up again half a margin later
		return;
	}
	// The ID in hand is covered while it is at or below durable_us: the lock is then taken only if it can be
	// had at once (a REFRESH holds it: the next ID tries again); beyond, it is waited for (a cancel ends it).
	const bool covered = id_time_us <= durable_us;
	if (covered) {
		if (!ConditionalLockRelationOid(oid, RowExclusiveLock))
			return;
	} else {
		LockRelationOid(oid, RowExclusiveLock);
	}
	Relation relation = relation_open(oid, NoLock);
	const Seen seen = read_or_raise(relation, id_time_us, server_mark_us + carrier_margin_us);
	relation_close(relation, NoLock);
	UnlockRelationOid(oid, RowExclusiveLock);
	if (seen.provisional) {
		if (!covered)
			report_provisional(id_time_us);
		return; // covered by the committed carrier the cache read; nothing of this one is kept
	}
	if (seen.value < id_time_us)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("idtypes could not write its high-water mark into this database's carrier %s.%s",
		                       carrier_schema, carrier_view_name),
		                errdetail("The carrier holds no row: pg_upgrade could not keep this database's IDs apart."),
		                errhint("Refresh it as its owner: REFRESH MATERIALIZED VIEW %s.%s;", carrier_schema,
		                        carrier_view_name)));
	if (seen.lsn > GetFlushRecPtr(nullptr)) {
		XLogSetAsyncXactLSN(seen.lsn); // the WAL writer flushes it soon
		if (!covered) {
			XLogFlush(seen.lsn);
			durable_us = seen.value;
		}
	} else {
		durable_us = seen.value;
	}
	const std::int64_t near = seen.value - carrier_margin_us / 2;
	fast_until_us = near < durable_us ? near : durable_us;
}

// The value of this database's carrier as its own query sees it (0 while it has none or no row): read for its REFRESH.
std::int64_t current_carrier_value()
{
	const Oid oid = carrier_oid();
	if (!OidIsValid(oid))
		return 0;
	Relation relation = relation_open(oid, AccessShareLock);
	const Seen seen = read_or_raise(relation, INT64_MIN, 0); // INT64_MIN: never near, so never written
	relation_close(relation, AccessShareLock);
	return seen.value > 0 ? seen.value : 0;
}

} // namespace

bool carrier_locked_here()
{
	const Oid oid = carrier_oid();
	if (!OidIsValid(oid))
		return false;
	LOCKTAG tag;
	SET_LOCKTAG_RELATION(tag, MyDatabaseId, oid);
	return lock_held_by_me(&tag, AccessExclusiveLock);
}

void carry_mark(std::int64_t id_time_us, std::int64_t server_mark_us)
{
	if (id_time_us <= fast_until_us || RecoveryInProgress())
		return;
	carry_slowly(id_time_us, server_mark_us);
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_carrier_value);

// The carrier's query: the server's mark plus the margin, never below what the carrier holds (a REFRESH
// before the first ID after pg_upgrade, when the server has no mark yet, keeps the carried value). Reads no
// replication origin, so it works when there is none.
Datum idtypes_carrier_value(PG_FUNCTION_ARGS)
{
	using namespace idtypes::pg;
	const std::int64_t mark =
	    static_cast<std::int64_t>(pg_atomic_read_u64(&attached_state().durable_until_us)) + carrier_margin_us;
	const std::int64_t held = current_carrier_value();
	PG_RETURN_INT64(held > mark ? held : mark);
}

} // extern "C"
