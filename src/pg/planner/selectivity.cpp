// Row estimates for ID columns as good as a timestamp column's. PostgreSQL interpolates inside a histogram
// bucket only for the types it knows (convert_to_scalar), so for any other type a range narrower than a
// bucket collapses to one row. Here every type's position is a number (its first 8 bytes, big-endian: the
// time first, then what follows it, linear in time for all four formats), so:
//   * a bound's fraction of the histogram is interpolated inside its bucket, with most-common values and
//     NULLs accounted for as scalarineqsel does;
//   * `^@` and `<@` estimate their whole range [lo, hi] at once;
//   * the bounds on one column ANDed together are one range. PostgreSQL pairs `x >= a AND x <= b` into one
//     range (clauselist_selectivity, addRangeClause) only for operators whose restriction estimator is
//     scalarltsel and friends (it tests the estimator's OID), whose interpolation cannot see these types; so
//     the pairing happens here, in what each clause is estimated as (comparison_selectivity), such that the
//     product over the clauses PostgreSQL multiplies is the range's selectivity in each list it estimates:
//       - among a relation's restrictions (at the top level or in an AND arm of an OR): the tightest lower
//         bound counts its own selectivity (as alone), the tightest upper bound the range's divided by it,
//         any other bound 1 (`share`);
//       - a partial index's predicate bound, which PostgreSQL adds to the index's conditions in place of
//         the restrictions the predicate implies and dropped (check_index_predicates,
//         add_predicate_to_index_quals): the remainder that makes that list's product its range's
//         (`predicate_share`); in the usual case (`WHERE id >= <start>`, a lower bound), its own selectivity;
//       - any other clause (a join clause costed for a parameterized path): its own selectivity, alone.
//     Why it is safe: PostgreSQL caches a clause's estimate in its RestrictInfo, so a clause must be
//     estimated the same in every list; the lists that hold a subset of a relation's bounds on a column are
//     the conditions of an index, and predicate implication drops a bound only with the looser bounds of
//     its side (which count 1) and puts the predicate's bound in its place. The same range is then made by
//     the kept bounds and the added predicate bounds (the restrictions imply the predicate), and each
//     list's product is its range's, as on timestamptz whatever the order or form of the bounds: a
//     BETWEEN, bounds from T_min/T_max, and the rewrite of `^@` / `<@` into two comparisons. (A list of the
//     kept bounds without the predicate's, as btree counts the index tuples read for a bounded column that
//     is not the first, or BRIN, is estimated at most as on timestamptz: the range's selectivity divided by
//     the dropped lower bound's is below the upper bound's own.) Bounds unknown
//     while planning (generic plans) are estimated as clauselist_selectivity estimates them on a
//     timestamptz;
//   * rows written since ANALYZE lie past the histogram (IDs are written in time order): how many they are
//     comes from evidence that outlives a VACUUM (rows_since_analyze.cpp), their span ends at the column's actual
//     end read from its index (index_endpoint.cpp), and they are spread evenly over it.
#include <algorithm>

#include "pg/planner/id_ranges.hpp"
#include "pg/planner/index_endpoint.hpp"
#include "pg/planner/rows_since_analyze.hpp"
#include "pg/planner/selectivity.hpp"

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

