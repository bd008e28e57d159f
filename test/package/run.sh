#!/usr/bin/env bash
# The Debian packages, end to end: scripts/package.sh builds them; the extension's must hold what `make
# install` installs; installed with dpkg, the system's PostgreSQL 15 (not a private copy) must create the
# extension from the package's files, generate every type and update from every earlier version
# (test/upgrade/run.sh), and the package idtypes' command-line tool must run and read those IDs as the
# extension does; then they are removed and any idtypes files that were in the system directories before
# are put back.
# Needs no running cluster (starts its own). Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
start=$SECONDS
export PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config PATH=/usr/lib/postgresql/$PG_MAJOR/bin:$PATH
pkg=postgresql-$PG_MAJOR-idtypes
cli_pkg=idtypes # the command-line tool (docs/cli.md)
work=$(mktemp -d /tmp/idtypes-package-test.XXXXXX)
chmod 755 "$work"
installed=

ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; }
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
is_installed() { dpkg-query -W -f='${Status}' "${1:-$pkg}" 2>/dev/null | grep -q 'install ok installed'; }

# The files of the packages given (default: both), as absolute paths.
payload() {
	local d
	[ $# -gt 0 ] || set -- "$deb" "$cli_deb"
	for d in "$@"; do
		dpkg-deb --fsys-tarfile "$d" | tar -t | sed 's|^\./|/|' | grep -v '/$'
	done
}
# Puts back the files the package replaced (kept under $work/before).
restore() {
	local f
	(cd "$work/before" && find . -type f -printf '/%P\n') | while read -r f; do
		mkdir -p "$(dirname "$f")" && cp -a "$work/before$f" "$f"
	done
}
# Removes the packages if this test installed them, and puts back what they replaced.
cleanup() {
	cluster_stop
	if [ -n "$installed" ]; then
		dpkg -r "$pkg" "$cli_pkg" >/dev/null 2>&1
		restore
	fi
	rm -rf "$work"
}
trap cleanup EXIT

for p in "$pkg" "$cli_pkg"; do
	if is_installed "$p"; then # not ours to replace or remove
		fail "$p is already installed: remove it (dpkg -r $p) to run this test"
		exit 1
	fi
done

# The package: its name, then exactly the files `make install` installs (the Makefile says which).
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
deb_name=${pkg}_${version}_$(dpkg --print-architecture).deb
if ! build_out=$("$ROOT/scripts/package.sh" "$work/dist" 2>&1); then
	fail "scripts/package.sh builds the package"
	printf '%s\n' "$build_out" | tail -20 | sed 's/^/     /'
	exit 1
fi
deb=$work/dist/$deb_name
cli_deb_name=${cli_pkg}_${version}_$(dpkg --print-architecture).deb cli_deb=$work/dist/$cli_deb_name
[ -f "$deb" ] && [ -f "$cli_deb" ] && ok "scripts/package.sh builds $deb_name and $cli_deb_name ($((SECONDS - start)) s)" ||
	{ fail "scripts/package.sh built $(cd "$work/dist" && echo *), not $deb_name and $cli_deb_name"; exit 1; }

read -r module extension data < <(make -s --no-print-directory -C "$ROOT" PG_CONFIG="$PG_CONFIG" \
	--eval 'package-files: ; @echo $(MODULE_big) $(EXTENSION) $(notdir $(DATA) $(DATA_built))' package-files)
pkglibdir=$("$PG_CONFIG" --pkglibdir) extdir=$("$PG_CONFIG" --sharedir)/extension
sql_edition_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$ROOT/idtypes_sql.control")
sql_edition=idtypes_sql--$sql_edition_version.sql # the SQL edition's file, beside the extension (debian/rules)
{
	echo "$pkglibdir/$module.so"
	echo "$extdir/$extension.control"
	for f in $data; do echo "$extdir/$f"; done
	echo "$extdir/idtypes_sql.control"
	echo "$extdir/$sql_edition"
	# its updates from 1.0, each version to the next: the frozen ones and the current one
	for f in "$ROOT"/src/sql_edition/versions/idtypes_sql--*--*.sql "$ROOT"/src/sql_edition/upgrades/*--"$sql_edition_version".sql; do
		f=${f##*/}
		echo "$extdir/idtypes_sql--${f#idtypes_sql--}"
	done
} | sort >"$work/expected"
payload "$deb" | grep -E "^($pkglibdir|$extdir)/" | sort >"$work/packaged"
if diff -u "$work/expected" "$work/packaged" >"$work/diff"; then
	ok "the package holds what make install installs: $(xargs -n1 basename <"$work/packaged" | xargs)"
