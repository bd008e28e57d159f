#!/usr/bin/env bash
# A session's cache of its database's carrier never outlives the carrier it read (issue 63, finding 5): after
# the carrier's file is replaced and the replacement rolled back or committed, the session's next IDs are
# carried by the carrier as it is. In a cluster of its own, one database per case, each case:
#   - a session's attack: a transaction that rewrites the carrier, then generates 200,000 IDs (this library
#     refuses them: 55000; 1.6 issued them), then rolls back; or 10,000 IDs, then another session's rewrite;
#     then 100,000 more IDs in 10 bursts 0.2 s apart;
#   - the premise proven: the carrier's file replaced and, where rolled back, back to the one before
#     (pg_relation_filenode);
#   - the carrier then at or above every ID the session was given;
#   - then the mark lost as after pg_upgrade (the origin dropped, the server restarted: the rebuild reads the
#     carriers, proven by its log line; the mark it wrote above the case's last ID), the clock set back 0.5 s
#     before the case's first ID (the rebuild then runs within the case's 2 s of bursts): 300,000
#     timeids in that database, 0 of them among the case's IDs (by their text: one clock id, the fleet's
#     identity) and 0 dated at or before the case's last ID (how many microseconds two sets share depends on
#     the speed of generation; this does not).
# The cases: a REFRESH MATERIALIZED VIEW of the carrier rolled back (by its owner; on 17 and later by a member
# of pg_maintain, given USAGE on the carrier's schema, without which it cannot name it), the same rolled back
# to a savepoint, a REFRESH ... CONCURRENTLY rolled back (its row replaced, not its file: the carrier's owner
# may give it the unique index it needs), a CLUSTER rolled back, an ALTER ... SET TABLESPACE rolled back; a
# REFRESH, a VACUUM FULL and a CLUSTER committed by another session between the session's IDs; a carrier
# created in the transaction that then rolls back: CREATE EXTENSION (the IDs outlive the extension, and no
# carrier holds them) and ALTER EXTENSION UPDATE from 1.3 (its table back after the rollback, the IDs past
# it: 12 s of them, more than the margin), which this library refuses as a rewrite; the carrier renamed by
# its owner (a superuser), then 11 s of IDs: still the one raised (found by membership, as the rebuild finds
# it); a CLUSTER rolled back whose IDs came from parallel workers (a wrapper labelled PARALLEL SAFE), 11 s of
# them. A TRUNCATE of
# the carrier is refused (a materialized view): no case. The carriers are made before the server's first ID,
# when there is no mark (they hold 10 s since 1970), so that only what a case's IDs write into its carrier
# can cover them; each case's database is dropped after it (its carrier would cover the next case), the
# origin dropped again and the clock reset, so that the next case starts from the clock.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: carrier_cache.sh BIN [yes|no]}
preload=${2:-no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
after_rows=300000

as_postgres "$bin/initdb" -D "$work/s" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start s || die "the cluster does not start"
version=$(sql s -c 'SHOW server_version_num')
# the REFRESH's role: on 17 and later a member of pg_maintain (MAINTAIN on every relation), else the owner
refresher=postgres
if [ "$version" -ge 170000 ]; then
	sql s -c 'CREATE ROLE maint LOGIN' -c 'GRANT pg_maintain TO maint' || die "a member of pg_maintain"
	refresher=maint
fi
mkdir -p "$work/ts" && chown postgres: "$work/ts" && sql s -c "CREATE TABLESPACE ts LOCATION '$work/ts'" ||
	die "a tablespace"
cases="refresh_rollback refresh_savepoint concurrently_rollback cluster_rollback tablespace_rollback refresh_other vacuum_full_other cluster_other create_rollback update_rollback renamed parallel_rollback"
for c in $cases; do
	case $c in
	create_rollback) sql s -c "CREATE DATABASE $c" || die "$c" ;;
	# a wrapper its owner labelled PARALLEL SAFE (PostgreSQL takes the label): the generator runs in parallel
	# workers, whose relation cache does not know what the leader's transaction rewrote
	parallel_rollback) sql s -c "CREATE DATABASE $c" && sql s -d "$c" -c 'CREATE EXTENSION idtypes' \
		-c 'CREATE UNIQUE INDEX high_water_mark ON idtypes_internal.high_water (mark)' \
		-c 'CREATE TABLE big AS SELECT g FROM generate_series(1, 100000) g' -c 'ANALYZE big' \
		-c 'CREATE FUNCTION g() RETURNS timeid LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN RETURN timeid_generate(); END $$' \
		-c "ALTER DATABASE $c SET parallel_setup_cost = 0" -c "ALTER DATABASE $c SET parallel_tuple_cost = 0" \
		-c "ALTER DATABASE $c SET min_parallel_table_scan_size = 0" -c "ALTER DATABASE $c SET parallel_leader_participation = off" \
		-c "ALTER DATABASE $c SET max_parallel_workers_per_gather = 2" >/dev/null || die "$c" ;;
	update_rollback) sql s -c "CREATE DATABASE $c" && sql s -d "$c" -c "CREATE EXTENSION idtypes VERSION '1.3'" || die "$c" ;;
	*) sql s -c "CREATE DATABASE $c" && sql s -d "$c" -c 'CREATE EXTENSION idtypes' \
		-c 'CREATE UNIQUE INDEX high_water_mark ON idtypes_internal.high_water (mark)' >/dev/null || die "idtypes in $c" ;;
	esac
	# a member of pg_maintain names the carrier only with USAGE on its schema, which its owner may grant
	[ "$refresher" = maint ] && [[ $c == refresh_* || $c == concurrently_* ]] &&
		{ sql s -d "$c" -c 'GRANT USAGE ON SCHEMA idtypes_internal TO maint' || die "USAGE"; }
