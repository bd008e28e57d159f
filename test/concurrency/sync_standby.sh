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
# The mark is the server's, so the server's synchronous_standby_names decides, not a session's
# synchronous_commit (issue 55): with the standby stopped again,
# - a role with ALTER ROLE ... SET synchronous_commit = off, and a session at remote_write: no ID (57014);
# - a session at synchronous_commit = local generating in a loop beside one at on: neither gets an ID back;
# - then the primary killed, the standby promoted, its clock set back onto the first IDs the primary issued:
#   none of them again (those issued before the outage, and any that came back during it).
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

# issue 55: the IDs the primary issues while the standby confirms them, kept in a table it replays; a role
# whose own setting is synchronous_commit = off
sql primary -c "CREATE ROLE etl LOGIN" -c "ALTER ROLE etl SET synchronous_commit = off" >/dev/null || die "the role etl"
sql primary -c "$(every_generator before_outage 2000)" >/dev/null && wait_replay primary standby &&
	keep primary postgres before_outage old || die "the IDs before the outage"
stop standby || die "the standby does not stop"
# no_id LABEL PSQL_OPTIONS...: one call of every generator under statement_timeout = 2s, none returns (57014)
no_id() {
	local label=$1 c out
	shift
	for c in t f v; do
		out=$(psql -X -q -At -h "$work" -p "${port[primary]}" -d postgres "$@" -c "SET statement_timeout = '2s'" \
			-c "SELECT pg_sleep(0.3)" -c "SELECT ${generator_sql[$c]}" 2>&1)
		grep -q 57014 <<<"$out" && ! grep -qE '^[0-9A-Za-z-]{11,}$' <<<"$out" &&
			ok "the standby stopped, $label: ${generator[$c]} does not return (57014)" ||
			fail "the standby stopped, $label: ${generator[$c]}: $out"
	done
}
no_id "a role with ALTER ROLE etl SET synchronous_commit = off" -U etl -v VERBOSITY=verbose
no_id "a session at synchronous_commit = remote_write" -U postgres -v VERBOSITY=verbose -c "SET synchronous_commit = remote_write"
# a session at local generating in a loop (one statement of about 5 s, under statement_timeout = 12s) beside one at on (5 statements of 100
# IDs of each generator, each past the mark)
rounds=5
psql -X -q -At -v ON_ERROR_STOP=1 -h "$work" -p "${port[primary]}" -U postgres -d postgres -c "SET synchronous_commit = local" \
	-c "SET statement_timeout = '12s'" -c "SELECT pg_sleep(0.3)" \
	-c "DO \$\$ BEGIN FOR i IN 1 .. 500 LOOP PERFORM timeid_generate(), uuid_v7_generate(); PERFORM pg_sleep(0.01); END LOOP; END \$\$" \
	>/dev/null 2>&1 && echo returned >"$work/local_returned" &
local_loop=$!
sleep 0.5
on_returned=0
for _ in $(seq $rounds); do
	keep primary postgres "($(ids_select 100 "t x f s v"))" outage "SET statement_timeout = '2s'; SELECT pg_sleep(0.3)" \
		2>/dev/null && on_returned=$((on_returned + 1))
done
wait "$local_loop"
[ ! -f "$work/local_returned" ] && ok "the standby stopped: a session at synchronous_commit = local generating in a loop does not return (57014)" ||
	fail "the standby stopped: a session at synchronous_commit = local generated in a loop and returned"
[ "$on_returned" = 0 ] && ok "the standby stopped: a session at on beside it, 0 of $rounds statements returned" ||
	fail "the standby stopped: a session at on beside it, $on_returned of $rounds statements returned"
for c in t x f s v; do [ -f "$work/ids/outage.$c" ] && cat "$work/ids/outage.$c" >>"$work/ids/old.$c"; done
# the primary killed, the standby (which never got the WAL of the outage) promoted
as_postgres "$bin/pg_ctl" -D "$work/primary" -w -s -m immediate stop || die "the primary does not stop"
start_at standby && ready standby && as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s promote || die "promotion"
for _ in $(seq 60); do [ "$(sql standby -c 'SELECT pg_is_in_recovery()')" = f ] && break; sleep 0.5; done
# the clock set back onto the first timeid that came back during the outage, else onto the first before it
if [ -f "$work/ids/outage.t" ]; then
	first=$(sql standby -c "SELECT extract(epoch FROM min(timeid_timestamp(x::timeid)))
		FROM unnest(string_to_array('$(tr '\n' ' ' <"$work/ids/outage.t" | sed 's/ $//')', ' ')) x")
else
	first=$(first_issued standby postgres before_outage)
fi
generate_back standby postgres after 2000 "$first" 0 new "after failover, the clock set back onto the first IDs"
none_in_common old new "after failover with the clock behind (the primary's $(kept old t) timeids)" "t x f s v"
# and above every one: the promoted server starts past the mark of every ID that came back
newest_old=$(sql standby -c "SELECT max(x::timeid) FROM unnest(string_to_array('$(tr '\n' ' ' <"$work/ids/old.t" | sed 's/ $//')', ' ')) x")
[ "$(sql standby -c "SELECT min(t) > '$newest_old'::timeid FROM after")" = t ] &&
	ok "after failover with the clock behind: the first new timeid is above every one the old primary returned" ||
	fail "after failover with the clock behind: new timeids at or below the old primary's newest, $newest_old"
exit $status
