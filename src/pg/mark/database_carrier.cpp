// Reads another database's carrier as CREATE DATABASE (the WAL_LOG strategy) reads its template without
// connecting to it: that database's pg_class through its relation mapper, every page by
// ReadBufferWithoutRelcache under a lock on the relation, each tuple judged by an MVCC snapshot taken after
// the lock. The approach and the page loop follow PostgreSQL's src/backend/commands/dbcommands.c
// (ScanSourceDatabasePgClass and ScanSourceDatabasePgClassPage):
//   Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
//   Portions Copyright (c) 1994, Regents of the University of California
// The carrier counts only where idtypes is installed (pg_extension), under its name (idtypes_internal.high_water,
// or 1.3's idtypes_high_water in the extension's schema), and owned by the extension's owner or a superuser:
// a relation that a database or schema owner made under that name (where the extension's own is missing)
// is never read. One database at a time, its locks released before the next, so that a launcher reading a
// thousand databases holds a handful of locks.
#include "pg/mark/database_carrier.hpp"

#include "pg/mark/carrier_row.hpp"
#include "pg/mark/older_stores.hpp"

#include <algorithm>
#include <cstring>

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "catalog/catalog.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_namespace.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace idtypes::pg {

namespace {

// Calls visit(tuple) for every tuple of the relation file that `snapshot` sees, each page read under a share
// lock (the caller holds a lock on the relation).
template <typename Visit>
void for_each_visible(RelationFile file, Oid relation, Snapshot snapshot, BufferAccessStrategy strategy, Visit &visit)
{
	const BlockNumber blocks = relation_file_blocks(file);
	for (BlockNumber block = 0; block < blocks; block++) {
		CHECK_FOR_INTERRUPTS();
		Buffer buffer = ReadBufferWithoutRelcache(file, MAIN_FORKNUM, block, RBM_NORMAL, strategy, true);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		Page page = BufferGetPage(buffer);
		const OffsetNumber last = PageIsNew(page) ? InvalidOffsetNumber : PageGetMaxOffsetNumber(page);
		for (OffsetNumber n = FirstOffsetNumber; n <= last; n++) {
			ItemId item = PageGetItemId(page, n);
			if (!ItemIdIsNormal(item))
				continue;
			HeapTupleData tuple;
			ItemPointerSet(&tuple.t_self, block, n);
			tuple.t_data = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
			tuple.t_len = ItemIdGetLength(item);
			tuple.t_tableOid = relation;
			if (HeapTupleSatisfiesVisibility(&tuple, snapshot, buffer))
				visit(tuple, page, buffer);
		}
		UnlockReleaseBuffer(buffer);
	}
}

// A relation of the database being read, as its pg_class row places it.
struct Place {
	Oid oid = InvalidOid;
	Oid file_number = InvalidOid;
	Oid tablespace = InvalidOid;
	Oid schema = InvalidOid;
	Oid owner = InvalidOid;
};

constexpr int max_candidates = 8;

// What one pass over pg_class finds: the files of pg_extension and pg_namespace, and the relations named as
// a carrier (schema and owner checked later).
struct ClassScan {
	Place extension_catalog, namespace_catalog;
	Place candidates[max_candidates];
	int candidate_count = 0;
	void operator()(HeapTupleData &tuple, Page, Buffer)
	{
		auto form = reinterpret_cast<Form_pg_class>(GETSTRUCT(&tuple));
		const Place place{form->oid, form->relfilenode, form->reltablespace, form->relnamespace, form->relowner};
		if (form->oid == ExtensionRelationId)
			extension_catalog = place;
		else if (form->oid == NamespaceRelationId)
			namespace_catalog = place;
		else if (((form->relkind == RELKIND_MATVIEW && std::strcmp(NameStr(form->relname), carrier_view_name) == 0) ||
		          (form->relkind == RELKIND_RELATION && std::strcmp(NameStr(form->relname), carrier_table_1_3) == 0)) &&
		         form->relpersistence == RELPERSISTENCE_PERMANENT && candidate_count < max_candidates)
			candidates[candidate_count++] = place;
	}
};

struct ExtensionScan {
	bool found = false;
	Oid owner = InvalidOid;
	Oid schema = InvalidOid;
	void operator()(HeapTupleData &tuple, Page, Buffer)
	{
		auto form = reinterpret_cast<Form_pg_extension>(GETSTRUCT(&tuple));
		if (std::strcmp(NameStr(form->extname), "idtypes") == 0) {
			found = true;
			owner = form->extowner;
			schema = form->extnamespace;
		}
	}
};

struct NamespaceScan {
	Oid internal = InvalidOid;
	void operator()(HeapTupleData &tuple, Page, Buffer)
	{
		auto form = reinterpret_cast<Form_pg_namespace>(GETSTRUCT(&tuple));
		if (std::strcmp(NameStr(form->nspname), carrier_schema) == 0)
			internal = form->oid;
	}
};

// The database being read: its locks, taken and released together.
struct Reading {
	Oid database;
	Oid tablespace;
	char *path;
	BufferAccessStrategy strategy;
	LockRelId locked[max_candidates + 3];
	int lock_count = 0;

