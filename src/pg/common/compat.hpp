// The PostgreSQL versions idtypes supports, and every API whose signature changed between them, behind one
// name each, so that the code using them has no version check of its own. Included by postgres.hpp after
// PostgreSQL's headers; include postgres.hpp, not this.
#pragma once

#include <cstddef>
#include <cstdlib>

// The supported range, stated once; code for other versions is kept behind PG_VERSION_NUM checks of this
// range only (16 is built by the same code but not tested here: no 16 headers can be had).
#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 200000
#error "idtypes supports PostgreSQL 15 to 19"
#endif

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h" // GETSTRUCT: 19's headers no longer include it along the way
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "storage/bufmgr.h"
#include "storage/lock.h"
#include "storage/lwlock.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/relmapper.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace idtypes::pg {

// An index scan of the planner's kind: no instrumentation (18 added the argument), no scan options (19
// added them).
inline IndexScanDesc begin_index_scan(Relation heap, Relation index, Snapshot snapshot, int nkeys, int norderbys)
{
#if PG_VERSION_NUM >= 190000
	return index_beginscan(heap, index, snapshot, nullptr, nkeys, norderbys, 0);
#elif PG_VERSION_NUM >= 180000
	return index_beginscan(heap, index, snapshot, nullptr, nkeys, norderbys);
#else
	return index_beginscan(heap, index, snapshot, nkeys, norderbys);
#endif
}

#if PG_VERSION_NUM >= 170000
// The named DSM segment `name` of `size` bytes, created and filled by init(memory) once per server.
// 19's registry passes the init callback an argument of the caller's as well; this one needs none.
template <void (*init)(void *)>
void *named_dsm_segment(const char *name, std::size_t size, bool *found)
{
#if PG_VERSION_NUM >= 190000
	return GetNamedDSMSegment(
	    name, size, [](void *memory, void *) { init(memory); }, found, nullptr);
#else
	return GetNamedDSMSegment(name, size, init, found);
#endif
}
#endif

// The cache identifier a syscache invalidation callback receives: an int before 19, an enum from 19.
#if PG_VERSION_NUM >= 190000
using SysCacheId = SysCacheIdentifier;
#else
using SysCacheId = int;
#endif

// The `extra` block of a GUC check hook, which PostgreSQL frees itself: from 16 it must come from
// guc_malloc (GUC memory), before from malloc. Null (after a LOG) when out of memory: the hook then fails.
inline void *guc_extra_alloc(std::size_t size)
{
#if PG_VERSION_NUM >= 160000
	return guc_malloc(LOG, size);
#else
	void *block = std::malloc(size);
	if (block == nullptr)
		ereport(LOG, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	return block;
#endif
}

// A relation's file, named without its relcache entry (another database's: rebuild.cpp): 16 renamed
// RelFileNode to RelFileLocator and the relation mapper's "filenode" to "filenumber"; 17 named backends by
// ProcNumber.
#if PG_VERSION_NUM >= 160000
using RelationFile = RelFileLocator;
inline RelationFile relation_file(Oid tablespace, Oid database, Oid number)
{
	return RelationFile{tablespace, database, static_cast<RelFileNumber>(number)};
}
// The file number the relation mapper of the database in `path` gives a mapped catalog (InvalidOid: none).
inline Oid mapped_file_number(char *path, Oid relation)
{
	return static_cast<Oid>(RelationMapOidToFilenumberForDatabase(path, relation));
}
#else
using RelationFile = RelFileNode;
inline RelationFile relation_file(Oid tablespace, Oid database, Oid number)
{
	return RelationFile{tablespace, database, number};
}
inline Oid mapped_file_number(char *path, Oid relation) { return RelationMapOidToFilenodeForDatabase(path, relation); }
#endif

// The blocks of the main fork of a permanent relation's file.
inline BlockNumber relation_file_blocks(RelationFile file)
{
#if PG_VERSION_NUM >= 170000
	SMgrRelation smgr = smgropen(file, INVALID_PROC_NUMBER);
#else
	SMgrRelation smgr = smgropen(file, InvalidBackendId);
#endif
	const BlockNumber blocks = smgrnblocks(smgr, MAIN_FORKNUM);
	smgrclose(smgr);
	return blocks;
}

// Whether this transaction holds exactly `mode` on `tag` (17 added the argument for "or stronger").
inline bool lock_held_by_me(const LOCKTAG *tag, LOCKMODE mode)
{
#if PG_VERSION_NUM >= 170000
	return LockHeldByMe(tag, mode, false);
#else
	return LockHeldByMe(tag, mode);
#endif
}

// The end of the WAL inserted so far: where the last record ends, which XLogFlush and the synchronous
// standbys can reach. Not GetXLogInsertRecPtr, where the next record starts: when the last record filled its
// page, that is past the next page's header, which is not written yet, and XLogFlush raises XX000 ("xlog
// flush request ... is not satisfied"). 17 has the function; before, its arithmetic (XLogBytePosToEndRecPtr)
// undone from the start position: a start just past a page's header is that page's first byte.
inline XLogRecPtr wal_insert_end()
{
#if PG_VERSION_NUM >= 170000
	return GetXLogInsertEndRecPtr();
#else
	const XLogRecPtr next = GetXLogInsertRecPtr();
	if (XLogSegmentOffset(next, wal_segment_size) == SizeOfXLogLongPHD)
		return next - SizeOfXLogLongPHD;
	if (next % XLOG_BLCKSZ == SizeOfXLogShortPHD)
		return next - SizeOfXLogShortPHD;
	return next;
#endif
}

// Whether the relation's file was replaced in this transaction, not committed yet (REFRESH MATERIALIZED VIEW,
// CLUSTER, VACUUM FULL, ALTER ... SET TABLESPACE, TRUNCATE): a rollback returns to the file before. 16 renamed
// "relfilenode" to "relfilelocator" in the relation cache's fields.
inline bool file_replaced_in_transaction(Relation relation)
{
#if PG_VERSION_NUM >= 160000
	return relation->rd_newRelfilelocatorSubid != InvalidSubTransactionId ||
	       relation->rd_firstRelfilelocatorSubid != InvalidSubTransactionId;
#else
	return relation->rd_newRelfilenodeSubid != InvalidSubTransactionId ||
	       relation->rd_firstRelfilenodeSubid != InvalidSubTransactionId;
#endif
}

// Whether 17's transaction_timeout has expired (an interrupt taken at the next CHECK_FOR_INTERRUPTS): a
// wait that ends at a cancel ends at it too. Never before 17, which has no such timeout.
inline bool transaction_timeout_pending()
{
#if PG_VERSION_NUM >= 170000
	return TransactionTimeoutPending;
#else
	return false;
#endif
}

// PG_RETURN_POINTER(nullptr), for a support function that has no answer: 19's PointerGetDatum(X) is the
// macro `(Datum) (true ? (X) : NULL)`, which C++ refuses for X = nullptr (its NULL is an integer).
inline Datum null_pointer_datum() { return PointerGetDatum(static_cast<void *>(nullptr)); }

} // namespace idtypes::pg
