#!/usr/bin/env bash
# Two builds of idtypes in one server never issue from two generator states (issue 55): an update of the
# package leaves older sessions on the library they loaded, beside new sessions on the new one. With
# PostgreSQL's PG_CONFIG (a private installation: the earlier library is installed into it), idtypes not
# preloaded (preloaded, a session cannot load a second build: PostgreSQL refuses to define the idtypes.*
# settings twice; and the sessions of a server that preloads a build load that one by its name): idtypes
# 1.5's library, built from the repository's history (revision IDTYPES_EARLIER, default e9a2f5f, the last of
# 1.5) and installed as idtypes_v1_5.so, is called through functions of a schema of its own (its generators,
# and its output functions: a session on it never loads this library, whose settings it defines too) by one
# session, while another calls this library's; both with
# the same identity (timeid_clock_id = 7, tbsl_machine_id = 7), each 40 statements of 2,000 timeids and 40 of
# 2,000 sequenced TBSLs, at once. Twice in a fresh cluster: the earlier library generating first, then this
# one first. Each time: no ID issued twice, and only one library issues; this one, when it is not the first,
# refuses every statement with 55000 and the documented error. Prints `ok` / `FAIL` lines.
set -uo pipefail
pg_config=${1:?usage: two_libraries.sh PG_CONFIG}
earlier=${IDTYPES_EARLIER:-e9a2f5f}
bin=$("$pg_config" --bindir)
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for no "$fleet_identity")
mode="both loaded on demand"
rows=2000 statements=40

# The earlier library, built once per PostgreSQL major (test/upgrade/earlier.sh), installed once per installation
if [ ! -f "$("$pg_config" --pkglibdir)/idtypes_v1_5.so" ]; then
	(
		source "$(dirname "$0")/../../scripts/lib.sh"
		source "$ROOT/test/upgrade/earlier.sh"
		PG_CONFIG=$pg_config
		tree=$(earlier_tree "$earlier" MODULE_big=idtypes_v1_5) &&
			pg_make -C "$tree" -s MODULE_big=idtypes_v1_5 install-lib >"$work/earlier.log" 2>&1
	) || die "idtypes $earlier could not be built as idtypes_v1_5: $(tail -5 "$work/earlier.log" 2>/dev/null)"
fi

# The earlier library's generators and output functions, in the schema earlier
earlier_sql="CREATE SCHEMA earlier;
CREATE FUNCTION earlier.timeid_generate() RETURNS timeid AS '\$libdir/idtypes_v1_5', 'timeid_generate' LANGUAGE C VOLATILE;
CREATE FUNCTION earlier.timeid_out(timeid) RETURNS cstring AS '\$libdir/idtypes_v1_5', 'timeid_out' LANGUAGE C STRICT;
CREATE FUNCTION earlier.tbsl_generate(integer, boolean) RETURNS tbsl AS '\$libdir/idtypes_v1_5', 'tbsl_generate' LANGUAGE C VOLATILE;
CREATE FUNCTION earlier.tbsl_out(tbsl) RETURNS cstring AS '\$libdir/idtypes_v1_5', 'tbsl_out' LANGUAGE C STRICT;"
# statements LIBRARY: the SQL of the 40 + 40 statements of LIBRARY (earlier|this), one COPY each
statements() {
	local t=timeid_generate\(\)::text b="tbsl_generate(NULL, true)::text"
	[ "$1" = earlier ] && t="earlier.timeid_out(earlier.timeid_generate())::text" b="earlier.tbsl_out(earlier.tbsl_generate(NULL, true))::text"
	for _ in $(seq 1 "$statements"); do
		echo "COPY (SELECT 't ' || $t FROM generate_series(1, $rows)) TO STDOUT;"
		echo "COPY (SELECT 'b ' || $b FROM generate_series(1, $rows)) TO STDOUT;"
	done
}
# run NAME LIBRARY FILE: LIBRARY's statements in one session, their IDs in FILE, its errors in FILE.err
run() { statements "$2" | sql "$1" -v ON_ERROR_STOP=0 -v VERBOSITY=verbose >"$3" 2>"$3.err"; }
refusal='55000: sessions on an earlier idtypes library have generated in this server since it started'

