#!/usr/bin/env bash
# The rebuild of a missing mark reads only idtypes' own carriers, is not blocked by DDL on a database, and
# writes its result through the one writer (issue 55). In a cluster of its own: databases d1, dd, dt, d8,
# victim with idtypes, and dz with idtypes but no carrier (taken out of the extension and dropped by a
# superuser), where the IDs that start each rebuild are generated, so that only the carrier a round raises
# moves. The rebuild is made to run by dropping the origin, then restarting the server (as after pg_upgrade)
# or not (a drop by hand while it runs). Each round checks the first ID after the rebuild (no error), and the
# rebuilt mark against every database's own carrier (never below one) and the clock (less than an hour ahead):
#   (6) (run first) the origin dropped while the server runs, dz having generated alone for 12 s, the clock
#       60 s behind, the session that started the rebuild cancelled: not below the mark published before;
#   (3) eight high_water views made, before CREATE EXTENSION, by a role with CREATE on d8, whose carrier is
#       the highest: d8's own carrier read;
#   (4) VACUUM FULL pg_extension in dd queued behind a session's lock while the rebuild runs: dd not skipped;
#   (5) ALTER DATABASE victim RENAME held in an open transaction by a role with CREATEDB: the first ID fails
#       within its statement_timeout (20 s) naming victim and a query that finds the holder (run: it does),
#       and succeeds once the holder is gone;
#   (2) a superuser's materialized view high_water whose first column is text in dt's extension schema:
#       ignored, no refusal;
#   (1) one holding now + 12 h in dd's extension schema: ignored;
# then, with a synchronous_standby_names that no standby answers (issue 63):
#   (7) a session waiting for the writer of the mark ends at its transaction_timeout (17+; statement_timeout),
#       and so does the writer itself, waiting for the standbys;
#   (8) the launcher terminated in its wait for the standbys leaves through `die`, its failure told;
#   (9) the launcher ends within its 30 s deadline, and no second one runs beside it (a session at 36 s);
#   (10) a carrier more than a day ahead of the clock: refused naming idtypes.mark_ahead, taken with continue;
#   (11) the first ID in a transaction holding the lock on its own carrier (a REFRESH): refused at once;
#   (12) adoptions in progress in dz and d1 all along (their state tables are members of the extension too),
#       d1's carrier renamed and refreshed by its owner, then d1's IDs: the rebuild takes d1's carrier, the
#       adoptions' state is never written, and their backfill goes on to the end;
#   (13) (after the setup) a database at 1.3 whose table had a column added and dropped (relnatts 3): its
#       carrier read;
#   (14) DDL on a carrier in a prepared transaction across the restart: the rebuild's error names the
#       database and prepared transactions, its query finds a holder without pid, and the rebuild is done once
#       it is rolled back.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: rebuild_carriers.sh BIN [yes|no]}
preload=${2:-no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity -c max_prepared_transactions=2")
ahead_12h="(extract(epoch FROM clock_timestamp() + interval '12 hours') * 1000000)::bigint"
with_idtypes="d1 dd dt d8 victim"
move_the_mark="SELECT count(timeid_generate()) FROM generate_series(1, 300000)"

origin_us() {
	sql s -c "SELECT coalesce((SELECT (remote_lsn - '0/0')::bigint FROM pg_replication_origin_status
		WHERE external_id = 'idtypes_high_water'), 0)"
}
now_us() { sql s -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint"; }
# the largest value of the databases' own carriers, and the database holding it
carriers_max() {
	local d v max=0 at=''
	for d in $with_idtypes; do
		v=$(sql s -d "$d" -c 'SELECT mark FROM idtypes_internal.high_water') || continue
		[ "$v" -gt "$max" ] && max=$v at=$d
	done
	echo "$max $at"
}
launchers() { sql s -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes mark rebuild'"; }
drop_origin() { # its commit waits for no synchronous standby (one is down in (8) and (9))
	sql s -c 'SET synchronous_commit = local' -c "SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin WHERE roname = 'idtypes_high_water'" >/dev/null
}
# rebuilt LABEL OUTPUT CARRIERS: the checks after a rebuild: the first ID's OUTPUT without an error, the
# origin at or above the largest carrier (CARRIERS: "value database") and less than an hour ahead
rebuilt() {
	local label=$1 out=$2 max=${3% *} at=${3#* } origin now
	origin=$(origin_us) now=$(now_us)
	check "$label: the first ID after the rebuild, no error" "! grep -q ERROR <<<\"\$out\"" "$out"
	check "$label: the rebuilt mark at or above every database's own carrier (the largest: $at's)" \
		"[ '$origin' -ge '$max' ]" "origin $origin, $at's carrier $max: $(((max - origin) / 1000)) ms below"
	check "$label: the rebuilt mark less than an hour ahead of the clock" "[ '$origin' -lt $((now + 3600000000)) ]" \
		"origin $origin is $(((origin - now) / 1000000)) s ahead"
}

as_postgres "$bin/initdb" -D "$work/s" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start s || die "the cluster does not start"
sql s -c 'CREATE ROLE maker LOGIN' -c 'CREATE ROLE dbmaker LOGIN CREATEDB' || die "roles"
for d in d1 dd dt d8; do sql s -c "CREATE DATABASE $d" || die "CREATE DATABASE $d"; done
sql s -U dbmaker -c 'CREATE DATABASE victim' || die "victim, by a role with CREATEDB"
# (3) the decoys first, so that they come before the carrier in d8's pg_class
sql s -c 'GRANT CREATE ON DATABASE d8 TO maker' || die "CREATE on d8"
for i in $(seq 1 8); do
	sql s -U maker -d d8 -c "CREATE SCHEMA s$i" \
		-c "CREATE MATERIALIZED VIEW s$i.high_water AS SELECT $ahead_12h AS mark, 0::bigint AS writer" ||
		die "decoy $i in d8 by a role with CREATE on it"
done
for d in $with_idtypes; do
	sql s -d "$d" -c 'CREATE EXTENSION idtypes' -c 'SELECT count(timeid_generate()) FROM generate_series(1, 1000)' >/dev/null ||
		die "idtypes in $d"
done
# d8's pg_class in (relname, relnamespace) order, as a CLUSTER leaves it: the decoys' schemas, made first, sort
# before idtypes_internal
sql s -d d8 -c 'CLUSTER pg_class USING pg_class_relname_nsp_index' || die "CLUSTER pg_class in d8"
# dz: idtypes without a carrier (a superuser took it out of the extension and dropped it), where the IDs that
# start each rebuild are generated, so that no carrier but the one a round raises moves
sql s -c 'CREATE DATABASE dz' && sql s -d dz -c 'CREATE EXTENSION idtypes' \
	-c 'ALTER EXTENSION idtypes DROP MATERIALIZED VIEW idtypes_internal.high_water' \
	-c 'DROP MATERIALIZED VIEW idtypes_internal.high_water' -c 'SELECT timeid_generate()' >/dev/null || die "dz"
ok "5 databases with idtypes, 8 decoys in d8 made by a role with CREATE on it, dz without a carrier"
# (12) adoptions in progress (adopting.md) in dz and d1 through every round: their state tables are members of
# the extension too, and must never be taken for a carrier, read as a mark or written
adoption_state() {
	sql s -d "$1" -c "SELECT md5(string_agg(r, '|' ORDER BY r)) FROM (SELECT c::text FROM idtypes_adopt.cursor c
		UNION ALL SELECT m::text FROM idtypes_adopt.migration m UNION ALL SELECT x::text FROM idtypes_adopt.member x) t(r)"
}
declare -A adopting
for d in dz d1; do
	sql s -d "$d" -c 'CREATE TABLE adopt_t (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, pad text)' \
		-c "INSERT INTO adopt_t (pad) SELECT repeat('x', 200) FROM generate_series(1, 1000)" \
		-c "CALL idtypes_adopt_start('adopt_t', 'timeid', 'keep')" \
		-c "CALL idtypes_adopt_backfill('adopt_t', batch_blocks => 1, max_batches => 1)" >/dev/null &&
		[ "$(sql s -d "$d" -c 'SELECT next_block FROM idtypes_adopt.cursor')" = 1 ] || die "(12) an adoption in progress in $d"
	adopting[$d]=$(adoption_state "$d")
done
# (13) first, while the mark is near the clock (a rebuild leaves it up to a margin ahead, and carriers raised
# then all hold the same value): a database at 1.3 whose table had a column added and dropped by its owner
# (relnatts 3, its row still of two bigints), its IDs after the mark moved 2 s on (an ID in dz 2 s later), so
# that its carrier, raised at its first ID to the mark plus the margin, is seconds above every other one
sql s -c 'CREATE DATABASE d13' && sql s -d d13 -c "CREATE EXTENSION idtypes VERSION '1.3'" \
	-c 'ALTER TABLE idtypes_high_water ADD COLUMN x int' -c 'ALTER TABLE idtypes_high_water DROP COLUMN x' >/dev/null &&
	sql s -d dz -c 'SELECT pg_sleep(2)' -c 'SELECT timeid_generate()' >/dev/null &&
	sql s -d d13 -c "$move_the_mark" >/dev/null || die "(13) idtypes 1.3 in d13, a column added and dropped, IDs"
d13_carrier=$(sql s -d d13 -c 'SELECT max(mark) FROM idtypes_high_water')
before=$(carriers_max)
[ "$(sql s -d d13 -c "SELECT relnatts FROM pg_class WHERE relname = 'idtypes_high_water'")" = 3 ] &&
	[ "$d13_carrier" -gt $((${before% *} + 1000000)) ] ||
	fail "(13) 1.3's table with 3 attributes, its carrier ($d13_carrier) 1 s above the others: $before"
drop_origin && restart s || die "(13) the origin dropped, the server restarted"
rebuilt "(13) d13 at 1.3, its table with a column added and dropped" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" \
	"$d13_carrier d13"

# (6) first, while the mark is near the clock: dropped while the server runs, the published mark is kept. dz
# generates alone for 12 s (past the other carriers' 10 s margin); the clock 60 s behind for the rebuild.
for _ in $(seq 1 24); do sql s -d dz -c 'SELECT timeid_generate()' >/dev/null; sleep 0.5; done
published=$(origin_us)
before=$(carriers_max)
[ "${before% *}" -lt "$published" ] || fail "(6) a carrier ($before) is above the published mark $published"
sql s -c "LOAD 'idtypes'" -c 'ALTER SYSTEM SET idtypes.test_clock_offset = -60000' -c 'SELECT pg_reload_conf()' >/dev/null &&
	drop_origin || fail "(6) the clock set back, the origin dropped"
# the rebuild's result alone, with no write after it: the session that started it cancelled (its
# statement_timeout) while the launcher waits for a lock on dd's pg_extension
sql s -d dd -c 'BEGIN' -c 'LOCK pg_extension IN ACCESS EXCLUSIVE MODE' -c 'SELECT pg_sleep(3)' -c 'COMMIT' >/dev/null &
holder=$!
sleep 0.5
out=$(sql s -d dz -c "SET statement_timeout = '1s'" -c "$move_the_mark" 2>&1)
wait $holder
for _ in $(seq 1 40); do [ "$(launchers)" = 0 ] && break; sleep 0.25; done
origin=$(origin_us)
check "(6) the session that started the rebuild cancelled by its statement_timeout" "grep -q 'statement timeout' <<<\"\$out\"" "$out"
check "(6) the rebuilt mark at or above the mark published before the drop" "[ '$origin' -ge '$published' ]" \
	"origin $origin, published $published: $(((published - origin) / 1000)) ms below"
sql s -c 'ALTER SYSTEM RESET idtypes.test_clock_offset' -c 'SELECT pg_reload_conf()' >/dev/null
check "(6) IDs again, no error" "sql s -d dz -c '$move_the_mark' >/dev/null"

# (3) d8's carrier the highest: raised in place by its IDs, the last ones in a database with a carrier
sql s -d d8 -c "$move_the_mark" >/dev/null || fail "(3) IDs in d8"
before=$(carriers_max)
[ "${before#* }" = d8 ] || fail "(3) d8's carrier is not the highest: $before"
drop_origin && restart s || die "the origin dropped, the server restarted"
rebuilt "(3) 8 decoys by a role with CREATE on d8, before its carrier" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$before"

# (4) VACUUM FULL pg_extension in dd (no decoy there; its carrier the highest), queued behind a session's
# lock, done while the rebuild waits: the rebuild must read pg_extension's new file (located after its lock)
sql s -d dd -c "$move_the_mark" >/dev/null || fail "(4) IDs in dd"
before=$(carriers_max)
drop_origin && restart s || die "the origin dropped, the server restarted"
sql s -d dd -c 'BEGIN' -c 'LOCK pg_extension IN ACCESS SHARE MODE' -c 'SELECT pg_sleep(3)' -c 'COMMIT' >/dev/null &
holder=$!
sleep 0.5
sql s -d dd -c 'VACUUM FULL pg_extension' &
vacuum=$!
sleep 0.5
out=$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)
wait $holder $vacuum
rebuilt "(4) VACUUM FULL pg_extension in dd during the rebuild" "$out" "$before"
[ "$(launchers)" = 0 ] && ok "(4) no worker left behind" || fail "(4) $(launchers) launchers left"

# (5) ALTER DATABASE victim RENAME held open by a role with CREATEDB (victim's owner)
before=$(carriers_max)
drop_origin && restart s || die "the origin dropped, the server restarted"
sql s -U dbmaker -c 'BEGIN' -c 'ALTER DATABASE victim RENAME TO victim_renamed' -c 'SELECT pg_sleep(60)' -c 'ROLLBACK' \
	>/dev/null 2>&1 &
holder=$!
sleep 1
out=$(sql s -d dz -c "SET statement_timeout = '20s'" -c 'SELECT timeid_generate()' 2>&1)
grep -q 'database "victim"' <<<"$out" && grep -q 'pg_locks' <<<"$out" &&
	ok "(5) a held ALTER DATABASE RENAME: the first ID fails within 20 s naming the database and how to find the holder: $(grep -o 'could not be read.*' <<<"$out" | head -1)" ||
	fail "(5) a held ALTER DATABASE RENAME, under statement_timeout = 20s: $out"
# the error's query finds the holder
holders=$(sql s -c "$(grep -o "SELECT pid, state, query FROM pg_locks.*objid = [0-9]*))" <<<"$out" | head -1)" 2>&1)
grep -q 'ALTER DATABASE victim RENAME' <<<"$holders" || grep -q 'pg_sleep(60)' <<<"$holders" &&
	ok "(5) the error's query finds the holder: $(head -1 <<<"$holders")" || fail "(5) the error's query: $holders"
