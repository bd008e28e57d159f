// A column's actual smallest or largest value, read from a btree index on it while planning: what
// PostgreSQL's get_actual_variable_range (selfuncs.c, static there) does for its own types when a bound
// lies past the histogram. The estimators use it for the rows written (or removed) since the last ANALYZE.
#pragma once

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// Sets `out` (allocated in the caller's memory context) to the smallest (largest when `largest`) non-NULL
// value of vardata's column that some snapshot still sees, and returns true, when the relation has a
// plain btree index whose first column is that column in the order of `opfamily`. Returns false when there
// is no such index, or when the probe gave up: it visits at most a bounded number of heap pages for
// entries whose visibility the visibility map cannot vouch for (rows just deleted at that end).
bool actual_end(PlannerInfo *root, const VariableStatData &vardata, Oid opfamily, bool largest, Datum &out);

} // namespace idtypes::pg
