#!/usr/bin/env bash
# uuid_v7_generate() across the server: every value distinct and greater than every value issued before it,
# by any session, against a running cluster (PGHOST etc. set). Arguments, optional: the cluster's data
# directory and bin directory (its pg_ctl, run as postgres): then also across restarts. Prints `ok` / `FAIL`.
#
# - sessions one after another, each in a new connection, direct calls and a column DEFAULT alternating, two
#   of them with the clock 2 s behind the others (idtypes.test_clock_offset): in issue order (session, then
#   row) every value is greater than the one before;
# - 8 sessions at once, in rounds: no duplicate, each session's values increasing, and every value of a
#   round above every value of the rounds before it; pgbench sessions inserting through a DEFAULT;
# - with the data directory: a clean restart, an immediate shutdown and a killed backend (crash restart),
#   each seen to happen, the clock set back further before each (20, 40, 60 s): the values after each
#   continue above every value before.
# Sizes: IDTYPES_UUID_SERIAL_SESSIONS x IDTYPES_UUID_SERIAL_ROWS (5 x 300,000 of each kind),
# IDTYPES_UUID_ROUNDS x 8 x IDTYPES_UUID_CONCURRENT_ROWS (2 x 8 x 20,000).
set -uo pipefail
data=${1:-}
bin=${2:-}
serial_sessions=${IDTYPES_UUID_SERIAL_SESSIONS:-5}
serial_rows=${IDTYPES_UUID_SERIAL_ROWS:-300000}
rounds=${IDTYPES_UUID_ROUNDS:-2}
sessions=8
concurrent_rows=${IDTYPES_UUID_CONCURRENT_ROWS:-20000}
export PGDATABASE=idtypes_uuid_v7_$$
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
source "$(dirname "$0")/server.sh"
# rows of TABLE whose id is not greater than the id before it in the order ORDER, and duplicate ids
not_increasing() { psql_q -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY $2) AS prev FROM $1) s WHERE id <= prev"; }
duplicates() { psql_q -c "SELECT count(*) - count(DISTINCT id) FROM $1"; }

psql_q -d postgres -c "CREATE DATABASE $PGDATABASE" || exit 1
psql_q -c 'CREATE EXTENSION idtypes' || exit 1
mode=$(psql_q -c 'SELECT idtypes_generator_mode()')

# Sessions one after another: odd steps call the function, even ones fill the column DEFAULT.
psql_q -c "CREATE UNLOGGED TABLE serial (id uuid DEFAULT uuid_v7_generate(), step int, seq int)" || exit 1
steps=$((2 * serial_sessions))
for step in $(seq 1 "$steps"); do
	options=
	[ $(((step - 1) % 4)) = 2 ] && options="-c idtypes.test_clock_offset=-2s" # steps 3 and 7: a clock behind
	if [ $((step % 2)) = 1 ]; then
		sql="INSERT INTO serial SELECT uuid_v7_generate(), $step, g FROM generate_series(1, $serial_rows) g"
	else
		sql="INSERT INTO serial (step, seq) SELECT $step, g FROM generate_series(1, $serial_rows) g"
	fi
	PGOPTIONS="$options" psql_q -c "$sql" || { fail "uuid_v7 ($mode): session $step of $steps failed"; break; }
done
n=$(psql_q -c "SELECT count(*) FROM serial")
d=$(duplicates serial)
i=$(not_increasing serial "step, seq")
[ "$n" = $((steps * serial_rows)) ] && [ "$d" = 0 ] && [ "$i" = 0 ] &&
	ok "uuid_v7 ($mode): $serial_sessions sessions one after another x $serial_rows direct calls and as many through a column DEFAULT, alternating, two with the clock 2 s behind: $n values, no duplicate, each greater than the one issued before" ||
	fail "uuid_v7 ($mode): sessions one after another: $n values, $d duplicates, $i not greater than the one issued before"
psql_q -c "DROP TABLE serial"

# 8 sessions at once, in rounds.
psql_q -c "CREATE UNLOGGED TABLE conc (id uuid, round int, session int, seq int)" || exit 1
bad=0
for r in $(seq 1 "$rounds"); do
	pids=()
	for s in $(seq 1 $sessions); do
		psql_q -c "INSERT INTO conc SELECT uuid_v7_generate(), $r, $s, g FROM generate_series(1, $concurrent_rows) g" \
			>"$workdir/conc.$r.$s" 2>&1 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
