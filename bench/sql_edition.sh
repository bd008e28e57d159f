#!/usr/bin/env bash
# The SQL edition next to what it replaces and to the native edition, in one throwaway cluster (fsync off:
# what is measured is the generators' CPU, not the disk), side by side in one run:
#  1. cost per ID: the PL/pgSQL UUIDv7 function users copy from blogs (random v4 bytes with the Unix
#     millisecond overlaid; below), gen_random_uuid(), the SQL edition's four generators and the native ones;
#     BENCH_IDS IDs in one statement, best of BENCH_RUNS runs, the runs interleaved so that a change of the
#     machine's load hits every generator alike;
#  2. IDs per second from 8 sessions at once against 1 (pgbench, 100 IDs a statement, BENCH_SECONDS each);
#  3. a bulk INSERT ... SELECT of BENCH_ROWS rows into a table whose id column's DEFAULT is the generator;
#  4. a 1-hour window and a prefix on 1,000,000 rows: the SQL edition's column against the native one.
# Prints Markdown tables (BENCHMARKS.md "SQL edition"). Uses the system's PostgreSQL 15 unless PG_CONFIG is set.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-3}
ids=${BENCH_IDS:-100000}
seconds=${BENCH_SECONDS:-5}
rows=${BENCH_ROWS:-1000000}

wanted_pg_config=${PG_CONFIG:-}
ensure_packages
PG_CONFIG=${wanted_pg_config:-$PG_CONFIG}
export PATH="$("$PG_CONFIG" --bindir):$PATH"
build_and_install
make -s -C "$ROOT" sql-edition >/dev/null
trap cluster_stop EXIT
cluster_start fsync=off
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'CREATE SCHEMA native' -c 'CREATE EXTENSION idtypes SCHEMA native' -c 'CREATE SCHEMA ids'
PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -1 -f "$ROOT/build/idtypes_sql.sql" >/dev/null
psql_q -c 'SELECT ids.idtypes_sql_set_identity(timeid_clock_id => 1, tbsl_machine_id => 1)' >/dev/null
# The UUIDv7 function of the blogs and answers (e.g. "uuid_generate_v7" after kjmph's gist): no state, no lock.
psql_q <<'SQL'
CREATE FUNCTION public.uuid_generate_v7() RETURNS uuid AS $$
BEGIN
	-- use random v4 uuid as starting point (which has the same variant we need)
	-- then overlay timestamp
	-- then set version 7 by flipping the 2 and 1 bit in the version 4 string
	RETURN encode(
		set_bit(
			set_bit(
				overlay(uuid_send(gen_random_uuid())
					placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
					FROM 1 FOR 6),
				52, 1),
			53, 1),
		'hex')::uuid;
END
$$ LANGUAGE plpgsql VOLATILE;
SQL
generators=("public.uuid_generate_v7()|PL/pgSQL UUIDv7 (blogs)" "gen_random_uuid()|gen_random_uuid()"
	"ids.timeid_generate()|SQL edition timeid" "ids.tbsl_generate()|SQL edition tbsl" "ids.uid11_generate()|SQL edition uid11" "ids.scru160_generate()|SQL edition scru160"
	"native.timeid_generate()|native timeid" "native.tbsl_generate()|native tbsl" "native.uid11_generate()|native uid11" "native.scru160_generate()|native scru160")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

log "1. cost per ID: best of $runs runs of $ids IDs in one statement, interleaved"
declare -A best
for _ in $(seq 1 "$runs"); do
	for g in "${generators[@]}"; do
		e=${g%%|*}
		t=$(psql -X -At -c '\timing on' -c "SELECT count($e) FROM generate_series(1, $ids)" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		ns=$(awk -v t="$t" -v n="$ids" 'BEGIN { printf "%.0f", t * 1e6 / n }')
		if [ -z "${best[$e]:-}" ] || [ "$ns" -lt "${best[$e]}" ]; then best[$e]=$ns; fi
	done
done
v7=${best["public.uuid_generate_v7()"]}
echo "| generator ($ids IDs in one statement, best of $runs) | ns per ID | against the PL/pgSQL UUIDv7 |"
echo "|---|---:|---:|"
for g in "${generators[@]}"; do
	e=${g%%|*}
	echo "| ${g#*|} \`$e\` | ${best[$e]} | $(ratio "${best[$e]}" "$v7")x |"
done
echo

log "2. IDs per second, 8 sessions at once against 1 (pgbench, 100 IDs a statement, $seconds s each)"
tps() { pgbench -n -M prepared -T "$seconds" -c "$1" -j "$1" -f "$2" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | cut -d. -f1; }
echo "| generator (100 IDs a statement) | IDs/s, 1 session | IDs/s, 8 sessions | 8 / 1 |"
echo "|---|---:|---:|---:|"
for g in "${generators[@]}"; do
	e=${g%%|*}
	echo "SELECT count($e) FROM generate_series(1, 100);" >"$CLUSTER_DIR/gen.sql"
	t1=$(tps 1 "$CLUSTER_DIR/gen.sql")
	t8=$(tps 8 "$CLUSTER_DIR/gen.sql")
	echo "| ${g#*|} | $((t1 * 100)) | $((t8 * 100)) | $(ratio "$t8" "$t1")x |"
done
echo

log "3. INSERT ... SELECT of $rows rows, the id column's DEFAULT the generator"
echo "| column DEFAULT ($rows rows, one INSERT ... SELECT) | seconds | against the PL/pgSQL UUIDv7 |"
echo "|---|---:|---:|"
declare -A bulk
for g in "${generators[@]}"; do
	e=${g%%|*}
	type=$(psql_q -c "SELECT format_type(prorettype, NULL) FROM pg_proc WHERE oid = '${e%()}'::regproc")
	psql_q -c "DROP TABLE IF EXISTS bulk" -c "CREATE TABLE bulk (id $type DEFAULT $e, n int)"
	t=$(psql -X -At -c '\timing on' -c "INSERT INTO bulk (n) SELECT g FROM generate_series(1, $rows) g" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
	bulk[$e]=$(awk -v t="$t" 'BEGIN { printf "%.2f", t / 1000 }')
	echo "| ${g#*|} | ${bulk[$e]} | $(ratio "${bulk[$e]}" "${bulk["public.uuid_generate_v7()"]}")x |"
done
psql_q -c "DROP TABLE bulk"
echo

log "4. a 1-hour window and a prefix on 1,000,000 rows, the same IDs in each edition"
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
	n=$(psql_q -c "SELECT count(*) FROM w_sql WHERE $qs")
	s=$(mean_ms "SELECT count(*) FROM w_sql WHERE $qs")
	m=$(mean_ms "SELECT count(*) FROM w_native WHERE $qn")
	echo "| $what | $n | $s | $m | $(awk -v a="$s" -v b="$m" 'BEGIN { printf "%.1fx", a / b }') |"
done
echo
echo "Storage of the 1,000,000 rows: table $(psql_q -c "SELECT pg_size_pretty(pg_table_size('w_sql'))") (SQL edition) against $(psql_q -c "SELECT pg_size_pretty(pg_table_size('w_native'))") (native); index $(psql_q -c "SELECT pg_size_pretty(pg_indexes_size('w_sql'))") against $(psql_q -c "SELECT pg_size_pretty(pg_indexes_size('w_native'))")."
