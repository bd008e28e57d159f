#!/usr/bin/env bash
# The SQL edition next to the native one, in one throwaway cluster (fsync on), side by side in one run:
#  1. cost per ID of each generator of both editions, gen_random_uuid() and nextval() (one session, median of
#     BENCH_RUNS runs of BENCH_IDS IDs in one statement), and IDs per second from 8 sessions at once against
#     1 (pgbench, 2,000 IDs a statement): what the SQL edition's lock costs when sessions contend;
#  2. pgbench single-row inserts (BENCH_SECONDS per run, 4 clients, fsync and synchronous_commit on) into
#     `id timeid PRIMARY KEY DEFAULT timeid_generate()` (SQL edition, native) against a bigint identity table;
#  3. a 1-hour window and a prefix on 1,000,000 rows: the SQL edition's column against the native one
#     (same IDs; mean execution time of 20 runs each).
# Prints Markdown tables (BENCHMARKS.md "SQL edition"). Uses the system's PostgreSQL 15 unless PG_CONFIG is set.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs=${BENCH_RUNS:-3}
ids=${BENCH_IDS:-100000}
seconds=${BENCH_SECONDS:-10}

wanted_pg_config=${PG_CONFIG:-}
ensure_packages
PG_CONFIG=${wanted_pg_config:-$PG_CONFIG}
export PATH="$("$PG_CONFIG" --bindir):$PATH"
build_and_install
make -s -C "$ROOT" sql-edition >/dev/null
trap cluster_stop EXIT
cluster_start fsync=on synchronous_commit=on
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'CREATE SCHEMA native' -c 'CREATE EXTENSION idtypes SCHEMA native' -c 'CREATE SCHEMA ids' -c 'CREATE SEQUENCE bench_seq'
PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -f "$ROOT/build/idtypes_sql.sql" >/dev/null
median() { tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
per_id() { # per_id EXPRESSION: median ns per ID
	local t=() _
	for _ in $(seq 1 "$runs"); do
		t+=("$(psql -X -At -c '\timing on' -c "SELECT count($1) FROM generate_series(1, $ids)" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
	done
	echo "${t[*]}" | median | awk -v n="$ids" '{ printf "%.0f", $1 * 1e6 / n }'
}

log "1. cost per ID: median of $runs runs of $ids IDs in one statement"
echo "| generator | SQL edition ns/ID | native ns/ID | SQL / native |"
echo "|---|---:|---:|---:|"
for g in "timeid_generate()" "tbsl_generate()" "uid11_generate()" "scru160_generate()"; do
	s=$(per_id "ids.$g")
	n=$(per_id "native.$g")
	echo "| \`$g\` | $s | $n | $(awk -v a="$s" -v b="$n" 'BEGIN { printf "%.0fx", a / b }') |"
done
echo "| \`gen_random_uuid()\` | | $(per_id "gen_random_uuid()") | |"
echo "| \`nextval()\` | | $(per_id "nextval('bench_seq')") | |"
echo
tps() { pgbench -n -M prepared -T "$seconds" -c "$1" -j "$1" -f "$2" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | cut -d. -f1; }
echo "| 2,000 IDs per statement | IDs/s, 1 session | IDs/s, 8 sessions at once | 8 / 1 |"
echo "|---|---:|---:|---:|"
for g in ids.timeid_generate ids.scru160_generate native.timeid_generate; do
	echo "SELECT count($g()) FROM generate_series(1, 2000);" >"$CLUSTER_DIR/gen.sql"
	t1=$(tps 1 "$CLUSTER_DIR/gen.sql")
	t8=$(tps 8 "$CLUSTER_DIR/gen.sql")
	echo "| \`$g()\` | $((t1 * 2000)) | $((t8 * 2000)) | $(awk -v a="$t8" -v b="$t1" 'BEGIN { printf "%.2fx", a / b }') |"
done
echo

log "2. pgbench single-row inserts, $seconds s each, 4 clients, fsync on"
psql_q -c 'CREATE TABLE ins_sql (id ids.timeid PRIMARY KEY DEFAULT ids.timeid_generate(), v int)' \
	-c 'CREATE TABLE ins_native (id native.timeid PRIMARY KEY DEFAULT native.timeid_generate(), v int)' \
	-c 'CREATE TABLE ins_bigint (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v int)'
declare -A ins
for round in 1 2; do # interleaved, so that a change of the machine's load hits all three
	for t in bigint sql native; do
		echo "INSERT INTO ins_$t (v) VALUES (1);" >"$CLUSTER_DIR/ins_$t.sql"
		ins[$t]="${ins[$t]:-} $(tps 4 "$CLUSTER_DIR/ins_$t.sql")"
	done
done
echo "| single-row INSERT, column DEFAULT | inserts/s (2 runs) | against bigint identity |"
echo "|---|---:|---:|"
b=$(echo "${ins[bigint]}" | tr ' ' '\n' | awk 'NF { s += $1; n++ } END { print s / n }')
for t in bigint sql native; do
	m=$(echo "${ins[$t]}" | tr ' ' '\n' | awk 'NF { s += $1; n++ } END { print s / n }')
	echo "| $t |${ins[$t]} | $(awk -v a="$m" -v b="$b" 'BEGIN { printf "%.2fx", a / b }') |"
done
echo

log "3. a 1-hour window and a prefix on 1,000,000 rows, the same IDs in each edition"
psql_q -c "CREATE TABLE w_native AS SELECT native.timeid_generate_at(timestamptz '2024-07-01 UTC' + g * interval '1 second') AS id FROM generate_series(1, 1000000) g" \
	-c 'CREATE TABLE w_sql AS SELECT id::text::ids.timeid AS id FROM w_native' \
	-c 'CREATE INDEX ON w_native (id)' -c 'CREATE INDEX ON w_sql (id)' -c 'VACUUM ANALYZE w_native' -c 'VACUUM ANALYZE w_sql'
mean_ms() { # mean execution time of 20 runs of a query, in ms
	psql -X -At -c "SELECT 1" >/dev/null
	for _ in $(seq 1 20); do psql -X -At -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | sed -n 's/.*"Execution Time": \([0-9.]*\).*/\1/p'; done |
		awk '{ s += $1 } END { printf "%.3f", s / NR }'
}
window="tstzrange('2024-07-05 10:00+00', '2024-07-05 11:00+00')"
prefix=$(psql_q -c "SELECT left(id::text, 5) FROM w_native ORDER BY id OFFSET 500000 LIMIT 1")
echo "| query (1,000,000 rows, btree on id) | rows | SQL edition ms | native ms | SQL / native |"
echo "|---|---:|---:|---:|---:|"
for q in "id OPERATOR(ids.<@) $window|id OPERATOR(native.<@) $window|1-hour window" \
	"id ^@ '$prefix'|id OPERATOR(native.^@) '$prefix'|prefix '$prefix' (literal)" \
	"id OPERATOR(ids.^@) '$prefix'::text|id OPERATOR(native.^@) '$prefix'|prefix '$prefix' (text)"; do
	IFS='|' read -r qs qn what <<<"$q"
	rows=$(psql_q -c "SELECT count(*) FROM w_sql WHERE $qs")
	s=$(mean_ms "SELECT count(*) FROM w_sql WHERE $qs")
	n=$(mean_ms "SELECT count(*) FROM w_native WHERE $qn")
	echo "| $what | $rows | $s | $n | $(awk -v a="$s" -v b="$n" 'BEGIN { printf "%.1fx", a / b }') |"
done
echo
echo "Storage of the 1,000,000 rows: table $(psql_q -c "SELECT pg_size_pretty(pg_table_size('w_sql'))") (SQL edition) against $(psql_q -c "SELECT pg_size_pretty(pg_table_size('w_native'))") (native); index $(psql_q -c "SELECT pg_size_pretty(pg_indexes_size('w_sql'))") against $(psql_q -c "SELECT pg_size_pretty(pg_indexes_size('w_native'))")."
