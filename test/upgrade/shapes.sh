#!/usr/bin/env bash
# No update gives an existing C symbol a new shape (issue 65): a session that loaded an earlier library keeps
# calling its code for that symbol after ALTER EXTENSION UPDATE, and would read arguments or fill result
# columns its code never knew. Against a running cluster with this tree installed (PGHOST etc. set), not
# preloaded: every version's catalog (CREATE EXTENSION idtypes VERSION '1.0' ... this tree's, the install
# chains PostgreSQL runs) lists its C functions (c_functions.sql); each symbol must have one shape in all of
# them (result columns by name and type), but for the released exceptions below, each served by this library
# (its descriptor check). Then this library refuses, naming the function, a record shape it does not fill
# (planted declarations of its symbols).
# Prints one `ok` / `FAIL` line per check.
source "$(dirname "$0")/cluster_checks.sh"

# The released versions' own shapes of a symbol that another version gives another shape ("SYMBOL VERSION"):
# released, so kept; each is read by this library's code for that symbol through its descriptor check.
#   idtypes_identity 1.4: eight columns (primary_timeid_clock_id, primary_tbsl_machine_id), six before and
#     after: this library refuses 1.4's declaration (42804 naming idtypes_identity()).
# idtypes_keys is no exception: 1.6's own script declared it with five columns (1.5's library, filling four,
# crashed under it), but this tree's 1.5 -> 1.6 step and 1.7 declare idtypes_keys() on the symbol
# idtypes_keys_1_7, so that no catalog made with this tree's files gives 1.5's symbol another shape (this
# library's idtypes_keys still serves a catalog made by 1.6's files: four columns or five).
released_exceptions="idtypes_identity 1.4"

current=$(psql_q -d postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'idtypes'")
versions=$(psql_q -d postgres -c "SELECT version FROM pg_available_extension_versions WHERE name = 'idtypes'
	ORDER BY string_to_array(version, '.')::int[]")
for v in $versions; do
	db=idtypes_shapes_${v//./_}_$$
	psql_q -d postgres -c "CREATE DATABASE $db" &&
		psql_q -d "$db" -c "CREATE EXTENSION idtypes VERSION '$v'" &&
		psql_q -d "$db" -F'|' -f "$here/c_functions.sql" | sed "s/^/$v|/" >>"$work/all.txt" ||
		fail "the C functions of version $v"
	psql_q -d postgres -c "DROP DATABASE $db"
done
# VERSION|SYMBOL|SIGNATURE|SHAPE, less the released exceptions
awk -F'|' -v ex="$released_exceptions" 'BEGIN { n = split(ex, e, "\n"); for (i = 1; i <= n; i++) { split(e[i], f, " "); skip[f[1] "|" f[2]] } }
	!(($2 "|" $1) in skip)' "$work/all.txt" >"$work/kept.txt"
symbols=$(cut -d'|' -f2 "$work/all.txt" | sort -u | wc -l)
# SYMBOL|SHAPE once each; a symbol on two lines has two shapes
cut -d'|' -f2,4 "$work/kept.txt" | sort -u >"$work/shapes.txt"
changed=$(cut -d'|' -f1 "$work/shapes.txt" | uniq -d | while read -r s; do
	grep "^[^|]*|$s|" "$work/kept.txt" | awk -F'|' '{printf " %s %s: %s;", $1, $3, $4}'
	echo
done)
per_version=$(cut -d'|' -f1 "$work/all.txt" | uniq -c | awk '{printf "%s %s: %s", sep, $2, $1; sep = ","}')
[ "$(wc -l <"$work/shapes.txt")" = "$symbols" ] && [ -z "$changed" ] && [ "$symbols" -gt 100 ] &&
	ok "no update gives a C symbol another shape: $symbols symbols, each with one shape; C functions per version:$per_version" ||
	fail "C symbols with more than one shape (a new shape is a new symbol):$changed"
# the exceptions are released versions' own, never this tree's (nor a version after the last released)
while read -r symbol version; do
	[ "$version" != "$current" ] && grep -q "^$version|$symbol|" "$work/all.txt" &&
		ok "released exception: $symbol in $version's catalog ($(grep "^$version|$symbol|" "$work/all.txt" | cut -d'|' -f4))" ||
		fail "the exception $symbol $version names this tree's version or no shape of that version"
done <<<"$released_exceptions"

# This library's descriptor check: declarations of its record symbols in shapes it does not fill are refused,
# naming the function (never read past, never a crash); 1.5's and 1.6's declarations of idtypes_keys served.
db=idtypes_shapes_planted_$$
psql_q -d postgres -c "CREATE DATABASE $db" && psql_q -d "$db" -c 'CREATE EXTENSION idtypes'
planted() { # NAME SYMBOL COLUMNS CALL: the error of a call of SYMBOL declared with COLUMNS
	psql_q -d "$db" -v VERBOSITY=verbose -c "CREATE FUNCTION pg_temp.$1($3) RETURNS SETOF record AS '\$libdir/idtypes', '$2' LANGUAGE C" \
		-c "SELECT * FROM pg_temp.$1()" 2>&1 >/dev/null | grep -m1 ERROR
}
for c in "idtypes_keys OUT a text, OUT b text" "idtypes_keys OUT name text, OUT version integer, OUT fingerprint text, OUT current boolean, OUT stage text" \
	"idtypes_keys_1_7 OUT name text, OUT version integer, OUT fingerprint text, OUT current boolean" \
	"idtypes_identity OUT a integer, OUT b text, OUT c integer, OUT d text, OUT e text, OUT f timestamptz, OUT g integer, OUT h integer" \
	"idtypes_identity OUT a integer, OUT b integer"; do
	symbol=${c%% *} columns=${c#* }
	err=$(planted f "$symbol" "$columns")
	[[ $err == *"42804"*"${symbol%_1_7}()"*"is declared to return"* ]] &&
		ok "symbol $symbol declared ($columns): refused naming the function: ${err:0:160}" ||
		fail "symbol $symbol declared ($columns): $err"
done
for c in "OUT name text, OUT version integer, OUT fingerprint text, OUT current boolean" \
	"OUT name text, OUT version integer, OUT fingerprint text, OUT stage text, OUT current boolean"; do
	err=$(planted f idtypes_keys "$c")
	# not preloaded, the keyring's refusal comes after the shape was accepted
	[[ $err != *42804* ]] && ok "symbol idtypes_keys declared ($c), as 1.5 or 1.6 did: served (${err:-rows})" ||
		fail "symbol idtypes_keys declared ($c): $err"
done
psql_q -d postgres -c "DROP DATABASE $db"
exit $status
