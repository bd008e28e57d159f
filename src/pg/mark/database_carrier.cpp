// Reads another database's carrier as CREATE DATABASE (the WAL_LOG strategy) reads its template without
// connecting to it: that database's pg_class through its relation mapper, every page by
// ReadBufferWithoutRelcache under a lock on the relation, each tuple judged by an MVCC snapshot taken after
// the lock. The approach and the page loop follow PostgreSQL's src/backend/commands/dbcommands.c
// (ScanSourceDatabasePgClass and ScanSourceDatabasePgClassPage):
//   Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
//   Portions Copyright (c) 1994, Regents of the University of California
// What is read, and why so:
// - The carrier is the extension's own relation: the member of idtypes (its pg_depend entry of type 'e' on
//   the idtypes row of pg_extension) that is a permanent materialized view (1.4 and later) or table (1.3),
//   whose rows of the carrier's shape (two bigints) are read: the extension's other member tables, adoption's
//   state, hold none.
//   No name decides: a relation that anyone made under the carrier's name, in any schema, by any owner, is
//   not a member and is never read; and no count limits the relations looked at before that test.
// - Every lock before the file it protects is located: the database (which DROP DATABASE and ALTER DATABASE
//   SET TABLESPACE take exclusively) before its tablespace is read, pg_class before its relation mapper,
//   pg_extension and pg_depend before pg_class gives their files, the carrier before its pg_class row is
//   read again (a VACUUM FULL, CLUSTER or REFRESH committed meanwhile gave it a new file).
// - No lock is waited for unless asked (`wait`): the launcher reads every other database first, then waits,
//   bounded, for those a session was holding (an ALTER DATABASE in an open transaction).
// - One database at a time, its locks released before the next, so that a launcher reading a thousand
//   databases holds a handful of locks.
#include "pg/mark/database_carrier.hpp"

#include "pg/mark/carrier_row.hpp"

#include <cstring>

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "catalog/catalog.h"
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "storage/bufmgr.h"
#include "storage/lock.h"
#include "utils/inval.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace idtypes::pg {

namespace {

// Calls visit(tuple) for every tuple of block `block` of the relation file that `snapshot` sees, the page
// read under a share lock (the caller holds a lock on the relation).
template <typename Visit>
void visit_block(RelationFile file, Oid relation, BlockNumber block, Snapshot snapshot, BufferAccessStrategy strategy,
                 Visit &visit)
{
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
			visit(tuple);
	}
	UnlockReleaseBuffer(buffer);
}

template <typename Visit>
void for_each_visible(RelationFile file, Oid relation, Snapshot snapshot, BufferAccessStrategy strategy, Visit &visit)
{
	const BlockNumber blocks = relation_file_blocks(file);
	for (BlockNumber block = 0; block < blocks; block++)
		visit_block(file, relation, block, snapshot, strategy, visit);
}

// A relation of the database being read, as its pg_class row places it, and where that row is.
struct Place {
	Oid oid = InvalidOid;
	Oid file_number = InvalidOid;
	Oid tablespace = InvalidOid;
	ItemPointerData row{};
};

Place place_of(const HeapTupleData &tuple)
{
	auto form = reinterpret_cast<Form_pg_class>(GETSTRUCT(&tuple));
	return Place{form->oid, form->relfilenode, form->reltablespace, tuple.t_self};
}

// One pass over pg_class: the files of pg_extension and pg_depend, and every permanent table and
// materialized view of two columns or more (relnatts counts dropped columns too: 1.3's table may have had one
// added and dropped). Which of them belong to idtypes, pg_depend says; of those, only rows of the carrier's
// shape are read (carrier_row.cpp): the extension's other member tables, adoption's state, have none.
struct ClassScan {
	Place extension_catalog, depend_catalog;
	List *relations = NIL; // of Place
	void operator()(const HeapTupleData &tuple)
	{
		auto form = reinterpret_cast<Form_pg_class>(GETSTRUCT(&tuple));
		if (form->oid == ExtensionRelationId) {
			extension_catalog = place_of(tuple);
		} else if (form->oid == DependRelationId) {
			depend_catalog = place_of(tuple);
		} else if ((form->relkind == RELKIND_MATVIEW || form->relkind == RELKIND_RELATION) &&
		           form->relpersistence == RELPERSISTENCE_PERMANENT && form->relnatts >= carrier_columns) {
			auto *place = static_cast<Place *>(palloc(sizeof(Place)));
			*place = place_of(tuple);
			relations = lappend(relations, place);
		}
	}
};

