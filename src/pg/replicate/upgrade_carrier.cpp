// Why a carrier, and why this one:
// - pg_upgrade carries relation files, not the replication origins nor the mark file (which belong to the
//   old cluster's data directory). So each database keeps the server's mark in a relation of its own:
//   after pg_upgrade the origin is missing, and the generator state starts past every database's carrier
//   before any ID is issued (upgrade_rebuild.cpp). The carriers are what carry the mark across pg_upgrade.
// - Outside the application's schemas: the schema idtypes_internal, created by the extension (so not
//   owned by the owner of the schema idtypes is installed in), which schema tools do not list.
// - A materialized view, not a table: no INSERT, UPDATE, DELETE, TRUNCATE or LOCK TABLE applies to one, so
//   no table grant (GRANT ... ON ALL TABLES, pg_write_all_data) can change, empty or block it; its query
//   (the origin's progress when it is created or refreshed) runs only for its owner or a role with MAINTAIN
//   on it, and gives the server's mark, never a chosen one. No privilege but its owner's is granted.
// - Written in place (its two bigint data bytes; the page stays a valid heap page) by a generic WAL record,
//   which core replays on any standby without the library and which needs no transaction id (it works in
//   read-only transactions). The row is found by its contents (every tuple of the carrier's shape on its
//   first page; there is one), not by a line pointer.
// - Written by the session that issues under a server mark its database's carrier does not hold yet
//   (whichever session moved the server's mark), so that every database's carrier is at or past the IDs
//   its sessions issued, up to a skipped write: the lock is only taken if it can be had at once (a REFRESH
//   or VACUUM FULL holds it), and released right after the write; the origin is the real mark.
// - A database whose idtypes is 1.3 (the library updated, ALTER EXTENSION UPDATE not run yet) carries the
//   mark in 1.3's table idtypes_high_water, the same two columns: read and written the same way.
#include "pg/replicate/upgrade_carrier.hpp"

#include "pg/common/postgres.hpp"

#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
}

namespace idtypes::pg {

namespace {

constexpr const char *carrier_schema = "idtypes_internal";
constexpr const char *carrier_name = "high_water";
constexpr const char *old_table_name = "idtypes_high_water"; // idtypes 1.3

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

// This database's carrier: idtypes_internal.high_water, else 1.3's table, and only one that belongs to
// idtypes (a relation a user made under that name is never read or written).
Oid carrier_oid()
{
	const Oid extension = get_extension_oid("idtypes", true);
	if (!OidIsValid(extension))
		return InvalidOid;
	const Oid internal = get_namespace_oid(carrier_schema, true);
	Oid relation = OidIsValid(internal) ? get_relname_relid(carrier_name, internal) : InvalidOid;
	if (!OidIsValid(relation)) {
		const Oid schema = extension_schema(extension);
		relation = OidIsValid(schema) ? get_relname_relid(old_table_name, schema) : InvalidOid;
	}
	if (!OidIsValid(relation) || getExtensionOfObject(RelationRelationId, relation) != extension)
		return InvalidOid;
	return relation;
}

// The row's two columns, as they lie in the tuple's data (both bigint, not null: 8-byte aligned, no gap).
struct RowData {
	std::int64_t mark;
	std::int64_t writer;
};

// The data of the page's n-th item if it is a tuple of the carrier's shape, else null.
char *row_bytes(Page page, OffsetNumber n)
{
	ItemId item = PageGetItemId(page, n);
	if (!ItemIdIsNormal(item))
		return nullptr;
	auto tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
	if (HeapTupleHeaderGetNatts(tuple) < 2 || (tuple->t_infomask & HEAP_HASNULL) != 0 ||
	    tuple->t_hoff + sizeof(RowData) > ItemIdGetLength(item))
		return nullptr;
	return reinterpret_cast<char *>(tuple) + tuple->t_hoff;
}

OffsetNumber last_item(Page page) { return PageIsNew(page) ? InvalidOffsetNumber : PageGetMaxOffsetNumber(page); }

// The largest mark of the page's rows; 0 when none.
std::int64_t page_mark(Page page)
{
	std::int64_t mark = 0;
	for (OffsetNumber n = FirstOffsetNumber; n <= last_item(page); n++) {
		const char *bytes = row_bytes(page, n);
		RowData row;
		if (bytes != nullptr && (std::memcpy(&row, bytes, sizeof row), row.mark > mark))
			mark = row.mark;
	}
	return mark;
}

// What this session last saw in (or wrote to) its database's carrier: a mark at or below it needs no write.
std::int64_t carried_us = 0;

} // namespace

void carry_mark(std::int64_t, std::int64_t server_mark_us)
{
	const std::int64_t mark_us = server_mark_us;
	if (mark_us <= carried_us || RecoveryInProgress())
		return;
	const Oid oid = carrier_oid();
	if (!OidIsValid(oid)) {
		carried_us = mark_us; // no carrier in this database (yet): looked up again at the mark's next move
		return;
	}
	if (!ConditionalLockRelationOid(oid, RowExclusiveLock))
		return; // a REFRESH, VACUUM FULL or DROP holds it: the next ID tries again
	Relation relation = relation_open(oid, NoLock);
	if (RelationGetNumberOfBlocks(relation) > 0) {
		Buffer buffer = ReadBuffer(relation, 0);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
		GenericXLogState *record = GenericXLogStart(relation);
		Page page = GenericXLogRegisterBuffer(record, buffer, 0);
		bool changed = false;
		for (OffsetNumber n = FirstOffsetNumber; n <= last_item(page); n++) {
			char *bytes = row_bytes(page, n);
			RowData row;
			if (bytes == nullptr || (std::memcpy(&row, bytes, sizeof row), row.mark >= mark_us))
				continue;
			row.mark = mark_us;
			std::memcpy(bytes, &row, sizeof row);
			changed = true;
		}
		if (changed)
			GenericXLogFinish(record);
		else
			GenericXLogAbort(record);
		UnlockReleaseBuffer(buffer);
	}
	relation_close(relation, NoLock);
	UnlockRelationOid(oid, RowExclusiveLock);
	carried_us = mark_us;
}

std::int64_t read_carrier()
{
	const Oid oid = carrier_oid();
	if (!OidIsValid(oid))
		return 0;
	Relation relation = relation_open(oid, AccessShareLock);
	std::int64_t mark = 0;
	if (RelationGetNumberOfBlocks(relation) > 0) {
		Buffer buffer = ReadBuffer(relation, 0);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		mark = page_mark(BufferGetPage(buffer));
		UnlockReleaseBuffer(buffer);
	}
	relation_close(relation, AccessShareLock);
	return mark;
}

} // namespace idtypes::pg
