#!/usr/bin/env bash
# Versioned upgrades, against a running cluster with the extension installed (PGHOST etc. set): for every
# earlier version with an upgrade path, a database where idtypes was installed at that version and updated
# with ALTER EXTENSION idtypes UPDATE must have exactly the catalog of a fresh install of the current version
# (test/upgrade/catalog.sql lists what is compared). Data stored under the old version must read the same after.
# Prints one line per check, `ok` or `FAIL`.
source "$(dirname "$0")/cluster_checks.sh"

current=$(psql_q -d postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'idtypes'")
fresh=idtypes_upgrade_fresh_$$
psql_q -d postgres -c "CREATE DATABASE $fresh" && psql_q -d "$fresh" -c 'CREATE EXTENSION idtypes' &&
	psql_q -d "$fresh" -f "$here/catalog.sql" >"$work/fresh.txt" || { fail "fresh install of $current"; exit 1; }

for old in $(psql_q -d postgres -c "SELECT version FROM pg_available_extension_versions
	WHERE name = 'idtypes' AND version <> '$current' ORDER BY version"); do
	db=idtypes_upgrade_from_${old//./_}_$$
	psql_q -d postgres -c "CREATE DATABASE $db"
	if ! psql_q -d "$db" -c "CREATE EXTENSION idtypes VERSION '$old'" \
		-c "CREATE TABLE kept AS SELECT make_timeid(1721382046481000, 1) AS t, '25BF6196C8D6107ABCDE'::tbsl AS b,
			'113q8KFkAEs'::uid11 AS u, '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160 AS s" \
		-c "SELECT t, b, u, s FROM kept" >"$work/before.txt"; then
		fail "install version $old"
		continue
	fi
	if ! psql_q -d "$db" -c "ALTER EXTENSION idtypes UPDATE" >/dev/null; then
		fail "ALTER EXTENSION idtypes UPDATE from $old"
		continue
	fi
	version=$(psql_q -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")
	[ "$version" = "$current" ] && ok "$old updates to $current" || fail "$old updated to $version, not $current"
	psql_q -d "$db" -f "$here/catalog.sql" >"$work/updated.txt"
	if diff -u "$work/fresh.txt" "$work/updated.txt" >"$work/diff.txt"; then
		ok "catalog updated from $old equals a fresh $current install ($(wc -l <"$work/fresh.txt") lines compared)"
	else
		fail "catalog updated from $old differs from a fresh $current install:"
		sed 's/^/     /' "$work/diff.txt" | head -40
	fi
	psql_q -d "$db" -c "SELECT t, b, u, s FROM kept" -c "COPY kept TO STDOUT (FORMAT binary)" >"$work/after.txt"
	head -1 "$work/after.txt" | cmp -s - "$work/before.txt" && ok "values stored under $old read the same after the update" ||
		fail "values stored under $old read differently after the update"
	psql_q -d postgres -c "DROP DATABASE $db"
done
psql_q -d postgres -c "DROP DATABASE $fresh"
exit $status
