#!/usr/bin/env bash
# Adoption (docs/adopting.md) under load, in clusters of its own (a primary and a streaming standby) with
# PostgreSQL's bin directory BIN_DIR. Prints `ok` / `FAIL` lines.
#  1. Under load: a parent of IDTYPES_ADOPT_ROWS rows (1,000,000) with three children (one partitioned, one
#     ON UPDATE CASCADE), a self reference, a view and a policy on the key, moved bigint -> timeid (keep),
#     uuid v4 -> v7 (IDTYPES_ADOPT_UUID_ROWS), and bigint -> timeid in time mode from created_at (the children
#     looking their keys up in the parent; IDTYPES_ADOPT_TIME_ROWS, 50,000) while pgbench writes to all four
#     tables the whole time: start, backfill, prepare (the CREATE
#     INDEX CONCURRENTLY statements, through psql's \gexec as the CLI prints them), constrain, verify, cut over
#     (the uuid run, IDTYPES_ADOPT_UUID_ROWS (100,000) rows: roll back, backfill, prepare, constrain, verify, cut
#     over again), finish. Checks: no pgbench transaction blocked longer
#     than 1 s (its latency log: time minus schedule lag), no failed transaction, 0 rows whose new key differs
#     from the mapping of the row's key before the start, 0 orphans, every foreign key validated, every step done.
#  2. Interrupted: for each step (start, backfill, constrain, cutover, rollback, finish), a cancel, a crash (the
#     backend killed: the server restarts) and a failover (the primary stopped, the standby promoted) while the
#     step waits for a lock (or, for the backfill, between batches), then the step called again and the
#     adoption carried to its end: the same tables, keys and constraints as a run never interrupted.
set -uo pipefail
bin=${1:?usage: run.sh BIN_DIR}
rows=${IDTYPES_ADOPT_ROWS:-1000000}
small=${IDTYPES_ADOPT_SMALL_ROWS:-3000}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../concurrency/server.sh"
source "$here/../concurrency/clusters.sh"
settings=$(settings_for no "-c max_wal_senders=10 -c wal_level=replica -c hot_standby=on -c max_connections=60 -c wal_keep_size=512MB")
SECONDS=0

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby || die "the standby does not start"
ready standby || die "the standby does not answer"
primary=primary standby=standby

