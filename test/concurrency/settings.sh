#!/usr/bin/env bash
# Identity settings (idtypes.tbsl_machine_id, idtypes.timeid_clock_id) that are out of range but were set
# where idtypes could not check them: generation must refuse with an error naming the setting and its value,
# never issue IDs with another identity. Run by scripts/test.sh against a running cluster (PGHOST etc. set).
# Argument:
#   session  — set at connection start (PGOPTIONS), before the library is loaded; and, when idtypes is not
#              preloaded, in postgresql.conf followed by a reload (undone at the end; needs root or the
#              server's user, like the rest of scripts/test.sh);
#   at-start — the cluster was started with idtypes.tbsl_machine_id=100 and idtypes.timeid_clock_id=5000.
# Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
how=${1:?usage: settings.sh session|at-start}
source "$(dirname "$0")/server.sh"

psql_q -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1
preloaded=$([ "$(psql_q -c 'SELECT idtypes_generator_mode()')" = "shared (preloaded)" ] && echo yes || echo no)

# setting, value, where it was set, the generation that must be refused, one with an argument that must work
refused() {
	local setting=$1 value=$2 where=$3 expr=$4 with_argument=$5 out
	out=$(psql_q -c "SELECT $expr" 2>&1)
	if grep -q "invalid value for parameter \"$setting\": $value" <<<"$out"; then
		ok "$setting = $value $where: $expr refused ($(grep -m1 ERROR <<<"$out"))"
	else
		fail "$setting = $value $where, then $expr: $out"
	fi
	# (PostgreSQL's WARNING about the refused value, when the library is loaded in this session, aside)
	out=$(psql_q -c "SELECT $with_argument IS NOT NULL" 2>/dev/null)
	[ "$out" = t ] && ok "$setting = $value $where: $with_argument still works" || fail "$with_argument with $setting = $value: $out"
}

case $how in
session)
	for pair in idtypes.tbsl_machine_id=100 idtypes.timeid_clock_id=5000; do
		out=$(PGOPTIONS="-c $pair" psql_q -c "SELECT tbsl_generate(), timeid_generate()" 2>&1)
		if [ "$preloaded" = yes ]; then # the parameter exists at connection start: the connection is refused
			grep -q "FATAL:  ${pair#*=} is outside the valid range for parameter \"${pair%=*}\"" <<<"$out" &&
				ok "$pair at connection start, preloaded: connection refused" || fail "$pair at connection start: $out"
		else
			grep -q "ERROR:  invalid value for parameter \"${pair%=*}\": ${pair#*=}" <<<"$out" &&
				ok "$pair at connection start, before loading: generation refused" || fail "$pair at connection start: $out"
		fi
	done
	if [ "$preloaded" = yes ]; then
		out=$(psql_q -c "ALTER SYSTEM SET idtypes.tbsl_machine_id = 100" 2>&1)
		grep -q '100 is outside the valid range for parameter "idtypes.tbsl_machine_id" (0 .. 99)' <<<"$out" &&
			ok "ALTER SYSTEM SET idtypes.tbsl_machine_id = 100, preloaded: refused" || fail "ALTER SYSTEM, preloaded: $out"
	else
		# PostgreSQL 15's ALTER SYSTEM refuses parameters it does not know yet: write the file as an admin would
		conf=$(psql_q -c 'SHOW config_file')
		printf '%s\n' "idtypes.tbsl_machine_id = 100 # settings.sh" "idtypes.timeid_clock_id = 5000 # settings.sh" >>"$conf"
		psql_q -c "SELECT pg_reload_conf()" >/dev/null
		sleep 1
		refused idtypes.tbsl_machine_id 100 "in postgresql.conf" 'tbsl_generate()' 'tbsl_generate(3)'
		refused idtypes.timeid_clock_id 5000 "in postgresql.conf" 'timeid_generate()' 'timeid_generate(3)'
		sed -i '/# settings.sh$/d' "$conf"
		psql_q -c "SELECT pg_reload_conf()" >/dev/null
		sleep 1
	fi
	;;
at-start)
	refused idtypes.tbsl_machine_id 100 "at server start" 'tbsl_generate()' 'tbsl_generate(3)'
	refused idtypes.timeid_clock_id 5000 "at server start" 'timeid_generate()' 'timeid_generate(3)'
	out=$(psql_q -c "SET idtypes.tbsl_machine_id = 4" -c "SELECT tbsl_machine_id(tbsl_generate())" 2>/dev/null)
	[ "$out" = 4 ] && ok "a valid SET after it generates with the new machine id" || fail "SET after an invalid start value: $out"
	;;
esac
exit $status
