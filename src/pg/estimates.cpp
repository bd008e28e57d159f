// Row estimates for ID columns as good as a timestamp column's. PostgreSQL interpolates inside a histogram
// bucket only for the types it knows (convert_to_scalar), so for any other type a range narrower than a
// bucket collapses to one row. Here every type's position is a number (its first 8 bytes, big-endian: the
// time first, then what follows it, linear in time for all four formats), so:
//   * a bound's fraction of the histogram is interpolated inside its bucket, with most-common values and
//     NULLs accounted for as scalarineqsel does;
//   * `^@` and `<@` estimate their whole range [lo, hi] at once;
//   * the planner's own pairing of `x >= a AND x <= b` into one range (clauselist_selectivity) applies only
//     to operators estimated by scalarltsel and friends, whose interpolation cannot see these types. So the
//     ordering operators pair themselves: among the restriction clauses of the relation, the tightest lower
//     bound on a column carries the selectivity of the whole range up to the tightest upper bound, and every
//     other bound on that column counts as 1. This is what a BETWEEN, bounds from T_min/T_max, and the
//     rewrite of `^@` / `<@` into two comparisons are estimated by, at the top level of the WHERE clause or
//     inside an OR arm. Bounds unknown while planning (generic plans) are paired as PostgreSQL pairs them;
//   * rows written since ANALYZE lie past the histogram (IDs are written in time order): their number is
//     what the planner counts beyond pg_class.reltuples, their span ends at the column's actual end read
//     from its index (actual_end.cpp), and they are spread evenly over it.
#include <algorithm>

#include "pg/actual_end.hpp"
#include "pg/id_ranges.hpp"

extern "C" {
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "utils/typcache.h"
}

namespace idtypes::pg {

namespace {

struct Bound {
	bool present = false;
	Datum value = 0;
};

// Fraction of the histogram's values below `value` (interpolated inside its bucket), or -1 without one.
double histogram_fraction(const IdTypeTraits &t, const AttStatsSlot &h, Datum value)
{
	int n = h.nvalues;
	if (n < 2)
		return -1;
	if (t.compare(value, h.values[0]) <= 0)
		return 0;
	if (t.compare(value, h.values[n - 1]) >= 0)
		return 1;
	int lo = 0, hi = n - 1; // values[lo] < value <= values[hi]
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (t.compare(h.values[mid], value) < 0)
			lo = mid;
		else
			hi = mid;
	}
	double a = t.position(h.values[lo]), b = t.position(h.values[hi]), x = t.position(value);
	double within = b > a ? (x - a) / (b - a) : 0.5;
	within = within < 0 ? 0 : (within > 1 ? 1 : within);
	return (lo + within) / (n - 1);
}

bool inside(const IdTypeTraits &t, Datum v, const Bound &lo, const Bound &hi)
{
	return (!lo.present || t.compare(v, lo.value) >= 0) && (!hi.present || t.compare(v, hi.value) <= 0);
}

// The rows ANALYZE described and the rows the planner counts now, for a plain table (or a partition)
// estimated from its own statistics. The planner scales pg_class.reltuples by the relation's pages now
// against relpages (estimate_rel_size): the difference is the rows written since ANALYZE.
bool analyzed_rows(PlannerInfo *root, const VariableStatData &vardata, double &analyzed, double &now)
{
	RelOptInfo *rel = vardata.rel;
	if (rel == nullptr || (rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_OTHER_MEMBER_REL))
		return false;
	RangeTblEntry *rte = root->simple_rte_array[rel->relid];
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION || rte->inh)
		return false;
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
	if (!HeapTupleIsValid(tuple))
		return false;
	analyzed = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->reltuples;
	ReleaseSysCache(tuple);
	now = rel->tuples;
	return analyzed > 0 && now > 0;
}

