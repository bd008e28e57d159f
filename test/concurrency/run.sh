#!/usr/bin/env bash
# Generators under concurrent sessions, run by scripts/test.sh against a running cluster with the extension
# installed (PGHOST etc. set). Argument: the generator mode the cluster must be in (backend | shared).
# For every generator: 8 sessions at once each insert 100k IDs into a table with a UNIQUE constraint (any
# duplicate fails the insert), then each session's IDs must strictly increase in the order it made them.
# Also, with a DEFAULT generator, pgbench sessions inserting rows one statement at a time.
# Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
mode=${1:?usage: run.sh backend|shared}
sessions=8
rows=${IDTYPES_CONCURRENCY_ROWS:-100000}
status=0
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }

psql_q -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1
actual=$(psql_q -c 'SELECT idtypes_generator_mode()')
[ "$actual" = "$mode" ] && ok "generator mode is $mode" || fail "generator mode is $actual, expected $mode"

# name, type, generator expression, whether a session's IDs must strictly increase
concurrent() {
	local name=$1 type=$2 expr=$3 ordered=$4 pids=() bad=0 count inversions
	psql_q -c "DROP TABLE IF EXISTS gen_$name" \
		-c "CREATE UNLOGGED TABLE gen_$name (id $type UNIQUE, session int, seq int)" || { fail "$name: setup"; return; }
	for s in $(seq 1 $sessions); do
		psql_q -c "INSERT INTO gen_$name SELECT $expr, $s, g FROM generate_series(1, $rows) g" >"/tmp/idtypes_gen_$name.$s" 2>&1 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	count=$(psql_q -c "SELECT count(DISTINCT id) FROM gen_$name")
	if [ "$bad" != 0 ] || [ "$count" != $((sessions * rows)) ]; then
		fail "$name: $sessions sessions x $rows IDs of $expr: $count distinct, $bad sessions failed"
		cat /tmp/idtypes_gen_$name.* | grep -m3 ERROR | sed 's/^/     /'
	else
		ok "$name: $sessions sessions x $rows IDs of $expr, all $count distinct"
	fi
	if [ "$ordered" = ordered ]; then
		inversions=$(psql_q -c "SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY seq) AS prev
			FROM gen_$name) s WHERE id <= prev")
		[ "$inversions" = 0 ] && ok "$name: each session's IDs strictly increase" ||
			fail "$name: $inversions ordering inversions within sessions"
	fi
	rm -f /tmp/idtypes_gen_$name.*
	psql_q -c "DROP TABLE gen_$name"
}

concurrent timeid timeid 'timeid_generate()' ordered
concurrent tbsl_random tbsl 'tbsl_generate()' ordered
concurrent tbsl_sequenced tbsl 'tbsl_generate(1, true)' ordered
concurrent uid11 uid11 'uid11_generate()' ordered
concurrent uid11_random uid11 'uid11_generate_random()' unordered
concurrent scru160 scru160 'scru160_generate()' ordered

# rows inserted one statement at a time through a DEFAULT, as applications do
default_inserts() {
	local name=$1 type=$2 default=$3 script out n
	psql_q -c "DROP TABLE IF EXISTS conc_$name" -c "CREATE TABLE conc_$name (id $type PRIMARY KEY DEFAULT $default, client int)" || return 1
	script=$(mktemp)
	echo "INSERT INTO conc_$name (client) VALUES (:client_id);" >"$script"
	if out=$(pgbench -n -c "$sessions" -j 2 -t 2000 -f "$script" 2>&1); then
		n=$(psql_q -c "SELECT count(*) FROM conc_$name")
		[ "$n" = $((sessions * 2000)) ] && ok "$name: $sessions pgbench sessions inserted $n rows with DEFAULT $default" ||
			fail "$name: expected $((sessions * 2000)) rows, found $n"
	else
		fail "$name: $sessions pgbench sessions inserting with DEFAULT $default"
		printf '%s\n' "$out" | grep -iE 'error|abort' | head -3 | sed 's/^/     /'
	fi
	rm -f "$script"
	psql_q -c "DROP TABLE conc_$name"
}
default_inserts tbsl tbsl 'tbsl_generate()'
default_inserts timeid timeid 'timeid_generate()'
default_inserts scru160 scru160 'scru160_generate()'

# A clock behind the last TBSL issued by any session: with shared state another session sees it too.
if [ "$mode" = shared ]; then
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
fi
exit $status
