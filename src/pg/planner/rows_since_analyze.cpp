// The rows written since ANALYZE, from the evidence that outlives what reset it. Three sources, and why:
//
//  1. The rows the planner counts beyond pg_class.reltuples. The planner scales reltuples by the pages the
//     relation has now against relpages (estimate_rel_size), so between ANALYZE and the next VACUUM the
//     difference is the rows written since. A VACUUM (by hand, nightly vacuumdb, or autovacuum, which on 13+
//     runs on an insert-only table once inserts pass autovacuum_vacuum_insert_threshold, independently of
//     ANALYZE) sets reltuples and relpages to what it counts and leaves the histogram as it was: after it
//     this says 0, while the rows are still past the histogram.
//  2. The cumulative statistics' changes since ANALYZE (pg_stat_user_tables.n_mod_since_analyze): only ANALYZE
//     (and a statistics reset) sets it back to 0, VACUUM keeps it. It counts updates and deletes too, and nothing
//     tells how many of them came since ANALYZE: one retention DELETE of two thirds of the table would read as
//     twice its rows written since. So it is used only on a table that is written insert-mostly (updates and
//     deletes at most a tenth of its inserts, by the cumulative counts), taken at that table's share of inserts;
//     other tables rely on 1 and 3. A backend's counts reach it when the backend next goes idle at least a second
//     after its last report (seconds). The counters are kept across a clean shutdown (written to pg_stat) but
//     discarded by a crash or an immediate shutdown and by pg_stat_reset*(), and say nothing of what replay
//     writes (a standby's counters count none of it). So the counter is complete only when the table's entry
//     carries the time of the ANALYZE the histogram came from (manual or autovacuum's): an entry created or reset
//     since has none until the next ANALYZE.
//  3. The histogram's own pace: the rows per unit of position over its most recent part (the last tenth of
//     its buckets), carried from the last bound to the column's actual end (read from the index). It needs
//     nothing but the statistics and the probe, so it survives everything above; it is right when the table
//     is written at a steady pace, and off by the ratio of the paces when the newest rows come faster or
//     slower than the histogram's last days did.
//
// What VACUUM leaves in pg_class differs by version, and neither state changes the estimate: 15 to 18 read
// the pages the newer rows added (not yet all-visible) and count them in reltuples. PostgreSQL 19 marks a page
// all-visible while reading it (on-access pruning, once its hint bits can be set: at once with
// synchronous_commit = on, initdb's default; with it off, once the commit's WAL is flushed), so after a query
// has read the newer rows the VACUUM that follows reads almost no page (1 of 722 in the case), and,
// reading fewer than 2 % of them, keeps reltuples as ANALYZE set it while relpages counts every page. Either
// way 1 says 0 after a VACUUM and the estimate rests on 2 (or 3); in 19's state the planner counts the
// table at ANALYZE's size (rel->tuples), and the newer rows, from 2, are spread past the histogram as in the
// other. sql/planner_stale.sql sets each state explicitly and checks both.
//
// Until a VACUUM follows the ANALYZE (by the entry's times, on any table), 1 is exact and alone: the counter may
// hold more than the rows written since — a load whose counts reached the statistics after the ANALYZE that
// followed it (`COPY ...; ANALYZE` sent at once, or within the second a backend waits between two reports)
// counts as written since. Once a VACUUM ran since the ANALYZE (by the entry's times), the estimate is the
// larger of 1 and 2 (both count real rows, each may miss some), 2 taken for at most half the rows: such a load
// would otherwise leave the histogram no rows at all, and a table that more than doubled since its ANALYZE is
// one autovacuum analyzes. Without a complete counter (the entry reset or lost: crash, pg_stat_reset*(),
// standby; or a table not insert-mostly), the larger of 1, 2 and 3 (newer_rows_at_histogram_pace, once the
// actual end is known): after a crash the estimate rests on the pace until the rows written since the restart
// outnumber it, and on the counter again from the next ANALYZE. An inflated counter triggers autovacuum's
// ANALYZE, which clears it.
#include "pg/planner/rows_since_analyze.hpp"

#include <algorithm>

extern "C" {
#include "catalog/pg_class.h"
#include "pgstat.h"
}

namespace idtypes::pg {

namespace {

// What the table's entry in the cumulative statistics tells.
struct SinceAnalyze {
	bool analyzed = false;      // the entry knows the ANALYZE (it was neither reset nor lost since)
	bool vacuumed = false;      // and a VACUUM ran after it
	bool insert_mostly = false; // updates and deletes at most a tenth of the inserts
	double inserts = 0;         // since ANALYZE, when insert-mostly
};

SinceAnalyze since_analyze(Oid relid)
{
	SinceAnalyze out;
	PgStat_StatTabEntry *entry = pgstat_fetch_stat_tabentry(relid);
	if (entry == nullptr)
		return out;
#if PG_VERSION_NUM >= 160000
	double changes = entry->mod_since_analyze;
	TimestampTz analyzed = std::max(entry->last_analyze_time, entry->last_autoanalyze_time);
	TimestampTz vacuumed = std::max(entry->last_vacuum_time, entry->last_autovacuum_time);
#else
	double changes = entry->changes_since_analyze;
	TimestampTz analyzed = std::max(entry->analyze_timestamp, entry->autovac_analyze_timestamp);
	TimestampTz vacuumed = std::max(entry->vacuum_timestamp, entry->autovac_vacuum_timestamp);
#endif
	double inserted = entry->tuples_inserted, others = double(entry->tuples_updated) + double(entry->tuples_deleted);
	out.analyzed = analyzed != 0;
	out.vacuumed = vacuumed > analyzed;
	out.insert_mostly = inserted > 0 && others <= inserted / 10;
	out.inserts = out.insert_mostly && changes > 0 ? changes * inserted / (inserted + others) : 0;
	return out;
}

} // namespace

bool rows_since_analyze(PlannerInfo *root, const VariableStatData &vardata, bool with_statistics, RowsSinceAnalyze &out)
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
	double reltuples = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->reltuples;
	ReleaseSysCache(tuple);
	out.now = rel->tuples;
	if (!(reltuples > 0 && out.now > 0))
		return false;
	double beyond_reltuples = std::max(out.now - reltuples, 0.0);
	if (!with_statistics) {
		out.newer = beyond_reltuples;
		out.complete = true;
		return true;
	}
	SinceAnalyze since = since_analyze(rte->relid);
	if (since.analyzed && !since.vacuumed) { // reltuples is still ANALYZE's
		out.newer = beyond_reltuples;
		out.complete = true;
	} else {
		out.newer = std::max(beyond_reltuples, std::min(since.inserts, out.now / 2));
		out.complete = since.analyzed && since.insert_mostly;
	}
	return true;
}

double newer_rows_at_histogram_pace(double recent_from, double last, double recent_share, double now, double end)
{
	if (!(last > recent_from && end > last && recent_share > 0))
		return 0;
	// newer = pace × (end − last), the pace being recent_share of the rows written before ANALYZE,
	// (now − newer), over (last − recent_from): solved for newer
	double c = recent_share * (end - last) / (last - recent_from);
	return now * c / (1 + c);
}

} // namespace idtypes::pg