// IDs are written in time order, so the rows written since ANALYZE (`rows.newer`, rows_since_analyze.cpp) lie past
// the histogram's last bound `last`, up to the column's actual end (read from its index). The share of them
// in [lo, hi], spread evenly over [last, end]; -1 when they cannot be placed there (the actual end is not
// past `last`: the rows went in among the old ones). Without complete statistics counters, `rows.newer` is
// raised to what the histogram's pace gives over [last, end]. Without an index, the end is extrapolated at
// the pace the histogram spans.
double share_of_newer(const IdTypeTraits &t, PlannerInfo *root, const VariableStatData &vardata, Oid opfamily,
                      const AttStatsSlot &h, double histogram_share, RowsSinceAnalyze &rows, const Bound &lo,
                      const Bound &hi)
{
	int n = h.nvalues;
	Datum last = h.values[n - 1];
	if (hi.present && t.compare(hi.value, last) <= 0)
		return 0;
	bool all = !hi.present && (!lo.present || t.compare(lo.value, last) <= 0);
	if (all && rows.complete)
		return 1; // all of them, wherever they end: no probe
	double from = t.position(last), to;
	Datum end;
	if (actual_end(root, vardata, opfamily, true, end)) {
		if (t.compare(end, last) <= 0)
			return -1;
		to = t.position(end);
		if (!rows.complete) {
			int recent = std::max(1, (n - 1) / 10); // the last tenth of the buckets
			double pace = newer_rows_at_histogram_pace(t.position(h.values[n - 1 - recent]), from,
			                                           histogram_share * recent / (n - 1), rows.now, to);
			rows.newer = std::max(rows.newer, pace);
		}
	} else {
		if (!(rows.newer > 0))
			return -1;
		to = from + (from - t.position(h.values[0])) * rows.newer / std::max(rows.now - rows.newer, 1.0);
	}
	if (all)
		return 1;
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
	double rest = 1 - nullfrac - mcv_total;
	RowsSinceAnalyze rows;
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
		// the cumulative statistics are read only for a range reaching past the last bound (where the newer
		// rows are, and where the probe runs anyway); a range inside the histogram scales by what the planner
		// counts beyond reltuples alone, which after a VACUUM overstates it by the newer rows' share at most
		bool past_last = slot.nvalues >= 2 && (!hi.present || t.compare(hi.value, slot.values[slot.nvalues - 1]) > 0);
		if (slot.nvalues >= 2 && rows_since_analyze(root, vardata, past_last, rows) &&
		    (rows.newer > 0 || !rows.complete))
			newer_share = share_of_newer(t, root, vardata, opfamily, slot, std::max(rest, 0.0), rows, lo, hi);
		free_attstatsslot(&slot);
	}
	if (fraction < 0) // no histogram: what the most common values say, else the default
		fraction = mcv_total > 0 ? mcv_inside / mcv_total
		                         : (lo.present && hi.present ? DEFAULT_RANGE_INEQ_SEL : DEFAULT_INEQ_SEL);
	double selectivity = mcv_inside + fraction * (rest > 0 ? rest : 0);
	if (newer_share >= 0 && rows.newer > 0) // the analyzed rows in the range, and the newer ones, among all
		selectivity = (selectivity * (rows.now - rows.newer) + newer_share * rows.newer) / rows.now;
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

