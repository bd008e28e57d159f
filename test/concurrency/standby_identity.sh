#!/usr/bin/env bash
# A hot standby never hands out its primary's IDs (issue 42). In clusters of its own, with PostgreSQL's bin
# directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no): a primary whose postgresql.conf gives the
# fleet's identity (idtypes.timeid_clock_id = 7, idtypes.tbsl_machine_id = 7), and a hot standby made from it
# the usual way (pg_basebackup -R, or the backup API where the version has none: clusters.sh), so with the same
# configuration. On the standby, uid11_generate() (the xid profile: no identity field) always refuses
# (SQLSTATE 55000). The standby and its primary generate ROWS (20,000) of every generator at the same instant:
# - before the primary generated any timeid or TBSL (no identity replicated yet), timeid and tbsl refuse on
#   the standby too (55000, naming the setting);
# - with the primary's identity, timeid and tbsl refuse on the standby (55000, naming the setting); what it
#   generates has nothing in common with the primary's;
# - with an identity of its own (ALTER SYSTEM on the standby: 8 and 8), then with the random clock id (-1)
#   and tbsl machine 9: the others work, nothing in common with the primary's;
# - its own settings reset (the primary's identity again), the primary stopped and the standby promoted: it
#   generates every type with its configured identity, nothing in common with anything the primary issued.
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
# what each refusal names: the setting, or for uid11_generate the function
declare -A setting=([t]=idtypes.timeid_clock_id [b]=idtypes.tbsl_machine_id [q]=idtypes.tbsl_machine_id [x]="uid11_generate()")

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
# the identity in the configuration file, which a base backup copies (not on the command line)
printf '%s\n' "idtypes.timeid_clock_id = 7" "idtypes.tbsl_machine_id = 7" >>"$work/primary/postgresql.conf"
start primary || die "the primary does not start"
# the generators without an identity field first: the primary has not replicated its identity yet
sql primary -c 'CREATE EXTENSION idtypes' -c "CREATE TABLE warmup AS $(ids_select 10 "x f s v")" &&
	keep primary postgres warmup everything_primary || die "CREATE EXTENSION idtypes"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"
wait_replay primary standby || die "the standby does not replay"
[ "$(sql standby -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')" = "7 7 " ] &&
	ok "a standby made by $how carries its primary's identity (7, 7)" || fail "the standby's identity is not the primary's"

# probe LABEL REFUSE [WHY]: each generator once on the standby; sets `works` to the columns that generate; a
# generator refusing counts as ok only with SQLSTATE 55000 and a message naming its setting (`setting`), and
# when REFUSE (the columns expected to refuse) holds it; those with an identity field with a message saying WHY
# (default: the identity is the primary's)
probe() {
	local label=$1 refuse=$2 why=${3:-is the one its primary generates with} c out
	works=""
	for c in $all; do
		out=$(sql standby -v VERBOSITY=verbose -c "SELECT ${generator_sql[$c]}" 2>&1 >/dev/null)
		if [ -z "$out" ]; then
			works+=" $c"
			[[ " $refuse " == *" $c "* ]] && fail "$label: ${generator[$c]} generates (expected: refused, naming ${setting[$c]})"
		elif [[ " $refuse " == *" $c "* ]] && grep -q '55000' <<<"$out" && grep -qF "${setting[$c]}" <<<"$out" &&
			{ [ "$c" = x ] || grep -qF "$why" <<<"$out"; }; then
			ok "$label: ${generator[$c]} refuses with SQLSTATE 55000, naming ${setting[$c]}"
		else
			fail "$label: ${generator[$c]}: $out"
		fi
	done
	local expected=""
	for c in $all; do [[ " $refuse " == *" $c "* ]] || expected+=" $c"; done
	[ "$works" = "$expected" ] && ok "$label: the others work:$works"
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

probe "the standby of a primary that has not generated a timeid or TBSL yet" "t b q x" "cannot tell whether"
sql primary -c "CREATE TABLE warmup_identity AS $(ids_select 10 "t b q")" &&
	keep primary postgres warmup_identity everything_primary || die "the primary's first timeids and TBSLs"
wait_replay primary standby || die "the standby does not replay"

# the primary's identity, as copied
label="a standby with its primary's identity (7, 7)"
probe "$label" "t b q x"
at_once "$label"
# an identity of its own
identity 8 8 || fail "ALTER SYSTEM on the standby did not apply"
label="the standby with ALTER SYSTEM SET idtypes.timeid_clock_id = 8, tbsl_machine_id = 8"
probe "$label" x
at_once "$label"
clock=$(sql standby -c 'SELECT timeid_clock_id(timeid_generate())' 2>&1)
[ "$clock" = 8 ] && ok "$label: its timeids carry clock id 8" || fail "$label: its timeid's clock id: $clock"
identity -1 9 || fail "ALTER SYSTEM on the standby did not apply"
label="the standby with the random clock id (-1), tbsl_machine_id = 9"
probe "$label" x
at_once "$label"

# promotion, the standby's configuration the primary's again
identity reset || fail "ALTER SYSTEM RESET on the standby did not apply"
label="the standby with its primary's identity again"
probe "$label" "t b q x"
wait_replay primary standby || fail "the standby did not replay"
failover primary standby && ok "the primary stopped (immediate), the standby promoted" || die "promotion"
rm -f "$work"/ids/standby.*
label="the promoted standby (its configuration: 7, 7)"
out=$(keep standby postgres "($(ids_select "$rows" "$all"))" promoted 2>&1)
[ -z "$out" ] && ok "$label: every generator works" || fail "$label: $out"
ids=$(sql standby -c 'SELECT timeid_clock_id(timeid_generate()), tbsl_machine_id(tbsl_generate())' 2>&1)
[ "$ids" = "7|7" ] && ok "$label: generates with its configured identity (timeid clock 7, tbsl machine 7)" ||
	fail "$label: timeid clock id | tbsl machine id: $ids"
none_in_common everything_primary promoted "$label, against everything its primary issued"
exit $status
