// How many of a table's rows were written since its last ANALYZE, and so (IDs being written in time order)
// lie past its histogram's last bound: the evidence the estimators spread over [last bound, actual end].
#pragma once

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

struct RowsSinceAnalyze {
	double now = 0;        // the rows the planner counts in the relation now
	double newer = 0;      // of which written since ANALYZE
	bool complete = false; // `newer` counts every row written since ANALYZE (the counters ran all along)
};

// The evidence that needs no index probe: the rows the planner counts beyond pg_class.reltuples, and, when
// `with_statistics`, the cumulative statistics' count of rows inserted since ANALYZE (see rows_since_analyze.cpp
// for why both; reading them costs about a tenth of planning a simple query). False when the relation is
// not a plain table (or partition) estimated from its own statistics.
bool rows_since_analyze(PlannerInfo *root, const VariableStatData &vardata, bool with_statistics,
                        RowsSinceAnalyze &out);

// The rows between the histogram's last bound (position `last`) and the column's actual end (`end`),
// written at the pace of the histogram's most recent part: `recent_share` of the relation's rows lie in
// [`recent_from`, `last`] by the histogram; `now` is the rows the relation holds, old and newer together.
double newer_rows_at_histogram_pace(double recent_from, double last, double recent_share, double now, double end);

} // namespace idtypes::pg
