#!/usr/bin/env bash
# Sharding with PostgreSQL's own tools: three throwaway clusters, each with its own identity
# (idtypes.tbsl_machine_id and idtypes.timeid_clock_id = its number, required by idtypes.require_identity = on,
# checked through idtypes_identity()), idtypes and postgres_fdw installed,
# and on each, for every type T, the same table ev_T PARTITION BY HASH (id) over three partitions: the
# node's own partition is a local table, the two others are postgres_fdw foreign tables on their nodes
# (servers with `extensions 'idtypes'`). Every node generates at once, each through its own ev_T, so
# that IDs come from that node's generators and each row lands in the shard its hash names. Node 1 then
# serves as the coordinator: no duplicates across nodes; `=`, `<`, `>=`, BETWEEN, `^@` and `<@`
# (rewritten into `id >= lo AND id <= hi`) reach the shards in the foreign scans' Remote SQL, constant and
# as generic-plan parameters; answers equal a single-node copy of the rows. Then PARTITION BY RANGE (id)
# with bounds from T_min(timestamptz): `^@` and `<@` prune to the matching partitions, at plan time and in
# generic plans. Last, scripts/collision_table.py runs and docs/failover.md holds its table.
# Needs only PG_CONFIG (with idtypes and postgres_fdw installed) and its client tools on PATH; starts and
# stops its own clusters. Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
nodes=3
rows=20000 # per node and type
types=(timeid tbsl uid11 scru160)
status=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }

declare -a hosts ports dirs
stop_all() {
	for k in "${!dirs[@]}"; do
		CLUSTER_DIR=${dirs[k]}
		cluster_stop
	done
}
trap stop_all EXIT
for k in $(seq 1 $nodes); do
	cluster_start "idtypes.tbsl_machine_id=$k" "idtypes.timeid_clock_id=$k" idtypes.require_identity=on
	started=$?
	dirs[k]=$CLUSTER_DIR hosts[k]=$PGHOST ports[k]=$PGPORT
	[ $started = 0 ] || { fail "starting cluster $k"; exit 1; }
done
on() { # node, psql arguments
	local k=$1
	shift
	PGHOST=${hosts[k]} PGPORT=${ports[k]} PGOPTIONS="-c client_min_messages=warning" \
		psql -X -q -At -v ON_ERROR_STOP=1 "$@"
}

# The same schema on every node: its own partition local, the others foreign.
node_schema() {
	local k=$1 j t
	echo "CREATE EXTENSION idtypes; CREATE EXTENSION postgres_fdw;"
	for j in $(seq 1 $nodes); do
		[ "$j" = "$k" ] && continue
		echo "CREATE SERVER node$j FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '${hosts[j]}',
			port '${ports[j]}', dbname 'postgres', extensions 'idtypes', batch_size '1000', fetch_size '10000');
		CREATE USER MAPPING FOR CURRENT_USER SERVER node$j OPTIONS (user 'postgres');"
	done
	for t in "${types[@]}"; do
		echo "CREATE TABLE ev_$t (id $t NOT NULL, node int NOT NULL, n int NOT NULL) PARTITION BY HASH (id);"
		for j in $(seq 1 $nodes); do
			if [ "$j" = "$k" ]; then
				echo "CREATE TABLE ev_${t}_p$j PARTITION OF ev_$t FOR VALUES WITH (MODULUS $nodes, REMAINDER $((j - 1)));
					CREATE INDEX ON ev_${t}_p$j (id);"
			else
				echo "CREATE FOREIGN TABLE ev_${t}_p$j PARTITION OF ev_$t
					FOR VALUES WITH (MODULUS $nodes, REMAINDER $((j - 1))) SERVER node$j;"
			fi
		done
	done
}
for k in $(seq 1 $nodes); do
	node_schema "$k" | on "$k" || { fail "schema on node $k"; exit 1; }
done
ok "$nodes clusters, each with idtypes, postgres_fdw and ev_T for T in $(IFS=,; echo "${types[*]}"), hash-partitioned over the $nodes nodes"

# Every node generates at once (released together by pg_sleep_until), inserting through its own ev_T.
start=$(on 1 -c "SELECT now() + interval '1 s'")
begun=$(date +%s%N)
for k in $(seq 1 $nodes); do
	{
		echo "SELECT pg_sleep_until('$start');"
		for t in "${types[@]}"; do
			echo "INSERT INTO ev_$t SELECT ${t}_generate(), $k, g FROM generate_series(1, $rows) g;"
		done
	} | on "$k" >/dev/null &
