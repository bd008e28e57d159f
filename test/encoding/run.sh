#!/usr/bin/env bash
# The pg_regress suites on databases of other server encodings than UTF8 (issue 60): SQL_ASCII (what initdb
# makes under the C locale, as in a minimal Debian root) and LATIN1, each created by pg_regress from
# template0 with the C locale (`--encoding=E --no-locale`: createdb -E E -T template0 --locale=C). A suite
# that needs a character outside ASCII guards for UTF8 as PostgreSQL's own suites do (sql/public_ids_utf8.sql,
# its skip output expected/public_ids_utf8_1.out). The light suites (lib.sh's light_suites; the bulk ones
# are data-heavy checks of the same code), against the cluster of PGHOST/PGPORT, with the extension installed
# for PG_CONFIG. Usage: test/encoding/run.sh [DIR] (the build tree; default: the repository).
# Prints one `ok` / `FAIL` line per encoding and per check that the database really had it.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
dir=${1:-$ROOT}
status=0
suites=$(light_suites "$dir")
planned=$(wc -w <<<"$suites")
for enc in SQL_ASCII LATIN1; do
	out=$(pg_make -C "$dir" -s installcheck REGRESS="$suites" \
		EXTRA_REGRESS_OPTS="--bindir=$(regress_psql_bindir) --encoding=$enc --no-locale" 2>&1)
	# 15 prints `test x ... ok` / `... FAILED`; 16 and later print TAP: `ok 3 - x` / `not ok 3 - x`
	passed=$(grep -cE '^(ok|test) .*\.\.\. ok|^ok [0-9]+ ' <<<"$out")
	failed=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' <<<"$out")
	if [ "$passed" = "$planned" ] && [ "$failed" = 0 ]; then
		echo "ok   pg_regress on a $enc database: $passed of $planned suites pass"
	else
		echo "FAIL pg_regress on a $enc database: $passed of $planned suites pass, $failed fail"
		grep -E '\.\.\. FAILED|^not ok ' <<<"$out" | sed 's/^/     /'
		{ [ -f "$dir/regression.diffs" ] && head -60 "$dir/regression.diffs" || tail -20 <<<"$out"; } | sed 's/^/     /'
		status=1
	fi
	# pg_regress leaves its database behind: it had the encoding asked for, and the C locale
	got=$(psql -X -At -d postgres -c "SELECT pg_encoding_to_char(encoding) || ' ' || datcollate FROM pg_database WHERE datname = 'contrib_regression'")
	if [ "$got" = "$enc C" ]; then
		echo "ok   the suites ran in a database of encoding $enc, collation C"
	else
		echo "FAIL the suites' database: \"$got\", not \"$enc C\""
		status=1
	fi
done
exit $status
