#!/usr/bin/env bash
# How cost grows with the table (./scripts/bench.sh scale runs this; not part of the tests): for timeid and
# tbsl, and on PostgreSQL 18 for uuid from uuidv7() (queried through the extension's uuid operators), tables
# of 1M, 10M and 100M rows in ID order (make_timeid / make_tbsl / uuidv7(shift) over a time span, `density`
# rows per second, so every query selects as many rows at every size), each indexed with a btree and
# then, separately, a BRIN on the ID, and a timestamptz column ts carrying the same instants with its own
# btree; the largest size also as a table with daily partitions by ID. Per size: load rate, index build
# times and sizes, and the median latency of a 1-minute window, a prefix, the latest 20 rows and a keyset
# page, on the ID and on ts. Prints a Markdown report, and writes it with the figures (CSV) and a plot of
# latency against rows (PNG, python3-matplotlib, installed if missing) into the output directory.
# Options:
#   --sizes 1000000,10000000,100000000   table sizes
#   --max-rows N                         leave out the sizes above N (100M rows need ~15 GB of disk and an hour)
#   --runs N                             positions per query, the median is reported (25)
#   --reps N                             runs at each position, the best is kept (5)
#   --density N                          rows per second of ID time (10)
#   --pg 15|17|18                        the PostgreSQL version (15; others from scripts/pgversions.sh)
#   --out DIR                            where report.md, latency.csv, build.csv and scale.png go (build-bench/scale)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
source "$(dirname "$0")/../scripts/pgversions.sh"
sizes=1000000,10000000,100000000
max_rows=
runs=25
reps=5
density=10
major=15
out=$ROOT/build-bench/scale
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift 2 ;;
	--max-rows) max_rows=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--density) density=$2; shift 2 ;;
	--pg) major=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 [--sizes N,N,...] [--max-rows N] [--runs N] [--reps N] [--density N] [--pg 15|17|18] [--out DIR]" >&2; exit 2 ;;
	esac
done
IFS=, read -r -a all_sizes <<<"$sizes"
run_sizes=()
for n in "${all_sizes[@]}"; do
	[ -z "$max_rows" ] || [ "$n" -le "$max_rows" ] && run_sizes+=("$n")
