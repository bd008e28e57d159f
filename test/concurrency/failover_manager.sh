#!/usr/bin/env bash
# A real failover manager promotes the standby, and runs nothing of idtypes: no ID repeats (issue 42). repmgr
# (Debian's postgresql-15-repmgr, installed by scripts/test.sh) in clusters of its own, with PostgreSQL's bin
# directory BIN_DIR (which must hold repmgr: 15's), idtypes preloaded or not (PRELOAD yes|no), the fleet's
# configuration (timeid_clock_id = 7, tbsl_machine_id = 7): a primary registered with `repmgr primary
# register`, its standby made by `repmgr standby clone` and registered, repmgrd watching the standby with
# automatic failover (unix sockets only). The primary has the databases da and db with idtypes: db issues one ID
# of every generator, right after it da issues ROWS (2,000) of each in one statement; the standby replays;
# the primary is killed (immediate shutdown) and repmgrd promotes the standby (`repmgr standby promote`). Then
# da generates first, its clock set back onto its first IDs, then db, onto da's first IDs: no ID of any
# generator in common with the old primary's, none twice (tbsl may refuse while its clock is behind). Prints
# `ok` / `FAIL` lines, or a `skip` line where BIN_DIR has no repmgr.
set -uo pipefail
bin=${1:?usage: failover_manager.sh BIN_DIR yes|no}
preload=${2:?usage: failover_manager.sh BIN_DIR yes|no}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
if [ ! -x "$bin/repmgr" ] || [ ! -x "$bin/repmgrd" ]; then
	echo "skip failover by repmgr: $bin has no repmgr (Debian's postgresql-15-repmgr, for PostgreSQL 15)"
	exit 0
fi
source "$(dirname "$0")/clusters.sh"
libraries=repmgr
[ "$preload" = yes ] && libraries+=,idtypes
settings=$(settings_for no "$fleet_identity -c shared_preload_libraries=$libraries")
mode=$([ "$preload" = yes ] && echo preloaded || echo "loaded on demand")
source "$(dirname "$0")/ids.sh"
# repmgrd (which daemonizes) stopped by its pid file; then the clusters, as clusters.sh does
stop_repmgrd() { [ -f "$work/repmgrd-standby.pid" ] && kill "$(cat "$work/repmgrd-standby.pid")" 2>/dev/null; }
trap 'stop_repmgrd; for d in "$work"/*/; do [ -f "$d/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$d" -s -m immediate stop; done; rm -rf "$work"' EXIT

# node ID NAME: repmgr's configuration of the node (clusters.sh's repmgr_node), with repmgrd's automatic failover
node() {
	repmgr_node "$1" "$2"
	cat >>"$work/$2.conf" <<-EOF
		failover=automatic
		promote_command='$bin/repmgr standby promote -f $work/$2.conf --log-to-file'
		follow_command='$bin/repmgr standby follow -f $work/$2.conf --log-to-file --upstream-node-id=%n'
		reconnect_attempts=2
		reconnect_interval=1
		monitor_interval_secs=1
		standby_disconnect_on_failover=false
		repmgrd_pid_file='$work/repmgrd-$2.pid'
	EOF
}
repmgr() { as_postgres "$bin/repmgr" "$@" >>"$work/repmgr.log" 2>&1; }

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
sql primary -c 'CREATE DATABASE repmgr' -c 'CREATE DATABASE da' -c 'CREATE DATABASE db' &&
	sql primary -d da -c 'CREATE EXTENSION idtypes' && sql primary -d db -c 'CREATE EXTENSION idtypes' || die "the databases"
node 1 primary
repmgr -f "$work/primary.conf" primary register || { tail -20 "$work/repmgr.log"; die "repmgr primary register"; }
port[standby]=$((20000 + RANDOM % 20000))
node 2 standby
repmgr -f "$work/standby.conf" -h "$work" -p "${port[primary]}" -U postgres -d repmgr standby clone --fast-checkpoint ||
	{ tail -20 "$work/repmgr.log"; die "repmgr standby clone"; }
start_at standby && ready standby || die "the standby does not start"
repmgr -f "$work/standby.conf" standby register || { tail -20 "$work/repmgr.log"; die "repmgr standby register"; }
as_postgres "$bin/repmgrd" -f "$work/standby.conf" >>"$work/repmgrd.out" 2>&1 || die "repmgrd does not start"
for _ in $(seq 40); do grep -q 'monitoring connection to upstream node' "$work/repmgrd-standby.log" 2>/dev/null && break; sleep 0.25; done
grep -q 'monitoring connection to upstream node' "$work/repmgrd-standby.log" 2>/dev/null &&
	ok "repmgr ($("$bin/repmgr" --version)): a primary, a standby made by repmgr standby clone, repmgrd watching it" ||
	{ tail -20 "$work/repmgrd-standby.log" "$work/repmgrd.out"; die "repmgrd does not monitor the primary"; }

label="repmgr ($mode)"
sql primary -d db -c "$(every_generator m_db 1 tbsl)" -c '\c da' -c "$(every_generator m_da "$rows" tbsl)" || die "the old primary's IDs"
wait_replay primary standby || die "the standby did not replay the primary's WAL"
as_postgres "$bin/pg_ctl" -D "$work/primary" -w -s -m immediate stop
for _ in $(seq 120); do [ "$(sql standby -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break; sleep 0.5; done
[ "$(sql standby -c 'SELECT pg_is_in_recovery()')" = f ] && grep -q 'promot' "$work/repmgrd-standby.log" &&
	ok "$label: the primary killed, repmgrd promoted the standby ($(grep -m1 -o 'promoting standby.*\|STANDBY PROMOTE.*' "$work/repmgrd-standby.log" | head -1))" ||
	{ tail -30 "$work/repmgrd-standby.log"; die "$label: repmgrd did not promote the standby"; }
stop_repmgrd

keep standby db m_db old && keep standby da m_da old || die "the replayed IDs"
first=$(first_issued standby da m_da)
back=$(sql standby -c "SELECT round(extract(epoch FROM clock_timestamp()) - $first, 1)")
generate_back standby da m_da_new "$rows" "$first" 0 new "$label, da first, back onto its first IDs"
generate_back standby db m_db_new "$rows" "$first" 0 new "$label, then db, back onto da's first IDs"
echo "     $label: the clocks set back $back s onto da's first IDs"
none_in_common old new "$label, after repmgrd's failover"
exit $status