// When `c` and one of `others` are the two bounds the rewrite made of one `^@` / `<@` with a non-constant
// right-hand side, both values from one evaluation of that side.
void resolve_rewritten_pair(const IdTypeTraits &t, PlannerInfo *root, Comparison &c, Comparison *others, int n)
{
	for (int i = 0; i < n; i++) {
		if (others[i].lower == c.lower || &others[i] == &c || others[i].state != Comparison::unevaluated)
			continue;
		Comparison &lo = c.lower ? c : others[i], &hi = c.lower ? others[i] : c;
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

// The bounds on one side of the column: the tightest known one, and whether any is unknown.
struct Side {
	bool any = false, unknown = false;
	Bound tightest;
};

// Evaluates every bound of a list (once; the two halves of a rewritten `^@` / `<@` from one evaluation).
void evaluate(const IdTypeTraits &t, PlannerInfo *root, Comparison *bounds, int n)
{
	for (int i = 0; i < n; i++) {
		if (bounds[i].state == Comparison::unevaluated)
			resolve_rewritten_pair(t, root, bounds[i], bounds, n);
		known(root, bounds[i]);
	}
}

// One bound alone, as scalarineqsel estimates it on a timestamptz column: its side of the histogram, or
// DEFAULT_INEQ_SEL when its value is unknown while planning.
double alone(const IdTypeTraits &t, PlannerInfo *root, VariableStatData &vardata, Comparison &c)
{
	if (!known(root, c))
		return DEFAULT_INEQ_SEL;
	return c.lower ? range_selectivity(t, root, vardata, Bound{true, c.value}, Bound{})
	               : range_selectivity(t, root, vardata, Bound{}, Bound{true, c.value});
}

// The n bounds ANDed together as one range, from the tightest known lower to the tightest known upper
// bound. Bounds unknown while planning (a generic plan's parameters) are estimated as clauselist_selectivity
// estimates them on a timestamptz column: when one side has only unknown bounds and the other side has
// bounds too, the range is DEFAULT_RANGE_INEQ_SEL; a side with no other side is the tightest of its known
// bounds and DEFAULT_INEQ_SEL (the more restrictive carries).
double joint(const IdTypeTraits &t, PlannerInfo *root, VariableStatData &vardata, Comparison *bounds, int n)
{
	Side lower, upper;
	for (int i = 0; i < n; i++) {
		Comparison &c = bounds[i];
		Side &side = c.lower ? lower : upper;
		side.any = true;
		if (!known(root, c)) {
			side.unknown = true;
			continue;
		}
		int cmp = side.tightest.present ? t.compare(c.value, side.tightest.value) : 0;
		if (!side.tightest.present || (c.lower ? cmp > 0 : cmp < 0))
			side.tightest = Bound{true, c.value};
	}
	bool lower_unknown = lower.any && !lower.tightest.present, upper_unknown = upper.any && !upper.tightest.present;
	if (lower.any && upper.any && (lower_unknown || upper_unknown))
		return DEFAULT_RANGE_INEQ_SEL;
	if (lower_unknown || upper_unknown)
		return DEFAULT_INEQ_SEL;
	double s = range_selectivity(t, root, vardata, lower.tightest, upper.tightest);
	if (!(lower.any && upper.any) && (lower.unknown || upper.unknown))
		s = std::min(s, DEFAULT_INEQ_SEL);
	return s;
}

// The bound that stands for one side of a list: the tightest known one, else the first (all unknown), -1
// when the side has none. The other bounds of that side add nothing to the range, as in
// clauselist_selectivity, which keeps the most selective bound of each side (addRangeClause).
int side_of(PlannerInfo *root, const IdTypeTraits &t, Comparison *bounds, int n, bool lower)
{
	int found = -1;
	for (int i = 0; i < n; i++) {
		if (bounds[i].lower != lower)
			continue;
		if (found < 0) {
			found = i;
			continue;
		}
		if (!known(root, bounds[i]))
			continue;
		int cmp = known(root, bounds[found]) ? t.compare(bounds[i].value, bounds[found].value) : (lower ? 1 : -1);
		if (lower ? cmp > 0 : cmp < 0)
			found = i;
	}
	return found;
}

// `target` divided by the product of the given estimates, within [0, 1]: the share that makes the product
// of a list's estimates `target`.
double remainder_of(double target, double product)
{
	if (!(product > 0))
		return target;
	return std::min(std::max(target / product, 0.0), 1.0);
}

// What the n ANDed bounds on the column are each estimated as (see the top of the file): the tightest lower
// bound its own selectivity, alone; the tightest upper bound (the carrier) the range's selectivity divided
// by that, so that the product over the list is the range's; any other bound 1 (the range is the tightest
// bounds'). The carrier is the upper bound because the bound that a partial index's predicate makes
// redundant (and PostgreSQL drops from the index's conditions) is most often the lower one (`WHERE id >=
// <the start of the recent rows>`): the carrier then stays among the conditions, and the predicate's bound
// PostgreSQL puts in the dropped bound's place is estimated exactly as that bound was (predicate_share).
// Without an upper bound, the tightest lower bound carries the range alone. Each selectivity is computed
// once, when first needed.
struct Shares {
	const IdTypeTraits &t;
	PlannerInfo *root;
	VariableStatData &vardata;
	Comparison *bounds;
	int n, lower, upper;
	double lower_alone = -1, range = -1;

	Shares(const IdTypeTraits &t_, PlannerInfo *root_, VariableStatData &vardata_, Comparison *bounds_, int n_)
	    : t(t_), root(root_), vardata(vardata_), bounds(bounds_), n(n_), lower(side_of(root_, t_, bounds_, n_, true)),
	      upper(side_of(root_, t_, bounds_, n_, false))
	{
	}
	double of_lower()
	{
		if (lower_alone < 0)
			lower_alone = alone(t, root, vardata, bounds[lower]);
		return lower_alone;
	}
	double of_range()
	{
		if (range < 0)
			range = joint(t, root, vardata, bounds, n);
		return range;
	}
	double of(int i)
	{
		if (i != lower && i != upper)
			return 1.0;
		if (i == lower && upper >= 0)
			return of_lower();
		return remainder_of(of_range(), i == upper && lower >= 0 ? of_lower() : 1.0);
	}
};

// The bounds on the column among `clauses` (RestrictInfos or bare clauses), in clause order, into `out`
// (room for list_length(clauses)); the position of the clause whose argument list is `self_args` in
// `self_position` (-1 if none is).
int collect_bounds(List *clauses, Node *var, Oid opfamily, List *self_args, Comparison *out, int &self_position)
{
	int n = 0;
	self_position = -1;
	ListCell *lc;
	foreach (lc, clauses) {
		Node *clause = clause_of(static_cast<Node *>(lfirst(lc)));
		if (!IsA(clause, OpExpr))
			continue;
		auto *op = reinterpret_cast<OpExpr *>(clause);
		if (comparison_on(op->opno, op->args, var, opfamily, out[n])) {
			if (op->args == self_args)
				self_position = n;
			n++;
		}
	}
	return n;
}

Comparison *room_for(List *clauses)
{
	return static_cast<Comparison *>(palloc(sizeof(Comparison) * std::max(list_length(clauses), 1)));
}

// Whether the index orders the column by the type's btree operator family, so that the bounds on it are
// among the index's conditions (a plain column; an expression index's key is never this column itself).
bool orders_column(const IndexOptInfo *index, Node *var, Oid opfamily)
{
	var = without_relabel(var);
	if (!IsA(var, Var))
		return false;
	for (int k = 0; k < index->nkeycolumns; k++)
		if (index->indexkeys[k] == reinterpret_cast<Var *>(var)->varattno && index->opfamily[k] == opfamily)
			return true;
	return false;
}

// The partial index among the relation's whose predicate holds the clause `args`, or null.
IndexOptInfo *index_predicate_holding(RelOptInfo *rel, List *args)
{
	ListCell *lc, *p;
	foreach (lc, rel->indexlist) {
		auto *index = static_cast<IndexOptInfo *>(lfirst(lc));
		foreach (p, index->indpred) {
			Node *c = static_cast<Node *>(lfirst(p));
			if (IsA(c, OpExpr) && reinterpret_cast<OpExpr *>(c)->args == args)
				return index;
		}
	}
	return nullptr;
}

// Whether two lists' bounds standing for one side (Shares::lower / upper, -1 for none) are the same: both
// absent, or both known with equal values.
bool same_bound(const IdTypeTraits &t, Shares &a, int i, Shares &b, int j)
{
	if (i < 0 || j < 0)
		return i < 0 && j < 0;
	return known(a.root, a.bounds[i]) && known(b.root, b.bounds[j]) &&
	       t.compare(a.bounds[i].value, b.bounds[j].value) == 0;
}

// A bound of a partial index's predicate, estimated as part of the index's selectivity: PostgreSQL dropped
// from the index's conditions the relation's bounds that the predicate implies (check_index_predicates), and
// put the predicate's bounds that the remaining conditions do not imply in their place
// (add_predicate_to_index_quals). That list is rebuilt here: the relation's bounds on the column still among
// the index's conditions (each estimated as it is among the relation's restrictions, `share`) and the
// predicate's bounds added. The first predicate bound added makes the list's product the selectivity of the
// range it makes; any other is estimated alone.
double predicate_share(const IdTypeTraits &t, PlannerInfo *root, VariableStatData &vardata, Oid opfamily,
                       IndexOptInfo *index, Comparison &predicate_bound)
{
	List *args = predicate_bound.args;
	RelOptInfo *rel = vardata.rel;
	// the relation's bounds on the column (top level), and which of them the index's conditions kept
	Comparison *restrictions = room_for(rel->baserestrictinfo);
	int ignored, m = collect_bounds(rel->baserestrictinfo, vardata.var, opfamily, nullptr, restrictions, ignored);
	evaluate(t, root, restrictions, m);
	Shares shares(t, root, vardata, restrictions, m);
	bool key = orders_column(index, vardata.var, opfamily);
	auto *list = static_cast<Comparison *>(palloc(sizeof(Comparison) * (m + list_length(index->indpred))));
	List *kept_clauses = NIL;
	double kept_product = 1;
	int n = 0;
	for (int i = 0; key && i < m; i++) {
		ListCell *lc;
		foreach (lc, index->indrestrictinfo) {
			Node *c = clause_of(static_cast<Node *>(lfirst(lc)));
			if (IsA(c, OpExpr) && reinterpret_cast<OpExpr *>(c)->args == restrictions[i].args) {
				kept_clauses = lappend(kept_clauses, c);
				kept_product *= shares.of(i);
				list[n++] = restrictions[i];
				break;
			}
		}
	}
	// the predicate's bounds that PostgreSQL adds, in the predicate's order
	int first_added = -1, self = -1;
	ListCell *lc;
	foreach (lc, index->indpred) {
		Node *c = static_cast<Node *>(lfirst(lc));
		if (!IsA(c, OpExpr) || predicate_implied_by(list_make1(c), kept_clauses, false))
			continue;
		auto *op = reinterpret_cast<OpExpr *>(c);
		if (!comparison_on(op->opno, op->args, vardata.var, opfamily, list[n]))
			continue;
		if (first_added < 0)
			first_added = n;
		if (op->args == args)
			self = n;
		n++;
	}
	if (self < 0) // one the conditions imply: in a list of PostgreSQL's that is not the one rebuilt here, alone
		return alone(t, root, vardata, predicate_bound);
	evaluate(t, root, list, n);
	if (self != first_added)
		return alone(t, root, vardata, list[self]);
	double others = kept_product;
	for (int i = first_added + 1; i < n; i++)
		others *= alone(t, root, vardata, list[i]);
	// the range the list makes is most often the relation's (the restrictions imply the predicate, and a bound
	// is dropped only for one of the predicate's at least as tight): then its selectivity is known already
	Shares rebuilt(t, root, vardata, list, n);
	bool same_range = m > 0 && same_bound(t, shares, shares.lower, rebuilt, rebuilt.lower) &&
	                  same_bound(t, shares, shares.upper, rebuilt, rebuilt.upper);
	return remainder_of(same_range ? shares.of_range() : rebuilt.of_range(), others);
}

// The clause's estimate (see the top of the file): among the relation's restrictions (at the top level or in
// an AND arm of an OR), its share of the range all the bounds on the column there make; as a bound of a
// partial index's predicate, its share of the range the index's conditions make; elsewhere (a join clause
// estimated for a parameterized path), alone.
double comparison_selectivity(const IdTypeTraits &t, PlannerInfo *root, Oid opno, List *args, VariableStatData &vardata)
{
	Oid opfamily = lookup_type_cache(vardata.vartype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	Comparison self;
	if (!OidIsValid(opfamily) || !comparison_on(opno, args, vardata.var, opfamily, self))
		return DEFAULT_INEQ_SEL;
	if (vardata.rel == nullptr)
		return alone(t, root, vardata, self);
	List *conjuncts = conjuncts_holding(vardata.rel->baserestrictinfo, args);
	if (conjuncts != NIL) {
		Comparison *bounds = room_for(conjuncts);
		int self_position, n = collect_bounds(conjuncts, vardata.var, opfamily, args, bounds, self_position);
		if (self_position >= 0) {
			evaluate(t, root, bounds, n);
			return Shares(t, root, vardata, bounds, n).of(self_position);
		}
	}
	if (IndexOptInfo *index = index_predicate_holding(vardata.rel, args))
		return predicate_share(t, root, vardata, opfamily, index, self);
	return alone(t, root, vardata, self);
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