done
failed=0
for job in $(jobs -p); do wait "$job" || failed=1; done
[ $failed = 0 ] || { fail "generating on every node"; exit 1; }
took=$((($(date +%s%N) - begun) / 1000000 - 1000))
overlap=$(on 1 -c "SELECT round(greatest(0, extract(epoch FROM min(hi) - max(lo)) * 1000)) FROM (SELECT node, min(id)::timestamptz lo, max(id)::timestamptz hi FROM ev_timeid GROUP BY node) s")
ok "each node generated $rows IDs of every type at once ($took ms; the nodes' timeids overlap for $overlap ms)"

q1() { on 1 -c "$1"; } # the coordinator

for t in "${types[@]}"; do
	got=$(q1 "SELECT string_agg(node || ':' || c, ' ' ORDER BY node) FROM (SELECT node, count(*) c FROM ev_$t GROUP BY node) s")
	want=$(for k in $(seq 1 $nodes); do printf '%s:%s ' "$k" "$rows"; done)
	[ "$got" = "${want% }" ] && ok "$t: $((nodes * rows)) rows through the coordinator, $rows from each node" ||
		fail "$t: rows per node $got, expected $want"
	misplaced=$(q1 "SELECT sum(c) FROM ($(for j in $(seq 1 $nodes); do
		[ "$j" -gt 1 ] && echo "UNION ALL"
		echo "SELECT count(*) c FROM ev_${t}_p$j WHERE NOT satisfies_hash_partition('ev_$t'::regclass, $nodes, $((j - 1)), id)"
	done)) s")
	[ "$misplaced" = 0 ] && ok "$t: every row is in the shard its hash names" || fail "$t: $misplaced rows in the wrong shard"
done

# Each node's IDs carry its identity.
wrong=$(q1 "SELECT (SELECT count(*) FROM ev_timeid WHERE timeid_clock_id(id) <> node) || ' '
	|| (SELECT count(*) FROM ev_tbsl WHERE tbsl_machine_id(id) <> node)")
[ "$wrong" = "0 0" ] && ok "every timeid carries its node's clock id, every tbsl its machine id" ||
	fail "IDs with another node's identity (timeid, tbsl): $wrong"

# The fleet's check: every node reports, through idtypes_identity(), an identity from its configuration
# (which idtypes.require_identity = on demands before any timeid or tbsl is generated), none shared.
identities=$(for k in $(seq 1 $nodes); do
	on "$k" -c "SELECT concat_ws('|', timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source,
		high_water_mark IS NOT NULL) FROM idtypes_identity()"
done)
want=$(for k in $(seq 1 $nodes); do echo "$k|configuration|$k|configuration|t"; done)
if [ "$identities" = "$want" ]; then
	ok "idtypes_identity() on every node: clock and machine ids from its configuration, none shared ($(tr '\n' ' ' <<<"$identities"))"
else
	fail "idtypes_identity() across the nodes: expected $(tr '\n' ' ' <<<"$want"), got $(tr '\n' ' ' <<<"$identities")"
fi

# No duplicates across nodes, where the format can promise it: distinct identities (timeid, tbsl) or 111
# random bits per millisecond (scru160: 2^-111 per pair of IDs).
for t in timeid tbsl scru160; do
	dup=$(q1 "SELECT count(*) - count(DISTINCT id) FROM ev_$t")
	[ "$dup" = 0 ] && ok "$t: $((nodes * rows)) IDs from $nodes nodes, no duplicate" || fail "$t: $dup duplicates across nodes"
done
# xid has no identity field: 22 random bits per millisecond, the same on every node. Never a duplicate
# within a node; across nodes the chance is what scripts/collision_table.py computes, reported here with
# the number expected from how many IDs the nodes issued in the same milliseconds (the model's upper bound).
read -r within across expected < <(q1 "
	SELECT (SELECT count(*) FROM (SELECT 1 FROM ev_uid11 GROUP BY id, node HAVING count(*) > 1) d),
	       (SELECT count(*) - count(DISTINCT id) FROM ev_uid11),
	       (SELECT round(coalesce(sum((s * s - ss) / 2), 0) / 4194304.0, 2)
	        FROM (SELECT sum(c) s, sum(c * c) ss FROM (SELECT uid11_timestamp(id) ms, node, count(*)::numeric c
	                                                   FROM ev_uid11 GROUP BY 1, 2) per GROUP BY ms) per_ms)" |
	tr '|' ' ')
