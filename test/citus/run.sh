#!/usr/bin/env bash
# idtypes on Citus: a coordinator and two workers (test/citus/fleet.sh), PostgreSQL 15 with
# shared_preload_libraries = 'citus', each node with its own identity. CREATE EXTENSION and ALTER EXTENSION
# UPDATE on the coordinator reach every node. For every type: the ID column as
# the distribution column (rows on every shard; `=` in one task, `= ANY` in the tasks of the shards named);
# co-located tables joined without repartitioning and a reference table; `^@` and `<@` windows (constants,
# parameters, now()) sent to every shard and answered by the shard's index, with the shard's estimates as
# good as one server's; the hourly report and keyset pages across shards, equal to a single-server copy's
# answers; a distributed table partitioned by time on its ID (idtypes_maintain_partitions), pruned on
# both levels; IDs generated on every node at once through DEFAULT, none in common and each with its
# node's identity; the identities read from all nodes in one query, and the fleet check of docs/scale-out.md
# ("Citus") refusing two equal identities.
# Where Citus is not installed for PG_CONFIG's PostgreSQL, prints one `skip ...` line and exits 0.
# Needs PG_CONFIG (idtypes installed) and its client tools on PATH; starts and stops its own clusters.
# Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
source "$(dirname "$0")/fleet.sh"
types=(timeid tbsl uid11 scru160)
shards=4 # citus.shard_count: two per worker
rows=40000 # per type, spread over the 24 hours before now
per_node=5000 # per node and type, generated at once
status=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }

if ! citus_installed; then
	echo "skip test/citus: Citus is not installed for $("$PG_CONFIG" --version) (see README.md, Scaling out)"
	exit 0
fi
# one connection per worker and session (every check opens sessions of its own; small tables)
fleet_start 2 "$shards" citus.max_adaptive_executor_pool_size=1 || { fail "starting a coordinator and two workers with Citus and idtypes"; exit 1; }
# Most queries go through one open session on the coordinator: a new session costs Citus new connections
# to the workers (about 0.5 s on a loaded 2-core machine), a query in an open one a few ms. q prints the
# query's rows; an error goes to stderr and makes q return 1. Checks that change settings open their own.
coproc coordinator { on 0 -v ON_ERROR_STOP=0 -f - 2>&1; }
trap 'kill "$coordinator_PID" 2>/dev/null; fleet_stop' EXIT
q_done="-- q done --"
q() {
	local line out="" status=0
	printf '%s\n;\n\\echo %s\n' "$1" "$q_done" >&"${coordinator[1]}"
	while IFS= read -r -t 600 line <&"${coordinator[0]}"; do
		[ "$line" = "$q_done" ] && break
		if [[ $line == psql:*ERROR:* ]]; then
			echo "$line" >&2
			status=1
		else
			out+=$line$'\n'
		fi
	done
	printf '%s' "${out%$'\n'}"
	return $status
}
q "SET citus.explain_all_tasks = on" # EXPLAIN shows every task's plan

# The one place that reads a node's identity (what its generators put in timeids and tbsls).
identity_sql="SELECT timeid_clock_id || '/' || tbsl_machine_id FROM idtypes_identity()"

versions=$(q "SELECT (SELECT extversion FROM pg_extension WHERE extname = 'citus') || ' ' ||
	string_agg(result, ',' ORDER BY nodeid) FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'idtypes'\$\$)")
read -r citus_version idtypes_versions <<<"$versions"
if [ "$idtypes_versions" = "$(q "SELECT string_agg(extversion, ',') FROM pg_extension, generate_series(1, 3) WHERE extname = 'idtypes'")" ]; then
	ok "Citus $citus_version: CREATE EXTENSION idtypes on the coordinator reached both workers (idtypes $idtypes_versions)"
else
	fail "idtypes on the nodes: $idtypes_versions"
fi

