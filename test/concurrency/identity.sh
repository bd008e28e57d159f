#!/usr/bin/env bash
# A server's identity is the DBA's, seen from separate sessions and roles (sql/identity.sql covers what one
# session shows): idtypes_identity() before and after the first ID; values of idtypes.timeid_clock_id and
# idtypes.tbsl_machine_id given before the library is loaded (SET, connection options) by a role without the
# privilege to set them (never applied), by a role granted SET on the parameter (applied); ALTER ROLE ... SET
# by the role itself and by a superuser; idtypes.require_identity turned on and off in postgresql.conf
# across reloads, with the identity set in the configuration, by a session, or not at all.
# Run by scripts/test.sh against a running cluster (PGHOST etc. set) where nothing was generated yet, loaded
# on demand or preloaded; edits postgresql.conf and undoes it (needs root or the server's user, like the
# rest of scripts/test.sh). Creates and drops the roles idtypes_app and idtypes_granted. Prints one line per
# check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/server.sh"
expect() { # what, expected, got
	[ "$3" = "$2" ] && ok "$1" || fail "$1: expected '$2', got '$3'"
}
expect_error() { # what, a fixed string the output must hold, output
	grep -qF -- "$2" <<<"$3" && ok "$1" || fail "$1: expected '$2' in: $3"
}

psql_q -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1
preloaded=$([ "$(psql_q -c 'SELECT idtypes_generator_mode()')" = "shared (preloaded)" ] && echo yes || echo no)
conf=$(psql_q -c 'SHOW config_file')
reload() { # lines for postgresql.conf (replacing this script's), then settings shown once it applies them
	local want=${*: -1} line
	sed -i '/# identity.sh$/d' "$conf"
	for line in "${@:1:$#-1}"; do echo "$line # identity.sh" >>"$conf"; done
	psql_q -c 'SELECT pg_reload_conf()' >/dev/null
	for _ in $(seq 50); do # a new session sees the new configuration once the postmaster has read it
		[ "$(psql_q -c "LOAD 'idtypes'" -c "SELECT concat_ws(' ', current_setting('idtypes.require_identity'),
			current_setting('idtypes.timeid_clock_id'), current_setting('idtypes.tbsl_machine_id'))")" = "$want" ] && return 0
		sleep 0.1
	done
	fail "the reload did not apply: $want"
}
cleanup() { # the configuration as it was, applied before the next test starts
	reload "off -1 0"
	psql_q -c 'DROP OWNED BY idtypes_app, idtypes_granted' -c 'DROP ROLE idtypes_app, idtypes_granted' 2>/dev/null
}
trap cleanup EXIT
psql_q -c 'CREATE ROLE idtypes_app LOGIN' -c 'CREATE ROLE idtypes_granted LOGIN' \
	-c 'GRANT SET ON PARAMETER idtypes.timeid_clock_id, idtypes.tbsl_machine_id TO idtypes_granted' || exit 1
as_app() { psql_q -U idtypes_app "$@"; }
as_granted() { psql_q -U idtypes_granted "$@"; }

# --- idtypes_identity() before and after the first ID, each in a session of its own
identity="SELECT concat_ws('|', coalesce(timeid_clock_id::text, 'NULL'), timeid_clock_id_source, tbsl_machine_id,
	tbsl_machine_id_source, generator_state = idtypes_generator_mode(), coalesce(high_water_mark::text, 'NULL'))
	FROM idtypes_identity()"
expect "idtypes_identity() before any ID: clock id not drawn yet (random), machine id 0 (default), no mark" \
	"NULL|random|0|default|t|NULL" "$(psql_q -c "$identity")"
first=$(psql_q -c 'SELECT timeid_generate()')
expect "idtypes_identity() after the first ID: its clock id (random), a mark past it" \
	"$(psql_q -c "SELECT timeid_clock_id('$first') || '|random|0|default|t|t'")" \
	"$(psql_q -c "SELECT concat_ws('|', timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source,
		generator_state = idtypes_generator_mode(), high_water_mark >= '$first'::timeid::timestamptz) FROM idtypes_identity()")"
own=$(psql_q -c "SELECT timeid_clock_id('$first')")
other=$(((own + 1) % 1024))

# --- a role without the privilege: nothing it sets, before loading or after, is applied
generated="SELECT timeid_clock_id(timeid_generate()) || '|' || tbsl_machine_id(tbsl_generate())"
sets="SET idtypes.timeid_clock_id = $other; SET idtypes.tbsl_machine_id = 5;"
out=$(as_app -c "$sets" -c "$generated" 2>&1)
if [ "$preloaded" = yes ]; then
	expect_error "SET by a role without the privilege: 42501" \
		'ERROR:  permission denied to set parameter "idtypes.timeid_clock_id"' "$out"
else
	expect_error "SET before loading by a role without the privilege: not applied when idtypes loads" \
		'WARNING:  permission denied to set parameter "idtypes.timeid_clock_id"' "$out"
	expect "... generation then uses the server's identity" "$own|0" "$(tail -1 <<<"$out")"
fi
out=$(PGOPTIONS="-c idtypes.tbsl_machine_id=5" as_app -c "$generated" 2>&1)
if [ "$preloaded" = yes ]; then
	expect_error "connection option by a role without the privilege: connection refused" \
		'FATAL:  permission denied to set parameter "idtypes.tbsl_machine_id"' "$out"
