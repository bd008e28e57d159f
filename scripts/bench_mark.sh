#!/usr/bin/env bash
# The cost of the replicated high-water mark under continuous generation, with fsync and synchronous_commit
# on: this tree's library (the mark in the replication origin idtypes_high_water, src/pg/replicate/origins.cpp, and
# each database's carrier, src/pg/replicate/upgrade_carrier.cpp; the identity a primary generates with in idtypes_identity)
# beside the library of git revision BENCH_BEFORE (default 406da2c, 1.4's start: the mark as a generic WAL
# record on a row of each database's table). The origin is the server's, so the two cannot be compared
# within one server by SQL version: each runs in a cluster of its own, both running at once, the runs
# alternating. Each generator issues BENCH_ROWS (1,000,000) IDs in one statement, BENCH_RUNS (9) times; the
# median per ID, and the WAL written per run. Then, for this tree only, the latency of a promoted standby's
# first ID (it applies the replicated mark first) and of an upgraded cluster's first ID (the origin rebuilt
# from every database's carrier by background workers). Prints Markdown tables (BENCHMARKS.md). PostgreSQL
# 15, in private copies.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs=${BENCH_RUNS:-9}
rows=${BENCH_ROWS:-1000000}
before=${BENCH_BEFORE:-406da2c}

ensure_packages
work=$(mktemp -d /tmp/idtypes-bench-mark.XXXXXX)
chmod 755 "$work"
system_pg_config=$PG_CONFIG
declare -A config host port datadir
config[before]=$(private_install "$system_pg_config" "$work/before")
config[after]=$(private_install "$system_pg_config" "$work/after")
mkdir -p "$work/src-before" && git -C "$ROOT" archive "$before" | tar -x -C "$work/src-before"
PG_CONFIG=${config[before]} build_and_install "$work/src-before"
PG_CONFIG=${config[after]} build_and_install
stop_all() {
	for v in before after; do
		if [ -n "${datadir[$v]:-}" ]; then
			as_postgres "$(dirname "${config[$v]}")/pg_ctl" -D "${datadir[$v]}" -m immediate -s stop || true
		fi
	done
	rm -rf "$work"
}
trap stop_all EXIT
for v in before after; do
	PG_CONFIG=${config[$v]} cluster_start fsync=on synchronous_commit=on
	host[$v]=$CLUSTER_DIR port[$v]=$PGPORT datadir[$v]=$CLUSTER_DIR/data
	CLUSTER_DIR=
	psql -X -q -h "${host[$v]}" -p "${port[$v]}" -c 'CREATE EXTENSION idtypes'
done
on() { local v=$1; shift; psql -X -At -h "${host[$v]}" -p "${port[$v]}" "$@"; }

subjects=("timeid_generate()" "tbsl_generate()" "uid11_generate()" "scru160_generate()" "uid11_generate_random()"
	"uuid_v7_generate()")
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(((runs + 1) / 2))p"; }
log "cost per ID with fsync on: median of $runs runs of $rows in one statement, alternately per library"
echo "| generator | before ($before), ns/ID | after, ns/ID | ratio | WAL per run, before / after |"
echo "|---|---|---|---|---|"
for s in "${subjects[@]}"; do
	declare -A times=() wal=()
	for _ in $(seq 1 "$runs"); do
		for v in before after; do # a new session each time: the first call of a session included
			out=$(on "$v" -c 'SELECT pg_current_wal_insert_lsn()' -c '\timing on' \
				-c "SELECT count($s) FROM generate_series(1, $rows)" -c '\timing off' -c 'SELECT pg_current_wal_insert_lsn()')
			times[$v]+="$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out") "
			mapfile -t lsns < <(grep '/' <<<"$out")
			wal[$v]+="$(on "$v" -c "SELECT '${lsns[1]}'::pg_lsn - '${lsns[0]}'::pg_lsn") "
		done
	done
	a=$(median <<<"${times[before]}") b=$(median <<<"${times[after]}")
	wa=$(median <<<"${wal[before]}") wb=$(median <<<"${wal[after]}")
	awk -v s="$s" -v a="$a" -v b="$b" -v n="$rows" -v wa="$wa" -v wb="$wb" \
		'BEGIN { printf "| `%s` | %.0f | %.0f | %.2f | %d B / %d B |\n", s, a * 1e6 / n, b * 1e6 / n, b / a, wa, wb }'