done
# dz: idtypes without a carrier (taken out of the extension and dropped by a superuser), where the first ID
# after each restart is generated, so that the rebuild is done before a case (a transaction that holds a lock
# on its carrier would hold up the rebuild) and raises no carrier
sql s -c 'CREATE DATABASE dz' && sql s -d dz -c 'CREATE EXTENSION idtypes' \
	-c 'ALTER EXTENSION idtypes DROP MATERIALIZED VIEW idtypes_internal.high_water' \
	-c 'DROP MATERIALIZED VIEW idtypes_internal.high_water' >/dev/null || die "dz"
warm() { sql s -d dz -c 'SELECT timeid_generate()' >/dev/null || die "the first ID after the restart, in dz"; }
out=$(sql s -d refresh_rollback -c 'TRUNCATE idtypes_internal.high_water' 2>&1)
check "TRUNCATE of the carrier refused (a materialized view): no new file that way" "grep -q 'ERROR' <<<\"\$out\"" "$out"
warm

now_us() { sql s -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint"; }
filenode() { sql s -d "$1" -c "SELECT pg_relation_filenode('idtypes_internal.high_water')"; }
# the carrier the case leaves (its name in the case: none when the extension went with the rollback)
carrier() {
	case $1 in
	create_rollback) echo 0 ;;
	update_rollback) sql s -d "$1" -c 'SELECT max(mark) FROM idtypes_high_water' ;;
	renamed) sql s -d "$1" -c 'SELECT mark FROM idtypes_internal.renamed_carrier' ;;
	*) sql s -d "$1" -c 'SELECT mark FROM idtypes_internal.high_water' ;;
	esac
}
rebuilds() { grep -c 'idtypes rebuilt its replicated high-water mark' "$work/s.log"; }
# IDS N: a COPY of N timeids, each as its text and its microseconds
ids() { echo "COPY (SELECT t::text || ' ' || timeid_micros(t) FROM (SELECT timeid_generate() AS t FROM generate_series(1, $1)) g) TO STDOUT;"; }
# another session's command, run from the case's session (psql's \!)
other() { echo "\\! PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -h $work -p ${port[s]} -U postgres -d $1 -c '$2'"; }
filenode_sql="\\o | cat >>$work/filenodes
SELECT pg_relation_filenode('idtypes_internal.high_water');
\\o"