	void lock(Oid relation)
	{
		LockRelId id{relation, database};
		LockRelationId(&id, AccessShareLock);
		locked[lock_count++] = id;
	}
	void unlock_all()
	{
		while (lock_count > 0)
			UnlockRelationId(&locked[--lock_count], AccessShareLock);
	}
	RelationFile file(const Place &place, Oid file_number) const
	{
		return relation_file(OidIsValid(place.tablespace) ? place.tablespace : tablespace, database, file_number);
	}
	// pg_class, seen by a snapshot taken now (after the locks held)
	ClassScan scan_class()
	{
		ClassScan found;
		for_each_visible(relation_file(tablespace, database, mapped_file_number(path, RelationRelationId)),
		                 RelationRelationId, GetLatestSnapshot(), strategy, found);
		return found;
	}
};

} // namespace

std::int64_t read_database_carrier(Oid database, Oid tablespace)
{
	LockSharedObject(DatabaseRelationId, database, 0, AccessShareLock);
	if (!SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(database))) { // dropped meanwhile
		UnlockSharedObject(DatabaseRelationId, database, 0, AccessShareLock);
		return 0;
	}
	Reading r{database, tablespace, GetDatabasePath(database, tablespace), GetAccessStrategy(BAS_BULKREAD), {}, 0};
	r.lock(RelationRelationId);
	ClassScan classes = r.scan_class();
	std::int64_t mark = 0;
	if (classes.candidate_count > 0 && OidIsValid(classes.extension_catalog.oid) &&
	    OidIsValid(classes.namespace_catalog.oid)) {
		r.lock(ExtensionRelationId);
		r.lock(NamespaceRelationId);
		ExtensionScan extension;
		for_each_visible(r.file(classes.extension_catalog, classes.extension_catalog.file_number), ExtensionRelationId,
		                 GetLatestSnapshot(), r.strategy, extension);
		NamespaceScan schemas;
		for_each_visible(r.file(classes.namespace_catalog, classes.namespace_catalog.file_number), NamespaceRelationId,
		                 GetLatestSnapshot(), r.strategy, schemas);
		Oid carriers[max_candidates];
		int carrier_count = 0;
		for (int i = 0; extension.found && i < classes.candidate_count; i++) {
			const Place &c = classes.candidates[i];
			const bool named = c.schema == schemas.internal || c.schema == extension.schema;
			if (named && (c.owner == extension.owner || superuser_arg(c.owner))) {
				r.lock(c.oid);
				carriers[carrier_count++] = c.oid;
			}
		}
		// the carriers' files as pg_class gives them now that they are locked (a REFRESH that committed
		// before the lock was granted gave the carrier a new file)
		if (carrier_count > 0) {
			classes = r.scan_class();
			for (int i = 0; i < classes.candidate_count; i++) {
				const Place &c = classes.candidates[i];
				if (std::find(carriers, carriers + carrier_count, c.oid) == carriers + carrier_count)
					continue;
				Snapshot snapshot = GetLatestSnapshot();
				const RelationFile file = r.file(c, c.file_number);
				const BlockNumber blocks = relation_file_blocks(file);
				for (BlockNumber block = 0; block < blocks; block++) {
					Buffer buffer = ReadBufferWithoutRelcache(file, MAIN_FORKNUM, block, RBM_NORMAL, r.strategy, true);
					LockBuffer(buffer, BUFFER_LOCK_SHARE);
					const std::int64_t value = visible_mark(BufferGetPage(buffer), buffer, c.oid, snapshot);
					UnlockReleaseBuffer(buffer);
					if (value > mark)
						mark = value;
				}
			}
		}
	}
	r.unlock_all();
	UnlockSharedObject(DatabaseRelationId, database, 0, AccessShareLock);
	FreeAccessStrategy(r.strategy);
	return mark;
}

} // namespace idtypes::pg