# case NAME FIRST: a fresh cluster; the library FIRST (earlier|this) issues one statement, then both at once
case_of() {
	local name=$1 first=$2 label issued_earlier issued_this twice refused_this out
	label="$mode, $([ "$first" = earlier ] && echo "the earlier library (idtypes $earlier)" || echo "this library") first"
	as_postgres "$bin/initdb" -D "$work/$name" -A trust -U postgres --no-sync >/dev/null || die "initdb"
	start "$name" || die "the cluster does not start"
	# (a session of its own, not checking the bodies: loading either library beside the other fails)
	# (an ID first: the mark's origin made, as on a server being updated)
	sql "$name" -c 'CREATE EXTENSION idtypes' -c 'SELECT timeid_generate()' >/dev/null &&
		sql "$name" -c 'SET check_function_bodies = off' -c "$earlier_sql" >/dev/null || die "$label: the earlier library's functions"
	restart "$name" || die "$label: the restart" # a fresh shared memory (CREATE EXTENSION attached to the state)
	if [ "$first" = earlier ]; then
		out=$(sql "$name" -c "SELECT earlier.timeid_out(earlier.timeid_generate())" 2>&1)
	else
		out=$(sql "$name" -c "SELECT timeid_generate()" 2>&1)
	fi
	echo "     $label: the first ID: $out"
	run "$name" earlier "$work/$name.earlier" &
	run "$name" this "$work/$name.this" &
	wait
	issued_earlier=$(wc -l <"$work/$name.earlier")
	issued_this=$(wc -l <"$work/$name.this")
	twice=$(cat "$work/$name.earlier" "$work/$name.this" | sort | uniq -d | wc -l)
	refused_this=$(grep -c "$refusal" "$work/$name.this.err")
	echo "     $label: issued by the earlier library $issued_earlier, by this one $issued_this; this one's errors: $(grep -m1 ERROR "$work/$name.this.err")"
	[ "$twice" = 0 ] && [ $((issued_earlier + issued_this)) -gt 0 ] &&
		ok "$label: $((issued_earlier + issued_this)) IDs issued at once by both libraries' sessions, none twice" ||
		fail "$label: $twice of $((issued_earlier + issued_this)) IDs issued twice"
	[ "$issued_earlier" = 0 ] || [ "$issued_this" = 0 ] &&
		ok "$label: one library issues ($((issued_earlier ? 1 : 0)) earlier, $((issued_this ? 1 : 0)) this), never two states" ||
		fail "$label: both libraries issued ($issued_earlier and $issued_this IDs): two generator states"
	if [ "$first" = earlier ]; then
		[ "$refused_this" = $((2 * statements)) ] && [ "$issued_earlier" = $((2 * statements * rows)) ] &&
			ok "$label: this library refuses all $refused_this statements with the documented 55000; the earlier issues all $issued_earlier" ||
			fail "$label: this library refused $refused_this of $((2 * statements)) statements as documented; the earlier issued $issued_earlier"
	else
		[ "$issued_this" = $((2 * statements * rows)) ] && [ "$(grep -c ERROR "$work/$name.earlier.err")" = $((2 * statements)) ] &&
			ok "$label: this library issues all $issued_this; the earlier refuses all its statements ($(grep -m1 -o 'ERROR.*' "$work/$name.earlier.err" | cut -c1-120))" ||
			fail "$label: this library issued $issued_this of $((2 * statements * rows)); the earlier's errors: $(grep -c ERROR "$work/$name.earlier.err")"
	fi
	stop "$name"
}

case_of first-earlier earlier
case_of first-this this
exit $status
