// The row of a database's carrier of the mark (carrier.cpp says what a carrier is): its names, and the
// visible rows of a carrier's page, read or raised in place. Shared by the session that writes its
// database's carrier and the launcher that reads every database's (rebuild.cpp).
#pragma once

#include <cstdint>

#include "pg/common/postgres.hpp"

extern "C" {
#include "storage/bufpage.h"
#include "utils/snapshot.h"
}

namespace idtypes::pg {

inline constexpr const char *carrier_schema = "idtypes_internal";
inline constexpr const char *carrier_view_name = "high_water"; // a materialized view (idtypes 1.4 and later)
// Its columns, mark and writer, both bigint NOT NULL (1.3's table and 1.4's materialized view alike): what tells
// its rows from those of the extension's other member relations.
inline constexpr int carrier_columns = 2;

// What visible_mark returns for a page without a row.
inline constexpr std::int64_t no_row = INT64_MIN;

// The largest mark (Unix µs) of the rows of the carrier's shape on the page that `snapshot` sees; no_row
// when none. The buffer is pinned and locked (share or exclusive) by the caller (hint bits may be set).
std::int64_t visible_mark(Page page, Buffer buffer, Oid relation, Snapshot snapshot);

// Raises, in `target` (the copy of `page` that a generic WAL record registered), the mark of every row that
// `snapshot` sees on `page` to `mark` where it is below. Whether a row changed. Exclusive lock held.
bool raise_visible_marks(Page page, Page target, Buffer buffer, Oid relation, Snapshot snapshot, std::int64_t mark);

// Whether a row on the page was inserted or deleted by this transaction, not committed yet (a REFRESH ...
// CONCURRENTLY of the carrier in it): a rollback would bring back what the page held before. Lock held.
bool changed_by_this_transaction(Page page);

} // namespace idtypes::pg