db() { local d=$1; shift; PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -h "$work" -p "${port[$primary]}" -U postgres -d "$d" "$@"; }
# a database with the cluster of schema.sql: bigint keys (keep) or uuid keys (v7)
make_db() {
	local d=$1 kind=$2 n=$3
	sql "$primary" -c "CREATE DATABASE $d" || return 1
	db "$d" -c "CREATE EXTENSION idtypes" || return 1
	if [ "$kind" != uuid ]; then
		db "$d" -v kind=bigint -v "default=nextval('seq_s') + 1000000000" -v rows="$n" -v gen=i -f "$here/schema.sql"
	else
		db "$d" -v kind=uuid -v "default=gen_random_uuid()" -v rows="$n" -v gen='md5(i::text)::uuid' -f "$here/schema.sql"
	fi
	# the mapping's input: every row's key and reference before the start
	db "$d" -c "CREATE TABLE before_parent AS SELECT seq, id, created_at FROM parent" \
		-c "CREATE TABLE before_children AS SELECT 'a' AS t, id, parent_id FROM child_a UNION ALL SELECT 'b', id, parent_id FROM child_b
		    UNION ALL SELECT 'p', id, parent_id FROM child_p" -c "ANALYZE before_parent, before_children"
}
to_type() { case $1 in bigint) echo "'timeid', 'keep'" ;; uuid) echo "'uuid', 'v7'" ;; time) echo "'timeid', 'time', 'created_at'" ;; esac; }
# the statements of prepare, run by psql's \gexec (each in a transaction of its own), as the CLI prints them
prepare() { echo "SELECT s FROM idtypes_adopt_prepare('parent') s \\gexec" | db "$1" >/dev/null; }
# every step from start to the cut-over
forward() {
	local d=$1 kind=$2
	db "$d" -c "CALL idtypes_adopt_start('parent', $(to_type "$kind"))" &&
		db "$d" -c "CALL idtypes_adopt_backfill('parent')" && prepare "$d" &&
		db "$d" -c "CALL idtypes_adopt_constrain('parent')" &&
		[ "$(db "$d" -c "SELECT sum(failures) FROM idtypes_adopt_verify('parent')")" = 0 ] &&
		db "$d" -c "CALL idtypes_adopt_cutover('parent')"
}
# 0 rows off the mapping of the keys before the start, 0 orphans, every foreign key validated, no INVALID index
end_state() {
	local d=$1 kind=$2 map cmap
	case $kind in
	bigint) map='b.id::timeid' cmap='b.parent_id::timeid' ;;
	uuid) map="uuid_v7_from((SELECT t0 FROM idtypes_adopt.migration), b.id)" cmap=${map/b.id/b.parent_id} ;;
	time) # the time of the parent's row, its old key's low 10 bits; a child's: its parent's
		map='make_timeid(floor(extract(epoch FROM b.created_at) * 1000000)::bigint, (b.id & 1023)::integer)'
		cmap="(SELECT ${map//b./bp.} FROM before_parent bp WHERE bp.id = b.parent_id)" ;;
	esac
	db "$d" -c "SELECT (SELECT count(*) FROM before_parent b LEFT JOIN parent p ON p.seq = b.seq WHERE p.id IS DISTINCT FROM $map)
	  + (SELECT count(*) FROM before_children b LEFT JOIN (SELECT 'a' AS t, id, parent_id FROM child_a UNION ALL
	     SELECT 'b', id, parent_id FROM child_b UNION ALL SELECT 'p', id, parent_id FROM child_p) c ON (c.t, c.id) = (b.t, b.id)
	     WHERE c.parent_id IS DISTINCT FROM $cmap)" \
		-c "SELECT (SELECT count(*) FROM child_a c WHERE NOT EXISTS (SELECT FROM parent p WHERE p.id = c.parent_id))
	  + (SELECT count(*) FROM child_b c WHERE c.parent_id IS NOT NULL AND NOT EXISTS (SELECT FROM parent p WHERE p.id = c.parent_id))
	  + (SELECT count(*) FROM child_p c WHERE NOT EXISTS (SELECT FROM parent p WHERE p.id = c.parent_id))
	  + (SELECT count(*) FROM parent c WHERE c.up IS NOT NULL AND NOT EXISTS (SELECT FROM parent p WHERE p.id = c.up))" \
		-c "SELECT count(*) FILTER (WHERE NOT convalidated) || ' of ' || count(*) FROM pg_constraint WHERE contype = 'f' AND confrelid = 'parent'::regclass" \
		-c "SELECT count(*) FROM pg_index WHERE NOT indisvalid" | tr '\n' ' '
}
# the tables' shape and rows, to compare runs: columns, constraints, indexes, the rows with their keys
fingerprint() {
	db "$1" -c "SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
	  SELECT format('%s.%s %s %s', attrelid::regclass, attname, format_type(atttypid, atttypmod), attnotnull) AS x FROM pg_attribute
	   WHERE attrelid IN ('parent'::regclass, 'child_a'::regclass, 'child_b'::regclass, 'child_p'::regclass, 'child_p0'::regclass) AND attnum > 0 AND NOT attisdropped
	  UNION ALL SELECT format('%s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) FROM pg_constraint
	   WHERE conrelid IN ('parent'::regclass, 'child_a'::regclass, 'child_b'::regclass, 'child_p'::regclass, 'child_p0'::regclass)
	  UNION ALL SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid IN ('parent'::regclass, 'child_a'::regclass, 'child_b'::regclass, 'child_p'::regclass)
	  UNION ALL SELECT format('%s %s %s %s', seq, id, up, n) FROM parent
	  UNION ALL SELECT format('a %s %s', id, parent_id) FROM child_a UNION ALL SELECT format('b %s %s', id, parent_id) FROM child_b
	  UNION ALL SELECT format('p %s %s %s', id, k, parent_id) FROM child_p
	  UNION ALL SELECT format('phase %s, triggers %s', (SELECT phase FROM idtypes_adopt.migration), (SELECT count(*) FROM pg_trigger WHERE tgname = 'zz_idtypes_adopt'))) s"
}

