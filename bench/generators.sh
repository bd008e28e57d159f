#!/usr/bin/env bash
# Generators at full size, in each place their state can live (loaded on demand, preloaded): the cost per
# ID of each generator next to nextval() and gen_random_uuid() (one session, batches of one million), then
# test/concurrency/run.sh at full size (5 x 300,000 and 20 x 100,000 sessions one after another, 10 rounds of
# 8 x 20,000 at once). Run by scripts/bench.sh, or alone. Prints a Markdown table and the checks' lines.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-5}

ensure_packages
build_and_install
trap cluster_stop EXIT
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

subjects=("nextval('bench_seq')" "gen_random_uuid()" "timeid_generate()" "tbsl_generate()" "tbsl_generate(NULL, true)"
	"uid11_generate()" "scru160_generate()" "uid11_generate_random()" "uuid_v7_generate()")
declare -A ns
modes=("loaded on demand|" "preloaded|shared_preload_libraries=idtypes")
for m in "${modes[@]}"; do
	mode=${m%%|*}
	cluster_start ${m#*|}
	psql_q -c 'CREATE EXTENSION idtypes' -c 'CREATE SEQUENCE bench_seq'
	state=$(psql_q -c 'SELECT idtypes_generator_mode()')
	log "cost per ID, $mode ($state): median of $runs runs of 1,000,000 in one statement"
	for s in "${subjects[@]}"; do
		times=()
		for _ in $(seq 1 "$runs"); do # a new session each time: the first call of a session included
			times+=("$(psql -X -At -c '\timing on' -c "SELECT count($s) FROM generate_series(1, 1000000)" |
				sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
		done
		ns["$mode|$s"]=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
	done
	log "generators at full size, $mode"
	IDTYPES_SERIAL_SESSIONS=5 IDTYPES_SERIAL_ROWS=300000 IDTYPES_ROUNDS=10 "$ROOT/test/concurrency/run.sh" "$state"
	IDTYPES_SERIAL_SESSIONS=20 IDTYPES_SERIAL_ROWS=100000 IDTYPES_ROUNDS=1 "$ROOT/test/concurrency/run.sh" "$state" |
		grep -E 'one after another|through a column DEFAULT'
	cluster_stop
done

echo
echo "## Generators: ns per ID (one session, 1,000,000 IDs in one statement, median of $runs)"
echo
echo "| generator | ${modes[0]%%|*} | ratio to nextval | ${modes[1]%%|*} | ratio to nextval |"
echo "|---|---|---|---|---|"
for s in "${subjects[@]}"; do
	row="| \`$s\`"
	for m in "${modes[@]}"; do
		mode=${m%%|*}
		row+=" | $(awk -v t="${ns["$mode|$s"]}" 'BEGIN { printf "%.0f", t }')"
		row+=" | $(awk -v t="${ns["$mode|$s"]}" -v n="${ns["$mode|nextval('bench_seq')"]}" 'BEGIN { printf "%.2f", t / n }')"
	done
	echo "$row |"
done
