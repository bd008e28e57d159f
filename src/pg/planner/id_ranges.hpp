// The mechanism every ID type plugs into for prefix (`T ^@ text`) and time-window (`T <@ tstzrange`)
// queries. Both select one contiguous range [lo, hi] of IDs (text order = ID order, and IDs are ordered
// by time first), so:
//   * the operators evaluate as lo <= id <= hi;
//   * a planner support function (SupportRequestSimplify) rewrites `id ^@ p` into `id >= lo AND id <= hi`,
//     with constants when p is a constant and with calls of <T>_prefix_lo(p) / <T>_prefix_hi(p) otherwise
//     (parameters of generic plans, join columns), so btree and BRIN indexes, partition pruning and the
//     range selectivity estimator all apply;
//   * a RESTRICT function estimates the operator the same way where no rewrite happened.
// A format supplies an IdTypeTraits; IDTYPES_RANGE_FUNCTIONS stamps out its SQL-callable entry points.
#pragma once

#include "pg/types/type_io.hpp"

namespace idtypes::pg {

struct IdBounds {
	enum Kind : std::uint8_t { invalid, empty, range } kind;
	Datum lo, hi;
	TextStatus status; // why a prefix is invalid
};

struct IdTypeTraits {
	const char *name; // the SQL type; helper functions are named <name>_prefix_lo and so on
	const TextRules *rules;
	TimeScale scale;
	IdBounds (*prefix)(std::string_view prefix);
	Datum (*min_at)(std::int64_t units); // smallest / largest ID at a time unit
	Datum (*max_at)(std::int64_t units);
	std::int64_t (*units_of)(Datum id);
	int (*compare)(Datum a, Datum b);
	double (*position)(Datum id); // a number that grows with the ID (time first), for interpolating statistics
};

enum class Selector : std::uint8_t { prefix, window };

// A core PrefixRange as IdBounds.
template <typename V>
IdBounds bounds_of(const PrefixRange<V> &r)
{
	if (!r.status.ok())
		return IdBounds{IdBounds::invalid, 0, 0, r.status};
	if (r.empty)
		return IdBounds{IdBounds::empty, 0, 0, {}};
	return IdBounds{IdBounds::range, id_datum(r.lo), id_datum(r.hi), {}};
}

// IdTypeTraits entries made from a format's core functions: prefix_bounds<F::prefix_range>,
// datum_at<F::min_at> and datum_at<F::max_at>.
template <auto PrefixRangeOf>
IdBounds prefix_bounds(std::string_view prefix)
{
	return bounds_of(PrefixRangeOf(prefix));
}
template <auto IdAt>
Datum datum_at(std::int64_t units)
{
	return id_datum(IdAt(units));
}

Datum starts_with(FunctionCallInfo fcinfo, const IdTypeTraits &t);
Datum prefix_bound(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool upper);
Datum prefix_range(FunctionCallInfo fcinfo, const IdTypeTraits &t);
Datum in_window(FunctionCallInfo fcinfo, const IdTypeTraits &t);
Datum window_bound(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool upper);
Datum timestamp_of(FunctionCallInfo fcinfo, const IdTypeTraits &t);
Datum id_at(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool largest);
// btree support function 3 (window frames `ORDER BY id RANGE BETWEEN interval ... PRECEDING AND ...`):
// in_range(val, base, offset, sub, less) of the two IDs' times at the format's precision.
Datum in_range(FunctionCallInfo fcinfo, const IdTypeTraits &t);
Datum planner_support(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s);
Datum restrict_selectivity(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s);

// When lo_expr and hi_expr are the bounds the rewrite made of one `^@` / `<@` whose right-hand side x is
// not a constant (<T>_prefix_lo(x) and <T>_prefix_hi(x), or the window pair), sets `out` to the range x
// selects, evaluating x once for the planner's estimate (`invalid` when x cannot be known at planning
// time) and returns true.
bool rewritten_pair_bounds(const IdTypeTraits &t, PlannerInfo *root, Node *lo_expr, Node *hi_expr, IdBounds &out);

// Estimates (selectivity.cpp): the RESTRICT function of the type's <, <=, >, >= (one for all four: the
// operator tells which), and the fraction of a column's rows with lo <= id <= hi.
Datum comparison_restrict(FunctionCallInfo fcinfo, const IdTypeTraits &t);
double bounds_selectivity(const IdTypeTraits &t, PlannerInfo *root, Node *id_expr, int var_relid, Datum lo, Datum hi);

} // namespace idtypes::pg

// The SQL-callable functions of the prefix and time-window mechanism for type T (inside extern "C").
#define IDTYPES_RANGE_FUNCTIONS(T, traits)                                                                             \
	IDTYPES_ENTRY(T##_starts_with, idtypes::pg::starts_with(fcinfo, traits))                                           \
	IDTYPES_ENTRY(T##_prefix_lo, idtypes::pg::prefix_bound(fcinfo, traits, false))                                     \
	IDTYPES_ENTRY(T##_prefix_hi, idtypes::pg::prefix_bound(fcinfo, traits, true))                                      \
	IDTYPES_ENTRY(T##_prefix_range, idtypes::pg::prefix_range(fcinfo, traits))                                         \
	IDTYPES_ENTRY(T##_in_window, idtypes::pg::in_window(fcinfo, traits))                                               \
	IDTYPES_ENTRY(T##_window_lo, idtypes::pg::window_bound(fcinfo, traits, false))                                     \
	IDTYPES_ENTRY(T##_window_hi, idtypes::pg::window_bound(fcinfo, traits, true))                                      \
	IDTYPES_ENTRY(T##_timestamp, idtypes::pg::timestamp_of(fcinfo, traits))                                            \
	IDTYPES_ENTRY(T##_min, idtypes::pg::id_at(fcinfo, traits, false))                                                  \
	IDTYPES_ENTRY(T##_max, idtypes::pg::id_at(fcinfo, traits, true))                                                   \
	IDTYPES_ENTRY(T##_in_range, idtypes::pg::in_range(fcinfo, traits))                                                 \
	IDTYPES_ENTRY(T##_prefix_support, idtypes::pg::planner_support(fcinfo, traits, idtypes::pg::Selector::prefix))     \
	IDTYPES_ENTRY(T##_window_support, idtypes::pg::planner_support(fcinfo, traits, idtypes::pg::Selector::window))     \
	IDTYPES_ENTRY(T##_prefix_sel, idtypes::pg::restrict_selectivity(fcinfo, traits, idtypes::pg::Selector::prefix))    \
	IDTYPES_ENTRY(T##_window_sel, idtypes::pg::restrict_selectivity(fcinfo, traits, idtypes::pg::Selector::window))    \
	IDTYPES_ENTRY(T##_comparison_sel, idtypes::pg::comparison_restrict(fcinfo, traits))