sql s -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'dbmaker'" >/dev/null
wait $holder
rebuilt "(5) the holder gone" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$before"

# decoy_round LABEL DB COLUMNS: a superuser's materialized view high_water in DB's extension schema (public)
# selecting COLUMNS, then the rebuild after a restart, then the view dropped
decoy_round() {
	sql s -d "$2" -c "CREATE MATERIALIZED VIEW public.high_water AS SELECT $3" || die "$1: the decoy"
	before=$(carriers_max)
	drop_origin && restart s || die "the origin dropped, the server restarted"
	rebuilt "$1" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$before"
	sql s -d "$2" -c 'DROP MATERIALIZED VIEW public.high_water' || fail "$1: the decoy dropped"
}
decoy_round "(2) a superuser's high_water whose first column is text in dt" dt \
	"'idtypes decoy text'::text AS mark, 0::bigint AS writer"
decoy_round "(1) a superuser's high_water holding now + 12 h in dd's extension schema" dd \
	"$ahead_12h AS mark, 0::bigint AS writer"

# Issue 63 (finding 6): the rebuild as docs/operations.md says, with the synchronous standby down (a
# synchronous_standby_names that no standby answers) and the origin dropped while the server runs:
standby_down() { sql s -c "ALTER SYSTEM SET synchronous_standby_names = 'absent'" -c 'SELECT pg_reload_conf()' >/dev/null; }
standby_back() { sql s -c 'ALTER SYSTEM RESET synchronous_standby_names' -c 'SELECT pg_reload_conf()' >/dev/null; }
launcher() { sql s -F' ' -c "SELECT pid, wait_event FROM pg_stat_activity WHERE backend_type = 'idtypes mark rebuild'"; }
ms() { date +%s%3N; }
elapsed() { echo $(($(ms) - $1)); } # ms since $1 (ms)
in_s() { printf '%d.%01d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
version=$(sql s -c 'SHOW server_version_num')

# (7) a session waiting for mark_lock (another one writes the mark, waiting for the standbys) ends at its
# transaction_timeout on 17 and later (at its statement_timeout before), not at the 10 s bound. Nothing here
# rests on timing: the standbys' absence is in effect before the writer starts (sync_in_effect), the second
# session starts once the writer waits for them (SyncRep in pg_stat_activity), and its ID, 0.5 s later, is
# past the mark the writer found (at most half the 0.2 s reserve ahead of the writer's ID), so it has to wait
# for the writer whatever the machine's load; what ended its wait is its error's words (the 10 s bound gives
# another error), so its time is shown, not bounded. The writer itself ends at its transaction_timeout on 17
# and later (confirmed_by_standbys: FATAL, as PostgreSQL ends a transaction past it; 1.7 before the fix
# waited on, here until a statement_timeout of 60 s), at its statement_timeout before 17 (its own error).
# What is left of timing are bounds, each 30 to 100 times what it takes on a machine at load 4 to 9 on 2
# cores (seen in 10 runs while a CPU-bound loop and pgbench ran beside other tests): the setting in effect
# within 60 probes (1 probe each time), the mark behind the clock within 60 s (0.1-2.4 s), the writer waiting
# within 60 s (0.6-1.0 s), the second session waiting before the writer's 20 s end, (8)'s launcher waiting
# within its 30 s deadline (0.1-0.9 s) and gone within 30 s of its termination (0.1-0.3 s), (9)'s launcher
# ended within 2 s past its 30 s deadline (5-14 ms past it), (7)'s clock session ended before its 60 s
# cancel (1.1-1.2 s). A false alarm needs a stall of that length
# (seconds): below one in a million runs.
standby_down && sync_in_effect s yes || fail "(7) synchronous_standby_names = 'absent' not in effect"
# the published mark behind the clock first (the rebuild above may have left it seconds ahead, up to the
# carriers' values): the writer's ID then passes it and has to be written and confirmed
for _ in $(seq 1 600); do # at most 60 s
	[ "$(sql s -d dz -c 'SELECT clock_timestamp() > high_water_mark FROM idtypes_identity()')" = t ] && break
	sleep 0.1
done
writer_timeout=statement_timeout writer_words='canceled while waiting for the synchronous standbys'
[ "$version" -ge 170000 ] && writer_timeout=transaction_timeout writer_words='transaction timeout'
PGAPPNAME=rc_writer sql s -d dz -c "SET statement_timeout = '60s'" -c "SET $writer_timeout = '20s'" \
	-c 'SELECT pg_sleep(0.5), timeid_generate()' >"$work/writer.out" 2>&1 &
writer=$!
t_writer=$(ms)
for _ in $(seq 1 600); do # 60 s
	[ "$(sql s -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'rc_writer' AND wait_event = 'SyncRep'")" = 1 ] &&
		break
	sleep 0.1
done
timeout=statement_timeout
[ "$version" -ge 170000 ] && timeout=transaction_timeout
t0=$(ms)
out=$(sql s -d dz -c "SET $timeout = '2s'" -c 'SELECT pg_sleep(0.5), timeid_generate()' 2>&1)
took=$(elapsed "$t0")
check "(7) a session behind the writer of the mark ends at its $timeout (2 s): after $(in_s "$took") s" \
	"grep -q '${timeout/_/ }' <<<\"\$out\"" "$out"
wait $writer
took=$(elapsed "$t_writer")
check "(7) the writer of the mark waiting for the standbys ends at its $writer_timeout (20 s): after $(in_s "$took") s" \
	"grep -q '$writer_words' '$work/writer.out'" "$(cat "$work/writer.out")"
[ "$version" -ge 170000 ] || echo "skip (7) the writer of the mark at its transaction_timeout: 17 and later"
# (7) a wait for the standbys that begins after transaction_timeout fired: tbsl_generate waits for its clock
# (3 s behind the floor a restart gives it: the published mark), its transaction_timeout (1 s) fires in that
# wait, then its ID, past the mark, has it written and waits for the standbys. 1.7 before the fix: the clock's
# wait ignored the timeout, and the standbys' wait, its timer gone (fired), had no end: 606 s until a cancel
# (17 ignores a statement_timeout longer than transaction_timeout). Here an outer cancel at 60 s shows it.
if [ "$version" -ge 170000 ]; then
	restart s && sync_in_effect s yes || fail "(7) restarted, synchronous_standby_names = 'absent' in effect"
	behind_ms=$((($(now_us) - $(origin_us)) / 1000 + 3000))
	t0=$(ms)
	PGAPPNAME=rc_clock sql s -d dz -c "SET idtypes.test_clock_offset = -$behind_ms" \
		-c "SET idtypes.clock_backward_max_wait = '20s'" -c "SET transaction_timeout = '1s'" \
		-c "SELECT 'issued ' || tbsl_generate()" >"$work/clock.out" 2>&1 &
	clock_session=$!
	cancelled=no
	while kill -0 $clock_session 2>/dev/null; do
		if [ "$(elapsed "$t0")" -ge 60000 ]; then
			sql s -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'rc_clock'" >/dev/null
			cancelled=yes
			break
		fi
		sleep 0.1
	done
	wait $clock_session
	took=$(elapsed "$t0")
	check "(7) a session whose transaction_timeout (1 s) fired in its wait for the clock ends at it, the standbys' wait after it too: after $(in_s "$took") s" \
		"[ $cancelled = no ] && grep -q 'transaction timeout' '$work/clock.out' && ! grep -q issued '$work/clock.out'" \
		"cancelled at 60 s: $cancelled; $(tr '\n' ' ' <"$work/clock.out")"
else
	echo "skip (7) a session whose transaction_timeout fired in its wait for the clock: 17 and later"
fi
standby_back && sync_in_effect s no || fail "(7) synchronous_standby_names reset not in effect"

not_confirmed() { grep -c 'idtypes could not rebuild its mark: the rebuilt mark was not confirmed' "$work/s.log"; }
# (8) the launcher terminated (pg_terminate_backend) while it waits for the synchronous standbys: it leaves as
# PostgreSQL's own workers do (die: its wait ended with PostgreSQL's warning, its failure logged and kept for
# the sessions), not from within the signal handler (bgworker_die). (The session that started it then finds
# the origin advanced and writes the mark itself, waiting for the standbys until its statement_timeout.)
standby_down && sync_in_effect s yes && drop_origin || fail "(8) the standby down, the origin dropped"
failures=$(not_confirmed)
sql s -d dz -c "SET statement_timeout = '5s'" -c 'SELECT timeid_generate()' >/dev/null 2>&1 &
session=$!
pid=''
for _ in $(seq 1 120); do # its deadline: 30 s (the standbys' absence is in effect, so it waits for them)
	read -r pid event <<<"$(launcher)"
	[ "${event:-}" = SyncRep ] && break
	sleep 0.25
done
if [ "${event:-}" = SyncRep ]; then
	t0=$(ms)
	sql s -c "SELECT pg_terminate_backend($pid)" >/dev/null
	for _ in $(seq 1 300); do [ -z "$(launcher)" ] && break; sleep 0.1; done # at least 30 s
	took=$(elapsed "$t0")
	wait $session
	check "(8) the launcher terminated in its wait for the standbys leaves at once ($(in_s "$took") s), its wait ended by PostgreSQL's own warning, its failure logged" \
		"[ -z \"\$(launcher)\" ] && grep -q 'canceling the wait for synchronous replication and terminating connection due to administrator command' '$work/s.log' && [ \$(not_confirmed) -gt $failures ]" \
		"$(launcher); $(grep -c 'terminating background worker "idtypes mark rebuild"' "$work/s.log") bgworker_die lines"
else
	fail "(8) no launcher waiting for the synchronous standbys within its 30 s: $(launcher)"
	wait $session
fi

# (9) the launcher done or failed within its deadline (30 s) whatever it waits for, and never a second
# launcher beside it: a session started at 36 s (when 1.6 registered a second one beside the first)
drop_origin || fail "(9) the origin dropped"
failures=$(not_confirmed)
sql s -d dz -c "SET statement_timeout = '40s'" -c 'SELECT timeid_generate()' >/dev/null 2>&1 &
session=$!
for _ in $(seq 1 40); do read -r pid event <<<"$(launcher)"; [ -n "$pid" ] && break; sleep 0.25; done
started=$(sql s -c "SELECT (extract(epoch FROM backend_start) * 1000)::bigint FROM pg_stat_activity WHERE pid = ${pid:-0}")
started=${started:-$(ms)}
most=0 ended='' second=''
while [ "$(elapsed "$started")" -lt 45000 ]; do
	n=$(launchers)
	[ "$n" -gt "$most" ] && most=$n
	[ -z "$ended" ] && [ -z "$(sql s -c "SELECT 1 FROM pg_stat_activity WHERE pid = ${pid:-0}")" ] &&
		ended=$(elapsed "$started")
	if [ -z "$second" ] && [ "$(elapsed "$started")" -ge 36000 ]; then
		sql s -d dz -c "SET statement_timeout = '3s'" -c 'SELECT timeid_generate()' >/dev/null 2>&1 &
		second=$!
	fi
	sleep 0.5
done
wait $session
# when it ended, by the server's clock: the postmaster's log line of its exit
exit_at=$(grep "(PID ${pid:-0}) exited" "$work/s.log" | cut -d' ' -f1-3)
[ -n "$exit_at" ] && ended=$(($(sql s -c "SELECT (extract(epoch FROM timestamptz '$exit_at') * 1000)::bigint") - started))
check "(9) the launcher ended within its deadline (30 s) with the standby down: after $([ -n "$ended" ] && in_s "$ended" || echo 'more than 45') s" \
	"[ -n '$ended' ] && [ '${ended:-99999}' -lt 32000 ]" "$(launcher)"
check "(9) its failure logged: the rebuilt mark not confirmed" "[ $(not_confirmed) -gt $failures ]"
check "(9) never two launchers at once (most seen: $most; a session generated at 36 s)" "[ '$most' = 1 ]"
standby_back && sync_in_effect s no || fail "(9) synchronous_standby_names reset not in effect"
wait $second
for _ in $(seq 1 120); do [ "$(launchers)" = 0 ] && break; sleep 0.25; done
rebuilt "(9) the standby back" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$(carriers_max)"

# (10) a carrier more than a day ahead of the clock (the clock set back a day, as far as the test clock goes):
# refused as the origin's mark is (idtypes.mark_ahead = refuse), the setting named; taken with continue
sql s -d d1 -c "$move_the_mark" >/dev/null || fail "(10) IDs in d1"
before=$(carriers_max)
sql s -c "LOAD 'idtypes'" -c 'ALTER SYSTEM SET idtypes.test_clock_offset = -86400000' >/dev/null && drop_origin &&
	restart s || die "(10) the clock a day behind, the origin dropped, the server restarted"
out=$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)
check "(10) a carrier more than a day ahead refused, the worker's hint naming idtypes.mark_ahead" \
	"grep -q 'more than a day ahead' <<<\"\$out\" && grep -q \"SET idtypes.mark_ahead = 'continue'\" '$work/s.log'" "$out"
