#!/usr/bin/env bash
# What uid11_generate_random()'s key record costs: this tree's library beside the library of git revision
# BENCH_BEFORE (default ea3c833, the last commit of 1.6), each in a cluster of its own with fsync and
# synchronous_commit on and a synchronous standby (the record and the mark wait for it), both running. In
# BENCH_ROUNDS (10) rounds, alternating the libraries: the primary stopped, its key file removed, started
# again (a new key), then in a new session whose library is loaded and whose mark is written (one
# timeid_generate()), the first uid11_generate_random() of that key, timed by psql (ms: the key drawn and
# written, the records read, the record's worker, the standbys' confirmation); then 1,000,000 calls in one
# statement, timed (ns a call, the key ready). Prints a Markdown table of the medians, minimum and maximum,
# and the ratios of this tree to BENCH_BEFORE. PostgreSQL 15, in private copies; about 2 minutes, the builds
# 1 minute more.
set -euo pipefail
shopt -s inherit_errexit
source "$(dirname "$0")/../scripts/lib.sh"
rounds=${BENCH_ROUNDS:-10}
before=${BENCH_BEFORE:-ea3c833}

ensure_packages
work=$(mktemp -d /tmp/idtypes-bench-key.XXXXXX)
chmod 755 "$work"
chown postgres: "$work"
system_pg_config=$PG_CONFIG
declare -A config port
config[before]=$(private_install "$system_pg_config" "$work/before")
config[after]=$(private_install "$system_pg_config" "$work/after")
mkdir -p "$work/src-before" && git -C "$ROOT" archive "$before" | tar -x -C "$work/src-before"
PG_CONFIG=${config[before]} build_and_install "$work/src-before"
PG_CONFIG=${config[after]} build_and_install
settings="-c listen_addresses= -c fsync=on -c synchronous_commit=on -c autovacuum=off"
pgctl() { as_postgres "$(dirname "${config[$1]}")/pg_ctl" "${@:2}"; }
# start V NAME: the cluster $work/data-NAME, with library V's PostgreSQL
start() { pgctl "$1" -D "$work/data-$2" -l "$work/$2.log" -w -s -o "-p ${port[$2]} -k $work $settings" start; }
stop_all() {
	for d in "$work"/data-*/; do [ -f "$d/postmaster.pid" ] && pgctl after -D "$d" -m immediate -s stop; done
	rm -rf "$work"
}
trap stop_all EXIT
on() { psql -X -At -h "$work" -p "${port[$1]}" -U postgres -d postgres "${@:2}"; }
for v in before after; do
	port[$v]=$((20000 + RANDOM % 20000)) port[$v-standby]=$((20000 + RANDOM % 20000))
	as_postgres "$(dirname "${config[$v]}")/initdb" -D "$work/data-$v" -A trust -U postgres >/dev/null
	start "$v" "$v"
	on "$v" -q -c 'CREATE EXTENSION idtypes'
	as_postgres "$(dirname "${config[$v]}")/pg_basebackup" -D "$work/data-$v-standby" -R -X stream -c fast -h "$work" -p "${port[$v]}" -U postgres
	start "$v" "$v-standby"
	on "$v" -q -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c 'SELECT pg_reload_conf()' >/dev/null
	for _ in $(seq 60); do [ "$(on "$v" -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && break; sleep 0.5; done
done
declare -A first per_call
for r in $(seq 1 "$rounds"); do
	for v in before after; do
		pgctl "$v" -D "$work/data-$v" -m fast -w -s stop
		rm -f "$work/data-$v/pg_idtypes_high_water"
		start "$v" "$v"
		t=$(on "$v" -c 'SELECT timeid_generate()' -c '\timing on' -c 'SELECT uid11_generate_random()' | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		first[$v]+=" $t"
		t=$(on "$v" -c '\timing on' -c 'SELECT count(uid11_generate_random()) FROM generate_series(1, 1000000)' | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		per_call[$v]+=" $(awk -v t="$t" 'BEGIN { printf "%.0f", t * 1e6 / 1e6 }')"
	done
done
# stats "values": median min max
stats() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, a[1], a[NR] }'; }
read -r fb fbmin fbmax <<<"$(stats "${first[before]}")"
read -r fa famin famax <<<"$(stats "${first[after]}")"
read -r cb cbmin cbmax <<<"$(stats "${per_call[before]}")"
read -r ca camin camax <<<"$(stats "${per_call[after]}")"
echo "PostgreSQL $("$system_pg_config" --version | awk '{ print $2 }'), fsync and synchronous_commit on, a synchronous standby; $rounds rounds, libraries alternating; median (min - max)"
echo
echo "| | $before | this tree ($(git -C "$ROOT" describe --always --dirty)) | this tree / $before |"
echo "|---|---|---|---|"
echo "| first \`uid11_generate_random()\` of a new key (ms) | $fb ($fbmin - $fbmax) | $fa ($famin - $famax) | $(awk -v a="$fa" -v b="$fb" 'BEGIN { printf "%.2f", a / b }') |"
echo "| a call, the key ready (ns; 1,000,000 in one statement) | $cb ($cbmin - $cbmax) | $ca ($camin - $camax) | $(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.2f", a / b }') |"
