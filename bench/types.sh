#!/usr/bin/env bash
# Benchmarks of idtypes (scripts/bench.sh types, the default subject) against PostgreSQL's own types (uuid, bigint, gen_random_uuid(), nextval()), side
# by side in one throwaway cluster with idtypes preloaded, plus the core's Google Benchmark program.
# Not part of ./scripts/test.sh. Prints a Markdown report (the table in BENCHMARKS.md), then the generators'
# report of bench/generators.sh (cost per ID in each mode, the generator checks at full size).
# Settings: BENCH_RUNS (runs per figure, the median is reported; 5), BENCH_PGBENCH_SECONDS (30),
# BENCH_CLIENTS (pgbench clients; 8), BENCH_PLANNER_ROWS (the planner report's table; 10M). `--pg 18` benchmarks on PostgreSQL 18 (from scripts/pgversions.sh),
# where uuidv7() joins the subjects; the default is 15.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
source "$(dirname "$0")/../scripts/pgversions.sh"
major=15
[ "${1:-}" = --pg ] && major=${2:?--pg needs a version: 15, 17 or 18}
runs=${BENCH_RUNS:-5}
seconds=${BENCH_PGBENCH_SECONDS:-30}
clients=${BENCH_CLIENTS:-8}

ensure_packages
dpkg-query -W -f='${Status}' libbenchmark-dev 2>/dev/null | grep -q 'install ok installed' ||
	{ apt-get update -qq && apt-get install -y -qq libbenchmark-dev >/dev/null; }
PG_CONFIG=$(pg_ensure_version "$major")
export PG_CONFIG
build_and_install "$(version_tree "$major")"
cluster_start shared_preload_libraries=idtypes shared_buffers=1GB max_wal_size=8GB checkpoint_timeout=1h
trap cluster_stop EXIT
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

log "SQL benchmarks (median of $runs runs)"
psql_q -v runs="$runs" -f "$ROOT/bench/types.sql" >/dev/null

log "inserts: $clients pgbench clients for ${seconds}s, $runs runs each, subjects alternating"
script=$(mktemp)
echo 'INSERT INTO ins (payload) VALUES (:client_id);' >"$script"
subjects=(
	'timeid DEFAULT timeid_generate()|id timeid PRIMARY KEY DEFAULT timeid_generate()'
	'tbsl DEFAULT tbsl_generate()|id tbsl PRIMARY KEY DEFAULT tbsl_generate()'
	'uid11 DEFAULT uid11_generate()|id uid11 PRIMARY KEY DEFAULT uid11_generate()'
	'scru160 DEFAULT scru160_generate()|id scru160 PRIMARY KEY DEFAULT scru160_generate()'
	'uuid gen_random_uuid()|id uuid PRIMARY KEY DEFAULT gen_random_uuid()'
	'bigint identity|id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
	'uuid DEFAULT uuid_v7_generate()|id uuid PRIMARY KEY DEFAULT uuid_v7_generate()'
)
[ "$major" -ge 18 ] && subjects+=('uuid uuidv7()|id uuid PRIMARY KEY DEFAULT uuidv7()')
declare -A tps
for _ in $(seq 1 "$runs"); do
	for s in "${subjects[@]}"; do
		psql_q -c 'DROP TABLE IF EXISTS ins' -c "CREATE TABLE ins (${s#*|}, payload int)" -c CHECKPOINT
		tps[${s%%|*}]+=" $(pgbench -n -c "$clients" -j 2 -T "$seconds" -f "$script" 2>/dev/null |
			sed -nE 's/^tps = ([0-9.]+) .*without initial connection time.*/\1/p')"
	done
done
for s in "${subjects[@]}"; do
	subject=${s%%|*}
	median=$(printf '%s\n' ${tps[$subject]} | sort -n | sed -n "$(((runs + 1) / 2))p")
	echo "  $subject:${tps[$subject]} -> $median"
	psql_q -c "INSERT INTO results VALUES ('5 inserts: pgbench $clients clients, primary key', '$subject', 'tps', $median)"
done
rm -f "$script"

log "planner: estimates, planning time and subqueries on ${BENCH_PLANNER_ROWS:-10000000} rows"
planner_report=$(psql -X -q -v rows="${BENCH_PLANNER_ROWS:-10000000}" -f "$ROOT/bench/planner.sql")

log "planning cost in instructions (callgrind): <@ and ^@ against the same bounds by hand"
planning_report=$("$ROOT/bench/planning.sh")

log "core benchmarks (Google Benchmark)"
cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$ROOT/build-bench" --target core_bench -j"$(nproc)" >/dev/null
core=$("$ROOT/build-bench/core_bench" --benchmark_min_time=0.5 2>/dev/null)

echo
echo "## PostgreSQL $(psql_q -c 'SHOW server_version'), $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo
psql_q -f "$ROOT/bench/report.sql"
printf '%s\n' "$planner_report"
printf '%s\n' "$planning_report"
echo
echo "## Core (ns per ID, one thread)"
echo
echo '```'
printf '%s\n' "$core"
echo '```'

cluster_stop
if [ "$major" = 15 ]; then "$ROOT/bench/generators.sh"; fi
