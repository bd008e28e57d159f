// A carrier's row: two bigint columns, mark and writer (1.3's table and 1.4's materialized view alike),
// not null, so 8-byte aligned in the tuple's data with no gap: a tuple of exactly two attributes and 16
// bytes of data, whatever the relation's pg_class row counts (1.3's table may have had a column added and
// dropped: its rows written before keep their two). The rows of the extension's other member tables
// (adoption's state: three attributes or more, or nulls) are never taken for one. A row counts only if the
// reader's snapshot sees it (a rolled-back or deleted row of 1.3's table, which any role with a table grant
// could write, never does); the launcher and the writing session see the same rows.
#include "pg/mark/carrier_row.hpp"

#include <cstring>

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/xact.h"
}

namespace idtypes::pg {

namespace {

// The data of the page's n-th item if it is a tuple of the carrier's shape that `snapshot` sees, else null.
char *visible_row(Page page, Buffer buffer, OffsetNumber n, Oid relation, Snapshot snapshot)
{
	ItemId item = PageGetItemId(page, n);
	if (!ItemIdIsNormal(item))
		return nullptr;
	HeapTupleData tuple;
	tuple.t_data = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
	tuple.t_len = ItemIdGetLength(item);
	tuple.t_tableOid = relation;
	ItemPointerSet(&tuple.t_self, BufferGetBlockNumber(buffer), n);
	if (HeapTupleHeaderGetNatts(tuple.t_data) != carrier_columns || (tuple.t_data->t_infomask & HEAP_HASNULL) != 0 ||
	    tuple.t_data->t_hoff + carrier_columns * sizeof(std::int64_t) != tuple.t_len)
		return nullptr;
	if (!HeapTupleSatisfiesVisibility(&tuple, snapshot, buffer))
		return nullptr;
	return reinterpret_cast<char *>(tuple.t_data) + tuple.t_data->t_hoff;
}

OffsetNumber last_item(Page page) { return PageIsNew(page) ? InvalidOffsetNumber : PageGetMaxOffsetNumber(page); }

} // namespace

std::int64_t visible_mark(Page page, Buffer buffer, Oid relation, Snapshot snapshot)
{
	std::int64_t mark = no_row;
	for (OffsetNumber n = FirstOffsetNumber; n <= last_item(page); n++) {
		const char *row = visible_row(page, buffer, n, relation, snapshot);
		std::int64_t value;
		if (row != nullptr && (std::memcpy(&value, row, sizeof value), value > mark))
			mark = value;
	}
	return mark;
}

bool raise_visible_marks(Page page, Page target, Buffer buffer, Oid relation, Snapshot snapshot, std::int64_t mark)
{
	bool changed = false;
	for (OffsetNumber n = FirstOffsetNumber; n <= last_item(page); n++) {
		const char *row = visible_row(page, buffer, n, relation, snapshot);
		std::int64_t value;
		if (row == nullptr || (std::memcpy(&value, row, sizeof value), value >= mark))
			continue;
		std::memcpy(target + (row - page), &mark, sizeof mark); // the same offset in the record's copy
		changed = true;
	}
	return changed;
}

bool changed_by_this_transaction(Page page)
{
	for (OffsetNumber n = FirstOffsetNumber; n <= last_item(page); n++) {
		ItemId item = PageGetItemId(page, n);
		if (!ItemIdIsNormal(item))
			continue;
		auto header = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, item));
		const TransactionId xmax = HeapTupleHeaderGetRawXmax(header);
		if (TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetRawXmin(header)) ||
		    ((header->t_infomask & HEAP_XMAX_IS_MULTI) == 0 && TransactionIdIsCurrentTransactionId(xmax)))
			return true;
	}
	return false;
}

} // namespace idtypes::pg
