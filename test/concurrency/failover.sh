#!/usr/bin/env bash
# Failover never repeats an ID: the generators' high-water mark reaches the standby through WAL (the
# replication origin idtypes_high_water, src/pg/mark/origin.cpp). In clusters of its own, with PostgreSQL's bin directory BIN_DIR,
# idtypes preloaded or not (PRELOAD yes|no), the fleet's configuration on both servers (timeid_clock_id = 7,
# tbsl_machine_id = 7, require_identity = on): a primary and its streaming standby; the primary issues
# IDTYPES_FAILOVER_ROWS (100,000) IDs of every generator into a table, the standby replays them, the primary
# is killed (immediate shutdown) and the standby promoted (out of recovery, on a new timeline); the new
# primary, its clock set back onto the old primary's first IDs (idtypes.test_clock_offset: where repeats are
# likeliest), issues as many again: timeid, uid11 (xid), scru160 and uuid_v7_generate continue above every ID
# the old primary issued, uid11_generate_random has none in common; with the clock two minutes further back,
# the ordered ones are still above, and tbsl refuses (its clock is behind the last TBSL). Where BIN_DIR has pg_upgrade, the promoted server is then
# upgraded onto a new cluster, which continues above every ID. VERSION (default: the installed default) is
# the extension's SQL version on the primary: 1.2, which has no replicated mark, shows the repeats this
# prevents (the checks then fail). Prints `ok` / `FAIL` / `skip` lines.
set -uo pipefail
bin=${1:?usage: failover.sh BIN_DIR yes|no [VERSION]}
preload=${2:?usage: failover.sh BIN_DIR yes|no [VERSION]}
version=${3:-}
rows=${IDTYPES_FAILOVER_ROWS:-100000}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
# IDTYPES_FAILOVER_SETTINGS: e.g. -c fsync=on -c synchronous_commit=on (scripts/test.sh on 19)
settings=$(settings_for "$preload" "$fleet_identity -c idtypes.require_identity=on ${IDTYPES_FAILOVER_SETTINGS:-}")

# Every generator, `rows` of each, into table $1 (tbsl_generate twice: random, then sequenced); tbsl left out
# when $2 is false
issue() {
	local table=$1 with_tbsl=$2
	cat <<-EOF
		CREATE TABLE $table AS SELECT timeid_generate() AS t, uid11_generate() AS x, uid11_generate_random() AS f,
			scru160_generate() AS s, uuid_v7_generate() AS v,
			CASE WHEN $with_tbsl THEN tbsl_generate() END AS b, CASE WHEN $with_tbsl THEN tbsl_generate(NULL, true) END AS q
		FROM generate_series(1, $rows);
	EOF
}

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
sql primary -c "CREATE EXTENSION idtypes ${version:+VERSION '$version'}" || die "CREATE EXTENSION idtypes"
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" || die "a standby of the primary"
start standby || die "the standby does not start"
for _ in $(seq 1 60); do sql standby -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done

sql primary -c "$(issue old true)" || die "the primary's IDs"
# a read-only transaction generates past the mark, and its WAL record moves the replicated one (none without
# the table, VERSION 1.2)
moved=$(sql primary -c "SELECT pg_sleep(0.3)" -c "BEGIN READ ONLY" -c "SELECT count(timeid_generate()) FROM generate_series(1, 1000)" \
	-c "COMMIT" -c "SELECT to_timestamp((pg_replication_origin_progress('idtypes_high_water', false) - '0/0') / 1e6) > now()" 2>&1 | tail -1)
[ "$moved" = t ] && ok "a read-only transaction generates, and writes the replicated mark past it" ||
	fail "a read-only transaction: the replicated mark is not past its IDs: $moved"