# attack CASE: the case's session, between its first IDs and its last: what it runs
attack() {
	case $1 in
	refresh_rollback) printf '%s\n' 'BEGIN;' 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water;' "$filenode_sql" \
		"$(ids 200000)" 'ROLLBACK;' ;;
	refresh_savepoint) printf '%s\n' 'BEGIN;' 'SAVEPOINT s;' 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water;' \
		"$filenode_sql" "$(ids 200000)" 'ROLLBACK TO SAVEPOINT s;' "$(ids 1000)" 'COMMIT;' ;;
	concurrently_rollback) printf '%s\n' 'BEGIN;' 'REFRESH MATERIALIZED VIEW CONCURRENTLY idtypes_internal.high_water;' \
		"$(ids 200000)" 'ROLLBACK;' ;;
	cluster_rollback) printf '%s\n' 'BEGIN;' 'CLUSTER idtypes_internal.high_water USING high_water_mark;' \
		"$filenode_sql" "$(ids 200000)" 'ROLLBACK;' ;;
	tablespace_rollback) printf '%s\n' 'BEGIN;' 'ALTER MATERIALIZED VIEW idtypes_internal.high_water SET TABLESPACE ts;' \
		"$filenode_sql" "$(ids 200000)" 'ROLLBACK;' ;;
	refresh_other) other "$1" 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water' && echo "$filenode_sql" ;;
	vacuum_full_other) other "$1" 'VACUUM FULL idtypes_internal.high_water' && echo "$filenode_sql" ;;
	cluster_other) other "$1" 'CLUSTER idtypes_internal.high_water USING high_water_mark' && echo "$filenode_sql" ;;
	create_rollback) printf '%s\n' 'BEGIN;' 'CREATE EXTENSION idtypes;' "$(ids 200000)" 'ROLLBACK;' ;;
	parallel_rollback) printf '%s\n' 'BEGIN;' 'CLUSTER idtypes_internal.high_water USING high_water_mark;' "$filenode_sql" \
		"$(ids 100000 | sed 's/timeid_generate()/g()/; s/generate_series(1, 100000)/big/')" 'SELECT pg_sleep(11) \g /dev/null' \
		"$(ids 100000 | sed 's/timeid_generate()/g()/; s/generate_series(1, 100000)/big/')" 'ROLLBACK;' ;;
	update_rollback) printf '%s\n' 'BEGIN;' 'ALTER EXTENSION idtypes UPDATE;' "$filenode_sql" "$(ids 100000)" \
		'SELECT pg_sleep(12) \g /dev/null' "$(ids 100000)" 'ROLLBACK;' ;;
	renamed) printf '%s\n' 'ALTER MATERIALIZED VIEW idtypes_internal.high_water RENAME TO renamed_carrier;' \
		'SELECT pg_sleep(11) \g /dev/null' ;;
	esac
}