// IDs are written in time order, so the rows written since ANALYZE lie past the histogram's last bound
// `last`, up to the column's actual end (read from its index). The share of them in [lo, hi], spread evenly
// over [last, end]; -1 when they cannot be placed there (the actual end is not past `last`: the rows went
// in among the old ones). Without an index, the end is extrapolated at the pace the histogram spans.
double share_of_newer(const IdTypeTraits &t, PlannerInfo *root, const VariableStatData &vardata, Oid opfamily,
                      const AttStatsSlot &h, double newer_per_analyzed, const Bound &lo, const Bound &hi)
{
	Datum last = h.values[h.nvalues - 1];
	if (hi.present && t.compare(hi.value, last) <= 0)
		return 0;
	if (!hi.present && (!lo.present || t.compare(lo.value, last) <= 0))
		return 1; // all of them, wherever they end: no probe
	double from = t.position(last), to;
	Datum end;
	if (actual_end(root, vardata, opfamily, true, end)) {
		if (t.compare(end, last) <= 0)
			return -1;
		to = t.position(end);
	} else {
		to = from + (from - t.position(h.values[0])) * newer_per_analyzed;
	}
	if (!(to > from))
		return -1;
	double a = lo.present ? std::max(t.position(lo.value), from) : from;
	double b = hi.present ? std::min(t.position(hi.value), to) : to;
	return b > a ? std::min((b - a) / (to - from), 1.0) : 0;
}

