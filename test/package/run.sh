#!/usr/bin/env bash
# The Debian package, end to end: scripts/package.sh builds it; it must hold what `make install` installs;
# installed with dpkg, the system's PostgreSQL 15 (not a private copy) must create the extension from the
# package's files, generate every type and update from every earlier version (test/upgrade/run.sh); then
# it is removed and any idtypes files that were in the system directories before are put back.
# Needs no running cluster (starts its own). Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
start=$SECONDS
export PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config PATH=/usr/lib/postgresql/$PG_MAJOR/bin:$PATH
pkg=postgresql-$PG_MAJOR-idtypes
work=$(mktemp -d /tmp/idtypes-package-test.XXXXXX)
chmod 755 "$work"
installed=

ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; }
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
is_installed() { dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; }

# The files of the package, as absolute paths.
payload() { dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|' | grep -v '/$'; }
# Puts back the files the package replaced (kept under $work/before).
restore() {
	local f
	(cd "$work/before" && find . -type f -printf '/%P\n') | while read -r f; do
		mkdir -p "$(dirname "$f")" && cp -a "$work/before$f" "$f"
	done
}
# Removes the package if this test installed it, and puts back what it replaced.
cleanup() {
	cluster_stop
	if [ -n "$installed" ]; then
		dpkg -r "$pkg" >/dev/null 2>&1
		restore
	fi
	rm -rf "$work"
}
trap cleanup EXIT

if is_installed; then # not ours to replace or remove
	fail "$pkg is already installed: remove it (dpkg -r $pkg) to run this test"
	exit 1
fi

# The package: its name, then exactly the files `make install` installs (the Makefile says which).
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
deb_name=${pkg}_${version}_$(dpkg --print-architecture).deb
if ! build_out=$("$ROOT/scripts/package.sh" "$work/dist" 2>&1); then
	fail "scripts/package.sh builds the package"
	printf '%s\n' "$build_out" | tail -20 | sed 's/^/     /'
	exit 1
fi
deb=$work/dist/$deb_name
[ -f "$deb" ] && ok "scripts/package.sh builds $deb_name ($((SECONDS - start)) s)" ||
	{ fail "scripts/package.sh built $(ls "$work/dist"), not $deb_name"; exit 1; }

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
} | sort >"$work/expected"
payload | grep -E "^($pkglibdir|$extdir)/" | sort >"$work/packaged"
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

# Installed: what the system directories held before is kept aside, to be put back after removal.
mkdir "$work/before"
payload | while read -r f; do
	[ -e "$f" ] && mkdir -p "$work/before$(dirname "$f")" && cp -a "$f" "$work/before$f"
done
installed=yes
if dpkg -i "$deb" >"$work/dpkg.log" 2>&1 && is_installed; then
	ok "dpkg -i installs $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
else
	fail "dpkg -i $deb_name"
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

# Removed: nothing of the package left, and what was there before back in place.
dpkg -r "$pkg" >"$work/dpkg.log" 2>&1
left=$(payload | while read -r f; do [ -e "$f" ] && [ ! -e "$work/before$f" ] && echo "$f"; done)
if ! is_installed && [ -z "$left" ]; then
	ok "dpkg -r removes $pkg and its files"
else
	fail "dpkg -r $pkg: $(cat "$work/dpkg.log") $left"
fi
restore
installed=
restored=$(cd "$work/before" && find . -type f | wc -l)
if (cd "$work/before" && find . -type f -exec cmp -s {} /{} \; -o -type f -printf 'differs: /%P\n') | grep -q .; then
	fail "the idtypes files installed before the test are not back"
else
	ok "the machine is as it was: $restored idtypes file(s) installed before the test put back ($((SECONDS - start)) s in all)"
fi
