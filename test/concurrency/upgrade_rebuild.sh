#!/usr/bin/env bash
# pg_upgrade (BIN's PostgreSQL onto itself, 15 -> 15 here) and the one launcher that rebuilds the mark from
# every database's carrier (issue 49). In a cluster of its own: da, db generate ROWS (2,000) of every
# generator, then dn (after the carriers' margin, so that its IDs are past da's and db's carriers), which
# refuses connections after pg_upgrade (pg_upgrade needs them); dold stays at idtypes 1.4; drb at 1.3 with a rolled-back far-future row in
# its table (MVCC: it must not count), dfar at 1.3 with a committed one (more than a day ahead); MANY (200)
# databases copied from da after the upgrade. pg_upgrade, then, the clocks set back onto dn's first IDs
# (idtypes.test_clock_offset): (a) CREATE EXTENSION in a new database and ALTER EXTENSION UPDATE in dold before
# the first ID; (f) REFRESH before the first ID keeps the carried value, WITH NO DATA is refused; (g) the first
# ID refused naming dfar; (d) a REFRESH holding db's carrier: a session with a 1 s timeout gives up, one launcher
# only, which goes on once the lock is gone, none left; (e) the mark dropped, the server restarted: the first
# ID under statement_timeout = 250ms succeeds within a few attempts, over more databases than
# max_worker_processes (b); (c) none of the IDs issued after the upgrade in common with any issued before,
# dn's included. Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: upgrade_rebuild.sh BIN [yes|no]}
preload=${2:-no}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
many=${IDTYPES_REBUILD_DATABASES:-200}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
source "$(dirname "$0")/ids.sh"
far="(extract(epoch FROM clock_timestamp() + interval '3 days') * 1000000)::bigint"
launchers() { sql "$1" -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes mark rebuild'"; }
carried() { sql "$1" -d "$2" -c 'SELECT mark FROM idtypes_internal.high_water'; }

as_postgres "$bin/initdb" -D "$work/old" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start old || die "the old cluster does not start"
for d in da db dn dold drb dfar; do sql old -c "CREATE DATABASE $d" || die "CREATE DATABASE $d"; done
for d in da db dn; do sql old -d $d -c 'CREATE EXTENSION idtypes' || die "idtypes in $d"; done
sql old -d dold -c "CREATE EXTENSION idtypes VERSION '1.4'" && sql old -d drb -c "CREATE EXTENSION idtypes VERSION '1.3'" &&
	sql old -d dfar -c "CREATE EXTENSION idtypes VERSION '1.3'" || die "idtypes 1.4 and 1.3"
for d in da db dold drb; do
	sql old -d $d -c "$(every_generator u_$d "$rows" tbsl)" && keep old $d u_$d old || die "the IDs issued in $d"
done
sql old -d drb -c "BEGIN" -c "INSERT INTO idtypes_high_water VALUES ($far, 0)" -c "ROLLBACK" &&
	sql old -d dfar -c "INSERT INTO idtypes_high_water VALUES ($far, 0)" || die "the 1.3 carriers' far rows"
sleep 11 # past the carriers' margin (10 s): dn's IDs are beyond da's and db's carriers
sql old -d dn -c "$(every_generator u_dn "$rows" tbsl)" && keep old dn u_dn old || die "the IDs issued in dn"
first=$(first_issued old dn u_dn)
stop old || die "the old cluster does not stop"
upgrade "$bin" "$bin" old new || die "pg_upgrade"
start new || die "the upgraded cluster does not start"
ok "pg_upgrade: 9 databases (dold at 1.4, drb and dfar at 1.3)"
# (c) pg_upgrade needs every database to accept connections: an archived one refuses them again after it
sql new -c 'ALTER DATABASE dn ALLOW_CONNECTIONS false' || die "dn refusing connections"
# the server's clock set back onto dn's first IDs, the launcher's included (it takes max(carriers, clock)):
# without dn's carrier, the mark would be below dn's IDs
sql new -c "LOAD 'idtypes'" -c "ALTER SYSTEM SET idtypes.test_clock_offset = $(sql new -c "SELECT -ceil((extract(epoch FROM clock_timestamp()) - $first) * 1000)::bigint")" \
	-c 'SELECT pg_reload_conf()' >/dev/null || die "the server's clock set back"

# (a) before any ID
sql new -c 'CREATE DATABASE c' && sql new -d c -c 'CREATE EXTENSION idtypes' &&
	sql new -d dold -c 'ALTER EXTENSION idtypes UPDATE' && sql new -d drb -c 'ALTER EXTENSION idtypes UPDATE' &&
	ok "(a) before the first ID: CREATE EXTENSION in a new database, ALTER EXTENSION UPDATE from 1.4 and from 1.3" ||
	fail "(a) CREATE EXTENSION or ALTER EXTENSION UPDATE before the first ID"
[ "$(carried new dold)" -ge "$(carried new db)" ] 2>/dev/null && [ "$(carried new dold)" -gt 0 ] &&
	ok "(a) dold's carrier kept its value across ALTER EXTENSION UPDATE ($(carried new dold))" ||
	fail "(a) dold's carrier after ALTER EXTENSION UPDATE: $(carried new dold)"
# 1.3's update puts its table's mark into the carrier (its committed rows only: not the rolled-back far one)
# and creates no origin: the library makes it from every database's carrier (one database's table alone would
# hide the others' marks)
[ "$(carried new drb)" -gt 0 ] && [ "$(sql new -d drb -c "SELECT $(carried new drb) < $far")" = t ] &&
	ok "(a) drb's carrier holds its 1.3 table's committed mark after ALTER EXTENSION UPDATE ($(carried new drb))" ||
	fail "(a) drb's carrier after ALTER EXTENSION UPDATE from 1.3: $(carried new drb)"
[ "$(sql new -c "SELECT count(*) FROM pg_replication_origin WHERE roname LIKE 'idtypes%'")" = 0 ] &&
	ok "(a) no origin made by CREATE EXTENSION or ALTER EXTENSION UPDATE" || fail "(a) an extension script made an origin"
# (f) REFRESH before the first ID (the server has no mark yet)
before=$(carried new db)
out=$(sql new -d db -c 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water WITH NO DATA' 2>&1)
grep -q 'must stay populated' <<<"$out" && [ "$(carried new db)" = "$before" ] &&
	ok "(f) REFRESH ... WITH NO DATA refused, the carrier unchanged ($(head -1 <<<"$out"))" || fail "(f) WITH NO DATA: $out"
sql new -d db -c 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water' && after=$(carried new db)
[ "$after" -ge "$before" ] && ok "(f) REFRESH before the first ID keeps the carried value ($before -> $after)" ||
	fail "(f) REFRESH lowered db's carrier: $before -> $after"
# (g) a carrier more than a day ahead
out=$(sql new -d da -c 'SELECT timeid_generate()' 2>&1)
grep -q 'dfar' <<<"$out" && grep -q 'more than a day ahead' <<<"$out" &&
	ok "(g) a carrier more than a day ahead refused, naming the database: $(grep ERROR <<<"$out")" || fail "(g) $out"
[ "$(sql new -c "SELECT count(*) FROM pg_replication_origin WHERE roname = 'idtypes_high_water'
	AND pg_replication_origin_progress(roname, false) <> '0/0'")" = 0 ] &&
	ok "(g) nothing rebuilt from part of the databases" || fail "(g) the origin got a mark though a database was refused"
sql new -c 'DROP DATABASE dfar' || fail "DROP DATABASE dfar"

# (d) db's carrier held by a REFRESH for 6 s
sql new -d db -c 'BEGIN' -c 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water' -c 'SELECT pg_sleep(6)' -c 'COMMIT' >/dev/null &
holder=$!
sleep 1
out=$(sql new -d da -c "SET statement_timeout = '1s'" -c 'SELECT timeid_generate()' 2>&1)
n=$(launchers new)
grep -q 'statement timeout' <<<"$out" && [ "$n" = 1 ] &&
	ok "(d) the carrier locked: a session with a 1 s timeout gives up, the one launcher goes on" ||
	fail "(d) with the carrier locked: '$out', $n launchers"
generate_back new da new_da "$rows" "$first" 0 new "(d) da, once the lock is gone, its clock set back onto dn's first IDs"
wait $holder
[ "$(launchers new)" = 0 ] && ok "(d) no worker left behind" || fail "(d) $(launchers new) launchers left"
generate_back new db new_db "$rows" "$first" 0 new "db, its clock set back onto dn's first IDs"
generate_back new drb new_drb "$rows" "$first" 0 new "drb (idtypes 1.3), its clock set back onto dn's first IDs"
generate_back new c new_c "$rows" "$first" 0 new "c (created after pg_upgrade), its clock set back onto dn's first IDs"

# (e) MANY databases more, copies of da (pg_upgrade takes minutes over hundreds), the mark dropped and the
# server restarted as after pg_upgrade: the rebuild again, under statement_timeout = 250ms
for i in $(seq 1 "$many"); do echo "CREATE DATABASE m$i TEMPLATE da;"; done | sql new >/dev/null || die "$many databases"
sql new -c "SELECT pg_replication_origin_drop('idtypes_high_water')" >/dev/null &&
	stop new && start_at new || die "the mark dropped, the server restarted"
for attempt in $(seq 1 20); do
	out=$(sql new -d m1 -c "SET statement_timeout = '250ms'" -c "$(clock_back "$first" 0)" -c 'SELECT timeid_generate()' 2>&1) &&
		break
done
if [ -z "$(grep ERROR <<<"$out")" ]; then
	ok "(e) $(sql new -c 'SELECT count(*) FROM pg_database') databases, max_worker_processes $(sql new -c 'SHOW max_worker_processes') (b): the first ID under statement_timeout = 250ms at attempt $attempt"
else
	fail "(e) no ID in 20 attempts under statement_timeout = 250ms: $out"
fi
[ "$(sql new -c "SELECT count(*) FROM pg_replication_origin WHERE roname = 'idtypes_high_water'")" = 1 ] &&
	ok "(e) the origin created" || fail "(e) no origin"
sleep 0.5
[ "$(launchers new)" = 0 ] && ok "(e) no worker left behind" || fail "(e) $(launchers new) launchers left"
generate_back new m2 new_m2 "$rows" "$first" 0 new "(e) m2, its clock set back onto dn's first IDs"
echo "     the clocks set back $(sql new -c "SELECT round(extract(epoch FROM clock_timestamp()) - $first, 1)") s onto dn's first IDs"
none_in_common old new "after pg_upgrade (dn refusing connections among the old)"
exit $status
