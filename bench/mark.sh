#!/usr/bin/env bash
# What the generators' mark costs generating sessions, with fsync and synchronous_commit on: this tree's
# library beside the library of git revision BENCH_BEFORE (default a8ccf5d, the last commit of 1.4), each in a
# cluster of its own (the mark is the server's), both running. BENCH_CLIENTS (8) sessions at once call one
# subject (the generators, nextval() of a sequence, SELECT 1) as a prepared statement, each call its own
# transaction, for BENCH_SECONDS (5) seconds; the subjects alternate, and so do the libraries, in BENCH_ROUNDS
# (3) rounds. The client, bench/call_latency.cpp, times every call (each session's first, which loads the
# library, left out); pooled over the rounds: the median, p99.9, p99.99 and maximum, and the calls a second
# (median of the rounds), with ratios to the same cluster's nextval() and SELECT 1. The WAL written during each
# run is read back with pg_waldump: the records of the ReplicationOrigin and Generic resource managers (the
# mark's) a second. Then, for this tree only, the latency of a new session's first ID on a running primary, a
# promoted standby and an upgraded cluster. Prints Markdown tables (BENCHMARKS.md). PostgreSQL 15, in private
# copies; 2 x 8 x BENCH_ROUNDS x BENCH_SECONDS seconds of runs (4 minutes by default), the builds, 1 minute more.
set -euo pipefail
shopt -s inherit_errexit # a failure inside $(...) ends the run too
source "$(dirname "$0")/../scripts/lib.sh"
seconds=${BENCH_SECONDS:-5}
rounds=${BENCH_ROUNDS:-3}
clients=${BENCH_CLIENTS:-8}
before=${BENCH_BEFORE:-a8ccf5d}

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
g++ -O2 -std=c++17 -I"$("$system_pg_config" --includedir)" "$ROOT/bench/call_latency.cpp" -o "$work/call_latency" -lpq -pthread
stop_all() {
	for v in before after; do
		if [ -n "${datadir[$v]:-}" ]; then
			as_postgres "$(dirname "${config[$v]}")/pg_ctl" -D "${datadir[$v]}" -m immediate -s stop || true
		fi
	done
	rm -rf "$work" "${host[before]:-}" "${host[after]:-}" # the clusters' directories (cluster_start's)
}
trap stop_all EXIT
for v in before after; do # wal_keep_size: each run's WAL stays until pg_waldump has read it
	PG_CONFIG=${config[$v]} cluster_start fsync=on synchronous_commit=on wal_keep_size=1GB
	host[$v]=$CLUSTER_DIR port[$v]=$PGPORT datadir[$v]=$CLUSTER_DIR/data
	CLUSTER_DIR=
	psql -X -q -h "${host[$v]}" -p "${port[$v]}" -c 'CREATE EXTENSION idtypes' -c 'CREATE SEQUENCE bench_seq' \
		-c 'CREATE TABLE bench_flush (x int)'
done
on() { local v=$1; shift; psql -X -At -h "${host[$v]}" -p "${port[$v]}" "$@"; }
bin=$(dirname "${config[after]}")
declare -A label=([before]=$before [after]="this tree ($(git -C "$ROOT" describe --always --dirty))")

subjects=(1 "nextval('bench_seq')" "timeid_generate()" "tbsl_generate()" "uid11_generate()" "uid11_generate_random()"
	"scru160_generate()" "uuid_v7_generate()")