// Fraction of the rows whose value lies in [lo, hi] (either end may be open): the analyzed rows by the
// statistics, where rows removed since ANALYZE below the column's actual start are left out; the rows
// written since, past the histogram's last bound (share_of_newer).
double range_selectivity(const IdTypeTraits &t, PlannerInfo *root, VariableStatData &vardata, const Bound &lo,
                         const Bound &hi)
{
	if (!HeapTupleIsValid(vardata.statsTuple))
		return lo.present && hi.present ? DEFAULT_RANGE_INEQ_SEL : DEFAULT_INEQ_SEL;
	double nullfrac = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac;
	double mcv_inside = 0, mcv_total = 0;
	AttStatsSlot slot;
	if (get_attstatsslot(&slot, vardata.statsTuple, STATISTIC_KIND_MCV, InvalidOid,
	                     ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS)) {
		for (int i = 0; i < slot.nvalues; i++) {
			mcv_total += slot.numbers[i];
			if (inside(t, slot.values[i], lo, hi))
				mcv_inside += slot.numbers[i];
		}
		free_attstatsslot(&slot);
	}
	double analyzed = 0, now = 0;
	bool counted = analyzed_rows(root, vardata, analyzed, now);
	double newer_share = -1;
	double fraction = -1;
	if (get_attstatsslot(&slot, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid, ATTSTATSSLOT_VALUES)) {
		Oid opfamily = lookup_type_cache(vardata.vartype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
		Bound from = lo;
		Datum start;
		if (lo.present && slot.nvalues >= 2 && t.compare(lo.value, slot.values[0]) < 0 &&
		    actual_end(root, vardata, opfamily, false, start) && t.compare(start, slot.values[0]) > 0)
			from = Bound{true, start}; // the rows below the actual start were removed since ANALYZE
		double below_hi = hi.present ? histogram_fraction(t, slot, hi.value) : 1;
		double below_lo = from.present ? histogram_fraction(t, slot, from.value) : 0;
		if (below_hi >= 0 && below_lo >= 0)
			fraction = below_hi > below_lo ? below_hi - below_lo : 0;
		if (counted && now > analyzed && slot.nvalues >= 2)
			newer_share = share_of_newer(t, root, vardata, opfamily, slot, (now - analyzed) / analyzed, lo, hi);
		free_attstatsslot(&slot);
	}
	if (fraction < 0) // no histogram: what the most common values say, else the default
		fraction = mcv_total > 0 ? mcv_inside / mcv_total
		                         : (lo.present && hi.present ? DEFAULT_RANGE_INEQ_SEL : DEFAULT_INEQ_SEL);
	double rest = 1 - nullfrac - mcv_total;
	double selectivity = mcv_inside + fraction * (rest > 0 ? rest : 0);
	if (newer_share >= 0) // the analyzed rows in the range, and the newer ones, among the rows there are now
		selectivity = (selectivity * analyzed + newer_share * (now - analyzed)) / now;
	return selectivity < 0 ? 0 : (selectivity > 1 ? 1 : selectivity);
}

// A comparison `expr op other` (or the commuted form) on the column: one bound of a range. Its value is
// computed only when needed: estimate_expression_value runs every stable function inside `other`.
struct Comparison {
	bool lower;  // expr >= / > other
	Node *other; // the side that is not the column
	List *args;  // the clause's argument list: identifies the clause
	enum : std::uint8_t { unevaluated, known, unknown } state;
	Datum value;
};

// The expression under binary-compatible relabelings: a column whose type is a domain over an ID type
// reaches the operators as RelabelType(Var), while examine_variable hands out the bare Var (selfuncs.c
// strips the relabeling the same way).
Node *without_relabel(Node *n)
{
	while (n != nullptr && IsA(n, RelabelType))
		n = reinterpret_cast<Node *>(reinterpret_cast<RelabelType *>(n)->arg);
	return n;
}

// Whether `opno(args)` compares `var` with one of the type's btree ordering operators; if so, what it bounds.
bool comparison_on(Oid opno, List *args, Node *var, Oid opfamily, Comparison &out)
{
	if (list_length(args) != 2)
		return false;
	int strategy = get_op_opfamily_strategy(opno, opfamily);
	if (strategy == 0 || strategy == BTEqualStrategyNumber)
		return false;
	Node *left = static_cast<Node *>(linitial(args)), *right = static_cast<Node *>(lsecond(args));
	var = without_relabel(var);
	bool var_on_left = equal(without_relabel(left), var);
	if (!var_on_left && !equal(without_relabel(right), var))
		return false;
	bool greater = strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber;
	out = Comparison{greater == var_on_left, var_on_left ? right : left, args, Comparison::unevaluated, 0};
	return true;
}

Node *clause_of(Node *n)
{
	return IsA(n, RestrictInfo) ? reinterpret_cast<Node *>(reinterpret_cast<RestrictInfo *>(n)->clause) : n;
}

// The list of ANDed clauses that holds the clause whose argument list is `args`: the relation's restriction
// clauses themselves, or the AND arm of an OR among them (the planner estimates an arm's clauses one by one,
// so a window inside an OR is paired here as at the top level). NIL when the clause is in none.
List *conjuncts_holding(List *conjuncts, List *args)
{
	ListCell *lc;
	foreach (lc, conjuncts) {
		Node *c = clause_of(static_cast<Node *>(lfirst(lc)));
		if (IsA(c, OpExpr) && reinterpret_cast<OpExpr *>(c)->args == args)
			return conjuncts;
	}
	foreach (lc, conjuncts) {
		Node *c = clause_of(static_cast<Node *>(lfirst(lc)));
		List *found = NIL;
		if (is_andclause(c)) {
			found = conjuncts_holding(reinterpret_cast<BoolExpr *>(c)->args, args);
		} else if (is_orclause(c)) {
			ListCell *arm;
			foreach (arm, reinterpret_cast<BoolExpr *>(c)->args) {
				Node *a = clause_of(static_cast<Node *>(lfirst(arm)));
				if (is_andclause(a) && (found = conjuncts_holding(reinterpret_cast<BoolExpr *>(a)->args, args)) != NIL)
					break;
			}
		}
		if (found != NIL)
			return found;
	}
	return NIL;
}

bool known(PlannerInfo *root, Comparison &c)
{
	if (c.state == Comparison::unevaluated) {
		Node *v = estimate_expression_value(root, c.other);
		bool is_known = IsA(v, Const) && !reinterpret_cast<Const *>(v)->constisnull;
		c.state = is_known ? Comparison::known : Comparison::unknown;
		c.value = is_known ? reinterpret_cast<Const *>(v)->constvalue : 0;
	}
	return c.state == Comparison::known;
}

// When `self` and one of `others` are the two bounds the rewrite made of one `^@` / `<@` with a
// non-constant right-hand side, both values from one evaluation of that side.
void resolve_rewritten_pair(const IdTypeTraits &t, PlannerInfo *root, Comparison &self, Comparison *others, int n)
{
	for (int i = 0; i < n; i++) {
		if (others[i].lower == self.lower)
			continue;
		Comparison &lo = self.lower ? self : others[i], &hi = self.lower ? others[i] : self;
		IdBounds b;
		if (!rewritten_pair_bounds(t, root, lo.other, hi.other, b))
			continue;
		auto state = b.kind == IdBounds::invalid ? Comparison::unknown : Comparison::known;
		lo.state = hi.state = state;
		lo.value = b.lo;
		hi.value = b.hi;
		return;
	}
}

// The clause's own selectivity, or, when the clauses ANDed with it also bound the column from the other
// side, the share it carries of the range between the tightest bounds (see the top of the file): the
// tightest lower bound (the first listed among equals) carries the range, every other bound counts as 1.
// Bounds unknown while planning (a generic plan's parameters) are left out; when all of them are unknown,
// the first listed carries DEFAULT_RANGE_INEQ_SEL, as clauselist_selectivity estimates such a pair on a
// timestamptz column.
double comparison_selectivity(const IdTypeTraits &t, PlannerInfo *root, Oid opno, List *args, VariableStatData &vardata)
{
	Oid opfamily = lookup_type_cache(vardata.vartype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Comparison self;
	if (!OidIsValid(opfamily) || !comparison_on(opno, args, vardata.var, opfamily, self))
		return DEFAULT_INEQ_SEL;
	// the other bounds on the column ANDed with it, in clause order; self_position: how many come before it
	int n = 0, self_position = -1;
	Comparison *others = nullptr;
	List *conjuncts = vardata.rel != nullptr ? conjuncts_holding(vardata.rel->baserestrictinfo, args) : NIL;
	if (conjuncts != NIL) {
		others = static_cast<Comparison *>(palloc(sizeof(Comparison) * list_length(conjuncts)));
		ListCell *lc;
		foreach (lc, conjuncts) {
			Node *clause = clause_of(static_cast<Node *>(lfirst(lc)));
			if (!IsA(clause, OpExpr))
				continue;
			auto *op = reinterpret_cast<OpExpr *>(clause);
			if (op->args == args)
				self_position = n;
			else if (comparison_on(op->opno, op->args, vardata.var, opfamily, others[n]))
				n++;
		}
	}
	if (self_position >= 0)
		resolve_rewritten_pair(t, root, self, others, n);
	bool paired = false, other_known = false;
	for (int i = 0; i < n; i++) {
		paired = paired || others[i].lower != self.lower;
		other_known = other_known || known(root, others[i]);
	}
	if (!known(root, self)) {
		if (!paired)
			return DEFAULT_INEQ_SEL;
		return other_known || self_position > 0 ? 1.0 : DEFAULT_RANGE_INEQ_SEL;
	}
	Bound own{true, self.value};
	if (self_position < 0)
		return self.lower ? range_selectivity(t, root, vardata, own, Bound{})
		                  : range_selectivity(t, root, vardata, Bound{}, own);
	if (!self.lower) {
		for (int i = 0; i < n; i++)
			if (others[i].lower && known(root, others[i]))
				return 1.0;
		return range_selectivity(t, root, vardata, Bound{}, own);
	}
	const Comparison *upper = nullptr;
	for (int i = 0; i < n; i++) {
		if (!known(root, others[i]))
			continue;
		int c = t.compare(others[i].value, self.value);
		if (others[i].lower && (c > 0 || (c == 0 && i < self_position)))
			return 1.0; // a tighter lower bound carries the range
		if (!others[i].lower && (upper == nullptr || t.compare(others[i].value, upper->value) < 0))
			upper = &others[i];
	}
	return range_selectivity(t, root, vardata, own, upper != nullptr ? Bound{true, upper->value} : Bound{});
}

} // namespace

Datum comparison_restrict(FunctionCallInfo fcinfo, const IdTypeTraits &t)
{
	auto *root = reinterpret_cast<PlannerInfo *>(PG_GETARG_POINTER(0));
	Oid opno = PG_GETARG_OID(1);
	auto *args = reinterpret_cast<List *>(PG_GETARG_POINTER(2));
	int var_relid = PG_GETARG_INT32(3);
	VariableStatData vardata;
	Node *other;
	bool var_on_left;
	if (!get_restriction_variable(root, args, var_relid, &vardata, &other, &var_on_left))
		PG_RETURN_FLOAT8(DEFAULT_INEQ_SEL);
	double s = comparison_selectivity(t, root, opno, args, vardata);
	ReleaseVariableStats(vardata);
	PG_RETURN_FLOAT8(s);
}

double bounds_selectivity(const IdTypeTraits &t, PlannerInfo *root, Node *id_expr, int var_relid, Datum lo, Datum hi)
{
	VariableStatData vardata;
	examine_variable(root, id_expr, var_relid, &vardata);
	double s = range_selectivity(t, root, vardata, Bound{true, lo}, Bound{true, hi});
	ReleaseVariableStats(vardata);
	return s;
}

} // namespace idtypes::pg