sql s -c "LOAD 'idtypes'" -c "ALTER SYSTEM SET idtypes.mark_ahead = 'continue'" -c 'SELECT pg_reload_conf()' >/dev/null
sleep 0.3
rebuilt "(10) idtypes.mark_ahead = continue: the rebuild takes it" "$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$before"
sql s -c "LOAD 'idtypes'" -c 'ALTER SYSTEM RESET idtypes.mark_ahead' -c 'ALTER SYSTEM RESET idtypes.test_clock_offset' \
	-c 'SELECT pg_reload_conf()' >/dev/null

# (11) the first ID after the mark was lost, in a transaction that holds the lock on its database's carrier (a
# REFRESH): refused at once, naming that lock (the rebuild would wait for this very session until it fails)
drop_origin && restart s || die "(11) the origin dropped, the server restarted"
started=$(date +%s%N)
out=$(sql s -d d1 -c 'BEGIN; REFRESH MATERIALIZED VIEW idtypes_internal.high_water; SELECT timeid_generate(); COMMIT' 2>&1)
took_ms=$((($(date +%s%N) - started) / 1000000))
check "(11) a session holding its carrier's lock refused, naming it (after $took_ms ms)" \
	"grep -q 'while this transaction holds a lock on this database' <<<\"\$out\"" "$out"
