#!/usr/bin/env bash
# A hot standby never hands out an ID its primary can issue (issue 49): PostgreSQL's rule for nextval(). In
# clusters of its own, with PostgreSQL's bin directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no): a
# primary whose postgresql.conf gives the fleet's identity (idtypes.timeid_clock_id = 7,
# idtypes.tbsl_machine_id = 7) and whose sessions use other identities too (ALTER DATABASE ... SET, ALTER ROLE
# ... SET, arguments), and a hot standby made from it the usual way (pg_basebackup -R, or the backup API where
# the version has none: clusters.sh), so with the same configuration. On the standby:
# - every generator whose uniqueness rests on an identity or on the mark refuses with SQLSTATE 55000, naming
#   the function and saying to generate on the primary: timeid_generate, uid11_generate,
#   uid11_generate_random, tbsl_generate (both modes), tbsl_generate_at, timeid_generate with an argument;
#   with the primary's identity, with an identity of its own (ALTER SYSTEM), and with the random clock id;
# - scru160_generate and uuid_v7_generate work: ROWS (20,000) of each at the same instant as the primary's,
#   none in common;
# - the primary stopped and the standby promoted: every generator works, nothing in common with anything the
#   primary issued (in any database, with any identity).
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: standby_identity.sh BIN_DIR yes|no}
preload=${2:?usage: standby_identity.sh BIN_DIR yes|no}
rows=${IDTYPES_STANDBY_ROWS:-20000}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload")
source "$(dirname "$0")/ids.sh"
all="t x f s v b q"
refusing="t x f b q" # the generators that refuse on a standby; s and v work there
# what each refusal names: the function
declare -A function=([t]="timeid_generate()" [x]="uid11_generate()" [f]="uid11_generate_random()"
	[b]="tbsl_generate()" [q]="tbsl_generate()")

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
# the identity in the configuration file, which a base backup copies (not on the command line)
printf '%s\n' "idtypes.timeid_clock_id = 7" "idtypes.tbsl_machine_id = 7" >>"$work/primary/postgresql.conf"
start primary || die "the primary does not start"
# the primary's sessions generate with several identities: the configuration's (7, 7), a database's (5, 5),
# a role's (3, 3), arguments (9)
sql primary -c 'CREATE EXTENSION idtypes' -c 'CREATE DATABASE d1' -c 'ALTER DATABASE d1 SET idtypes.timeid_clock_id = 5' \
	-c 'ALTER DATABASE d1 SET idtypes.tbsl_machine_id = 5' -c 'CREATE ROLE app LOGIN SUPERUSER' \
	-c 'ALTER ROLE app SET idtypes.timeid_clock_id = 3' -c 'ALTER ROLE app SET idtypes.tbsl_machine_id = 3' &&
	sql primary -d d1 -c 'CREATE EXTENSION idtypes' &&
	sql primary -c "CREATE TABLE warmup AS $(ids_select 10 "$all")" && keep primary postgres warmup everything_primary &&
	sql primary -d d1 -c "CREATE TABLE warmup AS $(ids_select 10 "$all")" && keep primary d1 warmup everything_primary &&
	sql primary -U app -c "CREATE TABLE warmup_role AS $(ids_select 10 "$all")" && keep primary postgres warmup_role everything_primary &&
	sql primary -c "CREATE TABLE warmup_args AS SELECT timeid_generate(9) AS t, tbsl_generate(9) AS b, tbsl_generate(9, true) AS q FROM generate_series(1, 10)" &&
	keep primary postgres warmup_args everything_primary || die "the primary's first IDs"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"
wait_replay primary standby || die "the standby does not replay"
[ "$(sql standby -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')" = "7 7 " ] &&
	ok "a standby made by $how carries its primary's identity (7, 7)" || fail "the standby's identity is not the primary's"

