#!/usr/bin/env bash
# No repeated or earlier ID after a restart, an immediate shutdown or a killed backend, with the clock set
# back across each, 20, 40 then 60 s (the superuser-only test setting idtypes.test_clock_offset; far enough that
# the clock stays behind the mark however slowly a loaded machine restarts), against a running cluster
# (PGHOST etc. set). Arguments: the cluster's data directory and bin directory (its pg_ctl, run as postgres).
# Each restart and crash must be seen to happen (a new postmaster start time; every process started again),
# or the check fails.
# timeid, uid11 and scru160 must continue above every ID issued before; tbsl, which must carry the real time,
# must refuse (its clock is behind the last TBSL) rather than issue an earlier one; uid11_generate_random, whose
# values are unordered, must continue above every ticket behind them (decoded with the key the server keeps
# in pg_idtypes_high_water: test/concurrency/fullrand_tickets.py). The mark is only the replication
# origin idtypes_high_water: a restart and a crash restart find it through PostgreSQL's checkpoint and WAL. Prints `ok` / `FAIL` lines.
set -uo pipefail
data=${1:?usage: restart.sh DATA_DIR BIN_DIR}
bin=${2:?usage: restart.sh DATA_DIR BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/server.sh"

psql_q -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1
psql_q -c 'CREATE TABLE IF NOT EXISTS issued (t timeid, u uid11, s scru160, b tbsl, f uid11)'

# tbsl only before the first restart: from then on its clock stays behind its last TBSL, and it refuses
issue() { psql_q -c "INSERT INTO issued SELECT timeid_generate(), uid11_generate(), scru160_generate(),
	CASE WHEN $1 THEN tbsl_generate() END, uid11_generate_random() FROM generate_series(1, 20000)"; }
tickets() { "$here/fullrand_tickets.py" "$data/pg_idtypes_high_water"; }
# the ticket of a new fullrand value lies above every ticket issued, and every ticket holds a time of now
fullrand_after() {
	local what=$1 before after verdict
	before=$(psql_q -c "SELECT f::numeric FROM issued" | tickets) &&
		after=$(psql_q -c "SELECT uid11_generate_random()::numeric" | tickets) &&
		verdict=$(python3 -c 'import sys, time
old = [int(x) for x in sys.stdin.read().split()]; new = int(sys.argv[1]); now = time.time() * 1e6
print("ok" if new > max(old) and all(abs((t >> 12) - now) < 600e6 for t in old + [new]) else "bad")' "$after" <<<"$before")
	[ "${verdict:-}" = ok ] && ok "after $what: uid11_generate_random continues above every ticket issued (same key)" ||
		fail "uid11_generate_random after $what: tickets ${before:0:60}... then ${after:-none}"
}
check_after() {
	local what=$1 out
	out=$(psql_q -c "SELECT (SELECT timeid_generate() > max(t) FROM issued), (SELECT uid11_generate() > max(u) FROM issued),
		(SELECT scru160_generate() > max(s) FROM issued)" 2>&1)
	[ "$out" = "t|t|t" ] && ok "after $what with the clock set back: timeid, uid11 and scru160 continue above every ID issued" ||
		fail "after $what: timeid|uid11|scru160 above the last issued: $out"
	out=$(psql_q -c "SET idtypes.clock_backward = 'error'" -c 'SELECT tbsl_generate() > max(b) FROM issued' 2>&1)
	grep -q 'behind the last TBSL generated' <<<"$out" &&
		ok "after $what: tbsl refuses while the clock is behind its last TBSL" || fail "tbsl after $what: $out"
	fullrand_after "$what"
}

# each step: issue IDs, set the clock back further, stop the server one way, start it, check
issue true
psql_q -c "SELECT timeid_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-20s'" >/dev/null
restart_server fast && check_after "a clean restart"

issue false
psql_q -c "SELECT timeid_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-40s'" >/dev/null
restart_server immediate && check_after "an immediate shutdown"

issue false
psql_q -c "SELECT timeid_generate()" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-60s'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
crash_a_backend && check_after "a killed backend (crash restart)"

psql_q -c "ALTER SYSTEM RESET idtypes.test_clock_offset" -c "SELECT pg_reload_conf()" -c 'DROP TABLE issued' >/dev/null
exit $status
