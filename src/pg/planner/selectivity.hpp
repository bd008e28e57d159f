// Estimates from a column's statistics (selectivity.cpp).
#pragma once

#include "pg/types/id_operators.hpp"

namespace idtypes::pg {

// The RESTRICT function of the type's <, <=, >, >= (one for all four: the operator tells which).
Datum comparison_restrict(FunctionCallInfo fcinfo, const IdTypeTraits &t);
// The fraction of a column's rows with lo <= id <= hi.
double bounds_selectivity(const IdTypeTraits &t, PlannerInfo *root, Node *id_expr, int var_relid, Datum lo, Datum hi);

} // namespace idtypes::pg
