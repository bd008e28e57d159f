#!/usr/bin/env bash
# The SQL edition's generators against the native edition's, this tree's edition beside an earlier one's
# (BENCH_BEFORE, a git revision: default ea3c833, whose edition is 1.1), in one throwaway cluster (fsync off):
# BENCH_IDS IDs in one statement, best of BENCH_RUNS runs, the runs interleaved so that a change of the
# machine's load hits every generator alike. Prints a Markdown table: time per ID and the ratio to the native
# generator, for each edition (BENCHMARKS.md, "The SQL edition, version to version"). Uses the system's
# PostgreSQL 15 unless PG_CONFIG is set; the native extension must be installed there (bench/sql_edition.sh
# builds it).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-5}
ids=${BENCH_IDS:-100000}
before=${BENCH_BEFORE:-ea3c833}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
export PATH="$("$PG_CONFIG" --bindir):$PATH"
make -s -C "$ROOT" sql-edition >/dev/null
old=$(mktemp -d /tmp/idtypes-bench-before.XXXXXX)
trap 'cluster_stop; rm -rf "$old"' EXIT
git -C "$ROOT" archive "$before" Makefile idtypes.control idtypes_sql.control src | tar -x -C "$old"
make -s -C "$old" sql-edition >/dev/null
old_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$old/idtypes_sql.control")
new_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$ROOT/idtypes_sql.control")
cluster_start fsync=off
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'CREATE SCHEMA native' -c 'CREATE EXTENSION idtypes SCHEMA native' -c 'CREATE SCHEMA ids_before' -c 'CREATE SCHEMA ids'
PGOPTIONS="-c client_min_messages=warning -c search_path=ids_before" psql -X -q -v ON_ERROR_STOP=1 -1 -f "$old/build/idtypes_sql.sql" >/dev/null
PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -1 -f "$ROOT/build/idtypes_sql.sql" >/dev/null
psql_q -c 'SELECT ids_before.idtypes_sql_set_identity(1, 1), ids.idtypes_sql_set_identity(2, 2)' >/dev/null
declare -A best
for _ in $(seq 1 "$runs"); do
	for t in timeid tbsl uid11 scru160; do
		for s in native ids_before ids; do
			ms=$(psql -X -At -c '\timing on' -c "SELECT count($s.${t}_generate()) FROM generate_series(1, $ids)" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
			k=$s.$t
			if [ -z "${best[$k]:-}" ] || awk -v a="$ms" -v b="${best[$k]}" 'BEGIN { exit !(a < b) }'; then best[$k]=$ms; fi
		done
	done
done
echo "| generator | native, µs an ID | SQL edition $old_version, µs an ID | $old_version / native | SQL edition $new_version, µs an ID | $new_version / native |"
echo "|---|---:|---:|---:|---:|---:|"
for t in timeid tbsl uid11 scru160; do
	awk -v t="$t" -v n="${best[native.$t]}" -v a="${best[ids_before.$t]}" -v b="${best[ids.$t]}" -v ids="$ids" \
		'BEGIN { printf "| %s | %.2f | %.2f | %.1f× | %.2f | %.1f× |\n", t, n * 1000 / ids, a * 1000 / ids, a / n, b * 1000 / ids, b / n }'
done