[ "$within" = 0 ] && ok "uid11 (xid): no duplicate within a node; $across across nodes (at most $expected expected by the birthday bound on pairs of IDs issued in the same ms)" ||
	fail "uid11 (xid): $within IDs repeated within one node"

# A single-node copy of the same rows, to compare answers with.
for t in "${types[@]}"; do
	q1 "CREATE TABLE one_$t AS SELECT * FROM ev_$t; CREATE INDEX ON one_$t (id); ANALYZE one_$t; ANALYZE ev_$t" ||
		fail "copying ev_$t"
done

answer() { # table, where clause: count, bounds and a digest of the ordered rows
	on 1 -c "SELECT count(*) || ' ' || coalesce(min(id)::text, '-') || ' ' || coalesce(max(id)::text, '-') || ' '
		|| md5(coalesce(string_agg(id::text || '/' || node || '/' || n, ',' ORDER BY id, node, n), '')) FROM $1 WHERE $2"
}
# name, type, where clause, how many foreign scans, fragments each foreign scan's Remote SQL must hold
pushed_and_same() {
	local name=$1 t=$2 where=$3 scans=$4 plan remote frag a b missing=""
	shift 4
	plan=$(q1 "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ev_$t WHERE $where")
	remote=$(grep 'Remote SQL:' <<<"$plan")
	for frag in "$@"; do
		[ -n "$remote" ] && ! grep -vqF -- "$frag" <<<"$remote" || missing+=" [$frag]"
	done
	# a Filter under a Foreign Scan is a condition evaluated on the coordinator after fetching
	local_filter=$(awk '/Foreign Scan/ { f = 1; next } /->/ { f = 0 } f && /Filter:/' <<<"$plan")
	if [ -z "$missing" ] && [ -z "$local_filter" ] && [ "$(grep -c 'Remote SQL:' <<<"$plan")" = "$scans" ]; then
		ok "$t $name: pushed down in $scans foreign scans ($(sed -E 's/.* WHERE //' <<<"${remote%%$'\n'*}"))"
	else
		fail "$t $name: not pushed down as expected (missing:$missing); plan:"
		sed 's/^/     /' <<<"$plan"
	fi
	a=$(answer "ev_$t" "$where")
	b=$(answer "one_$t" "$where")
	if [ "$a" = "$b" ] && [ "${a%% *}" -gt 0 ] 2>/dev/null; then
		ok "$t $name: the same ${a%% *} rows as the single-node copy"
	else
		fail "$t $name: answers differ: sharded '$a', single node '$b'"
	fi
}

# In a generic plan the bounds are computed on the shards from the parameter: type T, operator, parameter
# type, argument, prefix or window.
generic_pushed_and_same() {
	local t=$1 opr=$2 argtype=$3 arg=$4 kind=$5 plan a b
	generic() { # table, then EXPLAIN or nothing
		on 1 -c "SET plan_cache_mode = force_generic_plan" \
			-c "PREPARE s($argtype) AS SELECT count(*) || ' ' || md5(string_agg(id::text || '/' || node || '/' || n, ','
				ORDER BY id, node, n)) FROM $1 WHERE id $opr \$1" -c "${2:-} EXECUTE s($arg)"
	}
	plan=$(generic "ev_$t" "EXPLAIN (VERBOSE, COSTS OFF)")
	local want="id OPERATOR(public.>=) public.${t}_${kind}_lo(\$1::$argtype))) AND ((id OPERATOR(public.<=) public.${t}_${kind}_hi(\$1::$argtype)"
	if [ "$(grep 'Remote SQL:' <<<"$plan" | grep -cF -- "$want")" = 2 ]; then
		ok "$t generic plan of id $opr \$1: pushed down as ${t}_${kind}_lo(\$1) .. ${t}_${kind}_hi(\$1) in 2 foreign scans"
	else
		fail "$t generic plan of id $opr \$1 not pushed down:"
		sed 's/^/     /' <<<"$plan"
	fi
	a=$(generic "ev_$t")
	b=$(generic "one_$t")
	if [ "$a" = "$b" ] && [ "${a%% *}" -gt 0 ] 2>/dev/null; then
		ok "$t generic plan of id $opr \$1: the same ${a%% *} rows as the single-node copy"
	else
		fail "$t generic plan of id $opr \$1: sharded '$a', single node '$b'"
	fi
}