done
d=$(duplicates conc)
i=$(psql_q -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY round, session ORDER BY seq) AS prev FROM conc) s WHERE id <= prev")
# uuid has no min/max before PostgreSQL 16: its text (lower-case hex) sorts as it does
later=$(psql_q -c "SELECT count(*) FROM (SELECT lo, max(hi) OVER (ORDER BY round ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
	FROM (SELECT round, min(id::text) AS lo, max(id::text) AS hi FROM conc GROUP BY round) r) s WHERE lo <= before")
if [ "$bad" = 0 ] && [ "$d" = 0 ] && [ "$i" = 0 ] && [ "$later" = 0 ]; then
	ok "uuid_v7 ($mode): $rounds rounds of $sessions sessions at once x $concurrent_rows: no duplicate, each session's values increasing, each round above the rounds before"
else
	fail "uuid_v7 ($mode): sessions at once: $bad failed, $d duplicates, $i inversions in a session, $later rounds not above the rounds before"
	cat "$workdir"/conc.* | grep -m3 ERROR | sed 's/^/     /'
fi
psql_q -c "DROP TABLE conc"

psql_q -c "CREATE TABLE pgbench_uuid (id uuid PRIMARY KEY DEFAULT uuid_v7_generate(), client int)"
echo "INSERT INTO pgbench_uuid (client) VALUES (:client_id);" >"$workdir/pgbench.sql"
if out=$(pgbench -n -c "$sessions" -j 2 -t 2000 -f "$workdir/pgbench.sql" 2>&1); then
	n=$(psql_q -c "SELECT count(*) FROM pgbench_uuid")
	[ "$n" = $((sessions * 2000)) ] && ok "uuid_v7 ($mode): $sessions pgbench sessions inserted $n rows into a primary key with DEFAULT uuid_v7_generate()" ||
		fail "uuid_v7 ($mode): pgbench: expected $((sessions * 2000)) rows, found $n"
else
	fail "uuid_v7 ($mode): $sessions pgbench sessions inserting with DEFAULT uuid_v7_generate()"
	printf '%s\n' "$out" | grep -iE 'error|abort' | head -3 | sed 's/^/     /'
fi

if [ -n "$data" ]; then
	# a logged table, committed synchronously: what a crash keeps is every value issued before it
	psql_q -c "CREATE TABLE issued (id uuid, step int, seq int)"
	step=0
	issue() {
		step=$((step + 1))
		PGOPTIONS="-c synchronous_commit=on" psql_q -c "INSERT INTO issued SELECT uuid_v7_generate(), $step, g FROM generate_series(1, 20000) g"
	}
	check_after() {
		local what=$1 n d i
		issue || { fail "uuid_v7 ($mode): no value after $what"; return; }
		n=$(psql_q -c "SELECT count(*) FROM issued")
		d=$(duplicates issued)
		i=$(not_increasing issued "step, seq")
		[ "$n" = $((step * 20000)) ] && [ "$d" = 0 ] && [ "$i" = 0 ] &&
			ok "uuid_v7 ($mode): after $what with the clock set back: values continue above every one issued before ($n in issue order)" ||
			fail "uuid_v7 ($mode): after $what: $n values, $d duplicates, $i not greater than the one issued before"
	}
	issue
	# (a call first: it loads idtypes, which defines the setting, in the session)
	# the clock set back 20, 40 then 60 s, as restart.sh does: far enough that it stays behind the mark
	# however slowly a loaded machine restarts
	psql_q -c "SELECT uuid_v7_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-20s'" >/dev/null
	restart_server fast && check_after "a clean restart"
	psql_q -c "SELECT uuid_v7_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-40s'" >/dev/null
	restart_server immediate && check_after "an immediate shutdown"
	psql_q -c "SELECT uuid_v7_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-60s'" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 1
	crash_a_backend && check_after "a killed backend (crash restart)"
	psql_q -c "SELECT uuid_v7_generate()" -c "ALTER SYSTEM RESET idtypes.test_clock_offset" -c "SELECT pg_reload_conf()" >/dev/null
fi

psql_q -d postgres -c "DROP DATABASE $PGDATABASE"
exit $status
