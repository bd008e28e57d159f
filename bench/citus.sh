#!/usr/bin/env bash
# idtypes on Citus against a timestamptz column (not part of the tests; needs Citus installed for the
# system's PostgreSQL 15, see docs/scale-out.md): a coordinator and two workers on this machine
# (test/citus/fleet.sh, Citus's default 32 shards), per type a table of ROWS rows over the last 10 days
# with the ID's time also in a timestamptz column ts, distributed by the ID, with a btree on each. Queries,
# the runs of the two alternating, the median of RUNS: the last hour's rows (sum of a column, so both read
# the heap) by `id <@ tstzrange(now() - '1 hour', now())` and by `ts >= now() - '1 hour' AND ts < now()`;
# the hourly report of the last 24 hours by date_trunc of id::timestamptz and of ts. Prints a Markdown
# table with the ratios ID / ts.
# Options: --rows N (1000000), --runs N (15), --types "timeid tbsl uid11 scru160"
set -euo pipefail
source "$(dirname "$0")/../test/citus/fleet.sh"
rows=1000000
runs=15
types="timeid tbsl uid11 scru160"
while [ $# -gt 0 ]; do
	case $1 in
	--rows) rows=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--types) types=$2; shift 2 ;;
	*) echo "usage: $0 [--rows N] [--runs N] [--types \"timeid tbsl ...\"]" >&2; exit 2 ;;
	esac
done

ensure_packages
run_dir=$(mktemp -d /tmp/idtypes-run.XXXXXX)
chmod 755 "$run_dir"
PG_CONFIG=$(private_install "$PG_CONFIG" "$run_dir")
export PG_CONFIG
citus_installed || { echo "Citus is not installed for $("$PG_CONFIG" --version): see README.md, Scaling out" >&2; exit 1; }
build_and_install
trap 'fleet_stop; rm -rf "$run_dir"' EXIT
# one query at a time on a shared machine: no parallel workers, no JIT
fleet_start 2 32 max_parallel_workers_per_gather=0 jit=off shared_buffers=512MB max_wal_size=4GB
q() { on 0 -c "$1"; }

# The medians, in ms, of RUNS runs of two queries run in turn (each run in a transaction of its own).
q "CREATE FUNCTION bench_pair(a text, b text, runs int, OUT a_ms float8, OUT b_ms float8) LANGUAGE plpgsql AS \$\$
DECLARE
	ta float8[] := '{}';
	tb float8[] := '{}';
	t0 timestamptz;
BEGIN
	FOR r IN 1 .. runs LOOP
		t0 := clock_timestamp(); EXECUTE a; ta := ta || extract(epoch FROM clock_timestamp() - t0) * 1000;
		t0 := clock_timestamp(); EXECUTE b; tb := tb || extract(epoch FROM clock_timestamp() - t0) * 1000;
	END LOOP;
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO a_ms FROM unnest(ta) x;
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO b_ms FROM unnest(tb) x;
END \$\$" >/dev/null

echo "## idtypes on Citus ($(q "SELECT 'Citus ' || extversion FROM pg_extension WHERE extname = 'citus'"), $("$PG_CONFIG" --version), $(date -u +%F))"
echo
echo "A coordinator and 2 workers on one $(nproc)-core machine, 32 shards, $rows rows per type over the last 10"
echo "days, distributed by the ID, a btree on the ID and on ts; median of $runs alternating runs."
echo
echo "| type | query | by the ID | ms | by ts (timestamptz) | ms | ID / ts |"
echo "|---|---|---|---:|---|---:|---:|"
for t in $types; do
	log "$t: $rows rows"
	on 0 -c "CREATE TABLE b_$t (id $t PRIMARY KEY, ts timestamptz NOT NULL, v int NOT NULL)" \
		-c "SELECT create_distributed_table('b_$t', 'id')" \
		-c "INSERT INTO b_$t SELECT id, id::timestamptz, g FROM (SELECT ${t}_generate_at(now() - g * (interval '10 days' / $rows)) id, g
			FROM generate_series(1, $rows) g) s" \
		-c "CREATE INDEX ON b_$t (ts)" -c "VACUUM ANALYZE b_$t" >/dev/null
	window_id="SELECT sum(v) FROM b_$t WHERE id <@ tstzrange(now() - interval '1 hour', now())"
	window_ts="SELECT sum(v) FROM b_$t WHERE ts >= now() - interval '1 hour' AND ts < now()"
	report_id="SELECT date_trunc('hour', id::timestamptz), count(*) FROM b_$t WHERE id <@ tstzrange(now() - interval '24 hours', now()) GROUP BY 1"
	report_ts="SELECT date_trunc('hour', ts), count(*) FROM b_$t WHERE ts >= now() - interval '24 hours' AND ts < now() GROUP BY 1"
	for pair in window report; do
		a=${pair}_id b=${pair}_ts
		IFS='|' read -r a_ms b_ms < <(q "SELECT round(a_ms::numeric, 2), round(b_ms::numeric, 2) FROM bench_pair(\$a\$${!a}\$a\$, \$b\$${!b}\$b\$, $runs)")
		[ "$pair" = window ] && name="the last hour ($(q "SELECT count(*) FROM b_$t WHERE id <@ tstzrange(now() - interval '1 hour', now())") rows)" ||
			name="hourly report, last 24 hours"
		where_id=$(sed -E 's/.* WHERE //; s/ GROUP BY.*//' <<<"${!a}")
		where_ts=$(sed -E 's/.* WHERE //; s/ GROUP BY.*//' <<<"${!b}")
		echo "| $t | $name | \`$where_id\` | $a_ms | \`$where_ts\` | $b_ms | $(awk -v a="$a_ms" -v b="$b_ms" 'BEGIN { printf "%.2f", a / b }') |"
	done
	q "DROP TABLE b_$t" >/dev/null
done
