#!/usr/bin/env bash
# The cost of the replicated high-water mark (src/pg/mark_wal.cpp) under continuous generation, with fsync
# and synchronous_commit on: the same library and server, one database with idtypes' current SQL (its table
# idtypes_high_water: every write of the mark also writes a generic WAL record) beside one at 1.2's SQL (no
# table: the mark goes to the file only, as before). Each generator issues BENCH_ROWS (2,000,000) IDs in one
# statement, alternately in each database, BENCH_RUNS (7) times; the median per ID, and the WAL written per
# run. Prints a Markdown table (BENCHMARKS.md). PostgreSQL 15 by default, in a private copy.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs=${BENCH_RUNS:-7}
rows=${BENCH_ROWS:-2000000}

ensure_packages
work=$(mktemp -d /tmp/idtypes-bench-mark.XXXXXX)
chmod 755 "$work"
PG_CONFIG=$(private_install "$PG_CONFIG" "$work")
export PG_CONFIG
build_and_install
trap 'cluster_stop; rm -rf "$work"' EXIT
cluster_start fsync=on synchronous_commit=on
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'CREATE DATABASE file_only' -c 'CREATE DATABASE replicated'
psql_q -d file_only -c "CREATE EXTENSION idtypes VERSION '1.2'"
psql_q -d replicated -c 'CREATE EXTENSION idtypes'

subjects=("timeid_generate()" "tbsl_generate()" "uid11_generate()" "scru160_generate()" "uid11_generate_random()"
	"uuid_v7_generate()")
median() { sort -n | sed -n "$(((runs + 1) / 2))p"; }
log "cost per ID with fsync on: median of $runs runs of $rows in one statement, alternately per database"
echo "| generator | file only (1.2's SQL), ns/ID | file and WAL record (current SQL), ns/ID | ratio | WAL per run, file only / with the record |"
echo "|---|---|---|---|---|"
for s in "${subjects[@]}"; do
	declare -A times=() wal=()
	for _ in $(seq 1 "$runs"); do
		for db in file_only replicated; do # a new session each time: the first call of a session included
			out=$(psql -X -At -d "$db" -c 'SELECT pg_current_wal_insert_lsn()' -c '\timing on' \
				-c "SELECT count($s) FROM generate_series(1, $rows)" -c '\timing off' -c 'SELECT pg_current_wal_insert_lsn()')
			times[$db]+="$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out") "
			lsns=($(grep '/' <<<"$out"))
			wal[$db]+="$(psql_q -c "SELECT '${lsns[1]}'::pg_lsn - '${lsns[0]}'::pg_lsn") "
		done
	done
	a=$(tr ' ' '\n' <<<"${times[file_only]}" | grep . | median)
	b=$(tr ' ' '\n' <<<"${times[replicated]}" | grep . | median)
	wa=$(tr ' ' '\n' <<<"${wal[file_only]}" | grep . | median)
	wb=$(tr ' ' '\n' <<<"${wal[replicated]}" | grep . | median)
	awk -v s="$s" -v a="$a" -v b="$b" -v n="$rows" -v wa="$wa" -v wb="$wb" \
		'BEGIN { printf "| `%s` | %.0f | %.0f | %.2f | %d B / %d B |\n", s, a * 1e6 / n, b * 1e6 / n, b / a, wa, wb }'
done
