#!/usr/bin/env bash
# Round trips that must lose nothing, against a running cluster started with wal_level=logical (PGHOST etc.
# set): a database with every type (test/dump/make.sql: DEFAULT generators, btree/hash/BRIN indexes, range
# columns, a hash-partitioned table) through pg_dump in plain, custom and directory formats and back; COPY in
# text and binary formats out and back in; logical replication to another database, with and without
# `binary = true`. Each copy must answer test/dump/check.sql exactly as the original (rows, index answers,
# partitions, generating defaults). Uses the client tools on PATH, whose pg_dump dumps only servers of its own
# version or older: scripts/test.sh runs it on 15. Prints `ok` / `FAIL` lines.
set -uo pipefail
here=$(cd "$(dirname "$0")/../dump" && pwd)
status=0
work=$(mktemp -d)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
src=idtypes_rt_src_$$
# what check.sql answers about rows and indexes (read_only: without inserting through the defaults)
answers() { psql_q -d "$1" -v read_only=1 -f "$here/check.sql" 2>&1; }
same_as_source() {
	local what=$1 db=$2
	if diff <(answers "$src") <(answers "$db") >"$work/diff.txt"; then
		ok "$what: equal rows, index answers and partitions"
	else
		fail "$what differs:"
		head -10 "$work/diff.txt" | sed 's/^/     /'
	fi
	psql_q -d "$db" -c "INSERT INTO events (n) VALUES (-2)" -c "INSERT INTO parts (n) VALUES (-2)" >/dev/null 2>&1 &&
		ok "$what: the DEFAULT generators still generate" || fail "$what: inserting through the defaults"
}

psql_q -d postgres -c "CREATE DATABASE $src" && psql_q -d "$src" -f "$here/make.sql" >/dev/null || exit 1
psql_q -d "$src" -c 'CHECKPOINT' >/dev/null

for format in plain custom directory; do
	db=idtypes_rt_${format}_$$
	psql_q -d postgres -c "CREATE DATABASE $db"
	case $format in
	plain) pg_dump -Fp -d "$src" -f "$work/dump.sql" && psql_q -d "$db" -f "$work/dump.sql" >/dev/null ;;
	custom) pg_dump -Fc -d "$src" -f "$work/dump.custom" && pg_restore --exit-on-error -d "$db" "$work/dump.custom" ;;
	directory) pg_dump -Fd -d "$src" -f "$work/dump.dir" && pg_restore --exit-on-error -d "$db" "$work/dump.dir" ;;
	esac || fail "pg_dump / restore in $format format"
	same_as_source "pg_dump $format format" "$db"
	psql_q -d postgres -c "DROP DATABASE $db"
done

# COPY out and back into an empty copy of the schema, in both formats
for format in text binary; do
	db=idtypes_rt_copy_${format}_$$
	psql_q -d postgres -c "CREATE DATABASE $db"
	pg_dump -s -d "$src" | psql_q -d "$db" >/dev/null
	for t in events spans parts; do
		psql_q -d "$src" -c "\\copy (SELECT * FROM $t) TO '$work/$t.$format' (FORMAT $format)" &&
			psql_q -d "$db" -c "\\copy $t FROM '$work/$t.$format' (FORMAT $format)" || fail "COPY $t in $format"
	done
	same_as_source "COPY $format out and back in" "$db"
	psql_q -d postgres -c "DROP DATABASE $db"
done

# logical replication into another database of the same cluster (its slot made beforehand, as PostgreSQL
# requires there), with and without binary transfer
psql_q -d "$src" -c "CREATE PUBLICATION rt_pub FOR TABLE events, spans, parts WITH (publish_via_partition_root = true)"
for binary in false true; do
	db=idtypes_rt_sub_${binary}_$$
	slot=rt_slot_${binary}_$$
	psql_q -d postgres -c "CREATE DATABASE $db"
	pg_dump -s -d "$src" | grep -v 'PUBLICATION' | psql_q -d "$db" >/dev/null
	psql_q -d "$src" -c "SELECT pg_create_logical_replication_slot('$slot', 'pgoutput')" >/dev/null
	psql_q -d "$db" -c "CREATE SUBSCRIPTION rt_sub CONNECTION 'host=$PGHOST port=$PGPORT user=$PGUSER dbname=$src'
		PUBLICATION rt_pub WITH (create_slot = false, slot_name = '$slot', binary = $binary)"
	psql_q -d "$src" -c "INSERT INTO events (n) SELECT g FROM generate_series(-1000, -991) g" # replicated changes too
	synced=no
	for _ in $(seq 1 120); do
		if [ "$(psql_q -d "$db" -c "SELECT count(*) FILTER (WHERE srsubstate <> 'r') FROM pg_subscription_rel")" = 0 ] &&
			[ "$(psql_q -d "$db" -c 'SELECT count(*) FROM events')" = "$(psql_q -d "$src" -c 'SELECT count(*) FROM events')" ]; then
			synced=yes
			break
		fi
		sleep 0.5
	done
	[ "$synced" = yes ] || fail "logical replication (binary = $binary) did not catch up"
	psql_q -d "$db" -c "ALTER SUBSCRIPTION rt_sub DISABLE" -c "ALTER SUBSCRIPTION rt_sub SET (slot_name = NONE)" \
		-c "DROP SUBSCRIPTION rt_sub" >/dev/null
	psql_q -d "$src" -c "SELECT pg_drop_replication_slot('$slot')" >/dev/null
	same_as_source "logical replication (binary = $binary)" "$db"
	psql_q -d postgres -c "DROP DATABASE $db"
done
psql_q -d postgres -c "DROP DATABASE $src"
exit $status
