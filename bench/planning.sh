#!/usr/bin/env bash
# What parsing, planning and running `<@` and `^@` cost against the same bounds written by hand, counted in
# machine instructions (valgrind's callgrind) rather than timed: a count does not move with the load on
# the machine, so a 1.05 here means 5 % more work, not noise. Run by scripts/bench.sh, or alone after
# `source scripts/lib.sh; ensure_packages`. A single-user backend (postgres --single) runs each query 20
# times and 220 times; the difference over 200 is one query's cost, start-up excluded. Prints Markdown.
# With the argument `past-analyze`, only the last section (windows among rows newer than the statistics).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
bindir=$("$PG_CONFIG" --bindir)
work=$(mktemp -d /tmp/idtypes-planning.XXXXXX)
chown postgres: "$work"
trap 'rm -rf "$work"' EXIT
single() { runuser -u postgres -- env -C "$work" "$@" "$bindir/postgres" --single -D "$work/data" -c jit=off postgres; }

as_postgres "$bindir/initdb" -D "$work/data" -A trust -U postgres --no-sync >/dev/null
single >/dev/null 2>&1 <<'SQL'
CREATE EXTENSION idtypes;
CREATE TABLE spread AS SELECT timeid_min(at) AS timeid, tbsl_min(at) AS tbsl, uid11_min(at) AS uid11, scru160_min(at) AS scru160 FROM generate_series(1, 200000) g, LATERAL (SELECT timestamptz '2024-01-01 00:00+00' + g * (interval '1 year' / 200000) AS at) a;
CREATE INDEX ON spread (timeid);
CREATE INDEX ON spread (tbsl);
CREATE INDEX ON spread (uid11);
CREATE INDEX ON spread (scru160);
VACUUM ANALYZE spread;
CREATE TABLE stale AS SELECT at, timeid_min(at) AS timeid, tbsl_min(at) AS tbsl, uid11_min(at) AS uid11, scru160_min(at) AS scru160 FROM generate_series(1, 200000) g, LATERAL (SELECT timestamptz '2024-01-01 00:00+00' + g * (interval '1 year' / 200000) AS at) a;
CREATE INDEX ON stale (at);
CREATE INDEX ON stale (timeid);
CREATE INDEX ON stale (tbsl);
CREATE INDEX ON stale (uid11);
CREATE INDEX ON stale (scru160);
VACUUM ANALYZE stale;
INSERT INTO stale SELECT at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at) FROM generate_series(200001, 220000) g, LATERAL (SELECT timestamptz '2024-01-01 00:00+00' + g * (interval '1 year' / 200000) AS at) a;
CREATE TABLE vacuumed AS SELECT * FROM stale WHERE at < '2025-01-01';
CREATE INDEX ON vacuumed (at);
CREATE INDEX ON vacuumed (timeid);
CREATE INDEX ON vacuumed (tbsl);
CREATE INDEX ON vacuumed (uid11);
CREATE INDEX ON vacuumed (scru160);
ANALYZE vacuumed;
INSERT INTO vacuumed SELECT * FROM stale WHERE at >= '2025-01-01';
VACUUM vacuumed;
SQL

# Instructions one run of the query costs.
instructions() {
	local q=$1 n total=()
	for n in 20 220; do
		yes "$q" | head -n "$n" >"$work/q.sql"
		total+=("$(single valgrind --tool=callgrind --callgrind-out-file=/dev/null <"$work/q.sql" 2>&1 >/dev/null |
			sed -nE 's/.*Collected : ([0-9]+).*/\1/p')")
	done
	echo $(((total[1] - total[0]) / 200))
}

at="'2024-07-19 09:41:00+00'"
[ "${1:-}" = past-analyze ] || { # `scripts/bench.sh planning past-analyze`: only the last section
echo
echo "## Planning cost: instructions per query (parse, plan, run; 1-minute window, 9-symbol prefix, 200,000 rows)"
echo
echo '| query | operator | same bounds by hand | ratio |'
echo '|---|---|---|---|'
for t in timeid tbsl uid11 scru160; do
	later="$at::timestamptz + interval '1 minute'"
	prefix="left(${t}_min($at)::text, 9)"
	forms=(
		"$t <@ window (stable: x + interval)|$t <@ tstzrange($at, $later)|$t >= ${t}_min($at) AND $t <= ${t}_max($later - interval '1 microsecond')"
		"$t <@ window (constants)|$t <@ tstzrange($at, '2024-07-19 09:42:00+00')|$t >= ${t}_min($at) AND $t <= ${t}_max('2024-07-19 09:41:59.999999+00')"
		"$t ^@ prefix|$t ^@ $prefix|$t >= ${t}_prefix_lo($prefix) AND $t <= ${t}_prefix_hi($prefix)"
	)
	for f in "${forms[@]}"; do
		IFS='|' read -r name op hand <<<"$f"
		a=$(instructions "SELECT count(*) FROM spread WHERE $op;")
		b=$(instructions "SELECT count(*) FROM spread WHERE $hand;")
		echo "| $name | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }') |"
	done
done

}

# Past the last ANALYZE: 20,000 rows newer than the statistics, a window among them, so that the estimators
# read the index's actual end (PostgreSQL does the same for the timestamptz column).
late="'2025-01-15 09:41:00+00'"
late_end="'2025-01-15 09:42:00+00'"
# The same table after a VACUUM without ANALYZE (`vacuumed`): the newer rows are known from the cumulative
# statistics rather than from pg_class.reltuples.
ts=$(instructions "SELECT count(*) FROM stale WHERE at >= $late AND at < $late_end;")
ts_vacuumed=$(instructions "SELECT count(*) FROM vacuumed WHERE at >= $late AND at < $late_end;")
echo
echo "## Planning cost past the last ANALYZE: instructions per query (1-minute window among 20,000 rows newer than the statistics)"
echo
echo "| query | before VACUUM | timestamptz, same bounds by hand ($ts) | ratio | after VACUUM | timestamptz ($ts_vacuumed) | ratio |"
echo '|---|---|---|---|---|---|---|'
for t in timeid tbsl uid11 scru160; do
	a=$(instructions "SELECT count(*) FROM stale WHERE $t <@ tstzrange($late, $late_end);")
	v=$(instructions "SELECT count(*) FROM vacuumed WHERE $t <@ tstzrange($late, $late_end);")
	echo "| $t <@ window (constants) | $a | $ts | $(awk -v a="$a" -v b="$ts" 'BEGIN { printf "%.2f", a / b }') |" \
		"$v | $ts_vacuumed | $(awk -v a="$v" -v b="$ts_vacuumed" 'BEGIN { printf "%.2f", a / b }') |"
done