for c in $cases; do
	: >"$work/filenodes"
	role=postgres
	[[ $c == refresh_* || $c == concurrently_* ]] && role=$refresher
	before=$(filenode "$c" 2>/dev/null)
	{
		# where the transaction rewrites the carrier, its first IDs come after the rewrite, as in the issue
		[[ $c == *_other || $c == update_* || $c == renamed || $c == parallel_* ]] && ids 10000
		attack "$c"
		# 10 bursts 0.2 s apart: the case's IDs span more than the time it takes to set the clock back and
		# rebuild, wherever the clock then is among them (none after a carrier created and rolled back: the
		# next ID of that database would raise the carrier back above them, hiding what the rollback lost)
		[[ $c == create_* || $c == update_* || $c == parallel_* ]] || for _ in $(seq 1 10); do
			ids 10000
			echo 'SELECT pg_sleep(0.2) \g /dev/null'
		done
	} | sql s -d "$c" -U "$role" -v ON_ERROR_STOP=0 >"$work/$c.ids" 2>"$work/$c.err"
	during=$(head -1 "$work/filenodes") after=$(filenode "$c" 2>/dev/null)
	issued=$(wc -l <"$work/$c.ids")
	if [ "$c" = create_rollback ]; then
		check "$c: the extension gone with the rollback" "[ -z \"\$(sql s -d $c -c \"SELECT 1 FROM pg_extension WHERE extname = 'idtypes'\")\" ]"
		check "$c: the refusal names the creation and says what to do (commit the CREATE EXTENSION first, then generate)" \
			"grep -q 'transaction that created, updated or rewrote this database' '$work/$c.err' && grep -q 'HINT:  Commit the CREATE EXTENSION idtypes .* first, .* then generate in a later transaction' '$work/$c.err'" \
			"$(grep -m2 -e ERROR -e HINT "$work/$c.err")"
	elif [ "$c" = update_rollback ]; then
		check "$c: the carrier made in the transaction, then 1.3's table back" \
			"[ -n '$during' ] && [ \"\$(sql s -d $c -c \"SELECT extversion FROM pg_extension WHERE extname = 'idtypes'\")\" = 1.3 ]" \
			"in it '$during'"
	elif [ "$c" = parallel_rollback ]; then
		check "$c: the carrier's file replaced in the transaction, then back; its IDs made by parallel workers (issued, the leader taking no part, or refused in one)" \
			"[ -n '$during' ] && [ '$during' != '$before' ] && [ '$after' = '$before' ] && { grep -q 'parallel worker' '$work/$c.err' || [ \$(wc -l <'$work/$c.ids') -gt 100000 ]; }" \
			"before $before, in it '$during', after $after; $(head -3 "$work/$c.err")"
	elif [ "$c" = renamed ]; then
		check "$c: the carrier renamed (still the extension's member)" \
			"[ \"\$(sql s -d $c -c \"SELECT count(*) FROM pg_depend WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idtypes') AND objid = 'idtypes_internal.renamed_carrier'::regclass\")\" = 1 ]"
	elif [ "$c" = concurrently_rollback ]; then
		check "$c: the carrier's file kept (its row replaced in the transaction, then back)" "[ '$after' = '$before' ]" \
			"before $before, after $after"
	elif [[ $c == *_rollback || $c == *_savepoint ]]; then
		check "$c: the carrier's file replaced in the transaction, then back to the one before" \
			"[ -n '$during' ] && [ '$during' != '$before' ] && [ '$after' = '$before' ]" "before $before, in it '$during', after $after"
	else
		check "$c: the carrier's file replaced by another session" "[ '$during' != '$before' ] && [ '$after' = '$during' ]" \
			"before $before, after the other session's '$during', at the end $after"
	fi
	refused=$(grep -c 'rewrote this database' "$work/$c.err")
	other_errors=$(grep ERROR "$work/$c.err" | grep -v -c -e 'rewrote this database' -e 'current transaction is aborted')
	least=100000
	[[ $c == create_* ]] && least=0   # this library refuses every ID of the transaction
	[[ $c == update_* || $c == parallel_* ]] && least=10000
	check "$c: $issued IDs issued ($refused statements refused in the rewriting transaction), no other error" \
		"[ '$other_errors' = 0 ] && [ '$issued' -ge $least ]" "$(head -3 "$work/$c.err")"
	if [ "$issued" = 0 ]; then
		sql s -c "DROP DATABASE $c" >/dev/null || die "$c: DROP DATABASE"
		continue
	fi
	first=$(sort -k2,2n "$work/$c.ids" | head -1 | cut -d' ' -f2)
	last=$(sort -k2,2n "$work/$c.ids" | tail -1 | cut -d' ' -f2)
	held=$(carrier "$c")
	check "$c: the carrier ($held) at or above every ID the session was given (the last: $last)" "[ '$held' -ge '$last' ]" \
		"$(((last - held) / 1000)) ms below"
	# the mark lost as after pg_upgrade; then the clock set back 0.5 s before the case's first ID
	n=$(rebuilds)
	sql s -c 'SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin' >/dev/null && restart s ||
		die "$c: the origin dropped, the server restarted"
	offset_ms=$(((first - $(now_us)) / 1000 - 500))
	sql s -c "LOAD 'idtypes'" -c "ALTER SYSTEM SET idtypes.test_clock_offset = $offset_ms" -c 'SELECT pg_reload_conf()' \
		>/dev/null || die "$c: the clock set back"
	# until a new process (the rebuild's worker is forked after it) has the clock set back
	for _ in $(seq 1 50); do [ "$(sql s -c 'SHOW idtypes.test_clock_offset')" = "$offset_ms" ] && break; sleep 0.1; done
	# the rebuild, by one ID in dz (no carrier): the mark it wrote, before any other
	warm
	origin=$(sql s -c "SELECT (remote_lsn - '0/0')::bigint FROM pg_replication_origin_status WHERE external_id = 'idtypes_high_water'")
	check "$c: the rebuilt mark ($origin) above the case's last ID" "[ '${origin:-0}' -gt '$last' ]" \
		"$(((last - ${origin:-0}) / 1000)) ms below"
	# in the case's database (dz where the extension went with the rollback)
	sql s -d "$([ "$c" = create_rollback ] && echo dz || echo "$c")" -c "$(ids "$after_rows")" >"$work/$c.after" \
		2>"$work/$c.after.err"
	check "$c: the rebuild ran (its log line), the clock set back $((-offset_ms)) ms, $(wc -l <"$work/$c.after") timeids after it" \
		"[ '$(rebuilds)' -gt '$n' ] && [ \$(wc -l <'$work/$c.after') = $after_rows ]" "$(cat "$work/$c.after.err")"
	repeats=$(cut -d' ' -f1 "$work/$c.ids" "$work/$c.after" | sort | uniq -d | wc -l)
	check "$c: 0 of $after_rows timeids after the rebuild among the case's $issued" "[ '$repeats' = 0 ]" \
		"$repeats repeated"
	# the same, whatever the generation's speed (how many microseconds both sets share): none dated within the
	# case's IDs
	within=$(awk -v last="$last" '$2 <= last { n++ } END { print n + 0 }' "$work/$c.after")
	check "$c: 0 of $after_rows timeids after the rebuild dated at or before the case's last ID" "[ '$within' = 0 ]" \
		"$within are"
	# the next case from the clock: this database and its carrier gone, the mark rebuilt from the others
	sql s -c "DROP DATABASE $c" -c 'SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin' \
		-c 'ALTER SYSTEM RESET idtypes.test_clock_offset' >/dev/null && restart s || die "$c: DROP DATABASE, a restart"
	warm
done
exit $status
