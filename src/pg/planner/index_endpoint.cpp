// The index probe of get_actual_variable_range / get_actual_variable_endpoint (selfuncs.c), for the ID
// types: one descent of the index from the wanted end, an index-only read wherever the visibility map
// says the heap page is all-visible, a heap visit only otherwise.
//
// read_end() is PostgreSQL's get_actual_variable_endpoint (src/backend/utils/adt/selfuncs.c) adapted, under
// the PostgreSQL License:
// Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
// Portions Copyright (c) 1994, Regents of the University of California
#include "pg/planner/index_endpoint.hpp"

extern "C" {
#include "access/genam.h"
#include "access/itup.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "executor/tuptable.h"
#include "optimizer/paths.h"
#include "utils/datum.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
}

namespace idtypes::pg {

namespace {

// How many heap pages of dead or uncommitted entries the probe reads before giving up: PostgreSQL 16's
// VISITED_PAGES_LIMIT. A mass DELETE or a large uncommitted INSERT at the end of the index would otherwise
// make every planning walk all of it (PostgreSQL 15 has no limit; this probe has it on every version).
constexpr int visited_pages_limit = 100;

// The direction that reaches the wanted end of `index`, or NoMovementScanDirection when the index cannot
// answer: not a btree, partial, hypothetical, on another column first, or in another order.
ScanDirection probe_direction(const IndexOptInfo *index, const VariableStatData &vardata, Oid opfamily, bool largest)
{
	if (index->relam != BTREE_AM_OID || index->indpred != NIL || index->hypothetical ||
	    index->sortopfamily == nullptr || index->sortopfamily[0] != opfamily ||
	    !match_index_to_operand(vardata.var, 0, const_cast<IndexOptInfo *>(index)))
		return NoMovementScanDirection;
	return largest != index->reverse_sort[0] ? BackwardScanDirection : ForwardScanDirection;
}

// The first visible value from that end; `out` is copied into `outer`.
bool read_end(Relation heap, Relation index, ScanDirection direction, TupleTableSlot *slot, int16 typlen, bool typbyval,
              MemoryContext outer, Datum &out)
{
	SnapshotData non_vacuumable;
	// entries of rows deleted but not yet removable still count, as in selfuncs.c: otherwise a long
	// transaction would make the probe skip (and read the heap for) every row deleted since it began
	InitNonVacuumableSnapshot(non_vacuumable, GlobalVisTestFor(heap));
	ScanKeyData not_null;
	ScanKeyEntryInitialize(&not_null, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy, InvalidOid, InvalidOid,
	                       InvalidOid, Datum(0));
	IndexScanDesc scan = begin_index_scan(heap, index, &non_vacuumable, 1, 0);
	scan->xs_want_itup = true; // an index-only read
	index_rescan(scan, &not_null, 1, nullptr, 0);
	Buffer vm_buffer = InvalidBuffer;
	BlockNumber last_block = InvalidBlockNumber;
	int visited_pages = 0;
	bool found = false;
	ItemPointer tid;
	while ((tid = index_getnext_tid(scan, direction)) != nullptr) {
		BlockNumber block = ItemPointerGetBlockNumber(tid);
		if (!VM_ALL_VISIBLE(heap, block, &vm_buffer)) {
			if (!index_fetch_heap(scan, slot)) { // no row visible to any snapshot: the next entry
				if (block != last_block) {
					last_block = block;
					if (++visited_pages > visited_pages_limit)
						break;
				}
				continue;
			}
			ExecClearTuple(slot);
		}
		if (scan->xs_itup == nullptr)
			elog(ERROR, "no data returned for index-only scan");
		// An entry that only may match (a lossy index) would need its heap row compared: no answer then,
		// as in selfuncs.c. A btree, the only index probed, never asks for that.
		if (scan->xs_recheck)
			break;
		Datum values[INDEX_MAX_KEYS];
		bool isnull[INDEX_MAX_KEYS];
		index_deform_tuple(scan->xs_itup, scan->xs_itupdesc, values, isnull);
		if (isnull[0])
			break;
		MemoryContext work = MemoryContextSwitchTo(outer);
		out = datumCopy(values[0], typbyval, typlen);
		MemoryContextSwitchTo(work);
		found = true;
		break;
	}
	if (vm_buffer != InvalidBuffer)
		ReleaseBuffer(vm_buffer);
	index_endscan(scan);
	return found;
}

} // namespace

bool actual_end(PlannerInfo *root, const VariableStatData &vardata, Oid opfamily, bool largest, Datum &out)
{
	RelOptInfo *rel = vardata.rel;
	if (rel == nullptr || rel->indexlist == NIL || vardata.var == nullptr)
		return false;
	RangeTblEntry *rte = root->simple_rte_array[rel->relid];
	// a partitioned table's indexes hold nothing; an inheritance parent's hold its own rows, not its children's
	if (rte->rtekind != RTE_RELATION || rte->relkind == RELKIND_PARTITIONED_TABLE || rte->inh)
		return false;
	ListCell *lc;
	foreach (lc, rel->indexlist) {
		auto *index = static_cast<IndexOptInfo *>(lfirst(lc));
		ScanDirection direction = probe_direction(index, vardata, opfamily, largest);
		if (direction == NoMovementScanDirection)
			continue;
		MemoryContext outer = CurrentMemoryContext;
		MemoryContext work = AllocSetContextCreate(outer, "idtypes actual_end", ALLOCSET_SMALL_SIZES);
		MemoryContextSwitchTo(work);
		// the planner holds a lock on the table and its indexes already
		Relation heap = table_open(rte->relid, NoLock);
		Relation index_rel = index_open(index->indexoid, NoLock);
		TupleTableSlot *slot = table_slot_create(heap, nullptr);
		int16 typlen;
		bool typbyval;
		get_typlenbyval(vardata.atttype, &typlen, &typbyval);
		bool found = read_end(heap, index_rel, direction, slot, typlen, typbyval, outer, out);
		ExecDropSingleTupleTableSlot(slot);
		index_close(index_rel, NoLock);
		table_close(heap, NoLock);
		MemoryContextSwitchTo(outer);
		MemoryContextDelete(work);
		return found; // the first matching index answers, as in selfuncs.c
	}
	return false;
}

} // namespace idtypes::pg
