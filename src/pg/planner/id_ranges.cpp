#include "pg/planner/id_ranges.hpp"

namespace idtypes::pg {

namespace {

IdBounds empty_bounds(const IdTypeTraits &t)
{
	// lo above hi: `id >= lo AND id <= hi` holds for no ID, and both stay non-NULL
	return IdBounds{IdBounds::empty, t.max_at(t.scale.max_units), t.min_at(0), {}};
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
		report_invalid_text(t.name, prefix, b.status, *t.rules);
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
	UnitRange units = window_units(t.scale, lo, hi);
	if (excludes_all || units.empty)
		return empty_bounds(t);
	return IdBounds{IdBounds::range, t.min_at(units.first), t.max_at(units.last), {}};
}

bool within(const IdTypeTraits &t, Datum id, const IdBounds &b)
{
	return b.kind == IdBounds::range && t.compare(id, b.lo) >= 0 && t.compare(id, b.hi) <= 0;
}

// Bounds for a constant selector argument; `invalid` when the constant would raise an error at run time.
IdBounds const_bounds(const IdTypeTraits &t, Selector s, const Const *c)
{
	if (s == Selector::window)
		return window_bounds(t, c->constvalue);
	text *p = DatumGetTextPP(c->constvalue);
	return prefix_bounds(t, std::string_view(VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p)));
}

Const *id_const(Oid type, Datum value)
{
	int16 len;
	bool byval;
	get_typlenbyval(type, &len, &byval);
	return makeConst(type, -1, InvalidOid, len, value, false, byval);
}

// The <type>_<kind>_lo / _hi functions a rewrite calls when the right-hand side is not a constant. Looking
// them up by name is a catalog search that costs more than the rest of the rewrite, so each pair is found
// once per backend and forgotten whenever pg_proc changes (DROP EXTENSION, ALTER EXTENSION ... SET SCHEMA).
struct HelperPair {
	const IdTypeTraits *traits;
	Selector selector;
	Oid lo, hi;
};
HelperPair known_helpers[16]; // two per type (prefix, window): four formats and uuid
int known_helper_count = 0;

void forget_helpers(Datum, SysCacheId, uint32) { known_helper_count = 0; }

// `<type>_<kind>_<end>(argtype)` in the schema of the function being planned (the extension's schema).
Oid helper_function(const IdTypeTraits &t, const char *schema, const char *kind, const char *end, Oid argtype)
{
	List *name =
	    list_make2(makeString(const_cast<char *>(schema)), makeString(psprintf("%s_%s_%s", t.name, kind, end)));
	return LookupFuncName(name, 1, &argtype, true);
}

const HelperPair *helpers(const IdTypeTraits &t, Selector s, Oid planned_function, Oid argtype)
{
	for (int i = 0; i < known_helper_count; i++)
		if (known_helpers[i].traits == &t && known_helpers[i].selector == s)
			return &known_helpers[i];
	static bool callback_registered = false;
	if (!callback_registered) {
		CacheRegisterSyscacheCallback(PROCOID, forget_helpers, 0);
		callback_registered = true;
	}
	const char *schema = get_namespace_name(get_func_namespace(planned_function));
	const char *kind = s == Selector::prefix ? "prefix" : "window";
	HelperPair found{&t, s, helper_function(t, schema, kind, "lo", argtype),
	                 helper_function(t, schema, kind, "hi", argtype)};
	if (!OidIsValid(found.lo) || !OidIsValid(found.hi))
		return nullptr;
	if (known_helper_count == lengthof(known_helpers)) // one entry per type and selector fit; never a refusal
		known_helper_count = 0;
	known_helpers[known_helper_count] = found;
	return &known_helpers[known_helper_count++];
}

// `left >= lo AND left <= hi` as two clauses using the type's default btree operators (from the type
// cache, which PostgreSQL keeps valid); NIL if the type has none.
List *range_clauses(Node *left, Expr *lo, Expr *hi)
{
	Oid type = exprType(left);
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tc->btree_opf))
		return NIL;
	Oid ge = get_opfamily_member(tc->btree_opf, type, type, BTGreaterEqualStrategyNumber);
	Oid le = get_opfamily_member(tc->btree_opf, type, type, BTLessEqualStrategyNumber);
	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;
	Expr *a = make_opclause(ge, BOOLOID, false, reinterpret_cast<Expr *>(left), lo, InvalidOid, InvalidOid);
	Expr *b = make_opclause(le, BOOLOID, false, static_cast<Expr *>(copyObjectImpl(left)), hi, InvalidOid, InvalidOid);
	set_opfuncid(reinterpret_cast<OpExpr *>(a));
	set_opfuncid(reinterpret_cast<OpExpr *>(b));
	return list_make2(a, b);
}