# An update on the coordinator reaches every node too: from the oldest version to the current one.
versions_everywhere="SELECT string_agg(result, ',' ORDER BY nodeid) FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'idtypes'\$\$)"
current=$(q "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")
before=$(q "DROP EXTENSION idtypes; CREATE EXTENSION idtypes VERSION '1.0'; $versions_everywhere")
after=$(q "ALTER EXTENSION idtypes UPDATE; $versions_everywhere")
if [ "$before" = "1.0,1.0,1.0" ] && [ "$after" = "$current,$current,$current" ]; then
	ok "ALTER EXTENSION idtypes UPDATE on the coordinator updated all 3 nodes from 1.0 to $current"
else
	fail "idtypes versions on the nodes: created 1.0: '$before', updated: '$after' (expected $current everywhere)"
fi

# The generator of type T's DEFAULT on several nodes: xid (uid11_generate) has no identity field and its 22
# random bits per ms meet across nodes (docs/failover.md, "How likely is a duplicate"), so uid11 takes its 64-bit random form.
generator() {
	case $1 in uid11) echo uid11_generate_random ;; *) echo "${1}_generate" ;; esac
}

for t in "${types[@]}"; do
	q "CREATE TABLE ev_$t (id $t PRIMARY KEY DEFAULT $(generator "$t")(), node int NOT NULL DEFAULT -1, n int);
		SELECT create_distributed_table('ev_$t', 'id');
		CREATE TABLE items_$t (id $t NOT NULL, qty int);
		SELECT create_distributed_table('items_$t', 'id', colocate_with => 'ev_$t');
		CREATE TABLE ref_$t (id $t PRIMARY KEY, label text);
		SELECT create_reference_table('ref_$t');
		INSERT INTO ev_$t (id, n) SELECT ${t}_generate_at(now() - interval '24 hours' + g * (interval '24 hours' / $rows)), g
			FROM generate_series(0, $rows - 1) g;
		INSERT INTO items_$t SELECT id, n % 7 FROM ev_$t WHERE n % 2 = 0;
		INSERT INTO ref_$t SELECT id, 'row ' || n FROM ev_$t WHERE n % 1000 = 0;
		ANALYZE ev_$t; ANALYZE items_$t;
		CREATE TABLE one_$t AS SELECT * FROM ev_$t; ALTER TABLE one_$t ADD PRIMARY KEY (id); ANALYZE one_$t" >/dev/null ||
		{ fail "$t: distributed tables"; continue; }
done

