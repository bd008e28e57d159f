#!/usr/bin/env bash
# The SQL edition's generators against the native edition's, this tree's edition beside an earlier one's
# (BENCH_BEFORE, a git revision: default ea3c833, whose edition is 1.1), in one throwaway cluster (fsync off):
# BENCH_IDS IDs in one statement, BENCH_RUNS rounds (default 9), the runs interleaved so that a change of the
# machine's load hits every generator alike. Prints two Markdown tables (CPU time, wall time): time per ID
# and the ratio to the native generator for each edition, and the newer edition's time over the earlier's
# (BENCHMARKS.md, "The SQL edition, version to version"). Uses the system's PostgreSQL 15 unless PG_CONFIG is
# set; the native extension must be installed there (bench/sql_edition.sh builds it).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-9}
ids=${BENCH_IDS:-200000}
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
# Each run is one psql session: the backend's CPU time (/proc/self/schedstat, nanoseconds, Linux; read with a
# superuser's pg_read_file) around the statement, beside its wall time. CPU time is what the generators cost; the wall
# time also holds whatever else the machine ran meanwhile. Per cell: the median of the runs, and the
# spread (lowest-highest); the ratios are taken within each round (the three subjects back to back), then
# their median and spread.
cpu="SELECT split_part(pg_catalog.pg_read_file('/proc/self/schedstat'), ' ', 1)"
results=$(mktemp /tmp/idtypes-bench-runs.XXXXXX)
trap 'cluster_stop; rm -rf "$old" "$results"' EXIT
for r in $(seq 1 "$runs"); do
	for t in timeid tbsl uid11 scru160; do
		for s in native ids_before ids; do
			psql -X -At -c "$cpu" -c '\timing on' -c "SELECT count($s.${t}_generate()) FROM generate_series(1, $ids)" -c '\timing off' -c "$cpu" |
				awk -v r="$r" -v t="$t" -v s="$s" -v ids="$ids" '
					/^Time:/ { wall = $2 } /^[0-9]+$/ { c[n++] = $1 } # the CPU time before, the count, the CPU time after
					END { printf "%s %s %s %.4f %.4f\n", r, t, s, wall * 1000 / ids, (c[2] - c[0]) / 1000 / ids }' >>"$results"
		done
	done
done
# median and spread of column COL (4 wall, 5 CPU) for generator T: of the subject S, or of S's time over BASE's in each round
stat() {
	awk -v t="$1" -v s="$2" -v base="${3:-}" -v col="$4" -v fmt="$5" '
		$2 == t { v[$1, $3] = $col; rounds[$1] }
		END {
			for (r in rounds) x[n++] = base == "" ? v[r, s] : v[r, s] / v[r, base]
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (x[j] < x[i]) { y = x[i]; x[i] = x[j]; x[j] = y }
			m = n % 2 ? x[(n - 1) / 2] : (x[n / 2 - 1] + x[n / 2]) / 2
			printf fmt " (" fmt "–" fmt ")", m, x[0], x[n - 1]
		}' "$results"
}
for col in 5 4; do
	[ "$col" = 5 ] && what="**The server process's CPU time**" || what="**Wall time**"
	echo
	echo "$what, $ids IDs in one statement, median of $runs rounds (lowest–highest):"
	echo
	echo "| generator | native, µs an ID | SQL edition $old_version, µs an ID | $old_version / native | SQL edition $new_version, µs an ID | $new_version / native | $new_version / $old_version |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for t in timeid tbsl uid11 scru160; do
		echo "| $t | $(stat $t native "" $col %.2f) | $(stat $t ids_before "" $col %.2f) | $(stat $t ids_before native $col %.1f×) | $(stat $t ids "" $col %.2f) | $(stat $t ids native $col %.1f×) | $(stat $t ids ids_before $col %.2f×) |"
	done
done
