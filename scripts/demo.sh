#!/usr/bin/env bash
# What idtypes is for, in a throwaway cluster: the four ID types as generated primary keys, filled by several
# sessions at once; prefix and time-window queries answered from the primary key; reports by the IDs' time.
# Installs what is missing, builds and installs idtypes (into the installation of PG_CONFIG: the system's
# PostgreSQL 15 unless PG_CONFIG is set), then runs scripts/demo.sql. Takes a few seconds once built.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pg_config_given=${PG_CONFIG:-}
ensure_packages
PG_CONFIG=${pg_config_given:-$PG_CONFIG}
build_and_install
cd / # the postgres user runs the server and must be able to enter the working directory
log "starting a throwaway cluster"
cluster_start
trap cluster_stop EXIT
export PGTZ=UTC
demo_psql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

log "one table per type, each with its generator as the primary key's DEFAULT"
demo_psql -e <<'SQL'
CREATE EXTENSION idtypes;
CREATE TABLE orders   (id tbsl    PRIMARY KEY DEFAULT tbsl_generate(),    note text);
CREATE TABLE posts    (id timeid  PRIMARY KEY DEFAULT timeid_generate(),  note text);
CREATE TABLE events   (id uid11   PRIMARY KEY DEFAULT uid11_generate(),   note text);
CREATE TABLE messages (id scru160 PRIMARY KEY DEFAULT scru160_generate(), note text);
SQL

# Older rows, as an import would bring them: each ID made from its original time (and random other fields)
# with make_<type>. They end before the sessions below start, so no two IDs can be equal.
log "history: one row every 2 s over the last 24 hours in each table, IDs made with make_tbsl, make_timeid, ..."
demo_psql <<'SQL'
CREATE TEMP TABLE history AS
SELECT (extract(epoch FROM now()) * 1e6)::bigint - g * 2000000::bigint - (random() * 1999999)::bigint AS us
FROM generate_series(1, 43200) g;
INSERT INTO orders SELECT make_tbsl(us / 1000000, (us % 1000000)::int, 1, (random() * 1048575)::int), 'imported' FROM history;
INSERT INTO posts SELECT make_timeid(us, (random() * 1023)::int), 'imported' FROM history;
INSERT INTO events SELECT make_uid11_xid(us / 1000, (random() * 4194303)::int), 'imported' FROM history;
INSERT INTO messages
SELECT make_scru160(us / 1000, (random() * 65535)::int, (random() * 65535)::int, substring(uuid_send(gen_random_uuid()) FOR 10)),
       'imported'
FROM history;
SQL

# Each session: 10 rounds of 1000 rows into every table, so that the sessions overlap for most of their time.
session_sql() {
	local t
	for _ in $(seq 10); do
		for t in orders posts events messages; do
			echo "INSERT INTO $t (note) SELECT 'session $1' FROM generate_series(1, 1000);"
		done
	done
}
sessions=4
log "$sessions sessions insert at once, 10000 rows into each table, the IDs from the DEFAULTs"
pids=()
for s in $(seq "$sessions"); do
	session_sql "$s" | demo_psql &
	pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done # a repeated ID would have failed a session's INSERT

log "running scripts/demo.sql"
demo_psql -f "$ROOT/scripts/demo.sql"