op() { echo "id OPERATOR(public.$1) '$2'"; } # how postgres_fdw writes `id <op> constant`

for t in "${types[@]}"; do
	total=$((nodes * rows))
	# x: an ID on node 2's shard (so `=` prunes to one foreign scan); lo, hi: IDs at 30 % and 60 %; a prefix
	# of x selecting some rows but not all; the time window from lo's time to hi's
	IFS='|' read -r x lo hi prefix lo_ts hi_ts < <(q1 "
		WITH x AS (SELECT id FROM ev_${t}_p2 ORDER BY id OFFSET $rows / 6 LIMIT 1),
		     lo AS (SELECT id FROM one_$t ORDER BY id OFFSET $total * 3 / 10 LIMIT 1),
		     hi AS (SELECT id FROM one_$t ORDER BY id OFFSET $total * 6 / 10 LIMIT 1)
		SELECT x.id, lo.id, hi.id,
		       (SELECT left(x.id::text, l) FROM generate_series(1, length(x.id::text)) l
		        WHERE (SELECT count(*) FROM one_$t WHERE id ^@ left(x.id::text, l)) < $total ORDER BY l LIMIT 1),
		       lo.id::timestamptz, hi.id::timestamptz
		FROM x, lo, hi")
	window="tstzrange('$lo_ts', '$hi_ts')"
	IFS='|' read -r p_lo p_hi w_lo w_hi < <(q1 "SELECT ${t}_prefix_lo('$prefix'), ${t}_prefix_hi('$prefix'),
		${t}_window_lo($window), ${t}_window_hi($window)")
	pushed_and_same "= (one shard)" "$t" "id = '$x'" 1 "$(op = "$x")"
	pushed_and_same "<" "$t" "id < '$x'" 2 "$(op '<' "$x")"
	pushed_and_same ">=" "$t" "id >= '$x'" 2 "$(op '>=' "$x")"
	pushed_and_same "BETWEEN" "$t" "id BETWEEN '$lo' AND '$hi'" 2 "$(op '>=' "$lo")" "$(op '<=' "$hi")"
	pushed_and_same "^@ '$prefix'" "$t" "id ^@ '$prefix'" 2 "$(op '>=' "$p_lo")" "$(op '<=' "$p_hi")"
	pushed_and_same "<@ $window" "$t" "id <@ $window" 2 "$(op '>=' "$w_lo")" "$(op '<=' "$w_hi")"
	# a window known only at run time: a scalar subquery becomes initplans whose values are sent along
	pushed_and_same "<@ (SELECT tstzrange(now() - '1 day', now()))" "$t" \
		"id <@ (SELECT tstzrange(now() - interval '1 day', now()))" 2 \
		"id OPERATOR(public.>=) public.${t}_window_lo(\$" "id OPERATOR(public.<=) public.${t}_window_hi(\$"

	generic_pushed_and_same "$t" "^@" text "'$prefix'" prefix
	generic_pushed_and_same "$t" "<@" tstzrange "$window" window
done

# type, name, where clause, expected partitions, expected rows[, a prepared statement's parameter type and
# argument, for a generic plan]
pruned() {
	local t=$1 name=$2 where=$3 parts=$4 want=$5 argtype=${6:-} arg=${7:-} plan got scanned
	if [ -n "$argtype" ]; then
		plan=$(on 1 -c "SET plan_cache_mode = force_generic_plan" -c "PREPARE s($argtype) AS SELECT count(*) FROM r_$t WHERE $where" \
			-c "EXPLAIN (COSTS OFF) EXECUTE s($arg)")
		got=$(on 1 -c "SET plan_cache_mode = force_generic_plan" -c "PREPARE s($argtype) AS SELECT count(*) FROM r_$t WHERE $where" \
			-c "EXECUTE s($arg)")
	else
		plan=$(q1 "EXPLAIN (COSTS OFF) SELECT count(*) FROM r_$t WHERE $where")
		got=$(q1 "SELECT count(*) FROM r_$t WHERE $where")
	fi
	scanned=$(grep -oE "on r_${t}_2025_0[0-9]" <<<"$plan" | sed 's/on r_[a-z0-9]*_//' | sort -u | tr '\n' ' ')
	if [ "${scanned% }" = "$parts" ] && [ "$got" = "$want" ] && [ "$want" -gt 0 ] 2>/dev/null; then
		ok "$t range partitions, $name: scans only $parts ($got rows)$(grep -o 'Subplans Removed: [0-9]*' <<<"$plan" | sed 's/^/, /')"
	else
		fail "$t range partitions, $name: scans '${scanned% }' (expected $parts), $got rows (expected $want); plan:"
		sed 's/^/     /' <<<"$plan"
	fi
}

# PARTITION BY RANGE (id) with monthly bounds from T_min(timestamptz), local partitions on node 1: one ID
# an hour from January to March 2025.
for t in "${types[@]}"; do
	q1 "CREATE TABLE r_$t (id $t NOT NULL) PARTITION BY RANGE (id);
		CREATE TABLE r_${t}_2025_01 PARTITION OF r_$t FOR VALUES FROM (${t}_min('2025-01-01 00:00+00')) TO (${t}_min('2025-02-01 00:00+00'));
		CREATE TABLE r_${t}_2025_02 PARTITION OF r_$t FOR VALUES FROM (${t}_min('2025-02-01 00:00+00')) TO (${t}_min('2025-03-01 00:00+00'));
		CREATE TABLE r_${t}_2025_03 PARTITION OF r_$t FOR VALUES FROM (${t}_min('2025-03-01 00:00+00')) TO (${t}_min('2025-04-01 00:00+00'));
		INSERT INTO r_$t SELECT ${t}_min(ts) FROM generate_series(timestamptz '2025-01-01 00:00+00', '2025-03-31 23:00+00', interval '1 hour') ts;
		ANALYZE r_$t" || fail "range-partitioned r_$t"
	# the shortest prefix of an ID of 15 February whose range lies inside February
	prefix=$(q1 "SELECT left(x, l) FROM (SELECT ${t}_min('2025-02-15 00:00+00')::text x) s, generate_series(1, length(x)) l
		WHERE ${t}_prefix_lo(left(x, l)) >= ${t}_min('2025-02-01 00:00+00') AND ${t}_prefix_hi(left(x, l)) < ${t}_min('2025-03-01 00:00+00')
		ORDER BY l LIMIT 1")
	prefix_rows=$(q1 "SELECT count(*) FROM r_$t WHERE left(id::text, length('$prefix')) = '$prefix'")
	feb="tstzrange('2025-02-10 00:00+00', '2025-02-20 00:00+00')"
	across="tstzrange('2025-01-25 00:00+00', '2025-02-05 00:00+00')"
	pruned "$t" "id <@ $feb" "id <@ $feb" "2025_02" 240
	pruned "$t" "id <@ $across" "id <@ $across" "2025_01 2025_02" 264
	pruned "$t" "id ^@ '$prefix'" "id ^@ '$prefix'" "2025_02" "$prefix_rows"
	pruned "$t" "generic plan of id ^@ \$1" "id ^@ \$1" "2025_02" "$prefix_rows" text "'$prefix'"
	pruned "$t" "generic plan of id <@ \$1" "id <@ \$1" "2025_02" 240 tstzrange "$feb"
done

# The collision table: the script runs, and docs/failover.md shows exactly what it prints.
if table=$(python3 "$ROOT/scripts/collision_table.py") && [ "$(grep -c '^|' <<<"$table")" -gt 10 ]; then
	if diff <(printf '%s\n' "$table") <(sed -n '/^| generator, identity |/,/^[^|]/p' "$ROOT/docs/failover.md" | grep '^|') >/dev/null; then
		ok "scripts/collision_table.py runs; docs/failover.md holds its table ($(($(grep -c '^| ' <<<"$table") - 1)) rows)"
	else
		fail "docs/failover.md's collision table differs from scripts/collision_table.py's output: paste it again"
	fi
else
	fail "scripts/collision_table.py: $table"
fi
exit $status