else
	fail "the package's files differ from what make install installs (- make, + package)"
	sed 's/^/     /' "$work/diff"
fi
# The SQL edition's file is the one `make sql-edition` builds.
make -s --no-print-directory -C "$ROOT" sql-edition >/dev/null 2>&1
mkdir "$work/unpacked" && dpkg-deb -x "$deb" "$work/unpacked"
cmp -s "$ROOT/build/idtypes_sql.sql" "$work/unpacked$extdir/$sql_edition" &&
	ok "the package's $sql_edition is the SQL edition that make sql-edition builds" ||
	fail "the package's $sql_edition differs from build/idtypes_sql.sql (make sql-edition)"
depends=$(dpkg-deb -f "$deb" Depends)
grep -qE "(^|, )postgresql-$PG_MAJOR( |,|$)" <<<"$depends" && ok "it depends on postgresql-$PG_MAJOR: $depends" ||
	fail "it does not depend on postgresql-$PG_MAJOR: $depends"
# The tool's package: the program in /usr/bin and its documentation, nothing of PostgreSQL's.
cli_files=$(payload "$cli_deb" | grep -v "^/usr/share/doc/$cli_pkg/" | xargs)
[ "$cli_files" = /usr/bin/idtypes ] && [ -z "$(dpkg-deb -f "$cli_deb" Depends | grep -o postgresql)" ] &&
	ok "$cli_pkg holds /usr/bin/idtypes (and its docs), and needs no PostgreSQL" ||
	fail "$cli_pkg holds $cli_files, depends on $(dpkg-deb -f "$cli_deb" Depends)"

# Installed: what the system directories held before is kept aside, to be put back after removal.
mkdir "$work/before"
payload | while read -r f; do
	[ -e "$f" ] && mkdir -p "$work/before$(dirname "$f")" && cp -a "$f" "$work/before$f"
done
installed=yes
if dpkg -i "$deb" "$cli_deb" >"$work/dpkg.log" 2>&1 && is_installed && is_installed "$cli_pkg"; then
	ok "dpkg -i installs $pkg and $cli_pkg $(dpkg-query -W -f='${Version}' "$pkg")"
else
	fail "dpkg -i $deb_name $cli_deb_name"
	sed 's/^/     /' "$work/dpkg.log"
	exit 1
fi

