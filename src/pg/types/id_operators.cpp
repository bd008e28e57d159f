#include "pg/types/id_operators.hpp"

namespace idtypes::pg {

namespace {

IdBounds empty_bounds(const IdTypeTraits &t)
{
	// lo above hi: `id >= lo AND id <= hi` holds for no ID, and both stay non-NULL
	return IdBounds{IdBounds::empty, t.max_at(t.format.scale.max_units), t.min_at(0), {}};
}

IdBounds prefix_bounds(const IdTypeTraits &t, std::string_view prefix)
{
	IdBounds b = t.prefix(prefix);
	return b.kind == IdBounds::empty ? empty_bounds(t) : b;
}

IdBounds prefix_bounds_or_error(const IdTypeTraits &t, std::string_view prefix)
{
	IdBounds b = prefix_bounds(t, prefix);
	if (b.kind == IdBounds::invalid)
		report_invalid_text(t.format.name, prefix, b.status, t.format.rules);
	return b;
}

// One end of a tstzrange as a window bound; `excludes_all` is set when the bound excludes every
// instant (a lower bound of +infinity, an upper bound of -infinity).
WindowBound window_end(const RangeBound &b, bool &excludes_all)
{
	if (b.infinite)
		return WindowBound{true, false, 0};
	TimestampTz ts = DatumGetTimestampTz(b.val);
	if (TIMESTAMP_IS_NOBEGIN(ts) || TIMESTAMP_IS_NOEND(ts)) {
		bool unbounded = b.lower ? TIMESTAMP_IS_NOBEGIN(ts) : TIMESTAMP_IS_NOEND(ts);
		if (!unbounded)
			excludes_all = true;
		return WindowBound{true, false, 0};
	}
	return WindowBound{false, b.inclusive, to_unix_us(ts)};
}

IdBounds window_bounds(const IdTypeTraits &t, Datum range_datum)
{
	RangeType *r = DatumGetRangeTypeP(range_datum);
	TypeCacheEntry *tc = lookup_type_cache(RangeTypeGetOid(r), TYPECACHE_RANGE_INFO);
	RangeBound lower, upper;
	bool empty;
	range_deserialize(tc, r, &lower, &upper, &empty);
	if (empty)
		return empty_bounds(t);
	bool excludes_all = false;
	WindowBound lo = window_end(lower, excludes_all);
	WindowBound hi = window_end(upper, excludes_all);
	UnitRange units = window_units(t.format.scale, lo, hi);
	if (excludes_all || units.empty)
		return empty_bounds(t);
	return IdBounds{IdBounds::range, t.min_at(units.first), t.max_at(units.last), {}};
}

bool within(const IdTypeTraits &t, Datum id, const IdBounds &b)
{
	return b.kind == IdBounds::range && t.compare(id, b.lo) >= 0 && t.compare(id, b.hi) <= 0;
}

} // namespace

IdBounds selector_bounds(const IdTypeTraits &t, Selector s, Datum selector)
{
	if (s == Selector::window)
		return window_bounds(t, selector);
	text *p = DatumGetTextPP(selector);
	return prefix_bounds(t, std::string_view(VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p)));
}

Datum starts_with(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	IdBounds b = prefix_bounds_or_error(t, text_arg(fcinfo, 1));
	PG_RETURN_BOOL(within(t, PG_GETARG_DATUM(0), b));
}

Datum prefix_bound(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool upper)
{
	IdBounds b = prefix_bounds_or_error(t, text_arg(fcinfo, 0));
	return upper ? b.hi : b.lo;
}

Datum prefix_range(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	IdBounds b = prefix_bounds_or_error(t, text_arg(fcinfo, 0));
	TypeCacheEntry *tc = range_get_typcache(fcinfo, get_fn_expr_rettype(fcinfo->flinfo));
	if (b.kind == IdBounds::empty)
		PG_RETURN_RANGE_P(make_empty_range(tc));
	RangeBound lower{b.lo, false, true, true};
	RangeBound upper{b.hi, false, true, false};
#if PG_VERSION_NUM >= 160000
	PG_RETURN_RANGE_P(make_range(tc, &lower, &upper, false, nullptr));
#else
	PG_RETURN_RANGE_P(make_range(tc, &lower, &upper, false));
#endif
}

Datum in_window(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	IdBounds b = window_bounds(t, PG_GETARG_DATUM(1));
	PG_RETURN_BOOL(within(t, PG_GETARG_DATUM(0), b));
}

Datum window_bound(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool upper)
{
	IdBounds b = window_bounds(t, PG_GETARG_DATUM(0));
	return upper ? b.hi : b.lo;
}

Datum timestamp_of(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	PG_RETURN_TIMESTAMPTZ(timestamptz_of_units(t.format.scale, t.units_of(PG_GETARG_DATUM(0))));
}

Datum id_at(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool largest)
{
	std::int64_t units = units_of_timestamptz(t.format.scale, PG_GETARG_TIMESTAMPTZ(0), t.format.name);
	return largest ? t.max_at(units) : t.min_at(units);
}

// A frame over `ORDER BY id` is the frame over `ORDER BY id::timestamptz`: PostgreSQL's own in_range for
// timestamptz applied to the IDs' times, so the offset is added as there (months and days in the session's
// time zone), with its errors (a negative offset; a time +- offset beyond timestamptz's range) and its
// infinite offsets (PostgreSQL 17 on). IDs are ordered by time first, so the result is monotonic in the
// ID order, as the window machinery requires. Rows with equal times but different IDs are not peers of
// each other (peers are equal IDs): a frame bounded by an offset on both sides includes them, one ending at
// CURRENT ROW stops at the current ID.
Datum in_range(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	TimestampTz val = timestamptz_of_units(t.format.scale, t.units_of(PG_GETARG_DATUM(0)));
	TimestampTz base = timestamptz_of_units(t.format.scale, t.units_of(PG_GETARG_DATUM(1)));
	return DirectFunctionCall5(in_range_timestamptz_interval, TimestampTzGetDatum(val), TimestampTzGetDatum(base),
	                           PG_GETARG_DATUM(2), PG_GETARG_DATUM(3), PG_GETARG_DATUM(4));
}

} // namespace idtypes::pg
