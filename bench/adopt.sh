#!/usr/bin/env bash
# Adoption's backfill beside the application (docs/adopting.md): the tables of test/adopt/schema.sql with
# BENCH_ROWS (1,000,000) parent rows, bigint keys, in a cluster of its own (PostgreSQL 15, a private copy,
# fsync on). pgbench (test/adopt/run.sh's script: updates and inserts into all four tables, prepared, 4 clients at
# BENCH_RATE (200) transactions a second) runs BENCH_SECONDS (30) alone, then during
# idtypes_adopt_backfill of the same tables (keep: bigint -> timeid), in one run. Prints a Markdown table: the
# backfill's rows a second, and pgbench's median, p99 and maximum latency (time minus schedule lag) alone and
# during the backfill, with the ratio.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
rows=${BENCH_ROWS:-1000000}
rate=${BENCH_RATE:-200}
seconds=${BENCH_SECONDS:-30}
ensure_packages
work=$(mktemp -d /tmp/idtypes-bench-adopt.XXXXXX)
chmod 755 "$work"
PG_CONFIG=$(private_install "$PG_CONFIG" "$work/pg")
build_and_install
cluster_start fsync=on synchronous_commit=on
trap 'cluster_stop; rm -rf "$work"' EXIT
psql -X -q -c 'CREATE EXTENSION idtypes'
psql -X -q -v kind=bigint -v "default=nextval('seq_s') + 1000000000" -v rows="$rows" -v gen=i -f "$ROOT/test/adopt/schema.sql"
sed -n "/^cat >\"\$work\/load.sql\" <<'EOF'$/,/^EOF$/p" "$ROOT/test/adopt/run.sh" | sed '1d;$d' >"$work/load.sql"
chmod -R a+rwX "$work"
# pgbench for SECONDS into the log prefix $1 (in the background when $2 is bg)
bench() {
	runuser -u postgres -- "$(dirname "$(command -v psql)")/pgbench" -n -h "$PGHOST" -p "$PGPORT" -U postgres -M prepared \
		-c 4 -j 2 -R "$rate" -T "$1" -D rows="$rows" -f "$work/load.sql" --log --log-prefix="$work/$2" postgres >"$work/$2.out" 2>&1
}
# median, p99, max (ms) of the latency logs $1*
stats() { cat "$work/$1".* | awk '{ print ($3 - $7) / 1000 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f %.1f %.1f %d\n", a[int(NR / 2) + 1], a[int(NR * 0.99) + 1], a[NR], NR }'; }
bench "$seconds" alone
psql -X -q -c "CALL idtypes_adopt_start('parent', 'timeid')"
bench 3600 during &
runner=$!
sleep 2
start=$EPOCHREALTIME
psql -X -q -c "CALL idtypes_adopt_backfill('parent')"
took=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
sleep 1
kill -TERM "$(pgrep -P "$runner")" && wait "$runner" || true
done_rows=$(psql -X -At -c "SELECT rows_done FROM idtypes_adopt_progress")
read -r a_med a_p99 a_max a_n < <(stats alone)
read -r d_med d_p99 d_max d_n < <(stats during)
echo "| | rows | rows/s | pgbench median ms | p99 ms | max ms | transactions |"
echo "|---|---|---|---|---|---|---|"
echo "| pgbench alone ($seconds s) | | | $a_med | $a_p99 | $a_max | $a_n |"
awk -v r="$done_rows" -v t="$took" -v m="$d_med" -v p="$d_p99" -v x="$d_max" -v n="$d_n" -v ap="$a_p99" -v am="$a_med" \
	'BEGIN { printf "| during the backfill (%.0f s) | %d | %.0f | %s (x%.2f) | %s (x%.2f) | %s | %d |\n", t, r, r / t, m, m / am, p, p / ap, x, n }'