before=$(carriers_max) # before the next ID raises d1's carrier above the rebuilt mark
rebuilt "(11) its next transaction" "$(sql s -d d1 -c 'SELECT timeid_generate()' 2>&1)" "$before"

# (12) the adoptions in progress since the start (dz, d1), d1's carrier now renamed and refreshed by its owner
# (found by membership among the extension's member tables, adoption's, by its shape), then d1's IDs; (14) DDL
# on dd's carrier prepared (PREPARE TRANSACTION: it holds the carrier's lock across the restart): the rebuild
# fails within its 10 s naming dd, the error's query finds the holder, a row without pid (1.7 before: a query
# that found nothing), and once it is rolled back the next ID rebuilds. One rebuild for both.
sql s -d d1 -c 'ALTER MATERIALIZED VIEW idtypes_internal.high_water RENAME TO high_water_renamed' \
	-c 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water_renamed' -c "$move_the_mark" >/dev/null || fail "(12) IDs in d1"
# the carrier the only member relation whose rows have its shape (a later version's member table of two
# bigints would be read as a carrier): in a database at this version and at 1.3
shaped="SELECT count(*) FROM pg_depend d JOIN pg_class c ON c.oid = d.objid WHERE d.deptype = 'e'
	AND d.classid = 'pg_class'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idtypes')
	AND c.relkind IN ('r', 'm') AND ARRAY(SELECT atttypid FROM pg_attribute WHERE attrelid = c.oid AND attnum > 0
	AND NOT attisdropped ORDER BY attnum) = ARRAY['bigint'::regtype, 'bigint'::regtype]::oid[]"
