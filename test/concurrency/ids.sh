# shellcheck shell=bash
# shellcheck disable=SC2154 # work, sql: clusters.sh's (source it first), or the sourcing script's own sql
# Sets of IDs of every generator, kept as files, compared across servers and databases (failover_multidb.sh,
# standby_identity.sh, failover_manager.sh, privileges.sh, upgrade_major.sh, runbook_repmgr.sh,
# runbook_pgaf.sh). Source it after server.sh and clusters.sh (or with `work` and a function `sql SERVER [psql options...]` of the script's own).
# The columns of an ID table, each one generator: t timeid_generate(), x uid11_generate(), f
# uid11_generate_random(), s scru160_generate(), v uuid_v7_generate(), b tbsl_generate(), q tbsl_generate(NULL,
# true) (sequenced).
declare -A generator=([t]="timeid" [x]="uid11_generate" [f]="uid11_generate_random" [s]="scru160"
	[v]="uuid_v7_generate" [b]="tbsl (random)" [q]="tbsl (sequenced)")
id_columns="t x f s v b q"
mkdir -p "$work/ids"

# The SQL of each column's generator
declare -A generator_sql=([t]="timeid_generate()" [x]="uid11_generate()" [f]="uid11_generate_random()"
	[s]="scru160_generate()" [v]="uuid_v7_generate()" [b]="tbsl_generate()" [q]="tbsl_generate(NULL, true)")
# ids_select ROWS COLUMNS: a SELECT of ROWS IDs of each generator of COLUMNS (e.g. "t x f s v b q")
ids_select() {
	local c list=""
	for c in $2; do list+="${list:+, }${generator_sql[$c]} AS $c"; done
	echo "SELECT $list FROM generate_series(1, $1)"
}
# every_generator TABLE ROWS [tbsl]: SQL creating TABLE with ROWS IDs of every generator, in one statement;
# with `tbsl`, tbsl's two modes too (b, q), else t x f s v only
every_generator() {
	local cols="t x f s v"
	[ "${3:-}" = tbsl ] && cols+=" b q"
	echo "CREATE TABLE $1 AS $(ids_select "$2" "$cols")"
}
# tbsl_only TABLE ROWS b|q: SQL creating TABLE with ROWS TBSLs of one mode, random (column b) or sequenced (q)
tbsl_only() { echo "CREATE TABLE $1 AS $(ids_select "$2" "$3")"; }

# keep SERVER DB SOURCE SET [FIRST]: the IDs of SOURCE (a table, or a query in parentheses: generated there
# and then, read-only, as on a hot standby) in database DB of SERVER added to the set SET, a file per column;
# FIRST: a statement of one row run before in the same session; false, with the error on stderr, when the COPY fails
keep() {
	local server=$1 db=$2 source=$3 set=$4 first=${5:-SELECT 1} copy
	copy=$(mktemp "$work/ids/copy.XXXXXX")
	sql "$server" -d "$db" -c "$first" -c "COPY $source TO STDOUT (HEADER)" | tail -n +2 >"$copy"
	[ "${PIPESTATUS[0]}" = 0 ] || { rm -f "$copy"; return 1; }
	awk -F'\t' -v dir="$work/ids" -v set="$set" '
		NR == 1 { n = split($0, c, "\t"); next }
		{ for (i = 1; i <= n; i++) if ($i != "\\N") print $i >>(dir "/" set "." c[i]) }' "$copy"
	rm -f "$copy"
}
# kept SET COLUMN: how many IDs of COLUMN the set holds
kept() { if [ -f "$work/ids/$1.$2" ]; then wc -l <"$work/ids/$1.$2"; else echo 0; fi; }
# in_common SET SET COLUMN: how many IDs of COLUMN are in both sets (as text)
in_common() {
	[ -f "$work/ids/$1.$3" ] && [ -f "$work/ids/$2.$3" ] || { echo 0; return; }
	comm -12 <(sort -u "$work/ids/$1.$3") <(sort -u "$work/ids/$2.$3") | wc -l
}
# repeated SET COLUMN: how many IDs of COLUMN the set holds more than once
repeated() {
	[ -f "$work/ids/$1.$2" ] || { echo 0; return; }
	echo $(($(wc -l <"$work/ids/$1.$2") - $(sort -u "$work/ids/$1.$2" | wc -l)))
}
# none_in_common OLD NEW LABEL [COLUMNS]: one line per generator (COLUMNS, default all): ok when NEW holds IDs
# of it, none of them in OLD nor twice in NEW; a generator of which NEW holds none is reported by the caller
# (tbsl refusing), not here
none_in_common() {
	local old=$1 new=$2 label=$3 c common twice
	for c in ${4:-$id_columns}; do
		[ "$(kept "$new" "$c")" = 0 ] && continue
		common=$(in_common "$old" "$new" "$c")
		twice=$(repeated "$new" "$c")
		[ "$common" = 0 ] && [ "$twice" = 0 ] &&
			ok "$label: ${generator[$c]}: 0 of $(kept "$new" "$c") in common with $(kept "$old" "$c") earlier, none twice" ||
			fail "$label: ${generator[$c]}: $common of $(kept "$new" "$c") in common with $(kept "$old" "$c") earlier, $twice twice"
	done
}
# a tbsl error that says the clock is behind (refusing rather than repeating is what tbsl does then)
tbsl_clock_error='behind the last TBSL|gave up waiting for the clock'

