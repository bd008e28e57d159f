#!/usr/bin/env bash
# Under synchronous replication the mark waits for the synchronous standbys, as a commit does (issue 49): no
# ID past the mark a promoted standby would hold is handed out, even without a commit (a SELECT, a COPY TO
# STDOUT). In clusters of its own, with PostgreSQL's bin directory BIN_DIR, idtypes preloaded or not (PRELOAD
# yes|no): a primary with synchronous_standby_names = '*' and a hot standby of it.
# - the standby running: every generator returns;
# - the standby stopped, each generator's call does not return: a statement_timeout (2 s) cancels it after
#   those 2 s (SQLSTATE 57014), and no ID comes out;
# - a session waiting behind the one that writes the mark gives up after its bound with an error that names
#   the synchronous standbys, not the file system;
# - the standby started again: every generator returns.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: sync_standby.sh BIN_DIR yes|no}
preload=${2:?usage: sync_standby.sh BIN_DIR yes|no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload")
source "$(dirname "$0")/ids.sh"
all="t x f s v b q"

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary && sql primary -c 'CREATE EXTENSION idtypes' -c "SELECT $(ids_select 1 "$all" | sed 's/^SELECT //')" \
	>/dev/null || die "the primary does not start or generate"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"
sql primary -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c 'SELECT pg_reload_conf()' >/dev/null ||
	die "synchronous_standby_names"
for _ in $(seq 60); do
	[ "$(sql primary -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && break
	sleep 0.5
done
[ "$(sql primary -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] &&
	ok "the standby is the primary's synchronous standby" || die "the standby did not become synchronous"

# returns LABEL: every generator returns within 10 s (each one past the reserve, so that it writes a mark)
returns() {
	local c out
	for c in $all; do
		out=$(sql primary -c "SET statement_timeout = '10s'" -c "SELECT pg_sleep(0.3), ${generator_sql[$c]}" 2>&1)
		[ -n "$out" ] && [[ $out != *ERROR* ]] && ok "$1: ${generator[$c]} returns" || fail "$1: ${generator[$c]}: $out"
	done
}
returns "the synchronous standby running"

stop standby || die "the standby does not stop"
for c in $all; do
	start_s=$(date +%s.%N)
	out=$(sql primary -v VERBOSITY=verbose -c "SET statement_timeout = '2s'" \
		-c "SELECT pg_sleep(0.3)" -c "SELECT ${generator_sql[$c]}" 2>&1)
	took=$(echo "$(date +%s.%N) - $start_s" | bc)
	if grep -q 57014 <<<"$out" && ! grep -qE '^[0-9A-Za-z-]{11,}$' <<<"$out" && [ "$(echo "$took >= 2" | bc)" = 1 ]; then
		ok "the standby stopped: ${generator[$c]} does not return until statement_timeout cancels it (${took%???????} s, 57014)"
	else
		fail "the standby stopped: ${generator[$c]} (after $took s): $out"
	fi
done

# one session writes the mark and waits for the standby; another one that needs the mark gives up after its
# bound (10 s), naming the synchronous standbys
sql primary -c "SET statement_timeout = '20s'" -c "SELECT pg_sleep(0.3), timeid_generate()" >/dev/null 2>&1 &
writer=$!
sleep 1
out=$(sql primary -v VERBOSITY=verbose -c "SET statement_timeout = '30s'" -c "SELECT timeid_generate()" 2>&1)
grep -q 'synchronous standbys' <<<"$out" && grep -q synchronous_standby_names <<<"$out" &&
	! grep -qi 'file system' <<<"$out" && ok "a session waiting behind the writer gives up naming the synchronous standbys" ||
	fail "the waiting session: $out"
wait "$writer"

start_at standby && ready standby || die "the standby does not start again"
returns "the synchronous standby running again"
exit $status
