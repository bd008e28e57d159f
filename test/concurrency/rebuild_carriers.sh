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
#   (1) one holding now + 12 h in dd's extension schema: ignored.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: rebuild_carriers.sh BIN [yes|no]}
preload=${2:-no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
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
drop_origin() {
	sql s -c "SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin WHERE roname = 'idtypes_high_water'" >/dev/null
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

sleep 0.5
[ "$(launchers)" = 0 ] && ok "no worker left behind" || fail "$(launchers) launchers left"
exit $status
