# shellcheck shell=bash
# Shared by the generator checks that restart or crash the server under test: source it after setting `data`
# (the cluster's data directory) and `bin` (its bin directory), and defining psql_q.

# pg_ctl of the cluster under test, as the postgres user.
pg_ctl() { (cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$data" -w -s "$@"); }

# Waits (up to 30 s) until the server accepts connections again.
wait_ready() { for _ in $(seq 1 60); do psql_q -c 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }

# A crash restart: one backend killed with SIGKILL, which makes the postmaster restart every process and
# start the shared state afresh (as after a crash), then waits until the server is back.
crash_a_backend() {
	psql_q -c 'SELECT pg_sleep(60)' >/dev/null 2>&1 &
	sleep 1
	kill -9 "$(psql_q -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' LIMIT 1")"
	sleep 2
	wait_ready
}
