#!/usr/bin/env bash
# uid11_generate_random's key records (issue 63, findings 1 to 4): one record per key, made by one session (its
# maker) while the others wait; no value of a key before the synchronous standbys confirmed its record, for
# every session; the budget counts keys; every wait of the record ends. In clusters of its own, with
# PostgreSQL's bin directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no): a primary with a synchronous
# hot standby. A new key is had by removing the key file (pg_idtypes_high_water) and restarting: the next
# value draws and records another one.
# 1. held lock: a transaction holds a lock on pg_replication_origin (an origin drop left open); a first call
#    at lock_timeout = 1s ends within 5 s with 55P03 naming the lock and its holder; at statement_timeout =
#    1s with 57014; on 17 and later at transaction_timeout = 1s (FATAL); a session whose own transaction
#    dropped an origin is refused at once (under 1 s, statement_timeout 5 s), saying why; one whose transaction
#    locked pg_database (the worker reads its row as it connects) is refused as its worker waits (under 4 s,
#    statement_timeout 8 s); a
#    prepared transaction holding the lock is named as such at lock_timeout; a maker that gave up while its
#    worker waited, the postmaster stopped (SIGSTOP) so that the stop reaches the worker only after the holder
#    ended: no record; a session waiting for the maker
#    whose transaction holds the lock the maker's worker waits for is refused (under 7.5 s in all, its
#    statement_timeout 8 s after 3 s); a maker whose error an EXCEPTION block catches (a subtransaction's abort,
#    its transaction going on) gives its making back: its worker stopped (no record once the lock is released),
#    another session's first call makes the record and has its value at once.
# 2. one maker: the lock held again, 8 sessions make the key's first call at once: while it is held, one
#    background worker (not 8), and a 9th session at lock_timeout = 1s, waiting for the maker, ends with
#    55P03 too; once released, every session has its value, and the key has ONE record.
# 3. confirmed: a second key; the mark pushed 10 s ahead of the clock (bulks of timeids, confirmed while the
#    standby runs) so that only the key's record can hold values back; the standby stopped; a first call
#    cancelled by statement_timeout (the cancel proven: 57014; the record proven unconfirmed: it exists on
#    the primary, no standby is connected; the mark proven ahead: timeid_generate() still issues); then the
#    cancelled session again and 4 other sessions (on 17 and later a 5th at transaction_timeout = 300ms,
#    which ends it): 0 values of 5 (6) attempts. The standby started: values
#    flow; the primary killed, the standby promoted: it has the primary's record of that key.
# 4. budget: 70 records of other keys planted (one of them with 5 copies, as idtypes 1.6 wrote), a new key:
#    it generates (a WARNING says how many older keys are apart by chance only), and after a restart too.
# 5. the WAL inserted up to a page's end, then a segment's (padded by logical messages): after a restart, the
#    key's first call (which confirms the WAL up to its end) has its value, both times.
# Prints `ok` / `FAIL` lines; the elapsed times it checks are bounds 4 s or more above what they measure
# (false alarms: a server stalled that long, not a matter of odds).
set -uo pipefail
bin=${1:?usage: key_records.sh BIN_DIR yes|no}
preload=${2:?usage: key_records.sh BIN_DIR yes|no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "-c max_prepared_transactions=2")
planned=0 ran=0
planned_check() { ran=$((ran + 1)); }
records() { sql "$1" -c "SELECT roname FROM pg_replication_origin WHERE roname LIKE 'idtypes\_fullrand\_key %' ORDER BY roname"; }
workers() { sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes key record'"; }
now_ms() { date +%s%3N; }
# new_key: the primary stopped, its key file removed, started again (on its port: the standby's conninfo)
new_key() { stop primary && rm -f "$work/primary/pg_idtypes_high_water" && start_at primary && ready primary; }
# hold: a session holding a lock on pg_replication_origin that the record's worker needs (an origin
# dropped in a transaction left open), until release; sets holder (its PID)
hold() {
	sql primary -c "SELECT pg_replication_origin_create('test_held')" >/dev/null
	sql primary -c "BEGIN" -c "SELECT pg_replication_origin_drop('test_held')" -c "SELECT pg_sleep(120)" >/dev/null 2>&1 &
	holder=''
	for _ in $(seq 1 40); do
		holder=$(sql primary -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(120)'")
		[ -n "$holder" ] && return 0
		sleep 0.25
	done
	die "no session holds the lock"
}
release() {
	sql primary -c "SELECT pg_cancel_backend($holder)" >/dev/null
	wait
	sql primary -c "SELECT pg_replication_origin_drop('test_held')" >/dev/null 2>&1
}
# timed SQL...: a session's output and errors (verbose) in $out, its duration in ms in $took
timed() {
	local t0
	t0=$(now_ms)
	out=$(sql primary -v VERBOSITY=verbose "$@" 2>&1)
	took=$(($(now_ms) - t0))
}
# A first call at lock_timeout = 1s (statement_timeout = 8s its outer bound), counted: true when it ended
# within 5 s with 55P03 naming the lock on pg_replication_origin and its holder, "held by $1".
at_lock_timeout() {
	planned=$((planned + 1))
	timed -c "SET lock_timeout = '1s'" -c "SET statement_timeout = '8s'" -c 'SELECT uid11_generate_random()'
	planned_check
	[[ "$out" == *55P03*"pg_replication_origin"*"held by $1"* ]] && [ "$took" -lt 5000 ]
}

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
# the mark made first (its origin: a rebuild needs the lock the held case holds)
start primary && sql primary -c 'CREATE EXTENSION idtypes' -c 'SELECT timeid_generate()' >/dev/null || die "the primary does not start"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"
sql primary -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c 'SELECT pg_reload_conf()' >/dev/null
synced() {
	for _ in $(seq 60); do
		[ "$(sql primary -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && return 0
		sleep 0.5
	done
	return 1
}
synced || die "the standby is not synchronous"
v=$(sql primary -c 'SHOW server_version_num')

# 1. every wait of the record ends; no self-deadlock
hold
at_lock_timeout "PID $holder" &&
	ok "held lock: a first call at lock_timeout = 1s ends in $took ms with 55P03 naming the lock and its holder" ||
	fail "held lock, lock_timeout = 1s: after $took ms: $out"
planned=$((planned + 1))
timed -c "SET statement_timeout = '1s'" -c 'SELECT uid11_generate_random()'
planned_check
[[ "$out" == *57014* ]] && [ "$took" -lt 5000 ] && ok "held lock: a first call at statement_timeout = 1s ends in $took ms (57014)" ||
	fail "held lock, statement_timeout = 1s: after $took ms: $out"
if [ "$v" -ge 170000 ]; then
	planned=$((planned + 1))
	timed -c "SET transaction_timeout = '1s'" -c "SET statement_timeout = '8s'" -c 'SELECT uid11_generate_random()'
	planned_check
	[[ "$out" == *"transaction timeout"* ]] && [ "$took" -lt 5000 ] &&
		ok "held lock: a first call at transaction_timeout = 1s ends in $took ms (the session ends, as the setting says)" ||
		fail "held lock, transaction_timeout = 1s: after $took ms: $out"
fi
# the workers of the sessions that gave up: stopped, though the lock is still held (up to 5 s)
for _ in $(seq 1 20); do [ "$(workers)" = 0 ] && break; sleep 0.25; done
n=$(workers)
release
sleep 1 # a worker left waiting for the lock would have made its record by now
planned=$((planned + 1))
planned_check
[ "$n" = 0 ] && [ "$(records primary | wc -l)" = 0 ] &&
	ok "no worker outlives the sessions that gave up (the lock still held), and no record was made" ||
	fail "after the sessions gave up: $n workers still waiting, then records: $(records primary | tr '\n' ' ')"
new_key || die "the primary does not restart"
sql primary -c "SELECT pg_replication_origin_create('test_own')" >/dev/null
planned=$((planned + 1))
timed -c "SET statement_timeout = '5s'" -c 'BEGIN' -c "SELECT pg_replication_origin_drop('test_own')" -c 'SELECT uid11_generate_random()'
planned_check
[[ "$out" == *55000*"holds a lock on the catalog pg_replication_origin"* ]] && [ "$took" -lt 1000 ] &&
	ok "a session whose own transaction dropped an origin is refused at once ($took ms), saying why" ||
	fail "own lock: after $took ms: $out"
# a lock refuse_own_locks does not know (one on a catalog the worker reads as it connects): seen as the
# worker waits for it
planned=$((planned + 1))
timed -c "SET statement_timeout = '8s'" -c 'BEGIN' -c 'LOCK TABLE pg_database' -c 'SELECT uid11_generate_random()'
planned_check
[[ "$out" == *55000*"a lock that its background worker waits for"*"relation pg_database"* ]] && [ "$took" -lt 4000 ] &&
	ok "a session whose own transaction locked pg_database is refused in $took ms, saying why (not at statement_timeout)" ||
	fail "own lock on pg_database: after $took ms: $out"
# a prepared transaction holds the lock: named as such, not as PID 0
sql primary -c 'BEGIN' -c "SELECT pg_replication_origin_drop('test_own')" -c "PREPARE TRANSACTION 'test_own'" >/dev/null
at_lock_timeout "a prepared transaction (pg_prepared_xacts)" &&
	ok "a prepared transaction holding the lock: a first call at lock_timeout = 1s ends in $took ms with 55P03 naming it" ||
	fail "a prepared transaction holding the lock, lock_timeout = 1s: after $took ms: $out"
sql primary -c "ROLLBACK PREPARED 'test_own'" >/dev/null
# a maker that gave up while its worker waited: the stop reaches the worker through the postmaster, held here
# (SIGSTOP) until the holder has ended too; the worker then has its lock, but its maker no longer waits
sql primary -c BEGIN -c "SELECT pg_replication_origin_drop('test_own')" -c 'SELECT pg_sleep(5)' -c ROLLBACK >/dev/null 2>&1 &
sleep 1
sql primary -v VERBOSITY=verbose -c "SET statement_timeout = '1500ms'" -c 'SELECT uid11_generate_random()' >"$work/gave_up" 2>&1 &
n=0
for _ in $(seq 1 20); do
	n=$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes key record' AND wait_event_type = 'Lock'")
	[ "$n" = 1 ] && break
	sleep 0.1
done
postmaster=$(head -1 "$work/primary/postmaster.pid")
kill -STOP "$postmaster"
wait # the maker ended by its statement_timeout, then the holder
kill -CONT "$postmaster"
sleep 0.5
planned=$((planned + 1))
planned_check
[ "$n" = 1 ] && [[ "$(cat "$work/gave_up")" == *57014* ]] && [ "$(records primary | wc -l)" = 0 ] &&
	ok "a maker that gave up (57014) while its worker waited: once the holder ends, the worker makes no record" ||
	fail "a maker that gave up (its worker seen waiting: $n): $(tr '\n' ' ' <"$work/gave_up"), records: $(records primary | tr '\n' ' ')"
sql primary -c "SELECT pg_replication_origin_drop('test_own')" >/dev/null
# a session waiting for the maker whose own transaction holds what the maker's worker waits for: M connected
# first (a new connection would wait for the lock itself), W locks pg_database, M makes the key's first call
# (its worker waits for W), then W calls too: refused, not waiting until its statement_timeout (8 s) for M
t0=$(now_ms)
sql primary -c 'SELECT pg_sleep(1.5)' -c "SET statement_timeout = '20s'" -c 'SELECT uid11_generate_random() IS NOT NULL' >"$work/maker" 2>&1 &
sleep 0.5
sql primary -v VERBOSITY=verbose -c BEGIN -c 'LOCK TABLE pg_database' -c 'SELECT pg_sleep(2.5)' -c "SET statement_timeout = '8s'" \
	-c 'SELECT uid11_generate_random()' >"$work/waiter" 2>&1 &
wait
took=$(($(now_ms) - t0))
planned=$((planned + 1))
planned_check
[[ "$(cat "$work/waiter")" == *55000*"a lock that its background worker waits for"*"relation pg_database"* ]] &&
	[ "$(tail -1 "$work/maker")" = t ] && [ "$took" -lt 7500 ] &&
	ok "a session waiting for the maker, holding the lock its worker waits for, is refused; the maker then has its value ($took ms in all)" ||
	fail "a waiter holding the worker's lock: after $took ms, the waiter: $(tr '\n' ' ' <"$work/waiter"), the maker: $(tr '\n' ' ' <"$work/maker")"

# a maker whose error a PL/pgSQL EXCEPTION block catches (a subtransaction's abort, its transaction going on):
# its making given back at that abort, its worker stopped; another session's first call, once the lock is
# released, has its value at once (not waiting for the maker, which still sleeps in its transaction)
new_key || die "the primary does not restart"
before=$(records primary | wc -l)
hold
PGAPPNAME=caught sql primary -c "SET client_min_messages = notice" -c "SET lock_timeout = '1s'" -c BEGIN \
	-c "DO \$\$BEGIN PERFORM uid11_generate_random(); EXCEPTION WHEN lock_not_available THEN RAISE NOTICE 'caught %', SQLSTATE; END\$\$" \
	-c "SELECT pg_sleep(5)" -c COMMIT >"$work/caught" 2>&1 &
for _ in $(seq 1 40); do grep -q caught "$work/caught" && break; sleep 0.1; done
sql primary -c "SELECT pg_cancel_backend($holder)" >/dev/null # release's wait would wait for the maker too
for _ in $(seq 1 40); do [ "$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE pid = $holder")" = 0 ] && break; sleep 0.05; done
sql primary -c "SELECT pg_replication_origin_drop('test_held')" >/dev/null
sleep 1 # a worker left waiting for the lock would have made its record by now
mid=$(records primary | wc -l)
planned=$((planned + 1))
timed -c "SET lock_timeout = '3s'" -c 'SELECT uid11_generate_random() IS NOT NULL'
planned_check
open=$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'caught' AND state = 'active'")
wait
[ "$(grep -c 'caught 55P03' "$work/caught")" = 1 ] && [ "$open" = 1 ] && [ "$mid" = "$before" ] && [ "$out" = t ] &&
	[ "$took" -lt 2000 ] && [ "$(records primary | wc -l)" = $((before + 1)) ] &&
	ok "a maker's error caught by an EXCEPTION block gives its making back (its worker stopped, no record): another session's first call makes it, its value in $took ms" ||
	fail "a maker's error caught (its session open: $open; records $before, then $mid after the release): the next first call after $took ms: $out; the maker: $(tr '\n' ' ' <"$work/caught")"

# 2. one maker: 8 sessions, one worker, one record
new_key || die "the primary does not restart"
before=$(records primary | wc -l)
hold
for i in $(seq 1 8); do sql primary -c 'SELECT uid11_generate_random()' >"$work/first.$i" 2>&1 & done
waiting=0
for _ in $(seq 1 40); do
	waiting=$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT uid11_generate_random()' AND pid <> pg_backend_pid()")
	[ "$waiting" = 8 ] && [ "$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes key record' AND wait_event_type = 'Lock'")" -ge 1 ] && break
	sleep 0.25
done
sleep 1 # every session had 1 s more to start a worker of its own
n=$(workers)
planned=$((planned + 1))
planned_check
[ "$waiting" = 8 ] && [ "$n" = 1 ] && ok "8 sessions make a key's first call while the lock is held: 1 background worker" ||
	fail "8 sessions' first calls (waiting: $waiting): $n background workers"
# a 9th session, waiting for the maker (not a maker itself), ends at its lock_timeout all the same
at_lock_timeout "PID $holder" &&
	ok "... a 9th session waiting for the maker ends at lock_timeout = 1s in $took ms with 55P03 naming the lock and its holder" ||
	fail "a 9th session, lock_timeout = 1s: after $took ms: $out"
sql primary -c "SELECT pg_cancel_backend($holder)" >/dev/null
wait
got=$(cat "$work"/first.* | grep -c '^[0-9A-Za-z]\{11\}$')
sql primary -c "SELECT pg_replication_origin_drop('test_held')" >/dev/null 2>&1
planned=$((planned + 1))
planned_check
[ "$got" = 8 ] && [ "$(records primary | wc -l)" = $((before + 1)) ] &&
	ok "once released, each of the 8 sessions has its value, and the key has one record" ||
	fail "once released: $got values of 8 ($(cat "$work"/first.* | grep -v '^[0-9A-Za-z]\{11\}$' | sort | uniq -c | head -3 | tr '\n' ' ')), records: $(records primary | tr '\n' ' ')"

# 3. no value before the record is confirmed
new_key || die "the primary does not restart"
synced || die "the standby is not synchronous again"
# the mark pushed ahead of the clock, confirmed while the standby runs
# (a bulk of 8,000,000 covers 8 s, less the time it takes: again until it is 10 s ahead, so that a loaded
# machine's slower attempts below stay within it)
for _ in 1 2 3 4; do
	sql primary -c 'SELECT count(timeid_generate()) FROM generate_series(1, 8000000)' >/dev/null
	ahead=$(sql primary -c "SELECT (pg_replication_origin_progress('idtypes_high_water', true) - '0/0'::pg_lsn) / 1000 - extract(epoch FROM clock_timestamp()) * 1000")
	[ "${ahead%.*}" -ge 10000 ] && break
done
t0=$(now_ms) # the mark's lead is used up from here
stop standby || die "the standby does not stop"
before=$(records primary | wc -l)
# the first call, cancelled by statement_timeout, then the same session again
first=$(sql primary -v ON_ERROR_STOP=0 -v VERBOSITY=verbose -c "SET statement_timeout = '500ms'" -c 'SELECT uid11_generate_random()' \
	-c "SET statement_timeout = '300ms'" -c 'SELECT uid11_generate_random()' 2>&1)
after=$(records primary | wc -l)
connected=$(sql primary -c 'SELECT count(*) FROM pg_stat_replication')
cancelled=$(grep -m1 -E '57014|^[0-9A-Za-z]{11}$' <<<"$first")
issued=$(grep -c '^[0-9A-Za-z]\{11\}$' <<<"$first") tried=1
# 4 other sessions
for _ in 1 2 3 4; do
	out=$(sql primary -c "SET statement_timeout = '300ms'" -c 'SELECT uid11_generate_random()' 2>&1)
	issued=$((issued + $(grep -c '^[0-9A-Za-z]\{11\}$' <<<"$out"))) tried=$((tried + 1))
done
if [ "$v" -ge 170000 ]; then # and one ended by transaction_timeout (in the wait for the standbys)
	out=$(sql primary -c "SET statement_timeout = '3s'" -c "SET transaction_timeout = '300ms'" -c 'SELECT uid11_generate_random()' 2>&1)
	issued=$((issued + $(grep -c '^[0-9A-Za-z]\{11\}$' <<<"$out"))) tried=$((tried + 1))
	[[ "$out" == *"transaction timeout"* ]] || issued="$issued (transaction_timeout: $out)"
fi
mark_ok=$(sql primary -c "SET statement_timeout = '300ms'" -c 'SELECT timeid_generate() IS NOT NULL' 2>&1)
window=$(($(now_ms) - t0))
planned=$((planned + 1))
planned_check
[[ "$cancelled" == *57014* ]] && [ "$after" = $((before + 1)) ] && [ "$connected" = 0 ] && [ "$mark_ok" = t ] &&
	ok "premise: the first call was cancelled (57014), its record made on the primary ($after records), unconfirmed (no standby connected); the mark ${ahead%.*} ms ahead: timeid_generate() still issues" ||
	fail "premise: '$cancelled', records $before then $after, $connected standbys connected, mark ${ahead%.*} ms ahead, timeid_generate(): $mark_ok"
planned=$((planned + 1))
planned_check
[ "$issued" = 0 ] && [ "$tried" = $((v >= 170000 ? 6 : 5)) ] && [ "$window" -lt "${ahead%.*}" ] &&
	ok "the synchronous standby down: $issued values of $tried attempts (the cancelled session again, 4 others$([ "$v" -ge 170000 ] && echo ", 1 ended by transaction_timeout")) in $window ms" ||
	fail "the synchronous standby down: $issued values of $tried attempts in $window ms (the mark ${ahead%.*} ms ahead)"
start_at standby && synced || die "the standby does not come back"
planned=$((planned + 1))
planned_check
n=$(sql primary -c "SET statement_timeout = '10s'" -c 'SELECT count(uid11_generate_random()) FROM generate_series(1, 1000)' 2>&1)
wait_replay primary standby
[ "$n" = 1000 ] && [ "$(records standby)" = "$(records primary)" ] &&
	ok "the standby back: 1000 values, and it has every record of the primary" ||
	fail "the standby back: '$n', its records: $(records standby | tr '\n' ' '), the primary's: $(records primary | tr '\n' ' ')"
primary_records=$(records primary)
failover primary standby || die "the standby was not promoted"
n=$(sql standby -c 'SELECT count(uid11_generate_random()) FROM generate_series(1, 1000)' 2>&1)
planned=$((planned + 1))
planned_check
[ "$n" = 1000 ] && [ "$(comm -23 <(echo "$primary_records") <(records standby) | wc -l)" = 0 ] &&
	[ "$(records standby | wc -l)" = $(($(wc -l <<<"$primary_records") + 1)) ] &&
	ok "promoted: the standby holds each of the old primary's $(wc -l <<<"$primary_records") records, and adds its own" ||
	fail "promoted: '$n'; its records: $(records standby | tr '\n' ' '); the old primary's: $(tr '\n' ' ' <<<"$primary_records")"

# 4. the budget counts keys
sql standby -c "SELECT pg_replication_origin_create(pg_catalog.format('idtypes_fullrand_key %s %s %s', lpad(to_hex(1000 + i), 16, '0'), lpad(to_hex(i), 16, '0'), lpad(to_hex(i * 7), 16, '0'))) FROM generate_series(1, 70) i" >/dev/null
sql standby -c "SELECT pg_replication_origin_create(pg_catalog.format('idtypes_fullrand_key %s %s %s', lpad(to_hex(1070 + i), 16, '0'), lpad(to_hex(70), 16, '0'), lpad(to_hex(490), 16, '0'))) FROM generate_series(1, 5) i" >/dev/null
keys=$(($(records standby | wc -l) - 5))
stop standby && rm -f "$work/standby/pg_idtypes_high_water" && start_at standby && ready standby || die "the promoted node does not restart"
out=$(sql standby -c 'SELECT count(uid11_generate_random()) FROM generate_series(1, 1000)' 2>&1)
planned=$((planned + 1))
planned_check
[[ "$out" == *"latest 64 keys"*"values of $((keys - 64)) older ones are apart"*1000 ]] &&
	ok "$keys other keys in $((keys + 5)) records (5 copies of one): a new key generates, the latest 64 keys skipped, $((keys - 64)) apart by chance (a WARNING says so)" ||
	fail "$keys other keys: $out"
restart standby
out=$(sql standby -c 'SELECT count(uid11_generate_random()) FROM generate_series(1, 1000)' 2>&1)
planned=$((planned + 1))
planned_check
[[ "$out" == *$'\n'1000 ]] && ok "... and after a restart" || fail "more keys than the budget, after a restart: $out"

# 5. the key's record confirmed from where the WAL ends: after a restart the key is recorded, and its first call
# waits for the WAL inserted so far. With the last record ending exactly at a page's end, the next record's
# start (GetXLogInsertRecPtr) is past a page header not yet written, which XLogFlush refuses (XX000 "xlog
# flush request ... is not satisfied"). The WAL padded by non-transactional messages, in the call's statement.
sql standby >/dev/null <<'EOS'
CREATE FUNCTION pad_to_page(segment boolean) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	pos numeric; off int; remain int;
BEGIN
	FOR i IN 1..200 LOOP
		pos := pg_current_wal_insert_lsn() - '0/0'::pg_lsn;
		off := (pos % 8192)::int;
		-- the first byte after a page's header (long at a segment's start): the last record ended at the page's end
		IF pos % 16777216 = 40 OR (off = 24 AND NOT segment) THEN RETURN off; END IF;
		-- near a segment's end first, when its end is wanted (a long record spans its pages' headers too)
		IF segment AND 16777216 - pos % 16777216 > 300000 THEN
			PERFORM pg_logical_emit_message(false, 'p', repeat('x', ((16777216 - pos % 16777216 - 200000) * 0.99)::int));
			CONTINUE;
		END IF;
		remain := 8192 - off;
		-- a message record is 55 bytes and its content (MAXALIGNed): one that fills the page, else past it
		PERFORM pg_logical_emit_message(false, 'p', repeat('x', CASE WHEN remain < 400 THEN 600 ELSE remain - 58 END));
	END LOOP;
	RETURN -1;
END $$;
EOS
got='' padded=0
for segment in false true; do # a page's end, then a segment's (its next page's header is a long one)
	restart standby
	out=$(sql standby -v VERBOSITY=verbose -c "SELECT pad_to_page($segment), uid11_generate_random() IS NOT NULL" 2>"$work/padded")
	[[ "$out" == 24\|t || "$out" == 40\|t ]] && padded=$((padded + 1)) || got+=" $out $(grep -m1 ERROR "$work/padded")"
done
planned=$((planned + 1))
planned_check
[ "$padded" = 2 ] && ok "the WAL inserted up to a page's end, then a segment's: after a restart, the key's first call has its value (2 of 2)" ||
	fail "the WAL inserted up to a page's end: $padded of 2 first calls after a restart had their value:$got"

[ "$ran" = "$planned" ] && [ "$planned" -ge 10 ] && ok "key records: $ran of $planned checks ran" ||
	fail "key records: $ran of $planned checks ran"
exit $status