sql primary -c 'CHECKPOINT' >/dev/null # the standby replays all of it (and a restartpoint may follow)
lsn=$(sql primary -c 'SELECT pg_current_wal_lsn()')
for _ in $(seq 1 120); do
	[ "$(sql standby -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
	sleep 0.5
done
replicated=$(sql standby -c 'SELECT count(*) FROM old')
[ "$replicated" = "$rows" ] && ok "the standby ($how) replayed the primary's $rows rows of IDs" ||
	fail "the standby has ${replicated:-no} rows of $rows"
mark=$(sql standby -c "SELECT to_timestamp((pg_replication_origin_progress('idtypes_high_water', false) - '0/0') / 1e6)" 2>/dev/null)
echo "     the replicated mark on the standby: ${mark:-none}"

as_postgres "$bin/pg_ctl" -D "$work/primary" -w -s -m immediate stop
as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s promote
recovery=$(sql standby -c 'SELECT pg_is_in_recovery()')
timeline=$(sql standby -c 'SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)')
[ "$recovery" = f ] && [ "$timeline" != 00000001 ] &&
	ok "the old primary killed, the standby promoted: out of recovery, on timeline $((16#$timeline))" ||
	fail "promotion: in recovery '$recovery', timeline '$timeline'"

# how far back a clock reads the first IDs of table $2 on server $1, in ms
back_to_first() { sql "$1" -c "SELECT ceil(extract(epoch FROM clock_timestamp() - min(timeid_timestamp(t))) * 1000)::bigint FROM $2"; }
offset=$(back_to_first standby old)
# first, two minutes further back (an NTP fault, a VM brought up on another host): above every ID of the old
# primary (the first IDs of the new one: later ones would continue above these)
above=$(sql standby -c "SET idtypes.test_clock_offset = -$((offset + 120000))" -c "SELECT
	(SELECT min(timeid_generate()) > (SELECT max(t) FROM old) FROM generate_series(1, 10000)),
	(SELECT min(uid11_generate()) > (SELECT max(x) FROM old) FROM generate_series(1, 10000)),
	(SELECT min(scru160_generate()) > (SELECT max(s) FROM old) FROM generate_series(1, 10000)),
	(SELECT bool_and(uuid_v7_generate() > (SELECT v FROM old ORDER BY v DESC LIMIT 1)) FROM generate_series(1, 10000))" 2>&1)
[ "$above" = "t|t|t|t" ] &&
	ok "the new primary's clock two minutes further back: timeid, uid11, scru160, uuid_v7 still above every old ID" ||
	fail "two minutes further back: timeid|uid11|scru160|uuid_v7 above the old primary's IDs: $above"
# then the new primary's clock set back onto the old primary's first IDs (behind its last ones), where repeats
# are likeliest
offset=$(back_to_first standby old)
sql standby -c "SET idtypes.test_clock_offset = -$offset" -c "$(issue new false)" || die "the new primary's IDs"
echo "     the new primary's clock set back $((offset / 1000)) s, onto the old primary's first IDs"

counts=$(sql standby -c "SELECT (SELECT count(*) FROM old JOIN new USING (t)), (SELECT count(*) FROM old JOIN new USING (x)),
	(SELECT count(*) FROM old JOIN new USING (f)), (SELECT count(*) FROM old JOIN new USING (s)),
	(SELECT count(*) FROM old JOIN new USING (v))")
above=$(sql standby -c "SELECT (SELECT min(t) FROM new) > (SELECT max(t) FROM old), (SELECT min(x) FROM new) > (SELECT max(x) FROM old),
	(SELECT min(s) FROM new) > (SELECT max(s) FROM old), (SELECT v FROM new ORDER BY v LIMIT 1) > (SELECT v FROM old ORDER BY v DESC LIMIT 1)")
IFS='|' read -r t x f s v <<<"$counts"
IFS='|' read -r ta xa sa va <<<"$above"
for check in "timeid $t $ta" "uid11_generate $x $xa" "scru160 $s $sa" "uuid_v7_generate $v $va"; do
	read -r name common is_above <<<"$check"
	[ "$common" = 0 ] && [ "$is_above" = t ] &&
		ok "after failover with the clock set back: $name continues above every ID of the old primary, none in common" ||
		fail "$name after failover: $common of $rows in common, above the old primary's: $is_above"
done
[ "$f" = 0 ] && ok "after failover: uid11_generate_random, none in common" || fail "uid11_generate_random after failover: $f in common"
# tbsl, which carries the real time, with the clock two minutes further back
for sequenced in false true; do
	out=$(sql standby -c "SET idtypes.test_clock_offset = -$((offset + 120000))" -c "SET idtypes.clock_backward = 'error'" \
		-c "SELECT tbsl_generate(NULL, $sequenced)" 2>&1)
	grep -q 'behind the last TBSL generated' <<<"$out" &&
		ok "after failover: tbsl_generate(sequenced => $sequenced) refuses while the clock is behind the old primary's last TBSL" ||
		fail "tbsl_generate(sequenced => $sequenced) after failover: $out"
done

# pg_upgrade (where BIN_DIR has one: 15 and 19 here; the 17 and 18 packages used here ship none) onto a new cluster
# of the same version: it leaves the mark file and the origin behind and carries each database's carrier
# (idtypes_internal.high_water, src/pg/mark/carrier.cpp), from which the first ID rebuilds the origin; the upgraded
# server continues above every ID, its clock still set back
if [ -x "$bin/pg_upgrade" ]; then
	# (clusters.sh; 19's programs run in its Debian root, given the root's own bin directory)
	as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s -m fast stop
	upgrade "$bin" "$bin" standby upgraded || die "pg_upgrade"
	[ -e "$work/upgraded/pg_idtypes_high_water" ] && fail "pg_upgrade copied the mark file: the check would prove nothing"
	start upgraded || die "the upgraded cluster does not start"
	# the clock set back a minute behind the promoted server's first IDs
	offset=$(back_to_first upgraded new)
	above=$(sql upgraded -c "SET idtypes.test_clock_offset = -$((offset + 60000))" -c "SELECT (SELECT timeid_generate() > max(t) FROM new),
		(SELECT uid11_generate() > max(x) FROM new), (SELECT scru160_generate() > max(s) FROM new),
		(SELECT uuid_v7_generate() > (SELECT v FROM new ORDER BY v DESC LIMIT 1))" 2>&1)
	[ "$above" = "t|t|t|t" ] &&
		ok "after pg_upgrade (the mark file left behind), its clock a minute behind the last IDs: timeid, uid11, scru160, uuid_v7 continue above them" ||
		fail "after pg_upgrade: timeid|uid11|scru160|uuid_v7 above the last IDs: $above"
else
	echo "skip pg_upgrade: $bin has none (here only 15 has one: the 17 and 18 packages ship initdb, pg_ctl, postgres)"
fi
exit $status