else
	expect "connection option by a role without the privilege: not applied when idtypes loads" \
		"$own|0" "$(tail -1 <<<"$out")"
fi
expect_error "ALTER ROLE ... SET for itself without the privilege: 42501" \
	'ERROR:  permission denied to set parameter "idtypes.tbsl_machine_id"' \
	"$(as_app -c 'ALTER ROLE idtypes_app SET idtypes.tbsl_machine_id = 5' 2>&1)"
expect_error "an explicit clock id other than the server's: 42501 naming the setting" \
	'GRANT SET ON PARAMETER idtypes.timeid_clock_id' "$(as_app -c "SELECT timeid_generate($other)" 2>&1)"
expect_error "an explicit machine id other than the server's: 42501 naming the setting" \
	'GRANT SET ON PARAMETER idtypes.tbsl_machine_id' "$(as_app -c 'SELECT tbsl_generate(5, true)' 2>&1)"
expect "the server's own identity, passed explicitly, works" "$own|0" \
	"$(as_app -c "SELECT timeid_clock_id(timeid_generate($own)) || '|' || tbsl_machine_id(tbsl_generate(0))")"

# --- a role granted SET on the parameters: what it sets before loading is applied
expect "SET before loading by a role granted SET ON PARAMETER: applied" "$other|6" \
	"$(as_granted -c "SET idtypes.timeid_clock_id = $other; SET idtypes.tbsl_machine_id = 6;" -c "$generated")"
expect "connection option by a role granted SET ON PARAMETER: applied, source session" "6|session" \
	"$(PGOPTIONS="-c idtypes.tbsl_machine_id=6" as_granted -c "SELECT tbsl_machine_id(tbsl_generate()) || '|' ||
		tbsl_machine_id_source FROM idtypes_identity()")"
expect "a role granted SET ON PARAMETER may pass another identity" "$other|7" \
	"$(as_granted -c "SELECT timeid_clock_id(timeid_generate($other)) || '|' || tbsl_machine_id(tbsl_generate(7))")"

# --- ALTER ROLE ... SET by a superuser: the role's sessions generate with it, and it is their own identity
psql_q -c 'ALTER ROLE idtypes_app SET idtypes.tbsl_machine_id = 9'
expect "ALTER ROLE ... SET by a superuser: applied in the role's sessions (source session), passable explicitly" \
	"9|9|session" "$(as_app -c "SELECT tbsl_machine_id(tbsl_generate()) || '|' || tbsl_machine_id(tbsl_generate(9))
		|| '|' || tbsl_machine_id_source FROM idtypes_identity()")"
psql_q -c 'ALTER ROLE idtypes_app RESET ALL'

# --- idtypes.require_identity in postgresql.conf, across reloads
reload "idtypes.require_identity = on" "on -1 0"
expect_error "require_identity on, clock id -1: timeid_generate() refused" \
	'ERROR:  idtypes.timeid_clock_id is not set in this server'"'"'s configuration, and idtypes.require_identity is on' \
	"$(psql_q -c 'SELECT timeid_generate()' 2>&1)"
out=$(psql_q -c 'SELECT tbsl_generate(3)' 2>&1)
expect_error "require_identity on, machine id by default: tbsl_generate(3) refused, even to a superuser" \
	'ERROR:  idtypes.tbsl_machine_id is not set in this server'"'"'s configuration' "$out"
expect_error "... with a hint naming the setting to give" \
	'HINT:  Give this server its own idtypes.tbsl_machine_id, 0 to 99, in postgresql.conf or with ALTER SYSTEM, and reload.' "$out"
expect "require_identity on: generators without an identity field still work" "t" \
	"$(psql_q -c 'SELECT uid11_generate() IS NOT NULL AND scru160_generate() IS NOT NULL')"
reload "idtypes.require_identity = on" "idtypes.timeid_clock_id = 11" "idtypes.tbsl_machine_id = 12" "on 11 12"
expect "require_identity on, identity in postgresql.conf: generation works, idtypes_identity() says configuration" \
	"11|12|11|configuration|12|configuration" \
	"$(as_app -c "SELECT concat_ws('|', timeid_clock_id(timeid_generate()), tbsl_machine_id(tbsl_generate()),
		timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source) FROM idtypes_identity()")"
expect "... the configured identity passed explicitly by a role without privileges works" "11|12" \
	"$(as_app -c "SELECT timeid_clock_id(timeid_generate(11)) || '|' || tbsl_machine_id(tbsl_generate_at(now(), 12))")"
expect_error "... an identity set by a session is refused" \
	'DETAIL:  It is 13, from session.' \
	"$(as_granted -c 'SET idtypes.tbsl_machine_id = 13' -c 'SELECT tbsl_generate()' 2>&1)"
reload "idtypes.timeid_clock_id = 11" "idtypes.tbsl_machine_id = 12" "off 11 12"
expect "require_identity off again: the session's identity is used" "13|session" \
	"$(as_granted -c "SET idtypes.tbsl_machine_id = 13" -c "SELECT tbsl_machine_id(tbsl_generate()) || '|' ||
		tbsl_machine_id_source FROM idtypes_identity()")"
exit $status