# ------------------------------------------------------------------------------------------------- 1. under load
cat >"$work/load.sql" <<'EOF'
\set r random(1, :rows)
\set c random(1, :rows / 10)
BEGIN;
UPDATE parent SET n = n + 1 WHERE seq = :r;
INSERT INTO parent (seq, up) SELECT nextval('seq_s'), id FROM parent WHERE seq = :r;
INSERT INTO child_a (parent_id) SELECT id FROM parent WHERE seq = :r;
UPDATE child_b SET n = n + 1 WHERE id = :c;
INSERT INTO child_p (k, parent_id) SELECT :r % 2, id FROM parent WHERE seq = :r;
END;
EOF
chmod 644 "$work/load.sql"
for kind in bigint uuid time; do
	d=load_$kind
	n=$rows
	[ "$kind" = uuid ] && n=${IDTYPES_ADOPT_UUID_ROWS:-100000} # the same code; CI's time
	[ "$kind" = time ] && n=${IDTYPES_ADOPT_TIME_ROWS:-50000}
	make_db "$d" "$kind" "$n" || die "the $kind tables of $n rows"
	log=$work/pgbench_$kind
	mkdir -p "$log" && chown postgres: "$log"
	# pgbench the whole time: 4 clients at 200 transactions a second, prepared statements
	runuser -u postgres -- "$(dirname "$(command -v psql)")/pgbench" -n -h "$work" -p "${port[$primary]}" -U postgres \
		-M prepared -c 4 -j 2 -R 200 -T 3600 -D rows="$n" -f "$work/load.sql" --log --log-prefix="$log/lat" "$d" \
		>"$log/out" 2>&1 &
	bench=$!
	sleep 2
	t0=$SECONDS
	steps=0
	forward "$d" "$kind" && steps=$((steps + 1))
	[ "$(db "$d" -c "SELECT sum(failures) FROM idtypes_adopt_verify('parent')")" = 0 ] && steps=$((steps + 1))
	if [ "$kind" = uuid ]; then # the rollback window: on the smaller run (CI's time)
		db "$d" -c "CALL idtypes_adopt_rollback('parent')" && steps=$((steps + 1))
		db "$d" -c "CALL idtypes_adopt_backfill('parent')" && prepare "$d" && db "$d" -c "CALL idtypes_adopt_constrain('parent')" &&
			[ "$(db "$d" -c "SELECT sum(failures) FROM idtypes_adopt_verify('parent')")" = 0 ] &&
			db "$d" -c "CALL idtypes_adopt_cutover('parent')" && steps=$((steps + 1))
	else
		steps=$((steps + 2))
	fi
	db "$d" -c "CALL idtypes_adopt_finish('parent')" && steps=$((steps + 1))
	took=$((SECONDS - t0))
	# pgbench stops at SIGTERM without flushing its log: what it loses (a buffer per thread) is of these 3 s
	sleep 3
	kill -TERM "$(pgrep -P "$bench")" 2>/dev/null
	wait "$bench"
	rate=$(db "$d" -c "SELECT rows_done || ' rows at ' || rows_per_second || ' rows/s' FROM idtypes_adopt_progress")
	what="start, backfill, prepare, constrain, verify, cut-over,"
	[ "$kind" = uuid ] && what+=" rollback, backfill, prepare, constrain, verify, cut-over again,"
	[ "$steps" = 5 ] && ok "$kind ($n rows): $what finish under pgbench ($took s; backfill $rate)" ||
		fail "$kind: $steps of 5 stages done: $(db "$d" -c "SELECT step || ' ' || coalesce(detail, '') FROM idtypes_adopt.log ORDER BY at DESC LIMIT 5")"
	# pgbench's log: client, transaction, time (µs), script, epoch, µs, schedule lag (µs)
	read -r txns slow worst < <(cat "$log"/lat* | awk '{ t = $3 - $7; n++; if (t > 1000000) s++; if (t > w) w = t } END { printf "%d %d %d\n", n, s, w / 1000 }')
	failed=$(grep -cE 'aborted|ERROR' "$log/out")
	[ "${txns:-0}" -gt 1000 ] && [ "$slow" = 0 ] && [ "$failed" = 0 ] &&
		ok "$kind: pgbench ran $txns transactions on all four tables, none blocked longer than 1 s (the longest $worst ms), none failed" ||
		fail "$kind: pgbench: $txns transactions, $slow longer than 1 s (the longest $worst ms), $failed errors: $(grep -m3 -E 'aborted|ERROR' "$log/out")"
	end=$(end_state "$d" "$kind")
	# 6 foreign keys: the self reference, two children, the partitioned child's and its two partitions'
	[ "$end" = "0 0 0 of 6 0 " ] && ok "$kind ($n rows): 0 rows off the mapping of the keys before the start, 0 orphans, 6 of 6 foreign keys validated, no INVALID index" ||
		fail "$kind: mismatches, orphans, FKs not validated of all, INVALID indexes: $end"
	sql "$primary" -c "DROP DATABASE $d" >/dev/null
