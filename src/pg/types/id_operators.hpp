// The mechanism every ID type plugs into for prefix (`T ^@ text`) and time-window (`T <@ tstzrange`)
// queries. Both select one contiguous range [lo, hi] of IDs (text order = ID order, and IDs are ordered
// by time first), so the operators evaluate as lo <= id <= hi; the planner (pg/planner/id_ranges.hpp)
// rewrites and estimates them from the same bounds. Also the types' time functions (T_timestamp, T_min,
// T_max, in_range), which read the format's time scale.
// A type supplies an IdTypeTraits named <type>_traits (declared below, for the planner's entry points);
// IDTYPES_ID_FUNCTIONS stamps out its SQL-callable operators.
#pragma once

#include "core/format.hpp"
#include "pg/types/type_io.hpp"

namespace idtypes::pg {

struct IdBounds {
	enum Kind : std::uint8_t { invalid, empty, range } kind;
	Datum lo, hi;
	TextStatus status; // why a prefix is invalid
};

struct IdTypeTraits {
	const Format &format; // the core's descriptor: name (helper functions are <name>_prefix_lo ...), scale, rules
	IdBounds (*prefix)(std::string_view prefix);
	Datum (*min_at)(std::int64_t units); // smallest / largest ID at a time unit
	Datum (*max_at)(std::int64_t units);
	std::int64_t (*units_of)(Datum id); // u64_units<F::units> or bytes_units<F::units>
	int (*compare)(Datum a, Datum b);
	double (*position)(Datum id); // a number that grows with the ID (time first), for interpolating statistics
};

extern const IdTypeTraits timeid_traits, tbsl_traits, uid11_traits, scru160_traits, uuid_traits;

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

// The range a constant selector (a prefix text, or a tstzrange) selects; `invalid` when the constant would
// raise an error at run time; `empty` as lo above hi, both non-NULL.
IdBounds selector_bounds(const IdTypeTraits &t, Selector s, Datum selector);

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

} // namespace idtypes::pg

// The SQL-callable operators and time functions of type T (inside extern "C"); the planner's entry points
// for the same type are in pg/planner/entry_points.cpp.
#define IDTYPES_ID_FUNCTIONS(T, traits)                                                                                \
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
	IDTYPES_ENTRY(T##_in_range, idtypes::pg::in_range(fcinfo, traits))