// One relation's pg_class row: `place` updated when the row at place.row is still that relation's
// current one (`current`), or, when no row is given, wherever it is.
struct FindClass {
	Place &place;
	bool current = false;
	void operator()(const HeapTupleData &tuple)
	{
		auto form = reinterpret_cast<Form_pg_class>(GETSTRUCT(&tuple));
		if (form->oid == place.oid && (!ItemPointerIsValid(&place.row) ||
		                               ItemPointerEquals(const_cast<ItemPointer>(&tuple.t_self), &place.row))) {
			place = place_of(tuple);
			current = true;
		}
	}
};

struct ExtensionScan {
	Oid extension = InvalidOid;
	void operator()(const HeapTupleData &tuple)
	{
		auto form = reinterpret_cast<Form_pg_extension>(GETSTRUCT(&tuple));
		if (std::strcmp(NameStr(form->extname), "idtypes") == 0)
			extension = form->oid;
	}
};

// The relations that are members of the extension (pg_depend, deptype 'e').
struct MemberScan {
	Oid extension;
	List *relations = NIL; // of Oid
	void operator()(const HeapTupleData &tuple)
	{
		auto form = reinterpret_cast<Form_pg_depend>(GETSTRUCT(&tuple));
		if (form->deptype == DEPENDENCY_EXTENSION && form->refclassid == ExtensionRelationId &&
		    form->refobjid == extension && form->classid == RelationRelationId && form->objsubid == 0)
			relations = lappend_oid(relations, form->objid);
	}
};

// The database being read: its locks, taken and released together.
struct Reading {
	Oid database;
	Oid tablespace = InvalidOid;
	BufferAccessStrategy strategy = nullptr;
	List *locks = NIL; // of LOCKTAG

	bool take(const LOCKTAG &tag, bool wait)
	{
		if (LockAcquire(&tag, AccessShareLock, false, !wait) == LOCKACQUIRE_NOT_AVAIL)
			return false;
		auto *kept = static_cast<LOCKTAG *>(palloc(sizeof(LOCKTAG)));
		*kept = tag;
		locks = lappend(locks, kept);
		return true;
	}
	bool take_relation(Oid relation, bool wait)
	{
		LOCKTAG tag;
		SET_LOCKTAG_RELATION(tag, database, relation);
		return take(tag, wait);
	}
	void release_all()
	{
		ListCell *cell;
		foreach (cell, locks)
			LockRelease(static_cast<LOCKTAG *>(lfirst(cell)), AccessShareLock, false);
		list_free_deep(locks);
		locks = NIL;
		if (strategy != nullptr)
			FreeAccessStrategy(strategy);
		strategy = nullptr;
	}
	RelationFile file(const Place &place) const
	{
		return relation_file(OidIsValid(place.tablespace) ? place.tablespace : tablespace, database, place.file_number);
	}
};

// The largest mark the carrier's rows hold (no_row when none), its file located after its lock.
std::int64_t carrier_mark(Reading &r, const Place &carrier)
{
	Snapshot snapshot = GetLatestSnapshot();
	const RelationFile file = r.file(carrier);
	const BlockNumber blocks = relation_file_blocks(file);
	std::int64_t mark = no_row;
	for (BlockNumber block = 0; block < blocks; block++) {
		CHECK_FOR_INTERRUPTS();
		Buffer buffer = ReadBufferWithoutRelcache(file, MAIN_FORKNUM, block, RBM_NORMAL, r.strategy, true);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		const std::int64_t value = visible_mark(BufferGetPage(buffer), buffer, carrier.oid, snapshot);
		UnlockReleaseBuffer(buffer);
		if (value > mark)
			mark = value;
	}
	return mark;
}

