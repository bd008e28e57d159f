# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # status is the sourcing script's; data and bin are set by it
# Shared by every generator check of test/concurrency: source it first. A check prints one `ok` / `FAIL` line
# per check (ok, fail, check) and ends with `exit $status`. Checks that restart or crash the server under test
# set `data` (its data directory; its server log is DATA/../log, as scripts/lib.sh starts it) and `bin` (its
# bin directory) before they call restart_server or crash_a_backend, which prove that what they did happened.
# PSQL_VERBOSITY=verbose before sourcing: errors with their SQLSTATE.
status=0

psql_q() {
	PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 \
		-v VERBOSITY="${PSQL_VERBOSITY:-default}" -At "$@"
}
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
die() { fail "$*"; exit 1; }
# check WHAT CONDITION [DETAIL]: ok when the condition (evaluated) holds, else FAIL with the detail.
check() { if eval "$2"; then ok "$1"; else fail "$1: ${3:-}"; fi; }

# Runs a command as the postgres user from /, which it can read.
as_postgres() { (cd / && runuser -u postgres -- "$@"); }

# pg_ctl of the cluster under test, as the postgres user.
pg_ctl() { as_postgres "$bin/pg_ctl" -D "$data" -w -s "$@"; }

# Waits (up to 30 s) until the server accepts connections again.
wait_ready() { for _ in $(seq 1 60); do psql_q -c 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }

# When the postmaster started, and when the checkpointer did (which a crash restart starts again, while the
# postmaster's start time stays).
started_at() { psql_q -c 'SELECT pg_postmaster_start_time()' 2>/dev/null; }
checkpointer_started_at() { psql_q -c "SELECT backend_start FROM pg_stat_activity WHERE backend_type = 'checkpointer'" 2>/dev/null; }

# restart_server MODE: pg_ctl restart -m MODE (fast, immediate), the server log kept in DATA/../log; true only
# when the server is back with a new postmaster start time, else a FAIL line saying so.
restart_server() {
	local mode=$1 before after=''
	before=$(started_at)
	pg_ctl -l "$(dirname "$data")/log" restart -m "$mode" >/dev/null && wait_ready && after=$(started_at)
	[ -n "$before" ] && [ -n "$after" ] && [ "$after" != "$before" ] && return 0
	fail "pg_ctl restart -m $mode: the server did not restart (postmaster started at '$before', then '$after')"
	return 1
}

# A crash restart: one backend killed with SIGKILL, which makes the postmaster end every process and start
# them and the shared state afresh (as after a crash); waits until the server is back. True only when a
# backend was killed and every process started again (a new checkpointer), else a FAIL line saying so.
crash_a_backend() {
	local before after='' pid=''
	before=$(checkpointer_started_at)
	psql_q -c 'SELECT pg_sleep(60)' >/dev/null 2>&1 &
	for _ in $(seq 1 40); do
		pid=$(psql_q -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' LIMIT 1" 2>/dev/null)
		[ -n "$pid" ] && break
		sleep 0.25
	done
	if [ -z "$pid" ] || ! kill -9 "$pid"; then
		fail "crash restart: no backend to kill (pid '$pid')"
		return 1
	fi
	# the checkpointer is started again once the crash recovery is done
	for _ in $(seq 1 60); do
		sleep 0.5
		after=$(checkpointer_started_at)
		[ -n "$after" ] && [ "$after" != "$before" ] && break
	done
	[ -n "$before" ] && [ -n "$after" ] && [ "$after" != "$before" ] && return 0
	fail "crash restart: backend $pid killed, but the server did not start its processes again (checkpointer started at '$before', then '$after')"
	return 1
}
