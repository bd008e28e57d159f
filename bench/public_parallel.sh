#!/usr/bin/env bash
# The public forms in a parallel scan (issue 64): this tree beside idtypes 1.5 (BENCH_BEFORE, e9a2f5f) and 1.6
# (BENCH_BETWEEN, ea3c833), each built from git history into its own copy of the server, one cluster per tree,
# in one run. For each: a scan of ROWS (1,000,000) timeids converting every one (timeid_to_public), forced
# parallel (2 workers: 1.5 and this tree convert in the workers, 1.6 in the leader only), then the same with no
# worker; and ns per call beside gen_random_uuid() with no worker. Medians of BENCH_RUNS (5); the rounds
# alternate between the subjects. Run alone (not part of the tests); prints a Markdown table. The machine may be
# shared: the ratios, not the milliseconds, are the result.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-5}
rows=${BENCH_PUBLIC_ROWS:-1000000}
before=${BENCH_BEFORE:-e9a2f5f}
between=${BENCH_BETWEEN:-ea3c833}
base=$(mktemp -d /tmp/idtypes-bench-parallel.XXXXXX)
chmod 755 "$base" # the servers (postgres) run from the copies in it
system_config=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

# install TREE-ISH NAME: a copy of the server with that tree's extension; echoes its pg_config
install() {
	local config dir=$base/$2
	config=$(private_install "$system_config" "$dir/pg") || return 1
	if [ "$1" = . ]; then
		cp -a "$ROOT/." "$dir/src" && rm -rf "$dir/src/build" "$dir/src/.git"
	else
		mkdir -p "$dir/src" && git -C "$ROOT" archive "$1" | tar -x -C "$dir/src"
	fi
	(export PG_CONFIG=$config && pg_make -C "$dir/src" -s clean >/dev/null 2>&1; pg_make -C "$dir/src" -s -j2 >/dev/null &&
		pg_make -C "$dir/src" -s install >/dev/null) || return 1
	echo "$config"
}
declare -A config
for t in this:. 1.6:"$between" 1.5:"$before"; do
	config[${t%%:*}]=$(install "${t#*:}" "${t%%:*}") || { echo "building ${t%%:*} failed" >&2; exit 1; }
done

parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;"
serial="SET max_parallel_workers_per_gather = 0;"
timed() { psql -X -At -c '\timing on' -c "$1" -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
declare -A times
for tree in this 1.6 1.5; do
	export PG_CONFIG=${config[$tree]}
	cluster_start shared_preload_libraries=idtypes idtypes.keyring=keyring max_parallel_workers=2
	(umask 077 && printf 'orders 1 %s\n' "$(openssl rand -hex 32)" >"$CLUSTER_DIR/data/keyring")
	chown postgres: "$CLUSTER_DIR/data/keyring"
	psql -X -q -At -c 'SELECT pg_reload_conf()' >/dev/null && sleep 2
	psql -X -q -c 'CREATE EXTENSION idtypes' -c "CREATE TABLE ids AS SELECT timeid_generate() id FROM generate_series(1, $rows)" \
		-c 'VACUUM ANALYZE ids' >/dev/null
	# converted in the workers: the partial aggregate below the Gather counts the forms
	workers=$(psql -X -At -c "$parallel" -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(timeid_to_public(id, 'orders')) FROM ids" |
		grep -c 'PARTIAL count(timeid_to_public' || true)
	times[$tree,where]=$([ "$workers" -ge 1 ] && echo "workers" || echo "leader")
	for _ in $(seq 1 "$runs"); do
		times[$tree,parallel]+="$(timed "$parallel" "SELECT count(timeid_to_public(id, 'orders')) FROM ids") "
		times[$tree,serial]+="$(timed "$serial" "SELECT count(timeid_to_public(id, 'orders')) FROM ids") "
		times[$tree,scan]+="$(timed "$serial" "SELECT count(*) FROM ids") "
		times[$tree,uuid]+="$(timed "$serial" "SELECT count(gen_random_uuid()) FROM ids") "
	done
	cluster_stop
done
rm -rf "$base"

median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | sed -n "$(((runs + 1) / 2))p"; }
echo
echo "## Public forms in a parallel scan ($rows timeids, PostgreSQL $("$system_config" --version | awk '{print $2}'), median of $runs)"
echo
echo "| library | converts in | parallel scan, ms | ratio to 1.5 | no worker, ms | ns per call (net of the scan) | ratio to gen_random_uuid() |"
echo "|---|---|---|---|---|---|---|"
p15=$(median "${times[1.5,parallel]}")
for tree in 1.5 1.6 this; do
	p=$(median "${times[$tree,parallel]}") s=$(median "${times[$tree,serial]}") scan=$(median "${times[$tree,scan]}")
	u=$(median "${times[$tree,uuid]}")
	awk -v t="$tree" -v w="${times[$tree,where]}" -v p="$p" -v p15="$p15" -v s="$s" -v scan="$scan" -v u="$u" -v r="$rows" \
		'BEGIN { printf "| %s | %s | %.0f | %.2f | %.0f | %.0f | %.2f |\n", t, w, p, p / p15, s, (s - scan) * 1e6 / r, (s - scan) / (u - scan) }'
done
