#!/usr/bin/env bash
# The mark's writer waits with no LWLock held, so every wait ends at statement_timeout, lock_timeout or a
# cancel, and the sessions waiting behind it are told what it waits for (issue 55). In a cluster of its own,
# with PostgreSQL's bin directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no): a transaction holds
# the lock on pg_replication_origin that the writer needs (LOCK ... IN EXCLUSIVE MODE, held 12 s: as a
# superuser, and on 17 and later as a member of pg_maintain; on 15 also an origin dropped in an open
# transaction, which takes that lock too), and a session generates past the mark:
# - under statement_timeout = 3s: 57014 within 8 s (the lock is held 12 s), no ID;
# - under lock_timeout = 1s: 55P03 within 7 s;
# - with no timeout, pg_cancel_backend after 1 s: 57014 within 7 s;
# - a second session behind the waiting writer (statement_timeout 20 s) gives up after its 10 s bound with an
#   error naming the lock and pg_replication_origin, not the WAL flush nor a file system; one with
#   lock_timeout = 1s at its lock_timeout (55P03 within 7 s; before 1.7 at the 10 s bound);
# - once the lock is released, every generator returns at once.
# Then a failed write of the mark (the origin taken by the writing session itself with
# pg_replication_origin_session_setup) does not leave writing-ahead off: afterwards an ID within the last
# half of the reserve moves the mark ahead at once, 5 times of 5.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: mark_waits.sh BIN_DIR yes|no}
preload=${2:?usage: mark_waits.sh BIN_DIR yes|no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload")
source "$(dirname "$0")/ids.sh"

as_postgres "$bin/initdb" -D "$work/p" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start p && sql p -c 'CREATE EXTENSION idtypes' -c "$(ids_select 1 "t x f s v b q")" >/dev/null ||
	die "the server does not start or generate"
sql p -c "CREATE ROLE maint LOGIN" >/dev/null || die "the role maint"
maint=no
[ "$(sql p -c "SELECT count(*) FROM pg_roles WHERE rolname = 'pg_maintain'")" = 1 ] &&
	sql p -c "GRANT pg_maintain TO maint" >/dev/null && maint=yes
major=$(sql p -c "SELECT current_setting('server_version_num')::int / 10000")

# psql_as ROLE [psql options...]: a session of ROLE, errors with their SQLSTATE
psql_as() {
	local role=$1
	shift
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v VERBOSITY=verbose -h "$work" -p "${port[p]}" \
		-U "$role" -d postgres "$@"
}
# hold ROLE SQL [S]: ROLE runs SQL in an open transaction held for S s (12; in the background, `holder` its PID)
hold() {
	PGAPPNAME=mark_waits_holder psql_as "$1" -c "BEGIN" -c "$2" -c "SELECT pg_sleep(${3:-12})" -c "COMMIT" \
		>"$work/holder.out" 2>&1 &
	holder=$!
	for _ in $(seq 40); do
		[ "$(sql p -c "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
			WHERE c.relname = 'pg_replication_origin' AND l.granted AND l.mode IN ('AccessExclusiveLock', 'ExclusiveLock')")" \
			-ge 1 ] && return 0
		sleep 0.25
	done
	fail "the lock was not taken: $(cat "$work/holder.out")"
	return 1
}
# timed LABEL EXPECTED_SQLSTATE MAX_S PSQL_OPTIONS...: a generator's call past the mark; ok when it ends with
# EXPECTED_SQLSTATE, no ID, within MAX_S seconds (a new psql's wall clock, so the bounds leave a loaded machine
# seconds to spare, while staying below the 10 s that 1.5's wait took whatever the timeout)
timed() {
	local label=$1 state=$2 max=$3 start_s out took
	shift 3
	start_s=$(date +%s.%N)
	out=$(psql_as postgres "$@" -c "SELECT pg_sleep(0.3)" -c "SELECT timeid_generate()" 2>&1)
	took=$(echo "$(date +%s.%N) - $start_s" | bc)
	if grep -q "$state" <<<"$out" && ! grep -qE '^[0-9A-Za-z]{11,}$' <<<"$out" && [ "$(echo "$took < $max" | bc)" = 1 ]; then
		ok "$label: ends with $state after ${took%???????} s (no ID)"
	else
		fail "$label: after $took s: $out"
	fi
}
# the lock's case, held by ROLE with SQL
lock_case() {
	local who=$1 role=$2 lock_sql=$3 waiter out
	hold "$role" "$lock_sql" || return
	timed "$who: statement_timeout = 3s" 57014 8 -c "SET statement_timeout = '3s'"
	timed "$who: lock_timeout = 1s" 55P03 7 -c "SET lock_timeout = '1s'"
	(sleep 1.3 && sql p -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'mark_waits_cancel'" \
		>/dev/null) &
	PGAPPNAME=mark_waits_cancel timed "$who: pg_cancel_backend after 1 s" 57014 7
	wait $!
	wait "$holder"
	hold "$role" "$lock_sql" 60 || return
	PGAPPNAME=mark_waits_writer psql_as postgres -c "SET statement_timeout = '60s'" -c "SELECT pg_sleep(0.3)" \
		-c "SELECT timeid_generate()" >/dev/null 2>&1 &
	waiter=$!
	for _ in $(seq 40); do # until the writer waits for the lock
		[ "$(sql p -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mark_waits_writer'
			AND wait_event_type = 'Lock'")" = 1 ] && break
		sleep 0.25
	done
	out=$(psql_as postgres -c "SET statement_timeout = '30s'" -c "SELECT uuid_v7_generate()" 2>&1)
	grep -q pg_replication_origin <<<"$out" && grep -qi lock <<<"$out" && ! grep -qiE 'file system|WAL flush' <<<"$out" &&
		ok "$who: a session behind the waiting writer gives up naming the lock on pg_replication_origin" ||
		fail "$who: the session behind the waiting writer: $out"
	timed "$who: a session behind the waiting writer, lock_timeout = 1s" 55P03 7 -c "SET lock_timeout = '1s'"
	sql p -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'mark_waits_holder'" >/dev/null
	wait "$waiter"
	wait "$holder"
	out=$(psql_as postgres -c "SET statement_timeout = '2s'" -c "SELECT pg_sleep(0.3)" -c "$(ids_select 1 "t x f s v b q")" 2>&1)
	[[ $out != *ERROR* ]] && ok "$who: the lock released, every generator returns" || fail "$who: after the lock: $out"
}

# EXCLUSIVE MODE, what 15 takes to drop an origin: sessions still read the catalog, only its writers wait
lock_case "a superuser's LOCK pg_replication_origin" postgres "LOCK pg_catalog.pg_replication_origin IN EXCLUSIVE MODE"
if [ "$maint" = yes ]; then
	lock_case "a pg_maintain member's LOCK pg_replication_origin" maint "LOCK pg_catalog.pg_replication_origin IN EXCLUSIVE MODE"
fi
if [ "$major" = 15 ]; then # 16 and later drop an origin under a lock on that origin only
	lock_case "another origin dropped in an open transaction" postgres \
		"SELECT pg_replication_origin_create('other_origin'), pg_replication_origin_drop('other_origin')"
fi

# A failed write of the mark, then writing ahead again: in one session, 80 ms before a fresh mark the origin is
# taken by this very session (pg_replication_origin_session_setup), so the write an ID then starts fails
# (caught); the origin given back at once, then 5 times: the clock brought 50 ms before the mark, one ID: the
# mark moves ahead at once (written ahead), not only once an ID passes it
sql p -c "CREATE FUNCTION mark_us() RETURNS double precision LANGUAGE sql
	AS \$\$ SELECT extract(epoch FROM high_water_mark) * 1e6 FROM idtypes_identity() \$\$" >/dev/null || die "mark_us"
out=$(sql p -c "SET client_min_messages = notice" -c "DO \$\$ DECLARE m double precision; moved int := 0; failed text := 'no';
BEGIN
	PERFORM pg_sleep(0.3);
	PERFORM timeid_generate();
	m := mark_us();
	PERFORM pg_sleep(greatest(0, (m - extract(epoch FROM clock_timestamp()) * 1e6) / 1e6 - 0.08));
	PERFORM pg_replication_origin_session_setup('idtypes_high_water');
	BEGIN
		PERFORM timeid_generate();
	EXCEPTION WHEN OTHERS THEN
		failed := SQLERRM;
	END;
	PERFORM pg_replication_origin_session_reset();
	FOR i IN 1 .. 5 LOOP
		m := mark_us();
		PERFORM pg_sleep(greatest(0, (m - extract(epoch FROM clock_timestamp()) * 1e6) / 1e6 - 0.05));
		PERFORM timeid_generate();
		IF mark_us() > m THEN moved := moved + 1; END IF;
	END LOOP;
	RAISE NOTICE 'failed: %', failed;
	RAISE NOTICE 'moved %', moved; END \$\$" 2>&1)
grep -q 'failed: .*already active' <<<"$out" && ok "a write of the mark fails while the origin is taken by a session" ||
	fail "the write of the mark did not fail: $out"
moved=$(sed -n 's/.*moved \([0-9]*\).*/\1/p' <<<"$out")
[ "$moved" = 5 ] && ok "after the failed write, an ID in the reserve's last half writes the mark ahead: 5 of 5" ||
	fail "after the failed write, the mark was written ahead ${moved:-?} of 5 times: $out"
exit $status
