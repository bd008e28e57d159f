// The planner's SQL-callable entry points of every type: the support functions of `^@` and `<@`, and the
// RESTRICT functions of those and of <, <=, >, >=. uuid's C names are uuid_v7_*, apart from any symbol
// PostgreSQL or libuuid export.
#include "pg/planner/id_ranges.hpp"
#include "pg/planner/selectivity.hpp"

#define IDTYPES_PLANNER_FUNCTIONS(T, traits)                                                                           \
	IDTYPES_ENTRY(T##_prefix_support, idtypes::pg::planner_support(fcinfo, traits, idtypes::pg::Selector::prefix))     \
	IDTYPES_ENTRY(T##_window_support, idtypes::pg::planner_support(fcinfo, traits, idtypes::pg::Selector::window))     \
	IDTYPES_ENTRY(T##_prefix_sel, idtypes::pg::restrict_selectivity(fcinfo, traits, idtypes::pg::Selector::prefix))    \
	IDTYPES_ENTRY(T##_window_sel, idtypes::pg::restrict_selectivity(fcinfo, traits, idtypes::pg::Selector::window))    \
	IDTYPES_ENTRY(T##_comparison_sel, idtypes::pg::comparison_restrict(fcinfo, traits))

extern "C" {
IDTYPES_PLANNER_FUNCTIONS(timeid, idtypes::pg::timeid_traits)
IDTYPES_PLANNER_FUNCTIONS(tbsl, idtypes::pg::tbsl_traits)
IDTYPES_PLANNER_FUNCTIONS(uid11, idtypes::pg::uid11_traits)
IDTYPES_PLANNER_FUNCTIONS(scru160, idtypes::pg::scru160_traits)
IDTYPES_PLANNER_FUNCTIONS(uuid_v7, idtypes::pg::uuid_traits)
}