# EXPLAIN on the coordinator with every task's plan shown, in a session of its own: first command, then
# further psql arguments.
explain_all() {
	local first=$1
	shift
	on 0 -c "SET citus.explain_all_tasks = on" -c "$first" "$@"
}
show_plan() { sed 's/^/     /' <<<"$1"; }
task_count() { grep -oE 'Task Count: [0-9]+' <<<"$1" | grep -oE '[0-9]+$'; }
# the shards a plan's tasks read (shard ids of table TABLE)
plan_shards() { grep -oE " on $2_[0-9]+" <<<"$1" | grep -oE '[0-9]+$' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
# a digest of the rows a query returns, on the coordinator
digest() { q "SELECT count(*) || ' ' || md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) FROM ($1) x"; }

for t in "${types[@]}"; do
	# shards and placements
	IFS='|' read -r nshards nworkers < <(q "SELECT count(*), count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'ev_$t'::regclass")
	per_shard=$(q "SELECT string_agg(result, ' ' ORDER BY shardid) FROM run_command_on_shards('ev_$t', 'SELECT count(*) FROM %s')")
	if [ "$nshards" = "$shards" ] && [ "$nworkers" = 2 ] && ! grep -qw 0 <<<"$per_shard" &&
		[ "$((${per_shard// /+}))" = "$rows" ]; then
		ok "$t: create_distributed_table on the ID column: $nshards shards on 2 workers, rows per shard $per_shard"
	else
		fail "$t: $nshards shards on $nworkers workers, rows per shard '$per_shard' (expected $rows on $shards shards)"
	fi

	# `=`: one task, on the shard Citus's hash names
	IFS='|' read -r x x_shard < <(q "SELECT id, get_shard_id_for_distribution_column('ev_$t', id) FROM one_$t WHERE n = $((rows / 3))")
	plan=$(q "EXPLAIN (COSTS OFF) SELECT * FROM ev_$t WHERE id = '$x'")
	got=$(q "SELECT n FROM ev_$t WHERE id = '$x'")
	if [ "$(task_count "$plan")" = 1 ] && [ "$(plan_shards "$plan" "ev_$t")" = "$x_shard" ] && [ "$got" = $((rows / 3)) ]; then
		ok "$t: id = '$x' runs as 1 task, on shard $x_shard"
	else
		fail "$t: id = '$x' (shard $x_shard, row $got):"
		show_plan "$plan"
	fi

	# `= ANY(array)`: the tasks of the shards of its elements only (IDs from 2 of the 4 shards)
	IFS='|' read -r arr named < <(q "SELECT 'ARRAY[''' || string_agg(id::text, ''', ''') || ''']::${t}[]', string_agg(DISTINCT s::text, ' ')
		FROM (SELECT id, get_shard_id_for_distribution_column('ev_$t', id) s FROM one_$t) x
		WHERE s IN (SELECT shardid FROM pg_dist_shard WHERE logicalrelid = 'ev_$t'::regclass ORDER BY shardid LIMIT 2)
		  AND id IN (SELECT id FROM one_$t ORDER BY n LIMIT 400)")
	plan=$(q "EXPLAIN (COSTS OFF) SELECT * FROM ev_$t WHERE id = ANY($arr)")
	want=$(q "SELECT count(*) FROM one_$t WHERE id = ANY($arr)")
	got=$(q "SELECT count(*) FROM ev_$t WHERE id = ANY($arr)")
	if [ "$(task_count "$plan")" = 2 ] && [ "$(plan_shards "$plan" "ev_$t")" = "$named" ] && [ "$got" = "$want" ] && [ "$got" -gt 2 ]; then
		ok "$t: id = ANY(array of $got IDs of 2 shards) runs as 2 tasks, on shards $named"
	else
		fail "$t: id = ANY(...) of shards $named ($got rows of $want):"
		show_plan "$plan"
	fi

	# co-located join on the ID: one task per shard pair, no repartitioning (citus.enable_repartition_joins
	# is off, so a join Citus could not push down would be refused)
	join="SELECT e.n, i.qty FROM ev_$t e JOIN items_$t i ON i.id = e.id WHERE e.n % 3 = 0"
	plan=$(q "SET citus.enable_repartition_joins = off; EXPLAIN (COSTS OFF) $join")
	if [ "$(task_count "$plan")" = "$shards" ] && ! grep -qiE 'repartition|MapMergeJob|Merge Task' <<<"$plan" &&
		[ "$(digest "$join")" = "$(digest "SELECT e.n, i.qty FROM one_$t e JOIN (SELECT id, n % 7 qty FROM one_$t WHERE n % 2 = 0) i ON i.id = e.id WHERE e.n % 3 = 0")" ] &&
		[ "$(q "SELECT count(DISTINCT colocationid) FROM pg_dist_partition WHERE logicalrelid IN ('ev_$t'::regclass, 'items_$t'::regclass)")" = 1 ]; then
		ok "$t: co-located tables joined on the ID in $shards tasks, no repartitioning, the single server's answer"
	else
		fail "$t: co-located join:"
		show_plan "$plan"
	fi

	# a reference table with an ID column: a copy on every node, joined in each shard's task
	placements=$(q "SELECT count(*) FROM pg_dist_placement JOIN pg_dist_shard USING (shardid) WHERE logicalrelid = 'ref_$t'::regclass")
	refjoin="SELECT e.n, r.label FROM ev_$t e JOIN ref_$t r USING (id)"
	plan=$(q "EXPLAIN (COSTS OFF) $refjoin")
	from_worker=$(on 2 -c "SELECT count(*) FROM ref_$t r JOIN ev_$t e USING (id) WHERE r.label = 'row ' || e.n")
	if [ "$placements" = 3 ] && [ "$(task_count "$plan")" = "$shards" ] &&
		[ "$(digest "$refjoin")" = "$(digest "SELECT n, 'row ' || n FROM one_$t WHERE n % 1000 = 0")" ] &&
		[ "$from_worker" = $((rows / 1000)) ]; then
		ok "$t: reference table with an ID column: a copy on all 3 nodes, joined on the ID in $shards tasks (and from a worker)"
	else
		fail "$t: reference table: $placements placements, $from_worker rows joined from worker 2:"
		show_plan "$plan"
	fi
done

last_hour="id <@ tstzrange(now() - interval '1 hour', now())"
# A window or prefix query: every shard's task reads its shard's primary key index by the range the
# condition is rewritten into, and answers what the single-server copy answers. type, name, where clause
# (with $1 for a parameter), then for a prepared statement its parameter type and argument.
pushed_window() {
	local t=$1 name=$2 where=$3 argtype=${4:-} arg=${5:-} plan got want indexed
	local answer="SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id))" as_on_one="as on one server"
	if [ -n "$argtype" ]; then
		# Citus plans every execution of a prepared statement with its values (it refuses
		# plan_cache_mode = force_generic_plan for any multi-shard query with parameters): the 7th
		# execution, past the 5 after which PostgreSQL may settle on a generic plan
		local prep="PREPARE s($argtype) AS SELECT * FROM ev_$t WHERE $where;
			PREPARE a($argtype) AS $answer FROM ev_$t WHERE $where"
		local runs=(-c '\o /dev/null')
		for _ in 1 2 3 4 5 6; do runs+=(-c "EXECUTE s($arg)"); done
		plan=$(explain_all "$prep" "${runs[@]}" -c '\o' -c "EXPLAIN (COSTS OFF) EXECUTE s($arg)")
		got=$(on 0 -c "$prep" -c "EXECUTE a($arg)")
		want=$(q "$answer FROM one_$t WHERE ${where//\$1/$arg}")
	elif [ "$where" = "$last_hour" ]; then
		# Each worker evaluates now() at its own transaction's start, between the coordinator's now() and
		# the query's end: the rows all such windows hold must be there, and none outside every one.
		plan=$(q "EXPLAIN (COSTS OFF) SELECT * FROM ev_$t WHERE $where")
		IFS='|' read -r got missing extra < <(q "BEGIN; CREATE TEMP TABLE got ON COMMIT DROP AS SELECT id FROM ev_$t WHERE $where;
			SELECT (SELECT count(*) FROM got),
			       (SELECT count(*) FROM one_$t WHERE id <@ tstzrange(clock_timestamp() - interval '1 hour', now())
			        AND id NOT IN (SELECT id FROM got)),
			       (SELECT count(*) FROM got WHERE id NOT IN
			        (SELECT id FROM one_$t WHERE id <@ tstzrange(now() - interval '1 hour', clock_timestamp())));
			COMMIT")
		[ "$missing $extra" = "0 0" ] && want=$got || want="$got rows, $missing missing, $extra extra"
		local as_on_one="as one server's for a now() between the query's start and its end"
	else
		plan=$(q "EXPLAIN (COSTS OFF) SELECT * FROM ev_$t WHERE $where")
		got=$(q "$answer FROM ev_$t WHERE $where")
		want=$(q "$answer FROM one_$t WHERE $where")
	fi
	# an index scan of a shard's primary key whose condition is the range (both bounds)
	indexed=$(grep -cE "(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) ev_${t}_pkey_[0-9]+" <<<"$plan")
	conds=$(grep -cE "Index Cond: \(\(id >= .*\) AND \(id <= .*\)\)" <<<"$plan")
	if [ "$(task_count "$plan")" = "$shards" ] && [ "$indexed" = "$shards" ] && [ "$conds" = "$shards" ] &&
		! grep -qE '^\s+Filter:' <<<"$plan" && [ "$got" = "$want" ] && [ "${got%% *}" -gt 0 ]; then
		ok "$t $name: $shards tasks, each an index range scan of its shard ($(grep -m1 -oE 'Index Cond: .*' <<<"$plan" | cut -c13-120)…), ${got%% *} rows $as_on_one"
	else
		fail "$t $name: $indexed of $shards tasks read the shard's index by range; $got rows, one server $want:"
		show_plan "$plan"
	fi
}

for t in "${types[@]}"; do
	IFS='|' read -r lo_ts prefix < <(q "SELECT date_trunc('hour', now() - interval '10 hours'),
		(SELECT left(x, l) FROM (SELECT id::text x FROM one_$t WHERE n = $((rows / 2))) s, generate_series(1, length(x)) l
		 WHERE (SELECT count(*) FROM one_$t WHERE id ^@ left(x, l)) BETWEEN 2 AND $rows / 20 ORDER BY l LIMIT 1)")
	window="tstzrange('$lo_ts', timestamptz '$lo_ts' + interval '1 hour')"
	pushed_window "$t" "<@ a constant hour" "id <@ $window"
	pushed_window "$t" "^@ '$prefix'" "id ^@ '$prefix'"
	pushed_window "$t" "<@ \$1 (prepared, 7th execution)" "id <@ \$1" tstzrange "$window"
	pushed_window "$t" "^@ \$1 (prepared, 7th execution)" "id ^@ \$1" text "'$prefix'"
	pushed_window "$t" "<@ the last hour by now()" "$last_hour"

	# estimates: each shard's task estimates the hour's rows of its shard as well as one server estimates
	# the whole hour (within 1.5x of the actual rows, the bar of sql/planner.sql)
	plan=$(q "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) SELECT * FROM ev_$t WHERE id <@ $window")
	shard_est=$(grep -E " on ev_${t}_[0-9]+ " <<<"$plan" | grep -oE 'rows=[0-9]+ width=[0-9]+\) \(actual rows=[0-9]+' |
		sed -E 's/rows=([0-9]+) .*actual rows=([0-9]+)/\1:\2/' | tr '\n' ' ' | sed 's/ $//')
	one_est=$(q "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) SELECT * FROM one_$t WHERE id <@ $window")
	one_est=$(head -1 <<<"$one_est" |
		grep -oE 'rows=[0-9]+ width=[0-9]+\) \(actual rows=[0-9]+' | sed -E 's/rows=([0-9]+) .*actual rows=([0-9]+)/\1:\2/')
	within() { awk -F: '{ e = $1; a = $2; if (!(a > 0 && e <= 1.5 * a && a <= 1.5 * e)) bad = 1 } END { exit bad }' <<<"$(tr ' ' '\n' <<<"$1")"; }
	if [ "$(wc -w <<<"$shard_est")" = "$shards" ] && within "$shard_est" && within "$one_est"; then
		ok "$t: estimated:actual rows of an hour's window on each shard $shard_est, on one server $one_est"
	else
		fail "$t: estimates of an hour's window (estimated:actual) on the shards '$shard_est', on one server '$one_est':"
		show_plan "$plan"
	fi

	# the hourly report of the last 12 hours, across shards
	# (constant bounds: a window by now() ends at each worker's own now())
	report="SELECT date_trunc('hour', id::timestamptz) AS hour, count(*) FROM %s
		WHERE id <@ tstzrange(timestamptz '$lo_ts' - interval '2 hours', timestamptz '$lo_ts' + interval '10 hours') GROUP BY 1 ORDER BY 1"
	# shellcheck disable=SC2059 # the table's name goes into the query
	a=$(q "$(printf "$report" "ev_$t")")
	# shellcheck disable=SC2059
	b=$(q "$(printf "$report" "one_$t")")
	# shellcheck disable=SC2059
	plan=$(q "EXPLAIN (COSTS OFF) $(printf "$report" "ev_$t")")
	if [ "$a" = "$b" ] && [ "$(wc -l <<<"$a")" -ge 12 ] && [ "$(task_count "$plan")" = "$shards" ] &&
		sed -n '/Task/,$p' <<<"$plan" | grep -qE 'HashAggregate|GroupAggregate'; then
		ok "$t: the hourly report of 12 hours (date_trunc of id::timestamptz): counted on each shard, $(wc -l <<<"$a") hours as on one server"
	else
		fail "$t: hourly report differs from one server's or is not grouped on the shards:"
		diff <(echo "$a") <(echo "$b") | head -5 | sed 's/^/     /'
		show_plan "$plan"
	fi
	# Citus does not pass the session's TimeZone to the workers: a report for another zone names it
	a=$(on 0 -c "SET TimeZone = 'Asia/Kolkata'" -c "SELECT date_trunc('day', id::timestamptz, 'Asia/Kolkata') AS day, count(*) FROM ev_$t GROUP BY 1 ORDER BY 1")
	b=$(on 0 -c "SET TimeZone = 'Asia/Kolkata'" -c "SELECT date_trunc('day', id::timestamptz) AS day, count(*) FROM one_$t GROUP BY 1 ORDER BY 1")
	if [ "$a" = "$b" ] && [ "$(wc -l <<<"$a")" -ge 2 ]; then
		ok "$t: the daily report for Asia/Kolkata (date_trunc with the zone named) equals one server's, for a session in that zone"
	else
		fail "$t: daily report for Asia/Kolkata differs from one server's: $(diff <(echo "$a") <(echo "$b") | tr '\n' ' ')"
	fi

	# keyset pagination by ID across shards: 5 pages of 100 from the window's start, each page's query
	# reading at most 100 rows of each shard in ID order from its index
	page="SELECT id FROM %s WHERE id > '%s' ORDER BY id LIMIT 100"
	last=$(q "SELECT ${t}_window_lo($window)")
	pages=""
	for _ in 1 2 3 4 5; do
		# shellcheck disable=SC2059
		ids=$(q "$(printf "$page" "ev_$t" "$last")")
		pages+="$ids"$'\n'
		last=$(tail -1 <<<"$ids")
	done
	one=$(q "SELECT id FROM one_$t WHERE id >= ${t}_window_lo($window) ORDER BY id LIMIT 500")
	# shellcheck disable=SC2059
	plan=$(q "EXPLAIN (COSTS OFF) $(printf "$page" "ev_$t" "$last")")
	if [ "${pages%$'\n'}" = "$one" ] && [ "$(wc -l <<<"$one")" = 500 ] && [ "$(task_count "$plan")" = "$shards" ] &&
		sed -n '/Task/,$p' <<<"$plan" | grep -A1 -- '->  Limit' | grep -qE "Index (Only )?Scan using ev_${t}_pkey_"; then
		ok "$t: keyset pagination across shards: 5 pages of 100 equal one server's, each shard's task a Limit over its index"
	else
		fail "$t: keyset pages differ from one server's, or the shards do not read their index in order:"
		show_plan "$plan"
	fi
done

# A distributed table partitioned by day on its ID: partitions from idtypes_maintain_partitions before
# and after distribution (the later ones Citus distributes as they are attached).
day() { q "SELECT date_trunc('day', now() AT TIME ZONE 'UTC' + interval '$1 days') AT TIME ZONE 'UTC'"; }
for t in "${types[@]}"; do
	made=$(q "CREATE TABLE pe_$t (id $t PRIMARY KEY DEFAULT ${t}_generate(), n int) PARTITION BY RANGE (id);
		SELECT count(*) FROM idtypes_maintain_partitions('pe_$t', '1 day', 1);
		SELECT create_distributed_table('pe_$t', 'id', colocate_with => 'ev_$t');
		SELECT count(*) FROM idtypes_maintain_partitions('pe_$t', '1 day', 2);" 2>&1)
	made=$(grep . <<<"$made" | tr '\n' ' ')
	parts=$(q "SELECT count(*) FROM pg_dist_partition p JOIN pg_inherits i ON i.inhrelid = p.logicalrelid WHERE i.inhparent = 'pe_$t'::regclass")
	# three days of rows: today's (DEFAULT, generated now) and made ones for today, tomorrow, the day after
	q "INSERT INTO pe_$t (n) SELECT g FROM generate_series(1, 100) g;
		INSERT INTO pe_$t (id, n) SELECT ${t}_generate_at('$(day 0)'::timestamptz + g * interval '259 s'), g FROM generate_series(0, 999) g;
		ANALYZE pe_$t" >/dev/null || fail "$t: rows into pe_$t"
	if [ "$made" = "2 1 " ] && [ "$parts" = 3 ]; then
		ok "$t: distributed table partitioned by day on its ID: 2 partitions made before create_distributed_table, 1 after, all 3 distributed"
	else
		fail "$t: idtypes_maintain_partitions with Citus: made '$made', distributed partitions $parts"
	fi
	tomorrow=$(day 1)
	# the shortest prefix of an ID of tomorrow noon whose range lies inside tomorrow
	prefix=$(q "SELECT left(x, l) FROM (SELECT ${t}_min('$tomorrow'::timestamptz + interval '12 hours')::text x) s, generate_series(1, length(x)) l
		WHERE ${t}_prefix_lo(left(x, l)) >= ${t}_min('$tomorrow') AND ${t}_prefix_hi(left(x, l)) < ${t}_min('$tomorrow'::timestamptz + interval '1 day')
		ORDER BY l LIMIT 1")
	for name in "id = x" "<@ an hour of tomorrow" "^@ '$prefix' inside tomorrow" "<@ the last hour by now()"; do
		want_tasks=$shards want_day=$(date -u -d "${tomorrow% *}" +%Y%m%d)
		case $name in
		"id = x")
			where="id = '$(q "SELECT id FROM pe_$t WHERE id > ${t}_min('$tomorrow') ORDER BY n LIMIT 1")'"
			want_tasks=1 ;;
		"<@ an hour"*) where="id <@ tstzrange('$tomorrow'::timestamptz + interval '10 hours', '$tomorrow'::timestamptz + interval '11 hours')" ;;
		"^@"*) where="id ^@ '$prefix'" ;;
		*)
			where="id <@ tstzrange(now() - interval '1 hour', now())"
			# there is no partition before today's: the last hour is in today's
			want_day=$(q "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')") ;;
		esac
		plan=$(q "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) SELECT * FROM pe_$t WHERE $where")
		got=$(q "SELECT count(*) FROM pe_$t WHERE $where")
		# the partitions each task read: shard names of pe_T_pYYYYMMDD
		read_parts=$(grep -oE " on pe_${t}_p[0-9]{8}_[0-9]+" <<<"$plan" | sed -E 's/.*_p([0-9]{8})_.*/\1/' | sort | uniq -c | awk '{ print $2 "x" $1 }' | tr '\n' ' ')
		if [ "$(task_count "$plan")" = "$want_tasks" ] && [ "${read_parts% }" = "${want_day}x$want_tasks" ] && [ "$got" -gt 0 ]; then
			ok "$t partitioned: $name: $want_tasks task(s) of ${shards}, each reading only the partition $want_day ($got rows)$(grep -m1 -o 'Subplans Removed: [0-9]*' <<<"$plan" | sed 's/^/, /')"
		else
			fail "$t partitioned: $name: $(task_count "$plan") tasks reading partitions '$read_parts' (expected ${want_day}x$want_tasks), $got rows:"
			show_plan "$plan"
		fi
	done
done

# IDs generated on all three nodes at once through the DEFAULT of each distributed table, each type
# released on every node together by pg_sleep_until.
for t in "${types[@]}"; do
	start=$(q "SELECT now() + interval '1 s'")
	pids=()
	for k in 0 1 2; do
		on "$k" -c "SELECT pg_sleep_until('$start')" -c "INSERT INTO ev_$t (node, n) SELECT $k, g FROM generate_series(1, $per_node) g" \
			>/dev/null 2>"${fleet_dirs[0]}/gen$k.err" &
		pids+=($!)
	done
	failed=0
	for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
	IFS='|' read -r per dup overlap < <(q "SELECT (SELECT string_agg(c::text, ' ' ORDER BY node) FROM (SELECT node, count(*) c FROM ev_$t WHERE node >= 0 GROUP BY node) s),
		(SELECT count(*) - count(DISTINCT id) FROM ev_$t),
		(SELECT round(greatest(0, extract(epoch FROM min(hi) - max(lo)) * 1000)) FROM
			(SELECT node, min(id)::timestamptz lo, max(id)::timestamptz hi FROM ev_$t WHERE node >= 0 GROUP BY node) s)")
	# uid11_generate_random's values carry no time
	[ "$t" = uid11 ] && overlap="" || overlap=" (their times overlapping for $overlap ms)"
	if [ $failed = 0 ] && [ "$per" = "$per_node $per_node $per_node" ] && [ "$dup" = 0 ]; then
		ok "$t: $per_node IDs generated by $(generator "$t")() through DEFAULT on each of the 3 nodes at once$overlap: none in common"
	else
		fail "$t: generated on every node: per node '$per', duplicates $dup $(cat "${fleet_dirs[0]}"/gen*.err)"
	fi
done
# every generated timeid and tbsl carries the identity of the node that made it
wrong=$(q "SELECT (SELECT count(*) FROM ev_timeid WHERE node >= 0 AND timeid_clock_id(id) <> node + 1) || ' ' ||
	(SELECT count(*) FROM ev_tbsl WHERE node >= 0 AND tbsl_machine_id(id) <> node + 1)")
[ "$wrong" = "0 0" ] && ok "every timeid carries its node's clock id, every tbsl its machine id" ||
	fail "IDs without their node's identity (timeid, tbsl): $wrong"

# Identities of all nodes in one query, and the fleet check of docs/scale-out.md (run from its text).
identities=$(q "SELECT string_agg(nodeid || ':' || result, ' ' ORDER BY nodeid) FROM run_command_on_all_nodes(\$q\$$identity_sql\$q\$)")
if [ "$(wc -w <<<"$identities")" = 3 ] && [ "$(tr ' ' '\n' <<<"$identities" | cut -d: -f2 | sort -u | wc -l)" = 3 ]; then
	ok "each node's identity (node:clock id/machine id), read from all nodes in one query: $identities"
else
	fail "identities of the nodes: '$identities'"
fi
# the fleet check is docs/scale-out.md's block between <!-- fleet check --> and <!-- /fleet check -->
fleet_check=$(sed -n '/<!-- fleet check -->/,/<!-- \/fleet check -->/p' "$ROOT/docs/scale-out.md" | sed '1,/^```/d; /^```/,$d')
if [ -z "$fleet_check" ]; then
	fail "docs/scale-out.md holds no fleet check between <!-- fleet check --> markers"
else
	passes=$(on 0 -c "$fleet_check" 2>&1)
	set_identity 2 "$(node_clock_id 1)" "$(node_machine_id 2)" # worker 2 takes worker 1's clock id
	refused=$(on 0 -c "$fleet_check" 2>&1)
	set_identity 2 -1 "$(node_machine_id 2)" # worker 2 draws a random clock id
	random=$(on 0 -c "$fleet_check" 2>&1)
	set_identity 2 "$(node_clock_id 2)" "$(node_machine_id 2)"
	again=$(on 0 -c "$fleet_check" 2>&1)
	if [ -z "$passes$again" ] && grep -q 'ERROR.*nodes 2, 3: idtypes.timeid_clock_id = 2' <<<"$refused" &&
		grep -qE 'ERROR.*nodes 3: idtypes.timeid_clock_id = [^ ]+ \(random\)' <<<"$random"; then
		ok "the README's fleet check passes distinct identities, refuses two nodes with one clock id ($(grep -m1 ERROR <<<"$refused")) and a node with a random one, passes again once mended"
	else
		fail "fleet check: distinct '$passes', two equal '$refused', a random clock id '$random', after restoring '$again'"
	fi
fi
exit $status
