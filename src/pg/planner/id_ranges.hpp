// The planner's side of the prefix and time-window operators (pg/types/id_operators.hpp):
//   * a planner support function (SupportRequestSimplify) rewrites `id ^@ p` into `id >= lo AND id <= hi`,
//     with constants when p is a constant and with calls of <T>_prefix_lo(p) / <T>_prefix_hi(p) otherwise
//     (parameters of generic plans, join columns), so btree and BRIN indexes, partition pruning and the
//     range selectivity estimator all apply;
//   * a RESTRICT function estimates the operator the same way where no rewrite happened.
// Their SQL-callable entry points, one set per type, are in entry_points.cpp.
#pragma once

#include "pg/types/id_operators.hpp"

namespace idtypes::pg {

Datum planner_support(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s);
Datum restrict_selectivity(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s);

// When lo_expr and hi_expr are the bounds the rewrite made of one `^@` / `<@` whose right-hand side x is
// not a constant (<T>_prefix_lo(x) and <T>_prefix_hi(x), or the window pair), sets `out` to the range x
// selects, evaluating x once for the planner's estimate (`invalid` when x cannot be known at planning
// time) and returns true.
bool rewritten_pair_bounds(const IdTypeTraits &t, PlannerInfo *root, Node *lo_expr, Node *hi_expr, IdBounds &out);

} // namespace idtypes::pg
