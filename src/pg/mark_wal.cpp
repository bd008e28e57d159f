// Why generic WAL on a row of the extension's own table:
// - A standby must replay the record without idtypes (a standby that does not load the library must never
//   fail to replay): a custom resource manager cannot be it. Generic WAL (access/generic_xlog.h) is
//   replayed by core PostgreSQL on any server, it needs no transaction id, so it works in read-only
//   transactions and on every call path a generator takes, and it can be written from a critical section's
//   preparation like any buffer change.
// - A sequence would do the same through its own WAL, but nextval()/setval() are refused in read-only
//   transactions and would need an xid; an in-place update of a catalog row (heap_inplace_update) changed
//   its API across the minor releases of late 2024. The row here is a plain heap tuple, changed in place
//   (only its 8 data bytes, the page stays a valid heap page), so `SELECT mark FROM idtypes_high_water`
//   shows the replicated mark.
// - WAL order makes it exact: the record is inserted before the mark is published in shared memory, so
//   before any ID past the old mark is issued, and so before the commit record of any row holding such an
//   ID; a standby receives WAL in order, so a committed, replicated row's IDs are always below a mark it
//   holds. The record is not flushed on its own: a commit after it flushes it, and an ID in no commit is in
//   no replicated row. The cost: one small record per mark write (reserved 200 ms ahead), one 8 kB page
//   image after each checkpoint.
// - A relation lives in one database, while the generator state is the server's. Each database's row holds
//   the marks written by sessions of that database, with the generator state that wrote them (a random
//   number drawn at the state's start). A session applies its database's row (raises the server's state
//   past it, unless its own state wrote it) before it generates anything, at every start and after a
//   promotion; so after a failover a database never repeats an ID it issued on the old primary, and the
//   server's state (and its mark file, at the next write) is past every database whose sessions generated
//   since. A database B can
//   repeat an ID that database A issued on the old primary only while no session of A has generated on the
//   new primary and B's clock is behind A's last IDs: docs/failover.md says what failover tooling runs
//   (`SELECT idtypes_identity()` in every database) to close that.
// - pg_dump leaves the row out (the table is not extension configuration): a restored database starts
//   from the new server's own mark, as any new server. pg_upgrade carries the table's file, so the first
//   session of each database on the upgraded cluster starts past it. A point-in-time restore replays the
//   records up to its target: the restored server starts past every ID of the rows it restored.
#include "pg/mark_wal.hpp"

#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "storage/bufmgr.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
}

namespace idtypes::pg {

namespace {

constexpr const char *mark_table = "idtypes_high_water";

// The schema idtypes is installed in (PostgreSQL 15 exports no get_extension_schema).
Oid extension_schema(Oid extension)
{
	Relation catalog = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(extension));
	SysScanDesc scan = systable_beginscan(catalog, ExtensionOidIndexId, true, nullptr, 1, &key);
	HeapTuple tuple = systable_getnext(scan);
	Oid schema =
	    HeapTupleIsValid(tuple) ? reinterpret_cast<Form_pg_extension>(GETSTRUCT(tuple))->extnamespace : InvalidOid;
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	return schema;
}

// This database's mark table: the one of that name in idtypes' schema that belongs to idtypes (a table a
// user made under that name is never read or written).
Oid mark_table_oid()
{
	Oid extension = get_extension_oid("idtypes", true);
	if (!OidIsValid(extension))
		return InvalidOid;
	Oid schema = extension_schema(extension);
	Oid table = OidIsValid(schema) ? get_relname_relid(mark_table, schema) : InvalidOid;
	if (!OidIsValid(table) || getExtensionOfObject(RelationRelationId, table) != extension)
		return InvalidOid;
	return table;
}

// The row's two columns, as they lie in the tuple's data (both bigint, not null: 8-byte aligned, no gap).
struct RowData {
	std::int64_t mark;
	std::int64_t writer;
};

// Where the row's data is on the table's first page: the data of its first tuple (the row the extension's
// script inserts; nothing else writes the table). Null when the page holds no such tuple.
char *mark_bytes(Page page)
{
	if (PageIsNew(page) || PageGetMaxOffsetNumber(page) < FirstOffsetNumber)
		return nullptr;
	ItemId item = PageGetItemId(page, FirstOffsetNumber);
	if (!ItemIdIsNormal(item))
		return nullptr;
	auto tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
	if (HeapTupleHeaderGetNatts(tuple) < 2 || (tuple->t_infomask & HEAP_HASNULL) != 0 ||
	    tuple->t_hoff + sizeof(RowData) > ItemIdGetLength(item))
		return nullptr;
	return reinterpret_cast<char *>(tuple) + tuple->t_hoff;
}

[[noreturn]] void report_missing_row(Relation table)
{
	ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
	                errmsg("the row of idtypes' replicated high-water mark is missing from table \"%s\"",
	                       RelationGetRelationName(table)),
	                errdetail("Without it, a standby promoted from this server could issue IDs this server issued."),
	                errhint("Do not change the table. To recreate the row: TRUNCATE %s; INSERT INTO %s VALUES (0, 0);",
	                        RelationGetRelationName(table), RelationGetRelationName(table))));
	pg_unreachable();
}

} // namespace