done
[ ${#run_sizes[@]} -gt 0 ] || { echo "no size left to run" >&2; exit 2; }
largest=$(printf '%s\n' "${run_sizes[@]}" | sort -n | tail -1)
types=(timeid tbsl)
[ "$major" -ge 18 ] && types+=(uuid) # uuidv7() is new in 18

ensure_packages
install_missing python3-matplotlib
run_dir=$(mktemp -d /tmp/idtypes-run.XXXXXX)
chmod 755 "$run_dir"
PG_CONFIG=$(private_install "$(pg_ensure_version "$major")" "$run_dir")
export PG_CONFIG
build_and_install "$(version_tree "$major")"
# One query at a time on a shared machine: no parallel workers, no JIT; fsync off (cluster_start).
cluster_start shared_buffers=1GB max_wal_size=16GB checkpoint_timeout=1h maintenance_work_mem=1GB \
	max_parallel_workers_per_gather=0 max_parallel_maintenance_workers=0 jit=off
trap 'cluster_stop; rm -rf "$run_dir"' EXIT
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
# A query's result as a Markdown table (psql 15 has no markdown format).
md() {
	psql -X -q -v ON_ERROR_STOP=1 -A -F ' | ' -P footer=off -c "$1" | sed 's/^/| /; s/$/ |/' |
		awk 'NR == 1 { print; line = $0; n = gsub(/\|/, "", line); sep = "|"; for (i = 1; i < n; i++) sep = sep "---|"; print sep; next } { print }'
}
q -c "CREATE EXTENSION idtypes" -f "$ROOT/bench/scale.sql"
mkdir -p "$out"

# type, rows, layout (plain | partitioned)
measure() {
	local t=$1 n=$2 layout=$3 tbl="scale_$1_$2_$3" with_ts=true
	log "$t, $n rows, $layout: load"
	q -c "SELECT scale_load('$t', $n, $density, '$layout')" >/dev/null
	q -c "VACUUM (ANALYZE) $tbl"
	log "$t, $n rows, $layout: indexes, btree queries"
	q -c "SELECT scale_index('$t', $n, '$layout', 'ts', 'btree')" -c "SELECT scale_index('$t', $n, '$layout', 'id', 'btree')" \
		-c "ANALYZE $tbl" >/dev/null
	q -c "SELECT scale_queries('$t', $n, $density, '$layout', $runs, $reps, true)" >/dev/null
	if [ "$layout" = plain ]; then
		log "$t, $n rows: a BRIN index on the ID instead of the btree"
		q -c "DROP INDEX ${tbl}_id_btree" -c "ALTER TABLE $tbl RENAME TO scale_${t}_${n}_brin" \
			-c "SELECT scale_index('$t', $n, 'brin', 'id', 'brin')" -c "ANALYZE scale_${t}_${n}_brin" >/dev/null
		q -c "SELECT scale_queries('$t', $n, $density, 'brin', $runs, $reps, false, '{window,prefix}')" >/dev/null
		q -c "DROP TABLE scale_${t}_${n}_brin"
	else
		q -c "DROP TABLE $tbl"
	fi
}
for n in "${run_sizes[@]}"; do
	for t in "${types[@]}"; do
		measure "$t" "$n" plain
		if [ "$n" = "$largest" ]; then measure "$t" "$n" partitioned; fi
	done
done

q -c "COPY (SELECT * FROM scale_latency ORDER BY 1, 2, 3, 4, 5) TO STDOUT (FORMAT csv, HEADER)" >"$out/latency.csv"
q -c "COPY (SELECT * FROM scale_build ORDER BY 1, 2, 3, 4) TO STDOUT (FORMAT csv, HEADER)" >"$out/build.csv"
{
	echo "## Cost as the table grows: PostgreSQL $(q -c 'SHOW server_version'), $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(date -u +%Y-%m-%d)"
	echo
	echo "Sizes run: ${run_sizes[*]}. $density rows per second of ID time from 2026-01-01 UTC, in ID order; fsync off,"
	echo "shared_buffers 1GB, no parallel workers; latency is the median over $runs positions spread over the table"
	echo "of the best of $reps runs at each, the ID and ts queries alternating (planned each time, as a client sends"
	echo "them; caches warm). Partitioned: daily partitions by ID (largest size only)."
	if [[ " ${types[*]} " = *" uuid "* ]]; then
		echo "uuid: IDs from uuidv7(row time - clock_timestamp()), queried with the extension's uuid <@ and ^@ (8 hex"
		echo "digits: 65.5 s) and uuid_v7_min; IDs whose millisecond is not the row's ts (uuidv7 reading its clock"
		echo "late): $(q -c "SELECT string_agg(format('%s of %s %s (at most %s ms)', c.value, c.rows, c.layout, m.value), ', '
			ORDER BY c.rows, c.layout DESC) FROM scale_build c JOIN scale_build m USING (type, rows, layout)
			WHERE type = 'uuid' AND c.what = 'ids off ts' AND m.what = 'ids off ts: most'")."
	fi
	echo
	echo "### Load and indexes"
	echo
	md "SELECT type, rows, layout,
	       round(max(value) FILTER (WHERE what = 'load')) AS \"load (rows/s)\",
	       round(max(value) FILTER (WHERE what = 'table') / 1048576) AS \"table (MB)\",
	       format('%s MB, %s s', round(max(value) FILTER (WHERE what = 'btree(id)') / 1048576),
	              round(max(value) FILTER (WHERE what = 'btree(id) build')::numeric, 1)) AS \"btree(id): size, build\",
	       format('%s MB, %s s', round(max(value) FILTER (WHERE what = 'btree(ts)') / 1048576),
	              round(max(value) FILTER (WHERE what = 'btree(ts) build')::numeric, 1)) AS \"btree(ts): size, build\",
	       CASE WHEN b.layout = 'plain' THEN
	       (SELECT format('%s kB, %s s', round(max(value) FILTER (WHERE what = 'brin(id)') / 1024),
	                      round(max(value) FILTER (WHERE what = 'brin(id) build')::numeric, 1))
	        FROM scale_build r WHERE (r.type, r.rows, r.layout) = (b.type, b.rows, 'brin')) END
	       AS \"brin(id): size, build\"
	FROM scale_build b WHERE layout <> 'brin' GROUP BY 1, 2, 3 ORDER BY type = 'uuid', 1 DESC, 2, 3 DESC"
	echo
	echo "### Latency (ms, median): the ID column / ts"
	echo
	md "SELECT type, rows, CASE layout WHEN 'plain' THEN 'btree' ELSE layout END AS \"index on the ID\",
	       max(format('%s / %s', round(ms::numeric, 3), round(ts::numeric, 3))) FILTER (WHERE query = 'window') AS \"1-minute window\",
	       max(format('%s / %s', round(ms::numeric, 3), round(ts::numeric, 3))) FILTER (WHERE query = 'prefix') AS \"prefix\",
	       max(format('%s / %s', round(ms::numeric, 3), round(ts::numeric, 3))) FILTER (WHERE query = 'latest') AS \"latest 20\",
	       max(format('%s / %s', round(ms::numeric, 3), round(ts::numeric, 3))) FILTER (WHERE query = 'keyset') AS \"keyset page\"
	FROM (SELECT i.type, i.rows, i.layout, i.query, i.ms, t.ms AS ts
	      FROM scale_latency i LEFT JOIN scale_latency t ON t.subject = 'timestamptz' AND (t.type, t.rows, t.query) = (i.type, i.rows, i.query)
	           AND t.layout = CASE i.layout WHEN 'brin' THEN 'plain' ELSE i.layout END
	      WHERE i.subject <> 'timestamptz') x
	GROUP BY 1, 2, 3 ORDER BY type = 'uuid', 1 DESC, 2, 3 DESC"
	echo
	echo "(brin: ts keeps its btree, so its figures are those of the btree row.)"
	echo
	echo "### Goals: window and prefix at the largest size within 2x of the smallest, and no slower than ts"
	echo
	md "SELECT type, query, min(rows) AS smallest, max(rows) AS largest,
	       round((max(ms) FILTER (WHERE rows = (SELECT max(rows) FROM scale_latency)) /
	              max(ms) FILTER (WHERE rows = (SELECT min(rows) FROM scale_latency)))::numeric, 2) AS \"largest / smallest\",
	       round(max(ms / ts)::numeric, 2) AS \"worst id / ts\"
	FROM (SELECT i.type, i.rows, i.query, i.ms, t.ms AS ts FROM scale_latency i JOIN scale_latency t
	      ON t.subject = 'timestamptz' AND (t.type, t.rows, t.layout, t.query) = (i.type, i.rows, i.layout, i.query)
	      WHERE i.subject <> 'timestamptz' AND i.layout = 'plain' AND i.query IN ('window', 'prefix')) x
	GROUP BY 1, 2 ORDER BY type = 'uuid', 1 DESC, 2 DESC"
} | tee "$out/report.md"

# Debian's interpreter, which python3-matplotlib is installed for (a python3 earlier on PATH may lack it).
/usr/bin/python3 - "$out" <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/latency.csv")))
queries = ["window", "prefix", "latest", "keyset"]
uuid = any(r["type"] == "uuid" for r in rows)
titles = {"window": "1-minute window", "prefix": f"prefix (34 s timeid, 43 s tbsl{', 66 s uuid' if uuid else ''})", "latest": "ORDER BY DESC LIMIT 20", "keyset": "keyset page (20 rows)"}
def label(r):
    layout = "btree" if r["layout"] == "plain" else r["layout"]
    if r["subject"] == "timestamptz":
        return f"timestamptz, btree ({r['type']} table{', partitioned' if layout == 'partitioned' else ''})"
    return f"{r['subject']}, {layout}"
# A colour per table type (its ts in the same colour, dashed, hollow markers), a marker per layout: up to 15 lines.
def style(r):
    layout = "btree" if r["layout"] == "plain" else r["layout"]
    ts = r["subject"] == "timestamptz"
    return dict(color={"timeid": "C0", "tbsl": "C1", "uuid": "C2"}.get(r["type"], "C3"),
                marker={"btree": "o", "brin": "s", "partitioned": "^"}[layout], markerfacecolor="none" if ts else None,
                linestyle="--" if ts else {"btree": "-", "brin": ":", "partitioned": "-."}[layout])
styles = {label(r): style(r) for r in rows}
labels = sorted(styles)
fig, axes = plt.subplots(1, 4, figsize=(18, 5))
for ax, q in zip(axes, queries):
    series = {}
    for r in rows:
        if r["query"] == q:
            series.setdefault(label(r), []).append((int(r["rows"]), float(r["ms"])))
    for l, pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=l, **styles[l])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(titles[q])
    ax.set_xlabel("rows")
    ax.set_ylabel("ms (median)")
    ax.grid(True, which="both", alpha=0.3)
handles = [plt.Line2D([], [], **styles[l]) for l in labels]
fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
fig.tight_layout(rect=(0, 0.14, 1, 1))
fig.savefig(f"{out}/scale.png", dpi=110)
print(f"plot: {out}/scale.png")
PY
