#!/usr/bin/env bash
# The newest rows as the planner sees them on tables that autovacuum vacuums but does not analyze, then
# across a clean restart and a crash (sql/planner_stale.sql covers a VACUUM by hand and a statistics reset).
# In a throwaway cluster of its own with autovacuum on (naptime 1 s); each table's reloptions make the
# inserts trigger a VACUUM (insert threshold 100) and never an ANALYZE (threshold 2,000,000,000). Tables:
# 50,000 rows over 30 days ending 3 hours ago, analyzed by hand, then 1 % or 30 % newer rows over the last
# 3 hours, or rows at the 30 days' pace. Checks that autovacuum ran (vacuum count up, no analyze), then
# every type's last-hour and last-10-minutes windows and T_min bound within 2x of the actual rows and the
# last-hour self-join a hash or merge join as on the timestamptz column; again after a clean restart
# (counters kept), and after an immediate shutdown (counters lost: the steady table within 2x by the
# histogram's pace; the burst tables estimated at that pace, short of the burst, never 1 row).
# Needs PG_CONFIG (a PostgreSQL with idtypes installed) and root. Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
status=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

cluster_start autovacuum=on autovacuum_naptime=1 || { fail "starting a cluster with autovacuum on"; exit 1; }
trap cluster_stop EXIT
data=$CLUSTER_DIR/data
bin=$("$PG_CONFIG" --bindir)

# Each statement its own session: a backend reports its counts to the cumulative statistics when it ends.
# The helpers (plan_rows, estimate_within, join_method) are pg_regress's.
q -c "CREATE EXTENSION idtypes" -f "$(dirname "$0")/../../sql/00_helpers.sql" >/dev/null ||
	{ fail "creating the extension and helpers"; exit 1; }
tables="few many steady"
for tbl in $tables; do
	q -c "CREATE TABLE $tbl (uid int, at timestamptz, t timeid, b tbsl, u uid11, s scru160) WITH (autovacuum_enabled = off,
		autovacuum_vacuum_insert_threshold = 100, autovacuum_vacuum_insert_scale_factor = 0,
		autovacuum_analyze_threshold = 2000000000, autovacuum_analyze_scale_factor = 0)" \
		-c "INSERT INTO $tbl SELECT g % 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)
		FROM generate_series(1, 50000) g, LATERAL (SELECT now() - interval '3 hours' - (50000 - g) * (interval '30 days' / 50000) AS at) a" \
		-c "CREATE INDEX ON $tbl (at)" -c "CREATE INDEX ON $tbl (t)" -c "CREATE INDEX ON $tbl (b)" \
		-c "CREATE INDEX ON $tbl (u)" -c "CREATE INDEX ON $tbl (s)" || { fail "creating table $tbl"; exit 1; }
	q -c "SET default_statistics_target = 400" -c "ANALYZE $tbl" || { fail "ANALYZE $tbl"; exit 1; }
done
newer() { case $1 in few) echo 500 ;; many) echo 15000 ;; steady) echo 208 ;; esac; }
for tbl in $tables; do
	n=$(newer "$tbl")
	q -c "INSERT INTO $tbl SELECT g % 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)
		FROM generate_series(1, $n) g, LATERAL (SELECT now() - interval '3 hours' + g * (interval '3 hours' / $n) AS at) a" \
		-c "ALTER TABLE $tbl SET (autovacuum_enabled = on)" || fail "inserting the newer rows into $tbl"
done