// Under the locks on the database and on its pg_class, pg_extension and pg_depend.
DatabaseCarrier read_locked(Reading &r, bool wait, const char **waiting_for)
{
	r.strategy = GetAccessStrategy(BAS_BULKREAD);
	Place pg_class{RelationRelationId, InvalidOid, InvalidOid, {}};
	pg_class.file_number = mapped_file_number(GetDatabasePath(r.database, r.tablespace), RelationRelationId);
	const RelationFile class_file = r.file(pg_class);
	ClassScan classes;
	for_each_visible(class_file, RelationRelationId, GetLatestSnapshot(), r.strategy, classes);
	if (!OidIsValid(classes.extension_catalog.oid) || !OidIsValid(classes.depend_catalog.oid))
		return DatabaseCarrier{0, nullptr};
	ExtensionScan extension;
	for_each_visible(r.file(classes.extension_catalog), ExtensionRelationId, GetLatestSnapshot(), r.strategy,
	                 extension);
	if (!OidIsValid(extension.extension))
		return DatabaseCarrier{0, nullptr};
	MemberScan members{extension.extension};
	for_each_visible(r.file(classes.depend_catalog), DependRelationId, GetLatestSnapshot(), r.strategy, members);
	std::int64_t mark = 0;
	ListCell *cell;
	foreach (cell, classes.relations) {
		Place carrier = *static_cast<Place *>(lfirst(cell));
		if (!list_member_oid(members.relations, carrier.oid))
			continue;
		*waiting_for = "its carrier";
		if (!r.take_relation(carrier.oid, wait))
			return DatabaseCarrier{0, *waiting_for};
		// its row read again now that it is locked: still the current one (one page), else found again
		FindClass again{carrier};
		visit_block(class_file, RelationRelationId, ItemPointerGetBlockNumber(&carrier.row), GetLatestSnapshot(),
		            r.strategy, again);
		if (!again.current) {
			carrier.row = ItemPointerData{};
			for_each_visible(class_file, RelationRelationId, GetLatestSnapshot(), r.strategy, again);
			if (!again.current) // dropped meanwhile
				continue;
		}
		const std::int64_t value = carrier_mark(r, carrier);
		if (value > mark)
			mark = value;
	}
	return DatabaseCarrier{mark, nullptr};
}

} // namespace

DatabaseCarrier read_database_carrier(Oid database, bool wait, const char **waiting_for)
{
	Reading r{database};
	LOCKTAG tag;
	SET_LOCKTAG_OBJECT(tag, InvalidOid, DatabaseRelationId, database, 0);
	*waiting_for = "the database itself";
	if (!r.take(tag, wait))
		return DatabaseCarrier{0, *waiting_for};
	// a DROP DATABASE or ALTER DATABASE SET TABLESPACE committed before the lock was granted: seen now
	AcceptInvalidationMessages();
	HeapTuple row = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(database));
	if (HeapTupleIsValid(row)) {
		auto form = reinterpret_cast<Form_pg_database>(GETSTRUCT(row));
		if (form->datconnlimit != -2) // not left invalid by an interrupted DROP DATABASE
			r.tablespace = form->dattablespace;
		ReleaseSysCache(row);
	}
	DatabaseCarrier result{0, nullptr};
	if (OidIsValid(r.tablespace)) {
		static constexpr struct {
			Oid relation;
			const char *name;
		} catalogs[] = {{RelationRelationId, "its pg_class"},
		                {ExtensionRelationId, "its pg_extension"},
		                {DependRelationId, "its pg_depend"}};
		bool locked = true;
		for (const auto &catalog : catalogs) {
			*waiting_for = catalog.name;
			if (!r.take_relation(catalog.relation, wait)) {
				result.held = catalog.name;
				locked = false;
				break;
			}
		}
		if (locked)
			result = read_locked(r, wait, waiting_for);
	}
	r.release_all();
	return result;
}

} // namespace idtypes::pg
