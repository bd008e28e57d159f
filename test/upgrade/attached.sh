#!/usr/bin/env bash
# What users attach to the extension's functions survives ALTER EXTENSION UPDATE (issue 65), from every earlier
# version to this tree. Against a running cluster with this tree installed (PGHOST etc. set). For each earlier
# version: first, in a scratch database, which functions the updates drop or make again (a signature gone, or
# its oid changed), and which they replace (a signature gone, its name under a new signature); then, in
# another, a grant of EXECUTE to a role, EXECUTE revoked from PUBLIC and a comment on every extension function,
# a view and a SQL function (BEGIN ATOMIC) on every one a view can call (attached.sql), the updated ones
# excepted from views, before ALTER EXTENSION UPDATE. After it: every view and function still there, every
# grant held (and out of pg_init_privs, so that pg_dump dumps it), PUBLIC still without EXECUTE, every comment
# the user's or the new version's own, a replaced function's on its replacement. Each function the updates
# make again or replace, with a view on it, is refused before any change (2BP01, the database stays at its
# version). Prints one `ok` / `FAIL` line per check.
source "$(dirname "$0")/cluster_checks.sh"
role=idtypes_attached_$$
trap 'psql_q -d postgres -c "DROP ROLE IF EXISTS $role" 2>/dev/null; rm -rf "$work"' EXIT
# (signature|oid|comment of the extension's functions)
functions="SELECT p.oid::regprocedure, p.oid, coalesce(obj_description(p.oid, 'pg_proc'), '') FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes' ORDER BY 1"