# autovacuum's VACUUM of each table, and no ANALYZE: pg_class.reltuples then counts the newer rows
for tbl in $tables; do
	for _ in $(seq 1 120); do
		[ "$(q -c "SELECT autovacuum_count > 0 AND reltuples = 50000 + $(newer "$tbl")
			FROM pg_stat_user_tables JOIN pg_class USING (relname) WHERE relname = '$tbl'")" = t ] && break
		sleep 0.5
	done
	got=$(q -c "SELECT autovacuum_count > 0, autoanalyze_count = 0 AND analyze_count = 1, reltuples = 50000 + $(newer "$tbl")
		FROM pg_stat_user_tables JOIN pg_class USING (relname) WHERE relname = '$tbl'")
	[ "$got" = "t|t|t" ] && ok "$tbl: autovacuum vacuumed it without analyzing it, reltuples counts the newer rows" ||
		fail "$tbl: autovacuum vacuumed, did not analyze, reltuples counts all (vacuumed|not analyzed|reltuples): $got"
done

# Every type's windows past the last bound within `factor` of the actual rows, and the self-join's method.
windows() { # table, factor, what
	local tbl=$1 factor=$2 what=$3 c got
	for c in t:timeid b:tbsl u:uid11 s:scru160; do
		got=$(q -c "SELECT string_agg(w || ' ' || e, ', ') FILTER (WHERE e <> 'ok')
			FROM (VALUES ('last hour', 'SELECT * FROM $tbl WHERE ${c%:*} <@ tstzrange(now() - interval ''1 hour'', NULL)'),
				('last 10 minutes', 'SELECT * FROM $tbl WHERE ${c%:*} <@ tstzrange(now() - interval ''10 minutes'', now())'),
				('T_min', 'SELECT * FROM $tbl WHERE ${c%:*} >= ${c#*:}_min(now() - interval ''30 minutes'')')) v(w, query),
			LATERAL estimate_within(query, $factor) e")
		[ -z "$got" ] && ok "$tbl $what: ${c#*:} last hour, last 10 minutes, T_min within ${factor}x" ||
			fail "$tbl $what: ${c#*:} $got"
	done
}
joins() { # table, what
	local tbl=$1 what=$2 got
	got=$(q -c "SELECT string_agg(c || ' ' || join_method(format('SELECT count(*) FROM $tbl a JOIN $tbl b ON a.uid = b.uid
		WHERE a.%1\$s %2\$s AND b.%1\$s %2\$s', c, CASE WHEN c = 'at' THEN '>= now() - interval ''1 hour'''
			ELSE '<@ tstzrange(now() - interval ''1 hour'', NULL)' END)), ', ')
		FROM unnest(ARRAY['at', 't', 'b', 'u', 's']) c")
	[[ "$got" =~ ^at\ (Hash|Merge)\ Join && ! "$got" =~ Nested ]] &&
		ok "$tbl $what: the last-hour self-join is a hash or merge join on every column ($got)" ||
		fail "$tbl $what: last-hour self-join methods: $got"
}
for tbl in $tables; do windows "$tbl" 2 "after autovacuum"; done
for tbl in few many; do joins "$tbl" "after autovacuum"; done

# a clean restart keeps the cumulative statistics (written at shutdown)
started=$(q -c "SELECT pg_postmaster_start_time()")
(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$data" -w -s -m fast restart) >/dev/null ||
	fail "pg_ctl restart"
[ "$(q -c "SELECT pg_postmaster_start_time() > '$started'")" = t ] && ok "the server restarted (clean shutdown)" ||
	fail "the server did not restart"
for tbl in $tables; do windows "$tbl" 2 "after a clean restart"; done

# an immediate shutdown (as a crash) discards them: the steady table by the histogram's pace within 2x; the
# bursts (2.4x and 72x the 30 days' pace) estimated at that pace, never collapsing to 1 row
started=$(q -c "SELECT pg_postmaster_start_time()")
(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$data" -w -s -m immediate restart) >/dev/null ||
	fail "pg_ctl restart -m immediate"
[ "$(q -c "SELECT pg_postmaster_start_time() > '$started'")|$(q -c "SELECT n_mod_since_analyze = 0 AND last_analyze IS NULL
	FROM pg_stat_user_tables WHERE relname = 'steady'")" = "t|t" ] &&
	ok "the server restarted after an immediate shutdown, the cumulative statistics lost" ||
	fail "the server did not restart, or kept its statistics"
windows steady 2 "after an immediate shutdown"
for tbl in few many; do
	got=$(q -c "SELECT round(estimated / (50000 / 720.0), 2)
		FROM plan_rows('SELECT * FROM $tbl WHERE t <@ tstzrange(now() - interval ''1 hour'', NULL)')")
	awk -v r="$got" 'BEGIN { exit !(r >= 0.5 && r <= 2) }' &&
		ok "$tbl after an immediate shutdown: the last hour estimated at the histogram's pace (${got}x of 69 rows an hour)" ||
		fail "$tbl after an immediate shutdown: the last hour estimated at ${got}x the histogram's pace"
done
exit $status