check "(12) the carrier the only member relation of idtypes of its shape (two bigint columns), at this version and at 1.3" \
	"[ \"\$(sql s -d d1 -c \"\$shaped\")\" = 1 ] && [ \"\$(sql s -d d13 -c \"\$shaped\")\" = 1 ]" \
	"d1: $(sql s -d d1 -c "$shaped"), d13: $(sql s -d d13 -c "$shaped")"
before=$(carriers_max 2>/dev/null) # d1's (renamed) is not among them
d1_carrier=$(sql s -d d1 -c 'SELECT mark FROM idtypes_internal.high_water_renamed')
[ "$d1_carrier" -gt "${before% *}" ] && before="$d1_carrier d1-renamed"
sql s -d dd -c 'BEGIN' -c 'ALTER MATERIALIZED VIEW idtypes_internal.high_water RENAME TO high_water_held' \
	-c "PREPARE TRANSACTION 'rc_held'" >/dev/null || fail "(14) DDL on dd's carrier prepared"
drop_origin && restart s || die "(12) the origin dropped, the server restarted"
out=$(sql s -d dz -c "SET statement_timeout = '20s'" -c 'SELECT timeid_generate()' 2>&1)
holders=$(sql s -c "$(grep -o "SELECT pid, state, query FROM pg_locks.*objid = [0-9]*))" <<<"$out" | head -1)" 2>&1)
check "(14) DDL on dd's carrier prepared: the first ID fails naming dd and prepared transactions, the error's query finds a holder without pid" \
	"grep -q 'database \"dd\" could not be read.*or a prepared transaction (no pid; pg_prepared_xacts)' <<<\"\$out\" && grep -qx '||' <<<\"\$holders\" &&
	[ \"\$(sql s -c 'SELECT gid FROM pg_prepared_xacts')\" = rc_held ]" "$out; the query: $holders"
sql s -d dd -c "ROLLBACK PREPARED 'rc_held'" >/dev/null || fail "(14) ROLLBACK PREPARED"
rebuilt "(12) adoptions in progress in dz (no carrier) and d1 (its carrier renamed and refreshed); (14) the prepared transaction rolled back" \
	"$(sql s -d dz -c 'SELECT timeid_generate()' 2>&1)" "$before"
for d in dz d1; do
	check "(12) $d's adoption state untouched by every round's IDs and rebuilds, and its backfill goes on to the end" \
		"[ \"\$(adoption_state $d)\" = '${adopting[$d]}' ] && sql s -d $d -c \"CALL idtypes_adopt_backfill('adopt_t')\" >/dev/null &&
		[ \"\$(sql s -d $d -c 'SELECT count(*) FROM adopt_t WHERE id_new IS NULL')\" = 0 ]" \
		"$(sql s -d "$d" -c 'TABLE idtypes_adopt.cursor' 2>&1)"
done
sql s -d d1 -c 'ALTER MATERIALIZED VIEW idtypes_internal.high_water_renamed RENAME TO high_water' >/dev/null

sleep 0.5
[ "$(launchers)" = 0 ] && ok "no worker left behind" || fail "$(launchers) launchers left"
exit $status
