#!/usr/bin/env bash
# The keyed public forms (docs/public-ids.md): ns per call of T_to_public and T_from_public for each type,
# next to gen_random_uuid() and pgcrypto's encrypt() of one AES block (which sets its key up on every call,
# where idtypes expands each key once per session and keyring). Each subject reads the same table of inputs (ROWS rows,
# default 500,000) in one statement; a plain count of the table is the scan's own cost. The runs alternate
# between subjects (one of each, then the next round); the median of BENCH_RUNS (5) is shown. Goal: each
# conversion no dearer than gen_random_uuid(). Run alone (not part of the tests); prints a Markdown table.
# PG_CONFIG set: that installation (a copy made by private_install, say) instead of the system's packages.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
runs=${BENCH_RUNS:-5}
rows=${BENCH_PUBLIC_ROWS:-500000}

[ -n "${PG_CONFIG:-}" ] || ensure_packages
build_and_install
trap cluster_stop EXIT
# the keyring is read at the server's start and at reloads, idtypes preloaded
cluster_start shared_preload_libraries=idtypes idtypes.keyring=keyring
(umask 077 && printf 'orders 1 %s\n' "$(openssl rand -hex 32)" >"$CLUSTER_DIR/data/keyring")
chown postgres: "$CLUSTER_DIR/data/keyring"
psql -X -q -At -c 'SELECT pg_reload_conf()' >/dev/null && sleep 1
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'CREATE EXTENSION idtypes' -c 'CREATE EXTENSION pgcrypto' -c "
CREATE TABLE inputs AS
SELECT t, b, u11, s, u, timeid_to_public(t, 'orders') pt, tbsl_to_public(b, 'orders') pb, uid11_to_public(u11, 'orders') pu11,
       scru160_to_public(s, 'orders') ps, uuid_to_public(u, 'orders') pu, gen_random_bytes(16) block
FROM (SELECT timeid_generate() t, tbsl_generate() b, uid11_generate_random() u11, scru160_generate() s, uuid_v7_generate() u
      FROM generate_series(1, $rows)) g;" -c "VACUUM ANALYZE inputs"

key="'\\x$(openssl rand -hex 32)'::bytea"
subjects=("count(*)" "gen_random_uuid()" "encrypt(block, $key, 'aes-ecb/pad:none')"
	"timeid_to_public(t, 'orders')" "timeid_from_public(pt, 'orders')"
	"tbsl_to_public(b, 'orders')" "tbsl_from_public(pb, 'orders')"
	"uid11_to_public(u11, 'orders')" "uid11_from_public(pu11, 'orders')"
	"scru160_to_public(s, 'orders')" "scru160_from_public(ps, 'orders')"
	"uuid_to_public(u, 'orders')" "uuid_from_public(pu, 'orders')")
declare -A times
log "public forms: ns per call, median of $runs runs over $rows rows"
for _ in $(seq 1 "$runs"); do
	for s in "${subjects[@]}"; do
		expr=$s
		[ "$s" = "count(*)" ] || expr="count($s)"
		# one process: the cost of a call, not of a plan (the public forms are PARALLEL RESTRICTED, and 1.5's were
		# PARALLEL SAFE: with workers, wall time per row would compare plans)
		ms=$(PGOPTIONS="-c max_parallel_workers_per_gather=0" psql -X -At -c '\timing on' -c "SELECT $expr FROM inputs" |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		times[$s]+="$ms "
	done
done
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | sed -n "$(((runs + 1) / 2))p"; }
scan=$(median "${times["count(*)"]}")
uuid=$(median "${times["gen_random_uuid()"]}")
echo
echo "## Public forms: ns per call (PostgreSQL $("$PG_CONFIG" --version | awk '{print $2}'), $rows rows, median of $runs)"
echo
echo "The scan of the inputs alone: $(awk -v t="$scan" -v r="$rows" 'BEGIN { printf "%.0f", t * 1e6 / r }') ns a row;"
echo "the figures below are net of it. Goal: each conversion no dearer than \`gen_random_uuid()\`."
echo
echo "| call | ns per call | ratio to gen_random_uuid() |"
echo "|---|---|---|"
for s in "${subjects[@]:1}"; do
	t=$(median "${times[$s]}")
	shown=${s//"$key"/key}
	echo "| \`$shown\` | $(awk -v t="$t" -v b="$scan" -v r="$rows" 'BEGIN { printf "%.0f", (t - b) * 1e6 / r }') |" \
		"$(awk -v t="$t" -v b="$scan" -v u="$uuid" 'BEGIN { printf "%.2f", (t - b) / (u - b) }') |"
done