# first_issued SERVER DB TABLE: the Unix time (s) of TABLE's first timeid (column t)
first_issued() { sql "$1" -d "$2" -c "SELECT extract(epoch FROM min(timeid_timestamp(t))) FROM $3"; }
# clock_back FIRST MS: SQL setting the session's clock (idtypes.test_clock_offset, superuser-only) back onto
# the Unix time FIRST (s), then MS ms further back; nothing when FIRST is empty
clock_back() {
	[ -n "$1" ] || { echo "SELECT 1"; return; }
	echo "SELECT set_config('idtypes.test_clock_offset',
		(-(ceil((extract(epoch FROM clock_timestamp()) - $1) * 1000) + $2))::bigint::text, false)"
}
# generate_back SERVER DB TABLE ROWS FIRST MS SET LABEL: in DB on SERVER, ROWS IDs of every generator, the
# clock set back onto FIRST and MS ms further (no FIRST: the clock as it is), kept in the set SET; TBSLs in
# TABLE_b and TABLE_q, each mode on its own, which may refuse while the clock is behind (ok: refusing is what
# tbsl does rather than issue a TBSL behind one it issued); any other error fails
generate_back() {
	local server=$1 db=$2 table=$3 rows=$4 first=$5 ms=$6 set=$7 label=$8 out m
	out=$(sql "$server" -d "$db" -c "$(clock_back "$first" "$ms")" -c "$(every_generator "$table" "$rows")" 2>&1 >/dev/null)
	if [ -n "$out" ]; then fail "$label: the generators fail: $out"; else keep "$server" "$db" "$table" "$set"; fi
	for m in b q; do
		out=$(sql "$server" -d "$db" -c "SET idtypes.clock_backward = 'error'" -c "$(clock_back "$first" "$ms")" \
			-c "$(tbsl_only "${table}_$m" "$rows" $m)" 2>&1 >/dev/null)
		if [ -z "$out" ]; then
			keep "$server" "$db" "${table}_$m" "$set"
		elif grep -qE "$tbsl_clock_error" <<<"$out"; then
			ok "$label: ${generator[$m]} refuses while its clock is behind ($(head -1 <<<"$out"))"
		else
			fail "$label: ${generator[$m]}: $out"
		fi
	done
}

# promoted_checks SERVER NOUN RUNBOOK AFTER: SERVER, promoted with the identity 4 and 4, generates `rows` IDs of
# every generator with its clock set back onto the first ID of the old primary's table old_ids (kept in the set
# old), then `rows` with its clock as it is (both kept in the set new): its timeids carry clock id 4, its TBSLs
# machine id 4 (tbsl may refuse while its clock is back), and no ID is in common with the old primary's or
# twice. Three checks, each counted by the caller's planned_check (runbook_repmgr.sh, runbook_pgaf.sh); NOUN
# names SERVER in the lines (the promoted node), RUNBOOK and AFTER say where.
promoted_checks() {
	local server=$1 noun=$2 runbook=$3 after=$4 first got n m out
	first=$(first_issued "$server" postgres old_ids)
	generate_back "$server" postgres new_ids "$rows" "$first" 0 new "$runbook, $noun, its clock back onto the old primary's first IDs"
	generate_back "$server" postgres now_ids "$rows" "" 0 new "$runbook, $noun, its clock as it is"
	got=$(sql "$server" -c "SELECT count(*) FILTER (WHERE timeid_clock_id(t) = 4) || ' ' || count(*) FROM (SELECT t FROM new_ids UNION ALL SELECT t FROM now_ids) s")
	planned_check
	[ "$got" = "$((2 * rows)) $((2 * rows))" ] && ok "$noun's $((2 * rows)) timeids (clock back, clock as it is) carry its own clock id 4" ||
		fail "$noun's timeids (clock id 4, all): '$got'"
	# the TBSLs, both modes: with the clock as it is, and with it back where tbsl did not refuse (then its table is absent)
	got=$(sql "$server" -c "SELECT count(*) FILTER (WHERE tbsl_machine_id(b) = 4) || ' ' || count(*) FROM (
		$(for m in b q; do sql "$server" -c "SELECT to_regclass('new_ids_$m') IS NOT NULL" | grep -q t && echo "SELECT $m AS b FROM new_ids_$m UNION ALL"; done)
		SELECT b FROM now_ids_b UNION ALL SELECT q FROM now_ids_q) s")
	planned_check
	read -r n m <<<"$got"
	[ "$n" = "$m" ] && [ "${m:-0}" -ge $((2 * rows)) ] && ok "$noun's $m TBSLs (both modes; with its clock back where tbsl did not refuse) carry its own machine id 4" ||
		fail "$noun's TBSLs (machine id 4, all): '$got'"
	# (none_in_common in a subshell: its lines counted, its FAIL lines carried into status here)
	planned_check
	out=$(none_in_common old new "$runbook, $after")
	echo "$out"
	grep -q '^FAIL' <<<"$out" && status=1
	[ "$(grep -c '^ok' <<<"$out")" = 7 ] || fail "the comparison with the old primary's IDs: $(grep -c '^ok' <<<"$out") of 7 generators reported ok"
	echo "     the old primary's IDs: $(kept old t) timeids, $(kept old b) + $(kept old q) TBSLs; $noun's: $(kept new t), $(kept new b) + $(kept new q)"
}