calls=$work/calls
mkdir "$calls"
# The mark's WAL records (ReplicationOrigin, Generic) from START to END in the cluster of library V.
mark_records() {
	local v=$1 start=$2 end=$3
	[ "$start" = "$end" ] && { echo "0 0"; return; }
	"$bin/pg_waldump" -p "${datadir[$v]}/pg_wal" -s "$start" -e "$end" 2>"$work/waldump.err" |
		awk '$2 == "ReplicationOrigin" { o++ } $2 == "Generic" { g++ } END { print o + 0, g + 0 }' ||
		{ cat "$work/waldump.err" >&2; return 1; }
}
# One run: SUBJECT number I in the cluster of library V, in round R; its latencies in $calls/V-I-R.
run_subject() {
	local v=$1 i=$2 r=$3 start lsn finished seconds_run began=$EPOCHREALTIME
	start=$(on "$v" -c 'SELECT pg_current_wal_insert_lsn()')
	finished=$("$work/call_latency" "host=${host[$v]} port=${port[$v]} user=postgres dbname=postgres" \
		"SELECT ${subjects[$i]}" "$clients" "$seconds" "$calls/$v-$i-$r")
	rate[$v,$i]+=" $(awk '{ printf "%.0f", $1 / $2 }' <<<"$finished")"
	# the run's end, then a transaction that writes WAL: its commit flushes the WAL up to it for pg_waldump (one
	# that only takes an xid would commit asynchronously)
	mapfile -t lsn < <(on "$v" -c 'SELECT pg_current_wal_insert_lsn()' -c 'INSERT INTO bench_flush VALUES (1)')
	# the mark's records, and the seconds they were written in (the sessions' connections included)
	seconds_run=$(awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
	marks[$v,$i]+=" $(mark_records "$v" "$start" "${lsn[0]}") $seconds_run"
}
# Median, p99.9, p99.99 and maximum (ms) of the calls of subject $2 in library $1.
latencies() {
	cat "$calls/$1-$2-"* | sort -n |
		awk '{ x[NR] = $1 / 1e6 }
			function rank(q,   k) { k = int(NR * q); if (k < NR * q) k++; return x[k] } # nearest rank
			END { printf "%.3f %.3f %.3f %.3f\n", rank(0.5), rank(0.999), rank(0.9999), x[NR] }'
}
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(((rounds + 1) / 2))p"; }

declare -A rate=() marks=() stat=()
log "$clients sessions at once, ${seconds} s a run, $rounds rounds: the subjects and the libraries alternating"
load_at_start=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$rounds"); do
	order=(before after)
	((r % 2)) || order=(after before)
	for k in "${!subjects[@]}"; do # each round starts one subject later: no subject always runs first
		i=$(((k + r) % ${#subjects[@]}))
		for v in "${order[@]}"; do run_subject "$v" "$i" "$r"; done
	done
done
for v in before after; do
	for i in "${!subjects[@]}"; do stat[$v,$i]="$(latencies "$v" "$i") $(median <<<"${rate[$v,$i]}")"; done
done

subject_name() { if [ "$1" = 1 ]; then echo 'SELECT 1'; else echo "$1"; fi; }
heading() { printf '\n### %s\n\n' "$1"; }
heading "Per-call latency, $clients sessions at once (rounds: $rounds of $seconds s per subject and library, fsync on)"
echo "ms, every call pooled over the rounds (each session's first left out); calls/s (IDs a second): the median"
echo "of the rounds; ratios (median, p99.9, p99.99, max) to the same cluster's \`nextval()\` and \`SELECT 1\`."
echo "$(nproc) cores; load average (1 min) $load_at_start at the start, $(cut -d' ' -f1 /proc/loadavg) at the end."
echo
echo "| subject | library | median | p99.9 | p99.99 | max | calls/s | ÷ nextval() | ÷ SELECT 1 |"
echo "|---|---|---:|---:|---:|---:|---:|---|---|"
for i in "${!subjects[@]}"; do
	name="\`$(subject_name "${subjects[$i]}")\`"
	for v in before after; do
		awk -v name="$name" -v lib="${label[$v]}" -v s="${stat[$v,$i]}" -v n="${stat[$v,1]}" -v one="${stat[$v,0]}" '
			function ratios(base,   b, k, out) { split(base, b, " ")
				for (k = 1; k <= 4; k++) out = out (k > 1 ? ", " : "") sprintf("%.2f", x[k] / b[k]); return out }
			BEGIN { split(s, x, " ")
				printf "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.0f | %s | %s |\n", name, lib, x[1], x[2], x[3], x[4], x[5],
					ratios(n), ratios(one) }'
		name=
	done
	awk -v lib="${label[before]}" -v a="${stat[before,$i]}" -v b="${stat[after,$i]}" 'BEGIN { split(a, x, " "); split(b, y, " ")
		printf "| | this tree ÷ %s | %.2f | %.2f | %.2f | %.2f | %.2f | | |\n", lib, y[1] / x[1], y[2] / x[2], y[3] / x[3], y[4] / x[4], y[5] / x[5] }'
done

heading "The mark's WAL records a second while generating ($clients sessions, pg_waldump over each run)"
echo "| subject | ${label[before]}: ReplicationOrigin | Generic | ${label[after]}: ReplicationOrigin | Generic |"
echo "|---|---:|---:|---:|---:|"
for i in "${!subjects[@]}"; do
	row="| \`$(subject_name "${subjects[$i]}")\`"
	for v in before after; do
		row+=$(awk -v c="${marks[$v,$i]}" 'BEGIN { m = split(c, x, " ")
			for (k = 1; k <= m; k += 3) { o += x[k]; g += x[k + 1]; t += x[k + 2] }
			printf " | %.1f | %.1f", o / t, g / t }')
	done
	echo "$row |"
done

# The first ID's latency, as a client sees it (a new session, its connection included), this tree only.
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
heading "The first ID's latency, this tree only"
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
