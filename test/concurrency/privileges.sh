#!/usr/bin/env bash
# No grant an application role can receive lets it change, remove, block or redirect the generators'
# high-water mark, and schema tools do not see it (issue 42). In clusters of its own, with PostgreSQL's bin
# directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no), the fleet's identity on the command line (7, 7):
# a primary and its hot standby; roles
# - app: in database pubdb (idtypes in public), GRANT ALL ON SCHEMA public, GRANT ALL ON ALL TABLES IN SCHEMA
#   public after CREATE EXTENSION, and ALTER DEFAULT PRIVILEGES ... GRANT ALL ON TABLES to it, set before
#   CREATE EXTENSION by the installing superuser (in every schema, and in public);
# - owner: owns database owndb and its schema app, which idtypes is installed in; also owns squatdb, where it
#   made a schema idtypes_internal (with a relation high_water in it) before the superuser installed idtypes;
# - writer: a member of pg_write_all_data; maint: of pg_maintain (where it exists: 17 and later).
# Each tries, on every relation of the mark it can name (the extension's relations named like high_water, any
# relation in idtypes_internal) and on pg_replication_origin: UPDATE (to 2200, and mark = mark, a VACUUM after),
# DELETE, TRUNCATE, INSERT (2200), REFRESH MATERIALIZED VIEW, DROP, and LOCK ... ACCESS EXCLUSIVE held in an
# open transaction; pg_replication_origin_advance / _drop / _create / _session_setup on the origins named
# idtypes_*; and plants look-alikes in its schema (tables and a materialized view named like the mark, functions
# named like pg_replication_origin_*, a database search_path putting them first). A cleaner truncates every table
# it sees (Rails' DatabaseCleaner: pg_tables in its search_path's schemas). Every change to the extension's
# relations or the origins must be refused; then new sessions (while a lock is held: statement_timeout 5s),
# after a restart and after a failover generate every type without error, none dated ahead of now + 1 s, none
# twice. A superuser's replicated mark two days ahead, and one near INT64_MAX, are refused (SQLSTATE 55000,
# naming the replicated high-water mark), the server not crashing. Prints `ok` / `FAIL` / `skip` lines.
set -uo pipefail
bin=${1:?usage: privileges.sh BIN_DIR yes|no}
preload=${2:?usage: privileges.sh BIN_DIR yes|no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
source "$(dirname "$0")/ids.sh"
all="t x f s v b q"
ahead=7258118400000000 # 2200-01-01 in Unix µs
server=primary

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
maint=no
[ "$(sql primary -c "SELECT count(*) FROM pg_roles WHERE rolname = 'pg_maintain'")" = 1 ] && maint=yes
sql primary <<-EOF >/dev/null || die "the roles and databases"
	CREATE ROLE app LOGIN;
	CREATE ROLE owner LOGIN;
	CREATE ROLE writer LOGIN IN ROLE pg_write_all_data;
	$([ $maint = yes ] && echo "CREATE ROLE maint LOGIN IN ROLE pg_maintain;")
	CREATE DATABASE pubdb;
	CREATE DATABASE owndb OWNER owner;
	CREATE DATABASE squatdb OWNER owner;
	\c pubdb
	ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO app;
	ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO app;
	GRANT ALL ON SCHEMA public TO app;
	CREATE EXTENSION idtypes;
	GRANT ALL ON ALL TABLES IN SCHEMA public TO app;
	SET ROLE app;
	CREATE TABLE items (id timeid PRIMARY KEY DEFAULT timeid_generate(), u uuid DEFAULT uuid_v7_generate());
	INSERT INTO items DEFAULT VALUES;
	\c owndb
	SET ROLE owner;
	CREATE SCHEMA app;
	ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO app;
	CREATE TABLE app.orders (id bigint);
	RESET ROLE;
	ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO app;
	CREATE EXTENSION idtypes SCHEMA app;
	ALTER ROLE owner IN DATABASE owndb SET search_path = app, public;
	\c squatdb
	SET ROLE owner;
	CREATE SCHEMA idtypes_internal;
	CREATE TABLE idtypes_internal.high_water (mark bigint, writer bigint);
	INSERT INTO idtypes_internal.high_water VALUES ($ahead, 1);
	GRANT ALL ON SCHEMA idtypes_internal TO PUBLIC;
	GRANT ALL ON idtypes_internal.high_water TO PUBLIC;
EOF
out=$(sql primary -d squatdb -c 'CREATE EXTENSION idtypes' 2>&1)
if [ -z "$out" ]; then
	owned=$(sql primary -d squatdb -c "SELECT string_agg(c.oid::regclass::text, ', ') FROM pg_class c
		JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
		WHERE NOT (SELECT rolsuper FROM pg_roles WHERE oid = (SELECT nspowner FROM pg_namespace WHERE oid = c.relnamespace))")
	[ -z "$owned" ] && ok "squatdb: the owner's schema idtypes_internal made before CREATE EXTENSION holds no relation of idtypes" ||
		fail "squatdb: idtypes put its relations in a schema that the database owner owns: $owned"
else
	ok "squatdb: CREATE EXTENSION refuses the schema idtypes_internal the database owner made before ($(head -1 <<<"$out"))"
	sql primary -c 'DROP DATABASE squatdb' >/dev/null
fi
dbs=$(sql primary -c "SELECT string_agg(datname, ' ' ORDER BY datname) FROM pg_database WHERE datname IN ('pubdb', 'owndb', 'squatdb')")
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"

# The mark's relations in DB: the extension's relations named like high_water or in a schema idtypes_internal
mark_relations() {
	sql primary -d "$1" -c "SELECT c.oid::regclass::text || ' ' || c.relkind::text FROM pg_class c
		LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
		LEFT JOIN pg_extension e ON e.oid = d.refobjid
		WHERE c.relkind IN ('r', 'm', 'v', 'p', 'f') AND e.extname = 'idtypes' AND (c.relname LIKE '%high_water%'
			OR c.relnamespace::regnamespace::text = 'idtypes_internal')" 2>/dev/null
}
# idtypes' origins, one a line: the mark's, and the key records (whose names hold spaces)
origins() { sql "$server" -c "SELECT roname FROM pg_replication_origin WHERE roname LIKE 'idtypes%' ORDER BY roname"; }

# refused ROLE DB WHAT SQL...: ok when ROLE's statements (one session) fail, FAIL when they succeed
refused() {
	local role=$1 db=$2 what=$3 out
	shift 3
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	if out=$(sql primary -d "$db" -U "$role" "${args[@]}" 2>&1); then
		fail "$db: $role can $what"
	else
		ok "$db: $role cannot $what ($(grep -m1 ERROR <<<"$out" | sed 's/^.*ERROR: *//'))"
	fi
}

# attack ROLE DB: everything ROLE tries on the mark in DB
attack() {
	local role=$1 db=$2 rel kind o
	while read -r rel kind; do
		[ -n "$rel" ] || continue
		refused "$role" "$db" "UPDATE $rel to 2200" "UPDATE $rel SET mark = $ahead"
		refused "$role" "$db" "UPDATE $rel SET mark = mark" "UPDATE $rel SET mark = mark"
		refused "$role" "$db" "DELETE FROM $rel" "DELETE FROM $rel"
		refused "$role" "$db" "TRUNCATE $rel" "TRUNCATE $rel"
		refused "$role" "$db" "INSERT a mark of 2200 into $rel" "INSERT INTO $rel VALUES ($ahead, 1)"
		refused "$role" "$db" "REFRESH MATERIALIZED VIEW $rel" "REFRESH MATERIALIZED VIEW $rel"
		refused "$role" "$db" "DROP $rel" "DROP $([ "$kind" = m ] && echo MATERIALIZED VIEW || echo TABLE) $rel"
		refused "$role" "$db" "rename $rel" "ALTER TABLE $rel RENAME TO moved"
	done <<<"$(mark_relations "$db")"
	while IFS= read -r o; do
		refused "$role" "$db" "pg_replication_origin_advance('$o')" "SELECT pg_replication_origin_advance('$o', '7FFFFFFF/0')"
		refused "$role" "$db" "pg_replication_origin_drop('$o')" "SELECT pg_replication_origin_drop('$o')"
		refused "$role" "$db" "pg_replication_origin_session_setup('$o')" "SELECT pg_replication_origin_session_setup('$o')"
	done <<<"$(origins)"
	refused "$role" "$db" "pg_replication_origin_create('idtypes_high_water_2')" "SELECT pg_replication_origin_create('idtypes_high_water_2')"
}

# generated LABEL: in every database, as the superuser and as the roles that use it, ROWS of every generator in a
# new session (statement_timeout 5s); ok when none fails, none is dated ahead of now + 1 s; all kept in the
# set `all` (none twice: checked at the end)
n=0
generated() {
	local label=$1 db role out late
	for db in $dbs; do
		for role in postgres $([ "$db" = pubdb ] && echo app) $([ "$db" != pubdb ] && echo owner) writer; do
			n=$((n + 1))
			out=$(sql "$server" -d "$db" -U "$role" -c "SET statement_timeout = '5s'" -c "SET search_path = app, pg_catalog, public" \
				-c "CREATE TABLE gens.gen_$n AS $(ids_select 200 "$all")" 2>&1)
			[ -z "$out" ] || { fail "$label: $role in $db: $out"; continue; }
			late=$(sql "$server" -d "$db" -c "SET search_path = app, public" -c "SELECT concat_ws(' ', count(*) FILTER (WHERE t::timestamptz > clock_timestamp() + '1 s'),
				count(*) FILTER (WHERE x::timestamptz > clock_timestamp() + '1 s'), count(*) FILTER (WHERE s::timestamptz > clock_timestamp() + '1 s'),
				count(*) FILTER (WHERE uuid_v7_timestamp(v) > clock_timestamp() + '1 s'), count(*) FILTER (WHERE b::timestamptz > clock_timestamp() + '1 s'),
				count(*) FILTER (WHERE q::timestamptz > clock_timestamp() + '1 s')) FROM gens.gen_$n" 2>&1)
			[ "$late" = "0 0 0 0 0 0" ] && ok "$label: $role in $db generates every type, none dated ahead" ||
				fail "$label: $role in $db: dated ahead of now + 1 s (timeid uid11 scru160 uuid_v7 tbsl tbsl-sequenced): $late"
			keep "$server" "$db" "gens.gen_$n" all
		done
	done
}
# the checks' own tables, in a schema no role has in its search_path (the cleaners leave them alone)
for db in $dbs; do sql primary -d "$db" -c 'CREATE SCHEMA gens' -c 'GRANT ALL ON SCHEMA gens TO PUBLIC' >/dev/null; done
generated "before any attempt"

# schema tools: what the application's roles list as their tables
for pair in "app pubdb" "owner owndb"; do
	read -r role db <<<"$pair"
	seen=$(sql primary -d "$db" -U "$role" -c "SELECT string_agg(n.nspname || '.' || c.relname, ', ') FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY (current_schemas(false))
		AND c.relkind IN ('r', 'm', 'v', 'p', 'f') AND c.relname LIKE '%high_water%'")
	[ -z "$seen" ] && ok "$db: $role's schemas (search_path $(sql primary -d "$db" -U "$role" -c 'SHOW search_path')) list no relation of the mark" ||
		fail "$db: $role's schemas list the mark: $seen"
done

# the attempts
for db in $dbs; do
	for role in app owner writer $([ $maint = yes ] && echo maint); do
		[ "$role" = owner ] && [ "$db" = pubdb ] && continue
		attack "$role" "$db"
	done
done
[ $maint = yes ] || echo "skip pg_maintain: this PostgreSQL has none (17 and later)"
sql primary -c 'SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin WHERE roname = '"'idtypes_high_water_2'" >/dev/null 2>&1

# look-alikes planted in the roles' own schemas, and a search_path putting them before pg_catalog
sql primary -d pubdb -U app -v ON_ERROR_STOP=0 <<-EOF >/dev/null 2>&1
	CREATE TABLE public.idtypes_high_water (mark bigint, writer bigint);
	INSERT INTO public.idtypes_high_water VALUES ($ahead, 1);
	CREATE MATERIALIZED VIEW public.high_water AS SELECT $ahead::bigint AS mark, 1::bigint AS writer;
EOF
sql primary -d owndb -U owner -v ON_ERROR_STOP=0 <<-EOF >/dev/null 2>&1
	CREATE TABLE app.high_water (mark bigint, writer bigint);
	INSERT INTO app.high_water VALUES ($ahead, 1);
	CREATE SCHEMA IF NOT EXISTS idtypes_internal;
	CREATE TABLE idtypes_internal.high_water (mark bigint, writer bigint);
	INSERT INTO idtypes_internal.high_water VALUES ($ahead, 1);
	CREATE FUNCTION app.pg_replication_origin_progress(text, boolean) RETURNS pg_lsn LANGUAGE sql AS \$\$SELECT '7FFFFFFF/0'::pg_lsn\$\$;
	CREATE FUNCTION app.pg_replication_origin_oid(text) RETURNS oid LANGUAGE sql AS \$\$SELECT 1::oid\$\$;
	CREATE VIEW app.pg_replication_origin_status AS SELECT 1::oid AS local_id, 'idtypes_high_water'::text AS external_id,
		'7FFFFFFF/0'::pg_lsn AS remote_lsn, '0/0'::pg_lsn AS local_lsn;
	ALTER DATABASE owndb SET search_path = app, pg_catalog, public;
EOF

# the cleaner: every table the role sees in its search_path's schemas, truncated in one statement
for pair in "app pubdb" "owner owndb" "owner squatdb"; do
	read -r role db <<<"$pair"
	[[ " $dbs " == *" $db "* ]] || continue
	tables=$(sql primary -d "$db" -U "$role" -c "SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') FROM pg_tables
		WHERE schemaname = ANY (current_schemas(false))")
	out=$(sql primary -d "$db" -U "$role" -c "TRUNCATE TABLE $tables RESTART IDENTITY CASCADE" 2>&1)
	[ -z "$out" ] && ok "$db: $role's cleaner truncates every table it sees ($tables)" ||
		fail "$db: $role's cleaner (TRUNCATE $tables): $out"
done
# autovacuum's part: every relation vacuumed (a line pointer left a redirect by an UPDATE shows then)
for db in $dbs; do sql primary -d "$db" -c 'VACUUM' >/dev/null 2>&1; done

generated "new sessions after the attempts"

# a lock held in an open transaction while new sessions generate; the mark must move meanwhile (> 200 ms)
for db in $dbs; do
	for role in app owner writer $([ $maint = yes ] && echo maint); do
		[ "$role" = owner ] && [ "$db" = pubdb ] && continue
		while read -r rel _; do
			[ -n "$rel" ] || continue
			# pg_maintain (17 and later) may LOCK any relation, system catalogs included: locking pg_class or
			# pg_replication_origin stalls every session that needs it, not only the generators; docs/operations.md
			# says to grant it to trusted roles only. Not an application role's grant: left out here.
			[ "$role" = maint ] && [ "$rel" = pg_catalog.pg_replication_origin ] && continue
			sql primary -d "$db" -U "$role" -c "SET application_name = 'locker'" -c 'BEGIN' \
				-c "LOCK TABLE $rel IN ACCESS EXCLUSIVE MODE" -c 'SELECT pg_sleep(30)' >/dev/null 2>&1 &
			for _ in 1 2 3 4 5 6; do
				sleep 0.25
				held=$(sql primary -c "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
					WHERE a.application_name = 'locker' AND l.mode = 'AccessExclusiveLock' AND l.granted")
				[ "$held" = 0 ] || break
			done
			if [ "$held" = 0 ]; then
				ok "$db: $role cannot LOCK $rel IN ACCESS EXCLUSIVE MODE"
			else
				out=$(sql primary -d "$db" -c "SET statement_timeout = '5s'" -c 'SET search_path = app, public' -c 'SELECT pg_sleep(0.3)' \
					-c "SELECT count(*) FROM ($(ids_select 1000 "$all")) g" 2>&1 | tail -1)
				[ "$out" = 1000 ] && ok "$db: $role holds an ACCESS EXCLUSIVE lock on $rel; generation goes on" ||
					fail "$db: $role holds an ACCESS EXCLUSIVE lock on $rel; a new session generating: $out"
			fi
			sql primary -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null
			wait
		done <<<"$(mark_relations "$db")
pg_catalog.pg_replication_origin r"
	done
done

# a restart, then a failover
restart primary && ready primary || die "the primary does not restart"
generated "after a restart"
wait_replay primary standby || fail "the standby did not replay"
failover primary standby && ok "the primary killed, the standby promoted" || die "promotion"
server=standby
generated "after a failover"
for c in $all; do
	twice=$(repeated all "$c")
	[ "$twice" = 0 ] && ok "${generator[$c]}: $(kept all "$c") IDs across sessions, a restart and a failover, none twice" ||
		fail "${generator[$c]}: $twice of $(kept all "$c") twice"
done

# a superuser's replicated mark implausibly far ahead: refused (55000, naming it), no crash
if ! grep -qx idtypes_high_water <<<"$(origins)"; then
	fail "no replication origin idtypes_high_water: the replicated mark of a superuser cannot be tried"
else
	before=$(sql standby -c "SELECT remote_lsn FROM pg_replication_origin_status WHERE external_id = 'idtypes_high_water'")
	for far in "2 days:$(printf '%X/%X' $(((($(date +%s) + 2 * 86400) * 1000000) >> 32)) $(((($(date +%s) + 2 * 86400) * 1000000) & 0xFFFFFFFF)))" \
		"near INT64_MAX:7FFFFFFF/FFFFFFF0" "UINT64_MAX:FFFFFFFF/FFFFFFFF"; do
		what=${far%%:*} lsn=${far#*:}
		sql standby -c "SELECT pg_replication_origin_advance('idtypes_high_water', '$lsn')" >/dev/null ||
			{ fail "pg_replication_origin_advance to $lsn"; continue; }
		restart standby && ready standby || die "the new primary does not restart"
		for c in $all; do
			when="$c::timestamptz <= clock_timestamp() + '1 s'"
			[ "$c" = v ] && when="uuid_v7_timestamp(v) <= clock_timestamp() + '1 s'"
			[ "$c" = f ] && when="true"
			out=$(sql standby -d pubdb -v VERBOSITY=verbose -c "SELECT $when FROM ($(ids_select 1 "$c")) g" 2>&1)
			if grep -q 55000 <<<"$out" && grep -qi 'replicated high-water mark' <<<"$out"; then
				ok "a replicated mark $what ahead ($lsn): ${generator[$c]} refuses, naming it ($(grep -m1 ERROR <<<"$out" | cut -c1-150))"
			elif { [ "$what" = UINT64_MAX ] || [ "$c" = f ]; } && [ "$out" = t ]; then
				ok "a replicated mark $what ahead ($lsn): ${generator[$c]} generates, not dated ahead"
			else
				fail "a replicated mark $what ahead ($lsn): ${generator[$c]}: $out"
			fi
		done
		grep -qE 'terminated by signal|was terminated' "$work/standby.log" &&
			fail "a replicated mark $what ahead: a backend crashed (server log)"
		sql standby -c "SELECT pg_replication_origin_advance('idtypes_high_water', '${before:-0/0}')" >/dev/null ||
			fail "the replicated mark set back to $before"
	done
fi
exit $status