MarkWal prepare_mark_wal()
{
	MarkWal wal;
	if (RecoveryInProgress())
		return wal;
	Oid table = mark_table_oid();
	if (!OidIsValid(table))
		return wal;
	wal.relation = table_open(table, RowExclusiveLock);
	if (RelationGetNumberOfBlocks(wal.relation) == 0)
		report_missing_row(wal.relation);
	wal.buffer = ReadBuffer(wal.relation, 0);
	// checked now, while errors may be raised: with the page pinned until the write, pruning (which needs
	// the only pin) cannot remove the tuple in between
	LockBuffer(wal.buffer, BUFFER_LOCK_SHARE);
	bool found = mark_bytes(BufferGetPage(wal.buffer)) != nullptr;
	LockBuffer(wal.buffer, BUFFER_LOCK_UNLOCK);
	if (!found)
		report_missing_row(wal.relation);
	wal.record = GenericXLogStart(wal.relation);
	return wal;
}

void write_mark_wal(MarkWal &wal, std::int64_t mark_us, std::int64_t writer) noexcept
{
	if (wal.record == nullptr)
		return;
	LockBuffer(wal.buffer, BUFFER_LOCK_EXCLUSIVE);
	Page page = GenericXLogRegisterBuffer(wal.record, wal.buffer, 0);
	char *bytes = mark_bytes(page); // found by prepare_mark_wal, and kept by the pin since
	RowData row{0, 0};
	if (bytes != nullptr)
		std::memcpy(&row, bytes, sizeof row);
	if (bytes != nullptr && mark_us > row.mark) {
		row = RowData{mark_us, writer};
		std::memcpy(bytes, &row, sizeof row);
		GenericXLogFinish(wal.record);
	} else {
		GenericXLogAbort(wal.record);
	}
	wal.record = nullptr;
	LockBuffer(wal.buffer, BUFFER_LOCK_UNLOCK);
}

void finish_mark_wal(MarkWal &wal)
{
	if (wal.record != nullptr)
		GenericXLogAbort(wal.record);
	if (BufferIsValid(wal.buffer))
		ReleaseBuffer(wal.buffer);
	if (wal.relation != nullptr)
		table_close(wal.relation, NoLock);
	wal = MarkWal{};
}

ReplicatedMark read_replicated_mark()
{
	Oid table = mark_table_oid();
	if (!OidIsValid(table))
		return ReplicatedMark{0, 0};
	Relation relation = table_open(table, AccessShareLock);
	RowData row{0, 0};
	if (RelationGetNumberOfBlocks(relation) > 0) {
		Buffer buffer = ReadBuffer(relation, 0);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		const char *bytes = mark_bytes(BufferGetPage(buffer));
		if (bytes != nullptr)
			std::memcpy(&row, bytes, sizeof row);
		UnlockReleaseBuffer(buffer);
	}
	table_close(relation, NoLock);
	return ReplicatedMark{row.mark, row.writer};
}

} // namespace idtypes::pg