# probe LABEL: each generator once on the standby (and tbsl_generate_at, timeid_generate with an argument);
# those of `refusing` must refuse with SQLSTATE 55000, naming the function and the primary, the others work
probe() {
	local label=$1 c out
	works=""
	for c in $all; do
		out=$(sql standby -v VERBOSITY=verbose -c "SELECT ${generator_sql[$c]}" 2>&1 >/dev/null)
		if [[ " $refusing " != *" $c "* ]]; then
			[ -z "$out" ] && works+=" $c" || fail "$label: ${generator[$c]} does not work on the standby: $out"
		elif [ -z "$out" ]; then
			fail "$label: ${generator[$c]} generates (expected: refused with 55000, naming ${function[$c]})"
		elif grep -q '55000' <<<"$out" && grep -qF "${function[$c]} cannot generate on a standby" <<<"$out" &&
			grep -qF "Generate on the primary" <<<"$out" && grep -qF "scru160_generate()" <<<"$out"; then
			ok "$label: ${generator[$c]} refuses with SQLSTATE 55000, naming ${function[$c]}, hinting the primary"
		else
			fail "$label: ${generator[$c]}: $out"
		fi
	done
	for out in "timeid_generate(9)" "tbsl_generate(9)" "tbsl_generate_at(now())" "tbsl_generate_at(now(), 9)"; do
		grep -q 55000 <<<"$(sql standby -v VERBOSITY=verbose -c "SELECT $out" 2>&1 >/dev/null)" &&
			ok "$label: $out refuses with 55000" || fail "$label: $out does not refuse"
	done
	[ "$works" = " s v" ] && ok "$label: scru160 and uuid_v7 work"
}
# at_once LABEL: ROWS of every generator on the primary, and of those in `works` on the standby, each generator
# in a statement of its own started at the same instant on both (a slot of 0.5 s each); then none in common
at_once() {
	local label=$1 name c i=0 at
	rm -f "$work"/ids/{primary,standby}.*
	at=$(date -u -d '+1 second' '+%s.%N')
	for c in $all; do
		for name in primary standby; do
			[ "$name" = standby ] && [[ " $works " != *" $c "* ]] && continue
			keep "$name" postgres "($(ids_select "$rows" "$c"))" "$name" "SELECT pg_sleep_until(to_timestamp($at + $i * 0.5))" &
		done
		i=$((i + 1))
	done
	wait
	none_in_common primary standby "$label, $rows of each at once on the primary and the standby" "$works"
	[ "$(kept standby s)" -gt 0 ] && [ "$(kept standby v)" -gt 0 ] || fail "$label: the standby kept no scru160 or uuid_v7"
	for c in $all; do cat "$work/ids/primary.$c" >>"$work/ids/everything_primary.$c"; done
}
# identity CLOCK MACHINE | identity reset: ALTER SYSTEM on the standby, applied (pg_reload_conf), seen by a new session
identity() {
	local clock=$1 machine=${2:-} want
	if [ "$clock" = reset ]; then
		sql standby -c 'ALTER SYSTEM RESET idtypes.timeid_clock_id' -c 'ALTER SYSTEM RESET idtypes.tbsl_machine_id' || return 1
		want="7 7"
	else
		sql standby -c "ALTER SYSTEM SET idtypes.timeid_clock_id = $clock" -c "ALTER SYSTEM SET idtypes.tbsl_machine_id = $machine" ||
			return 1
		want="$clock $machine"
	fi
	sql standby -c 'SELECT pg_reload_conf()' >/dev/null
	for _ in $(seq 50); do
		[ "$(sql standby -c "LOAD 'idtypes'" -c "SELECT current_setting('idtypes.timeid_clock_id') || ' ' ||
			current_setting('idtypes.tbsl_machine_id')")" = "$want" ] && return 0
		sleep 0.1
	done
	return 1
}

# the primary's identity, as copied
label="a standby with its primary's identity (7, 7)"
probe "$label"
at_once "$label"
# an identity of its own: the rule does not depend on it
identity 8 8 || fail "ALTER SYSTEM on the standby did not apply"
label="the standby with ALTER SYSTEM SET idtypes.timeid_clock_id = 8, tbsl_machine_id = 8"
probe "$label"
identity -1 9 || fail "ALTER SYSTEM on the standby did not apply"
label="the standby with the random clock id (-1), tbsl_machine_id = 9"
probe "$label"
at_once "$label"

# promotion, the standby's configuration the primary's again
identity reset || fail "ALTER SYSTEM RESET on the standby did not apply"
wait_replay primary standby || fail "the standby did not replay"
failover primary standby && ok "the primary stopped (immediate), the standby promoted" || die "promotion"
rm -f "$work"/ids/standby.*
label="the promoted standby (its configuration: 7, 7)"
out=$(keep standby postgres "($(ids_select "$rows" "$all"))" promoted 2>&1)
[ -z "$out" ] && ok "$label: every generator works" || fail "$label: $out"
ids=$(sql standby -c 'SELECT timeid_clock_id(timeid_generate()), tbsl_machine_id(tbsl_generate())' 2>&1)
[ "$ids" = "7|7" ] && ok "$label: generates with its configured identity (timeid clock 7, tbsl machine 7)" ||
	fail "$label: timeid clock id | tbsl machine id: $ids"
out=$(keep standby d1 "($(ids_select "$rows" "$all"))" promoted 2>&1)
[ -z "$out" ] && ok "$label: every generator works in database d1 too" || fail "$label, d1: $out"
none_in_common everything_primary promoted "$label, against everything its primary issued"
exit $status