# The system's PostgreSQL 15 with the package's files.
cluster_start || { fail "a cluster of the system's PostgreSQL $PG_MAJOR"; exit 1; }
control_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$ROOT/idtypes.control")
out=$(psql_q -c 'CREATE EXTENSION idtypes' -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'" \
	-c "SELECT pg_read_file('/proc/self/maps') LIKE '%$pkglibdir/$module.so%'" 2>&1)
[ "$out" = "$control_version"$'\n't ] &&
	ok "CREATE EXTENSION idtypes: version $control_version, the server runs $pkglibdir/$module.so" ||
	fail "CREATE EXTENSION idtypes with the package's files: $out"
out=$(psql_q -F ' ' 2>&1 <<'SQL'
-- every type: two IDs from its generator, the second greater, each read back from its text
SELECT 'timeid', a < b, a::text::timeid = a FROM (SELECT timeid_generate() a, timeid_generate() b) s
UNION ALL SELECT 'tbsl', a < b, a::text::tbsl = a FROM (SELECT tbsl_generate() a, tbsl_generate() b) s
UNION ALL SELECT 'uid11', a < b, a::text::uid11 = a FROM (SELECT uid11_generate() a, uid11_generate() b) s
UNION ALL SELECT 'scru160', a < b, a::text::scru160 = a FROM (SELECT scru160_generate() a, scru160_generate() b) s;
SQL
)
[ "$out" = $'timeid t t\ntbsl t t\nuid11 t t\nscru160 t t' ] &&
	ok "every type's generator works: timeid, tbsl, uid11, scru160 (increasing, text round trip)" ||
	fail "generators of every type: $out"

# The installed tool: on the PATH, its version the extension's, and it reads the server's IDs as the server
# does: IDs of every type piped into `idtypes time` and `idtypes inspect` give the times id::timestamptz gives.
out=$(command -v idtypes && idtypes --version 2>&1)
[ "$out" = $'/usr/bin/idtypes\nidtypes '"$control_version" ] && ok "idtypes --version (/usr/bin/idtypes): idtypes $control_version" ||
	fail "idtypes --version: $out"
out=$(idtypes inspect 3kxmtyqiinc23 2>&1 | sed -n 's/^time: //p')
[ "$out" = 2024-07-19T09:40:46.481000Z ] && ok "idtypes inspect 3kxmtyqiinc23: time $out" || fail "idtypes inspect: $out"
ids=$(psql_q -F ' ' 2>&1 <<'SQL'
-- each type's IDs and their times in UTC, at the type's precision
SELECT id::text, to_char(id::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
FROM (SELECT timeid_generate() id FROM generate_series(1, 100)) s
UNION ALL SELECT id::text, to_char(id::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
FROM (SELECT tbsl_generate() id FROM generate_series(1, 100)) s
UNION ALL SELECT id::text, to_char(id::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
FROM (SELECT uid11_generate() id FROM generate_series(1, 100)) s
UNION ALL SELECT id::text, to_char(id::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
FROM (SELECT scru160_generate() id FROM generate_series(1, 100)) s;
SQL
)
times=$(cut -d' ' -f1 <<<"$ids" | idtypes time 2>&1)
inspected=$(cut -d' ' -f1 <<<"$ids" | idtypes inspect 2>&1 | sed -n 's/^time: //p')
[ "$(wc -l <<<"$ids")" = 400 ] && [ "$times" = "$(cut -d' ' -f2 <<<"$ids")" ] && [ "$inspected" = "$times" ] &&
	ok "400 IDs of the server (100 of each type) | idtypes time, | idtypes inspect: the times id::timestamptz gives" ||
	fail "the server's IDs through idtypes time: $(paste -d' ' <(head -3 <<<"$ids") <(head -3 <<<"$times"))"

# The SQL edition from the package's files, as docs/sql-edition.md installs it: CREATE EXTENSION idtypes_sql,
# and psql -f of the same file into a schema, each in a database of its own.
out=$(psql_q -c 'CREATE DATABASE idtypes_sql_ext' -c 'CREATE DATABASE idtypes_sql_file' 2>&1 &&
	psql_q -d idtypes_sql_ext -c 'CREATE SCHEMA ids' -c 'CREATE EXTENSION idtypes_sql SCHEMA ids' \
		-c 'SELECT ids.idtypes_sql_set_identity(1, 1)' >/dev/null 2>&1 &&
	psql_q -d idtypes_sql_ext -c 'SELECT ids.timeid_generate() < ids.timeid_generate()' 2>&1 &&
	psql_q -d idtypes_sql_file -c 'CREATE SCHEMA ids' 2>&1 &&
	PGOPTIONS='-c search_path=ids' psql_q -d idtypes_sql_file -f "$extdir/$sql_edition" >/dev/null 2>&1 &&
	psql_q -d idtypes_sql_file -c 'SELECT ids.idtypes_sql_set_identity(2, 2)' >/dev/null 2>&1 &&
	psql_q -d idtypes_sql_file -c 'SELECT ids.tbsl_generate() < ids.tbsl_generate()' 2>&1)
[ "$out" = $'t\nt' ] &&
	ok "the SQL edition from the package: CREATE EXTENSION idtypes_sql, and psql -f $extdir/$sql_edition" ||
	fail "the SQL edition from the package's files: $out"
psql_q -c 'DROP DATABASE idtypes_sql_ext' -c 'DROP DATABASE idtypes_sql_file' >/dev/null 2>&1

# Every earlier version installed and updated (ALTER EXTENSION idtypes UPDATE) equals a fresh install.
"$ROOT/test/upgrade/run.sh" 2>&1 | sed -E 's/^(ok +|FAIL )/\1package: /'
cluster_stop

# Removed: nothing of the packages left, and what was there before back in place.
dpkg -r "$pkg" "$cli_pkg" >"$work/dpkg.log" 2>&1
left=$(payload | while read -r f; do [ -e "$f" ] && [ ! -e "$work/before$f" ] && echo "$f"; done)
if ! is_installed && ! is_installed "$cli_pkg" && [ -z "$left" ]; then
	ok "dpkg -r removes $pkg, $cli_pkg and their files"
else
	fail "dpkg -r $pkg $cli_pkg: $(cat "$work/dpkg.log") $left"
fi
restore
installed=
restored=$(cd "$work/before" && find . -type f | wc -l)
if (cd "$work/before" && find . -type f -exec cmp -s {} /{} \; -o -type f -printf 'differs: /%P\n') | grep -q .; then
	fail "the idtypes files installed before the test are not back"
else
	ok "the machine is as it was: $restored idtypes file(s) installed before the test put back ($((SECONDS - start)) s in all)"
fi