done

# ------------------------------------------------------------------------------------------------- 2. interrupted
# every case starts from a copy of one database (CREATE DATABASE ... TEMPLATE: no extension script run per case)
make_db tmpl bigint "$small" >/dev/null || die "the template database"
copy_db() { sql "$primary" -c "CREATE DATABASE $1 TEMPLATE tmpl"; }
# a reference run, never interrupted
copy_db ref && forward ref bigint >/dev/null && db ref -c "CALL idtypes_adopt_finish('parent')" >/dev/null
reference=$(fingerprint ref)
[ -n "$reference" ] || fail "the reference run: $(db ref -c 'SELECT phase FROM idtypes_adopt.migration' 2>&1)"

# waits until the backend running a CALL of the step waits for a lock (or, for the backfill, has done some
# batches), up to 30 s; prints its pid
caught() {
	local d=$1 step=$2 pid
	for _ in $(seq 1 300); do
		if [ "$step" = backfill ]; then
			pid=$(db "$d" -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'CALL idtypes_adopt_backfill%'
			      AND (SELECT rows_done > 0 FROM idtypes_adopt.migration)")
		else
			pid=$(db "$d" -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'CALL idtypes_adopt_$step%' AND (wait_event_type = 'Lock'
			      OR wait_event = 'PgSleep')")
		fi
		[ -n "$pid" ] && { echo "$pid"; return 0; }
		sleep 0.1
	done
	return 1
}
# steps before STEP, STEP itself (its CALL), and the ones after it
before() {
	local d=$1 step=$2
	case $step in
	start) ;;
	backfill) db "$d" -c "CALL idtypes_adopt_start('parent', 'timeid')" ;;
	constrain) db "$d" -c "CALL idtypes_adopt_start('parent', 'timeid')" -c "CALL idtypes_adopt_backfill('parent')" && prepare "$d" ;;
	cutover | rollback | finish)
		forward "$d" bigint || return 1
		if [ "$step" = cutover ]; then
			db "$d" -c "CALL idtypes_adopt_rollback('parent')" && prepare "$d" &&
				db "$d" -c "CALL idtypes_adopt_constrain('parent')" -c "SELECT count(*) FROM idtypes_adopt_verify('parent')" >/dev/null
		fi
		;;
	esac
}
call_of() {
	case $1 in
	start) echo "CALL idtypes_adopt_start('parent', 'timeid')" ;;
	backfill) echo "CALL idtypes_adopt_backfill('parent', 1, pause => '20ms')" ;;
	*) echo "CALL idtypes_adopt_$1('parent')" ;;
	esac
}
# from STEP to the end, the steps a rerun does
after() {
	local d=$1 step=$2
	case $step in
	start) db "$d" -c "$(call_of start)" && after "$d" backfill ;;
	backfill) db "$d" -c "CALL idtypes_adopt_backfill('parent')" && prepare "$d" && after "$d" constrain ;;
	constrain) db "$d" -c "CALL idtypes_adopt_constrain('parent')" && [ "$(db "$d" -c "SELECT sum(failures) FROM idtypes_adopt_verify('parent')")" = 0 ] &&
		after "$d" cutover ;;
	cutover) db "$d" -c "CALL idtypes_adopt_cutover('parent')" && after "$d" finish ;;
	rollback) db "$d" -c "CALL idtypes_adopt_rollback('parent')" -c "CALL idtypes_adopt_backfill('parent')" && prepare "$d" && after "$d" constrain ;;
	finish) db "$d" -c "CALL idtypes_adopt_finish('parent')" ;;
	esac
}
case_no=0
for way in cancel crash failover; do
	for step in start backfill constrain cutover rollback finish; do
		case_no=$((case_no + 1))
		d=i$case_no
		copy_db "$d" && before "$d" "$step" >/dev/null 2>&1 || { fail "$way during $step: the steps before it"; continue; }
		# a transaction holding a lock on child_b that the step needs (the backfill needs none: it is slowed down)
		holder=
		if [ "$step" != backfill ]; then
			(db "$d" -c "BEGIN" -c "LOCK child_b IN ROW EXCLUSIVE MODE" -c "SELECT pg_sleep(60)" >/dev/null 2>&1) &
			holder=$!
			sleep 0.3
		fi
		(db "$d" -c "SET application_name = step" -c "$(call_of "$step")" >/dev/null 2>&1) &
		caller=$!
		pid=$(caught "$d" "$step") || { fail "$way during $step: the step was not caught waiting"; kill "$holder" "$caller" 2>/dev/null; continue; }
		case $way in
		cancel) db "$d" -c "SELECT pg_cancel_backend($pid)" >/dev/null ;;
		crash) kill -KILL "$pid"; sleep 1; ready "$primary" ;;
		failover)
			wait_replay "$primary" "$standby"
			failover "$primary" "$standby" || die "the failover"
			old=$primary primary=$standby standby=$old
			rm -rf "${work:?}/$standby"
			make_standby "$work/$primary" "$work/$standby" "$work" "${port[$primary]}" >/dev/null && start_at "$standby" && ready "$standby" ||
				die "a new standby"
			;;
		esac
		[ -n "$holder" ] && { db "$d" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()" >/dev/null 2>&1; kill "$holder" 2>/dev/null; }
		wait "$caller" 2>/dev/null
		phase=$(db "$d" -c "SELECT phase FROM idtypes_adopt.migration" 2>/dev/null)
		after "$d" "$step" >/dev/null 2>&1
		got=$(fingerprint "$d")
		[ "$got" = "$reference" ] && ok "$way during $step (left in phase ${phase:-none}): called again, it ends as a run never interrupted" ||
			fail "$way during $step (left in phase ${phase:-none}): the end differs from the uninterrupted run's ($(db "$d" -c "SELECT phase FROM idtypes_adopt.migration" 2>&1))"
		sql "$primary" -c "DROP DATABASE $d" >/dev/null 2>&1
	done
done
echo "     test/adopt/run.sh took $SECONDS s"
exit $status
