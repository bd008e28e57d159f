#!/usr/bin/env bash
# The first ID after pg_upgrade, with 1, 200 and 1,000 databases holding idtypes (BENCH_DATABASES): what it
# waits for is the one launcher reading every database's carrier, then creating the mark's origin
# (src/pg/mark/rebuild.cpp). A real pg_upgrade of 1,000 databases takes many minutes, so the state it
# leaves is made directly: the origin dropped (pg_upgrade does not carry it) and the server restarted (cold
# shared buffers), the carriers as pg_upgrade carries them. Databases are copies of a template with idtypes
# that generated; made with fsync off, measured with fsync and synchronous_commit on. This tree's library and
# the library of git revision BENCH_BEFORE (default e9a2f5f, 1.5), each in a private copy of PostgreSQL 15,
# one after the other for each size; BENCH_RUNS (3) runs per size and library: the first ID's latency as a
# client sees it (a new session, connection included) and the launcher's own time from the server log.
# Prints a Markdown table (BENCHMARKS.md).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-3}
sizes=${BENCH_DATABASES:-1 200 1000}
before=${BENCH_BEFORE:-e9a2f5f}

ensure_packages
work=$(mktemp -d /tmp/idtypes-bench-upgrade.XXXXXX)
chmod 755 "$work"
declare -A config
config[before]=$(private_install "$PG_CONFIG" "$work/before")
config[after]=$(private_install "$PG_CONFIG" "$work/after")
mkdir -p "$work/src-before" && git -C "$ROOT" archive "$before" | tar -x -C "$work/src-before"
PG_CONFIG=${config[before]} build_and_install "$work/src-before"
PG_CONFIG=${config[after]} build_and_install
declare -A label=([before]=$before [after]="this tree ($(git -C "$ROOT" describe --always --dirty))")
trap 'cluster_stop; rm -rf "$work"' EXIT
psql_q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
restart() {
	as_postgres "$("$PG_CONFIG" --bindir)/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/log" -w -s -m fast restart \
		-o "$1" >/dev/null
}

echo "| databases with idtypes | library | first ID after the rebuild's restart, ms (runs) | the launcher's own time, ms |"
echo "|---|---|---|---|"
for n in $sizes; do
	for v in after before; do
		export PG_CONFIG=${config[$v]}
		cluster_start max_connections=100
		opts="-p $PGPORT -k $CLUSTER_DIR -c listen_addresses= -c autovacuum=off"
		psql_q -d postgres -c 'CREATE DATABASE d1' && psql_q -d d1 -c 'CREATE EXTENSION idtypes' -c 'SELECT timeid_generate()' >/dev/null
		for i in $(seq 2 "$n"); do echo "CREATE DATABASE d$i TEMPLATE d1;"; done | psql_q -d postgres >/dev/null
		latencies="" launcher=""
		for _ in $(seq 1 "$runs"); do
			psql_q -d postgres -c "SELECT pg_replication_origin_drop('idtypes_high_water')" >/dev/null
			restart "$opts -c fsync=on -c synchronous_commit=on"
			start=$(date +%s%N)
			psql_q -d "d$n" -c 'SELECT timeid_generate()' >/dev/null
			latencies+="${latencies:+, }$((($(date +%s%N) - start) / 1000000))"
			launcher+="${launcher:+, }$(grep -o 'carriers in [0-9]* ms' "$CLUSTER_DIR/log" | tail -1 | grep -o '[0-9]*')"
		done
		echo "| $n | ${label[$v]} | $latencies | $launcher |"
		cluster_stop
	done
done
