#include "pg/planner/id_ranges.hpp"
#include "pg/planner/selectivity.hpp"

namespace idtypes::pg {

namespace {

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
	    list_make2(makeString(const_cast<char *>(schema)), makeString(psprintf("%s_%s_%s", t.format.name, kind, end)));
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
		IdBounds b = selector_bounds(t, s, c->constvalue);
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

// The fraction of rows for which `args[0] <op> args[1]` holds: the whole range at once.
double selector_selectivity(const IdTypeTraits &t, Selector s, PlannerInfo *root, List *args, int var_relid)
{
	if (list_length(args) != 2)
		return DEFAULT_RANGE_INEQ_SEL;
	Node *right = estimate_expression_value(root, static_cast<Node *>(lsecond(args)));
	if (!IsA(right, Const) || reinterpret_cast<Const *>(right)->constisnull)
		return DEFAULT_RANGE_INEQ_SEL;
	IdBounds b = selector_bounds(t, s, reinterpret_cast<Const *>(right)->constvalue);
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
		out = known ? selector_bounds(t, h.selector, reinterpret_cast<Const *>(selector)->constvalue)
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
