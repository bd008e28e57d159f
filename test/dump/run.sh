#!/usr/bin/env bash
# Dump and restore across PostgreSQL versions, against running clusters (PGHOST etc. set):
#   run.sh dump DIR     — builds test/dump/make.sql's database, dumps it with pg_dump (custom format) into
#                         DIR/idtypes.dump and records test/dump/check.sql's answers in DIR/expected.txt;
#   run.sh restore DIR  — restores DIR/idtypes.dump into a new database with pg_restore and compares the
#                         answers (rows, index scans against the table, defaults that still generate).
# The dump also writes each table's rows with COPY, in text and binary format, and the restore reads them into
# copies of the tables and compares their rows: COPY's formats are the types' own (binary: big-endian
# bytes), so they carry from any server to any other (another version, or architecture: scripts/arch.sh).
# IDTYPES_DUMP_ACROSS_BYTE_ORDER=1 (scripts/arch.sh, between amd64 and s390x): dumped with
# --load-via-partition-root, and the rows of the hash-partitioned table compared as a whole, not per
# partition: tbsl's hash (PostgreSQL's hash_any of its bytes) depends on byte order, as uuid's and text's do,
# so the restoring server puts its rows into the partitions its own hash picks (docs/install.md).
# Uses the client tools on PATH (15's: they dump and restore to newer servers). Prints `ok` or `FAIL` lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
phase=${1:?usage: run.sh dump|restore DIR}
dir=${2:?usage: run.sh dump|restore DIR}
db=idtypes_dump_$$
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
server=$(psql_q -d postgres -c 'SHOW server_version')
psql_q -d postgres -c "CREATE DATABASE $db" || exit 1
copied="events spans"
options=() compared=(cat)
[[ ${IDTYPES_DUMP_ACROSS_BYTE_ORDER:-} == 1 ]] && options=(--load-via-partition-root) compared=(grep -v '^parts parts_')
# A table's rows, as one line: their count and the md5 of their text in a fixed order.
rows_of() { psql_q -d "$db" -c "SELECT count(*) || ' ' || md5(string_agg(r::text, ',' ORDER BY r::text COLLATE \"C\")) FROM $1 r"; }
case $phase in
dump)
	if psql_q -d "$db" -f "$here/make.sql" >/dev/null && pg_dump -Fc "${options[@]}" -d "$db" -f "$dir/idtypes.dump" &&
		psql_q -d "$db" -f "$here/check.sql" >"$dir/expected.txt"; then
		echo "ok   dumped a database with every type from PostgreSQL $server ($(wc -l <"$dir/expected.txt") checks recorded)"
		echo "$server" >"$dir/server"
		for t in $copied; do
			psql_q -d "$db" -c "\\copy $t TO '$dir/$t.text'" -c "\\copy $t TO '$dir/$t.binary' (FORMAT binary)" &&
				rows_of "$t" >"$dir/$t.rows" || echo "FAIL COPY of $t from PostgreSQL $server"
		done
	else
		echo "FAIL dump from PostgreSQL $server"
	fi
	;;
restore)
	if pg_restore -d "$db" --exit-on-error "$dir/idtypes.dump" 2>"$dir/restore.log" &&
		psql_q -d "$db" -f "$here/check.sql" >"$dir/actual.txt" 2>&1 &&
		diff -u <("${compared[@]}" "$dir/expected.txt") <("${compared[@]}" "$dir/actual.txt") >"$dir/diff.txt"; then
		echo "ok   a dump from PostgreSQL $(cat "$dir/server") restores into $server: equal rows, indexes and defaults ($(wc -l <"$dir/actual.txt") checks)"
	else
		echo "FAIL restore of a PostgreSQL $(cat "$dir/server") dump into $server:"
		cat "$dir/restore.log" "$dir/diff.txt" | head -30 | sed 's/^/     /'
	fi
	for t in $copied; do
		for format in text binary; do
			if psql_q -d "$db" -c "CREATE TABLE copy_$format (LIKE $t)" -c "\\copy copy_$format FROM '$dir/$t.$format' (FORMAT $format)" &&
				[[ $(rows_of "copy_$format") == "$(cat "$dir/$t.rows")" ]]; then
				echo "ok   $t copied out of PostgreSQL $(cat "$dir/server") in $format format reads the same into $server"
			else
				echo "FAIL $t copied out of PostgreSQL $(cat "$dir/server") in $format format into $server: $(rows_of "copy_$format") / $(cat "$dir/$t.rows")"
			fi
			psql_q -d "$db" -c "DROP TABLE IF EXISTS copy_$format"
		done
	done
	;;
esac
psql_q -d postgres -c "DROP DATABASE $db"