Node *simplify(const IdTypeTraits &t, Selector s, FuncExpr *call)
{
	if (list_length(call->args) != 2)
		return nullptr;
	Node *left = static_cast<Node *>(linitial(call->args));
	Node *right = static_cast<Node *>(lsecond(call->args));
	// The rewrite evaluates each argument twice: only for arguments where that is invisible. A scalar
	// subquery on the right becomes two initplans (each run once), so `id <@ (SELECT ...)` reaches the index.
	if (contain_volatile_functions(left) || contain_subplans(left) || contain_volatile_functions(right))
		return nullptr;
	Oid id_type = exprType(left);
	Expr *lo, *hi;
	if (IsA(right, Const)) {
		const Const *c = reinterpret_cast<const Const *>(right);
		if (c->constisnull)
			return nullptr;
		IdBounds b = const_bounds(t, s, c);
		if (b.kind == IdBounds::invalid)
			return nullptr; // leave the call alone so that it raises its error at run time
		lo = reinterpret_cast<Expr *>(id_const(id_type, b.lo));
		hi = reinterpret_cast<Expr *>(id_const(id_type, b.hi));
	} else {
		const HelperPair *h = helpers(t, s, call->funcid, exprType(right));
		if (h == nullptr)
			return nullptr;
		lo = reinterpret_cast<Expr *>(
		    makeFuncExpr(h->lo, id_type, list_make1(right), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
		hi = reinterpret_cast<Expr *>(makeFuncExpr(h->hi, id_type, list_make1(copyObjectImpl(right)), InvalidOid,
		                                           InvalidOid, COERCE_EXPLICIT_CALL));
	}
	List *clauses = range_clauses(left, lo, hi);
	return clauses == NIL ? nullptr : reinterpret_cast<Node *>(make_andclause(clauses));
}

} // namespace

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
	PG_RETURN_TIMESTAMPTZ(timestamptz_of_units(t.scale, t.units_of(PG_GETARG_DATUM(0))));
}

Datum id_at(FunctionCallInfo fcinfo, const IdTypeTraits &t, bool largest)
{
	std::int64_t units = units_of_timestamptz(t.scale, PG_GETARG_TIMESTAMPTZ(0), t.name);
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
	TimestampTz val = timestamptz_of_units(t.scale, t.units_of(PG_GETARG_DATUM(0)));
	TimestampTz base = timestamptz_of_units(t.scale, t.units_of(PG_GETARG_DATUM(1)));
	return DirectFunctionCall5(in_range_timestamptz_interval, TimestampTzGetDatum(val), TimestampTzGetDatum(base),
	                           PG_GETARG_DATUM(2), PG_GETARG_DATUM(3), PG_GETARG_DATUM(4));
}

namespace {

// The fraction of rows for which `args[0] <op> args[1]` holds: the whole range at once.
double selector_selectivity(const IdTypeTraits &t, Selector s, PlannerInfo *root, List *args, int var_relid)
{
	if (list_length(args) != 2)
		return DEFAULT_RANGE_INEQ_SEL;
	Node *right = estimate_expression_value(root, static_cast<Node *>(lsecond(args)));
	if (!IsA(right, Const) || reinterpret_cast<Const *>(right)->constisnull)
		return DEFAULT_RANGE_INEQ_SEL;
	IdBounds b = const_bounds(t, s, reinterpret_cast<Const *>(right));
	if (b.kind == IdBounds::invalid)
		return DEFAULT_RANGE_INEQ_SEL;
	if (b.kind == IdBounds::empty)
		return 0.0;
	return bounds_selectivity(t, root, static_cast<Node *>(linitial(args)), var_relid, b.lo, b.hi);
}

} // namespace

Datum planner_support(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s)
{
	Node *req = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
	if (IsA(req, SupportRequestSimplify))
		PG_RETURN_POINTER(simplify(t, s, reinterpret_cast<SupportRequestSimplify *>(req)->fcall));
	if (IsA(req, SupportRequestSelectivity)) { // the operator's function called by name, left as a filter
		auto *r = reinterpret_cast<SupportRequestSelectivity *>(req);
		if (r->is_join)
			return null_pointer_datum();
		r->selectivity = selector_selectivity(t, s, r->root, r->args, r->varRelid);
		PG_RETURN_POINTER(r);
	}
	return null_pointer_datum();
}

bool rewritten_pair_bounds(const IdTypeTraits &t, PlannerInfo *root, Node *lo_expr, Node *hi_expr, IdBounds &out)
{
	if (!IsA(lo_expr, FuncExpr) || !IsA(hi_expr, FuncExpr))
		return false;
	auto *lo = reinterpret_cast<FuncExpr *>(lo_expr), *hi = reinterpret_cast<FuncExpr *>(hi_expr);
	for (int i = 0; i < known_helper_count; i++) {
		const HelperPair &h = known_helpers[i];
		if (h.traits != &t || lo->funcid != h.lo || hi->funcid != h.hi || !equal(lo->args, hi->args))
			continue;
		Node *selector = estimate_expression_value(root, static_cast<Node *>(linitial(lo->args)));
		bool known = IsA(selector, Const) && !reinterpret_cast<Const *>(selector)->constisnull;
		out = known ? const_bounds(t, h.selector, reinterpret_cast<Const *>(selector))
		            : IdBounds{IdBounds::invalid, 0, 0, {}};
		return true;
	}
	return false;
}

Datum restrict_selectivity(FunctionCallInfo fcinfo, const IdTypeTraits &t, Selector s)
{
	PlannerInfo *root = reinterpret_cast<PlannerInfo *>(PG_GETARG_POINTER(0));
	List *args = reinterpret_cast<List *>(PG_GETARG_POINTER(2));
	PG_RETURN_FLOAT8(selector_selectivity(t, s, root, args, PG_GETARG_INT32(3)));
}

} // namespace idtypes::pg
