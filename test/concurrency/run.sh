#!/usr/bin/env bash
# Generators used as applications use them, against a running cluster with the extension installed (PGHOST
# etc. set). Argument: where the cluster's generator state must live (what idtypes_generator_mode() says).
# Every check runs in a database of its own, dropped at the end. Prints one line per check, `ok` or `FAIL`.
#
# - sessions one after another (each reusing the backend id the last one left), each generating as fast as
#   it can in one statement, through a function call and through a column DEFAULT: no duplicate;
# - 8 sessions at once, for several rounds, with every way of giving an identity (none, database setting,
#   session setting, argument): no duplicate, and each session's IDs strictly increase;
# - pgbench sessions inserting one row per statement through a DEFAULT;
# - a clock behind another session's last ID.
# Sizes (defaults: the CI size; scripts/bench.sh runs the full size):
#   IDTYPES_SERIAL_SESSIONS x IDTYPES_SERIAL_ROWS, IDTYPES_ROUNDS x 8 sessions x IDTYPES_CONCURRENT_ROWS.
set -uo pipefail
mode=${1:?usage: run.sh MODE (what idtypes_generator_mode() must say)}
serial_sessions=${IDTYPES_SERIAL_SESSIONS:-5}
serial_rows=${IDTYPES_SERIAL_ROWS:-60000}
rounds=${IDTYPES_ROUNDS:-2}
sessions=8
concurrent_rows=${IDTYPES_CONCURRENT_ROWS:-20000}
export PGDATABASE=idtypes_generators_$$
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
source "$(dirname "$0")/server.sh"

psql_q -d postgres -c "CREATE DATABASE $PGDATABASE" || exit 1
psql_q -c 'CREATE EXTENSION idtypes' || exit 1
actual=$(psql_q -c 'SELECT idtypes_generator_mode()')
[ "$actual" = "$mode" ] && ok "generator state: $mode" || fail "generator state: $actual, expected $mode"

# name|type|generator expression|ordered (a session's IDs strictly increase) — every generator with state
# (uid11_generate_random's is its server-wide tickets, behind unordered values)
generators=(
	"timeid|timeid|timeid_generate()|ordered"
	"tbsl_random|tbsl|tbsl_generate()|ordered"
	"tbsl_sequenced|tbsl|tbsl_generate(NULL, true)|ordered"
	"uid11|uid11|uid11_generate()|ordered"
	"scru160|scru160|scru160_generate()|ordered"
	"uid11_random|uid11|uid11_generate_random()|unordered"
)

duplicates() { psql_q -c "SELECT count(*) - count(DISTINCT id) FROM $1"; }

# Sessions one after another, each in a new connection, as a batch job or a loader runs.
serial() {
	local name=$1 type=$2 expr=$3 s d1 d2
	psql_q -c "CREATE UNLOGGED TABLE serial_$name (id $type)" \
		-c "CREATE UNLOGGED TABLE default_$name (id $type DEFAULT $expr, n int)" || { fail "$name: setup"; return; }
	for s in $(seq 1 "$serial_sessions"); do
		psql_q -c "INSERT INTO serial_$name SELECT $expr FROM generate_series(1, $serial_rows)" &&
			psql_q -c "INSERT INTO default_$name (n) SELECT g FROM generate_series(1, $serial_rows) g" ||
			{ fail "$name: session $s failed"; return; }
	done
	d1=$(duplicates "serial_$name")
	d2=$(duplicates "default_$name")
	[ "$d1" = 0 ] && ok "$name: $serial_sessions sessions one after another x $serial_rows IDs of $expr: no duplicate" ||
		fail "$name: $serial_sessions sessions one after another x $serial_rows of $expr: $d1 duplicates"
	[ "$d2" = 0 ] && ok "$name: the same through a column DEFAULT: no duplicate" ||
		fail "$name: $serial_sessions sessions one after another through DEFAULT $expr: $d2 duplicates"
	psql_q -c "DROP TABLE serial_$name, default_$name"
}

# 8 sessions at once, `rounds` times. Extra arguments: psql options of every session (e.g. PGOPTIONS).
concurrent() {
	local name=$1 type=$2 expr=$3 ordered=$4 label=$5 options=${6:-} r s pids bad=0 d inversions
	psql_q -c "CREATE UNLOGGED TABLE conc_$name (id $type, round int, session int, seq int)" || { fail "$name: setup"; return; }
	for r in $(seq 1 "$rounds"); do
		pids=()
		for s in $(seq 1 $sessions); do
			PGOPTIONS="$options" psql_q -c "INSERT INTO conc_$name SELECT $expr, $r, $s, g FROM generate_series(1, $concurrent_rows) g" \
				>"$workdir/$name.$r.$s" 2>&1 &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	done
	d=$(duplicates "conc_$name")
	if [ "$bad" = 0 ] && [ "$d" = 0 ]; then
		ok "$name ($label): $rounds rounds of $sessions sessions at once x $concurrent_rows IDs of $expr: no duplicate"
	else
		fail "$name ($label): $rounds rounds of $sessions sessions x $concurrent_rows of $expr: $d duplicates, $bad sessions failed"
		cat "$workdir"/$name.* | grep -m3 ERROR | sed 's/^/     /'
	fi
	if [ "$ordered" = ordered ]; then
		inversions=$(psql_q -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY round, session ORDER BY seq) AS prev
			FROM conc_$name) s WHERE id <= prev")
		[ "$inversions" = 0 ] || fail "$name ($label): $inversions ordering inversions within sessions"
	fi
	psql_q -c "DROP TABLE conc_$name"
}