current=$(psql_q -d postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'idtypes'")
psql_q -d postgres -c "CREATE ROLE $role"
fresh=idtypes_attached_fresh_$$
psql_q -d postgres -c "CREATE DATABASE $fresh" && psql_q -d "$fresh" -c 'CREATE EXTENSION idtypes' &&
	psql_q -d "$fresh" -F'|' -c "$functions" | cut -d'|' -f1,3 >"$work/fresh_comments.txt"
psql_q -d postgres -c "DROP DATABASE $fresh"

for old in $(psql_q -d postgres -c "SELECT version FROM pg_available_extension_versions
	WHERE name = 'idtypes' AND version <> '$current' ORDER BY version"); do
	scratch=idtypes_attached_scratch_$$ db=idtypes_attached_${old//./_}_$$
	# the functions the updates drop or make again
	psql_q -d postgres -c "CREATE DATABASE $scratch" && psql_q -d "$scratch" -c "CREATE EXTENSION idtypes VERSION '$old'" &&
		psql_q -d "$scratch" -F'|' -c "$functions" | cut -d'|' -f1,2 | sort >"$work/before.txt" &&
		psql_q -d "$scratch" -c 'ALTER EXTENSION idtypes UPDATE' &&
		psql_q -d "$scratch" -F'|' -c "$functions" | cut -d'|' -f1,2 | sort >"$work/after.txt" || fail "$old: the scratch database"
	psql_q -d postgres -c "DROP DATABASE $scratch"
	comm -23 "$work/before.txt" "$work/after.txt" | cut -d'|' -f1 >"$work/updated.txt"
	updated=$(paste -sd";" "$work/updated.txt")
	# the functions the updates replace (old|new): a signature gone, its name in the new version under a
	# signature the old one did not have (1.4 -> 1.5's idtypes_maintain_partitions took a fifth argument);
	# what was attached to the old is checked on the new
	cut -d'|' -f1 "$work/before.txt" | sort >"$work/before_f.txt"
	cut -d'|' -f1 "$work/after.txt" | sort >"$work/after_f.txt"
	comm -13 "$work/before_f.txt" "$work/after_f.txt" >"$work/new_f.txt"
	comm -23 "$work/before_f.txt" "$work/after_f.txt" |
		awk -F'(' 'FNR == NR { made[$1] = made[$1] "\n" $0; next }
			$1 in made { n = split(substr(made[$1], 2), m, "\n"); for (i = 1; i <= n; i++) print $0 "|" m[i] }' "$work/new_f.txt" - >"$work/replaced.txt"
	replaced=$(paste -sd";" "$work/replaced.txt")

	psql_q -d postgres -c "CREATE DATABASE $db" && psql_q -d "$db" -c "CREATE EXTENSION idtypes VERSION '$old'" &&
		psql_q -d "$db" -v role="$role" -v except="$updated" -f "$here/attached.sql" >"$work/attach.sql" &&
		psql_q -d "$db" -1 -f "$work/attach.sql" || fail "$old: attaching grants, comments, views and functions"
	planted=$(psql_q -d "$db" -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'attached\_v\_%' AND relkind = 'v'")
	planted_f=$(psql_q -d "$db" -c "SELECT count(*) FROM pg_proc WHERE proname LIKE 'attached\_f\_%'")
	granted=$(grep -c '^GRANT' "$work/attach.sql")
	# each function the updates make again, with a view on it: refused before any change
	while read -r f; do
		[ -n "$f" ] || continue
		# dropped for good: nothing to keep
		awk -F'|' -v f="$f" '$1 == f { found = 1 } END { exit !found }' "$work/after.txt" "$work/replaced.txt" || continue
		call=$(sed -E 's/\((.+)\)$/(NULL::\1)/; s/,/, NULL::/g' <<<"$f") # f(NULL::type, ...)
		out=$(psql_q -d "$db" -v VERBOSITY=verbose -c "CREATE VIEW attached_on_updated AS SELECT * FROM $call" \
			-c 'ALTER EXTENSION idtypes UPDATE' 2>&1)
		version=$(psql_q -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")
		[[ $out == *2BP01* ]] && [ "$version" = "$old" ] &&
			ok "$old: a view on $f, which the updates make again or replace: the update refused, the database still at $old ($(grep -m1 -o 'ERROR.*' <<<"$out" | cut -c1-150))" ||
			fail "$old: a view on $f, which the updates make again or replace: the update at version $version: $out"
		psql_q -d "$db" -c 'DROP VIEW IF EXISTS attached_on_updated'
	done <"$work/updated.txt"

	if ! psql_q -d "$db" -c 'ALTER EXTENSION idtypes UPDATE'; then
		fail "$old: ALTER EXTENSION idtypes UPDATE with $planted views and $planted_f functions on its functions"
		psql_q -d postgres -c "DROP DATABASE $db"
		continue
	fi
	views=$(psql_q -d "$db" -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'attached\_v\_%' AND relkind = 'v'")
	funcs=$(psql_q -d "$db" -c "SELECT count(*) FROM pg_proc WHERE proname LIKE 'attached\_f\_%'")
	[ "$views" = "$planted" ] && [ "$funcs" = "$planted_f" ] && [ "$planted" -gt 50 ] &&
		ok "$old -> $current: all $planted views and $planted_f SQL functions on the extension's functions kept" ||
		fail "$old -> $current: $views of $planted views, $funcs of $planted_f SQL functions kept"
	# grants: every function granted that the new version still has by its signature, or has replaced, holds
	# the role's own
	held="SELECT coalesce(r.new, g) AS f FROM unnest(string_to_array(\$\$$(sed -n 's/^GRANT EXECUTE ON FUNCTION \(.*\) TO .*/\1/p' "$work/attach.sql" | paste -sd'|')\$\$, '|')) g
		LEFT JOIN (SELECT split_part(x, '|', 1) AS old, split_part(x, '|', 2) AS new FROM unnest(string_to_array(\$\$$replaced\$\$, ';')) x) r ON r.old = g
		WHERE to_regprocedure(coalesce(r.new, g)) IS NOT NULL"
	own="EXISTS (SELECT FROM pg_proc p, aclexplode(p.proacl) a WHERE p.oid = to_regprocedure(f)
		AND a.grantee = '$role'::regrole AND a.privilege_type = 'EXECUTE')"
	lost=$(psql_q -d "$db" -c "SELECT string_agg(f, ', ' ORDER BY f) FROM ($held) h WHERE NOT $own")
	kept=$(psql_q -d "$db" -c "SELECT count(*) FROM ($held) h WHERE $own")
	survived=$(psql_q -d "$db" -c "SELECT count(*) FROM ($held) h")
	[ -z "$lost" ] && [ "$kept" -gt 100 ] && ok "$old -> $current: $kept grants of EXECUTE kept of $survived on functions $current still has" ||
		fail "$old -> $current: $kept of $survived grants of EXECUTE kept; lost on $lost"
	# EXECUTE revoked from PUBLIC stays revoked (idtypes_identity(), made again by 1.3 -> 1.4 and 1.4 -> 1.5,
	# came back callable by every role)
	public=$(psql_q -d "$db" -c "SELECT string_agg(f, ', ' ORDER BY f) FROM ($held) h WHERE has_function_privilege('public', f, 'EXECUTE')")
	[ -z "$public" ] && ok "$old -> $current: EXECUTE revoked from PUBLIC on $survived functions: still revoked on each" ||
		fail "$old -> $current: EXECUTE revoked from PUBLIC, callable by PUBLIC again after the update: $public"
	initial=$(psql_q -d "$db" -c "SELECT string_agg(objoid::regprocedure::text, ', ') FROM pg_init_privs
		WHERE classoid = 'pg_proc'::regclass AND initprivs::text LIKE '%$role=%'")
	[ -z "$initial" ] && ok "$old -> $current: no grant of the user's taken into the extension's initial privileges (pg_dump dumps them)" ||
		fail "$old -> $current: grants of the user's in pg_init_privs (pg_dump would omit them): $initial"
	psql_q -d "$db" -F'|' -c "$functions" | cut -d'|' -f1,3 >"$work/comments.txt"
	other=$(awk -F'|' -v was="$work/replaced.txt" -v fresh="$work/fresh_comments.txt" '
		FILENAME == was { old[$2] = $1; next } FILENAME == fresh { shipped[$1] = $2; next }
		$2 != "a user'"'"'s note on " $1 && $2 != "a user'"'"'s note on " old[$1] && $2 != shipped[$1] { print $1 }' \
		"$work/replaced.txt" "$work/fresh_comments.txt" "$work/comments.txt" | paste -sd' ')
	users=$(grep -c "|a user's note on " "$work/comments.txt")
	[ -z "$other" ] && ok "$old -> $current: every comment the user's ($users) or the one $current documents anew" ||
		fail "$old -> $current: comments neither the user's nor $current's: $other"
	# the replaced functions: the role's grant, PUBLIC's revoke and the user's comment on the new one (the
	# checks above followed them); from 1.1 to 1.4, the 4-argument idtypes_maintain_partitions is one
	planned=$(grep -c '^idtypes_maintain_partitions(regclass,interval,integer,interval)|' "$work/before.txt")
	followed=0
	while IFS='|' read -r was now; do
		[ "$(psql_q -d "$db" -c "SELECT has_function_privilege('$role', '$now', 'EXECUTE') AND NOT has_function_privilege('public', '$now', 'EXECUTE')
			AND obj_description('$now'::regprocedure, 'pg_proc') = \$\$a user's note on $was\$\$")" = t ] && followed=$((followed + 1))
	done <"$work/replaced.txt"
	n=$(grep -c . "$work/replaced.txt")
	[ "$followed" = "$n" ] && [ "$n" -ge "$planned" ] &&
		ok "$old -> $current: $n functions replaced under another signature${replaced:+ ($replaced)}: the grant, PUBLIC's revoke and the comment carried to the new one" ||
		fail "$old -> $current: $followed of $n functions replaced under another signature (of at least $planned) carry the grant, PUBLIC's revoke and the comment: $replaced"
	psql_q -d postgres -c "DROP DATABASE $db"
done
exit $status