done

# The first ID's latency, as a client sees it (a new session, its connection included), this tree only.
bin=$(dirname "${config[after]}")
first_id_ms() { # host port [tries]: the median of three, or the one try
	local t=() i
	for i in $(seq 1 "${3:-3}"); do
		t+=("$(python3 -c 'import subprocess, sys, time
t = time.monotonic()
subprocess.run(["psql", "-X", "-At", "-h", sys.argv[1], "-p", sys.argv[2], "-c", "SELECT timeid_generate()"], check=True, capture_output=True)
print(round((time.monotonic() - t) * 1000, 1))' "$1" "$2")")
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((${#t[@]} + 1) / 2))p"
}
log "the first ID's latency: a new session on a running primary, after a promotion, after pg_upgrade"
echo
echo "| first ID of | latency, ms (a new session, connection included) |"
echo "|---|---|"
echo "| a running primary | $(first_id_ms "${host[after]}" "${port[after]}") |"
for i in 1 2 3; do on after -q -c "CREATE DATABASE bench_db$i" && on after -q -d "bench_db$i" -c 'CREATE EXTENSION idtypes' -c 'SELECT timeid_generate()' >/dev/null; done
pgwork=$work/pgwork # the postgres user's: the standby, pg_upgrade's sockets and logs
mkdir "$pgwork" && chown postgres: "$pgwork"
standby=$pgwork/standby
as_postgres "$bin/pg_basebackup" -h "${host[after]}" -p "${port[after]}" -U postgres -D "$standby/data" -R -X stream --checkpoint=fast
sport=$((port[after] + 1))
as_postgres "$bin/pg_ctl" -D "$standby/data" -l "$standby/log" -w -s -o "-p $sport -k $standby -c listen_addresses=" start
on after -q -c 'SELECT timeid_generate()' -c 'CHECKPOINT' >/dev/null
sleep 2
as_postgres "$bin/pg_ctl" -D "$standby/data" -w -s promote
echo "| a promoted standby (the replicated mark applied first) | $(first_id_ms "$standby" "$sport" 1) |"
as_postgres "$bin/pg_ctl" -D "$standby/data" -m immediate -s stop
# pg_upgrade (15 to 15) carries the carriers, not the origin: the first ID starts a worker per database
as_postgres "$bin/pg_ctl" -D "${datadir[after]}" -m fast -s stop
datadir[after]=
as_postgres "$bin/initdb" -D "$pgwork/upgraded" -A trust -U postgres --no-sync >/dev/null
# (as_postgres runs from /: pg_upgrade writes in its working directory)
# shellcheck disable=SC2016 # expanded by the inner shell
as_postgres sh -c 'cd "$1" && shift && exec "$@"' sh "$pgwork" "$bin/pg_upgrade" -b "$bin" -B "$bin" \
	-d "${host[after]}/data" -D "$pgwork/upgraded" -s "$pgwork" -o "-c listen_addresses=" -O "-c listen_addresses=" \
	>"$pgwork/pg_upgrade.log" 2>&1 ||
	{ tail -20 "$pgwork/pg_upgrade.log"; exit 1; }
uport=$((port[after] + 2))
as_postgres "$bin/pg_ctl" -D "$pgwork/upgraded" -l "$pgwork/upgraded.log" -w -s -o "-p $uport -k $pgwork -c listen_addresses=" start
datadir[after]=$pgwork/upgraded
echo "| an upgraded cluster (the origin rebuilt from the carriers of its 5 connectable databases, 4 with idtypes) | $(first_id_ms "$pgwork" "$uport" 1) |"