for g in "${generators[@]}"; do
	IFS='|' read -r name type expr ordered <<<"$g"
	serial "$name" "$type" "$expr"
	concurrent "$name" "$type" "$expr" "$ordered" "default identity"
done

# The same identity given to every session in each way a user can give it.
psql_q -c "ALTER DATABASE $PGDATABASE SET idtypes.timeid_clock_id = 5" -c "ALTER DATABASE $PGDATABASE SET idtypes.tbsl_machine_id = 5"
concurrent timeid_db timeid 'timeid_generate()' ordered "clock id 5 as a database setting"
concurrent tbsl_db tbsl 'tbsl_generate()' ordered "machine id 5 as a database setting"
concurrent tbsl_seq_db tbsl 'tbsl_generate(NULL, true)' ordered "machine id 5 as a database setting, sequenced"
psql_q -c "ALTER DATABASE $PGDATABASE RESET ALL"
concurrent timeid_session timeid 'timeid_generate()' ordered "clock id 7 as a session setting" "-c idtypes.timeid_clock_id=7"
concurrent tbsl_session tbsl 'tbsl_generate()' ordered "machine id 7 as a session setting" "-c idtypes.tbsl_machine_id=7"
concurrent timeid_arg timeid 'timeid_generate(7)' ordered "clock id 7 as an argument"
concurrent tbsl_arg tbsl 'tbsl_generate(7)' ordered "machine id 7 as an argument"
concurrent tbsl_seq_arg tbsl 'tbsl_generate(7, true)' ordered "machine id 7 as an argument, sequenced"

# rows inserted one statement at a time through a DEFAULT, as applications do
default_inserts() {
	local name=$1 type=$2 default=$3 out n
	psql_q -c "CREATE TABLE pgbench_$name (id $type PRIMARY KEY DEFAULT $default, client int)" || return 1
	echo "INSERT INTO pgbench_$name (client) VALUES (:client_id);" >"$workdir/pgbench.sql"
	if out=$(pgbench -n -c "$sessions" -j 2 -t 2000 -f "$workdir/pgbench.sql" 2>&1); then
		n=$(psql_q -c "SELECT count(*) FROM pgbench_$name")
		[ "$n" = $((sessions * 2000)) ] && ok "$name: $sessions pgbench sessions inserted $n rows with DEFAULT $default" ||
			fail "$name: expected $((sessions * 2000)) rows, found $n"
	else
		fail "$name: $sessions pgbench sessions inserting with DEFAULT $default"
		printf '%s\n' "$out" | grep -iE 'error|abort' | head -3 | sed 's/^/     /'
	fi
}
default_inserts tbsl tbsl 'tbsl_generate()'
default_inserts timeid timeid 'timeid_generate()'
default_inserts uid11 uid11 'uid11_generate()'
default_inserts scru160 scru160 'scru160_generate()'

# With idtypes.timeid_clock_id = -1 every session uses the server's clock id, drawn once.
a=$(psql_q -c 'SELECT timeid_clock_id(timeid_generate())')
b=$(psql_q -c 'SELECT timeid_clock_id(timeid_generate())')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "timeid_generate() uses the server's one clock id ($a) in every session" ||
	fail "timeid clock ids of two sessions: $a, $b"

# A clock behind the last ID another session issued.
psql_q -c 'SELECT tbsl_generate()' >/dev/null
out=$(psql_q -c "SET idtypes.test_clock_offset = '-2s'" -c "SET idtypes.clock_backward = 'error'" \
	-c 'SELECT tbsl_generate()' 2>&1)
grep -q 'behind the last TBSL generated' <<<"$out" &&
	ok "a session whose clock is 2 s behind another session's last TBSL gets the clock_backward error" ||
	fail "clock behind another session's TBSL: $out"
out=$(psql_q -c "SET idtypes.test_clock_offset = '-2s'" -c "SET idtypes.clock_backward_max_wait = '100ms'" \
	-c 'SELECT tbsl_generate()' 2>&1)
grep -q 'gave up waiting for the clock after 100 ms' <<<"$out" &&
	ok "with clock_backward = wait it gives up after clock_backward_max_wait" ||
	fail "waiting for a clock behind another session's TBSL: $out"
first=$(psql_q -c 'SELECT timeid_generate()')
later=$(psql_q -c "SET idtypes.test_clock_offset = '-2s'" -c "SELECT timeid_generate() > '$first'::timeid")
[ "$later" = t ] && ok "timeid stays increasing across sessions when one session's clock is 2 s behind" ||
	fail "timeid across sessions with a clock behind: $later"

psql_q -d postgres -c "DROP DATABASE $PGDATABASE"
exit $status
