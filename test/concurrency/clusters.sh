# shellcheck shell=bash
# Clusters of a check's own, in a fresh directory (copies.sh, failover.sh, ...): source it after server.sh with
# `bin` (the bin directory of the PostgreSQL under test) set, then set `settings` (the servers' -c options:
# settings_for) before the first start. Sets `work` (the directory: every cluster's data directory, log and
# socket are in it; removed at exit, its servers stopped).
work=$(mktemp -d /tmp/idtypes-clusters.XXXXXX)
chown postgres: "$work"
chmod 755 "$work"
as_postgres() { (cd "$work" && runuser -u postgres -- "$@"); }
declare -A port
# settings_for PRELOAD [OPTIONS]: `settings` for throwaway clusters (no TCP, fsync or autovacuum), idtypes
# preloaded when PRELOAD is yes, then OPTIONS (-c ...); fleet_identity: the identity a fleet's configuration gives
settings_for() {
	local s="-c listen_addresses= -c fsync=off -c autovacuum=off"
	[ "$1" = yes ] && s+=" -c shared_preload_libraries=idtypes"
	echo "$s${2:+ $2}"
}
fleet_identity="-c idtypes.timeid_clock_id=7 -c idtypes.tbsl_machine_id=7"
start() { # name: starts the cluster in $work/name on a port of its own, its socket in $work
	local name=$1 tries
	for tries in 1 2 3 4 5; do
		port[$name]=$((20000 + RANDOM % 20000))
		as_postgres "$bin/pg_ctl" -D "$work/$name" -l "$work/$name.log" -w -s -o "-p ${port[$name]} -k $work $settings" \
			start && return 0
	done
	return 1
}
stop() { as_postgres "$bin/pg_ctl" -D "$work/$1" -w -s -m fast stop; }
trap 'for d in "$work"/*/; do [ -f "$d/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$d" -s -m immediate stop; done; rm -rf "$work"' EXIT
sql() { local name=$1; shift; PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -h "$work" -p "${port[$name]}" -U postgres -d postgres "$@"; }

# sync_in_effect NAME yes|no: waits until a commit in cluster NAME waits for its synchronous standbys (yes)
# or no longer does (no); false after 60 probes. A change of synchronous_standby_names (ALTER SYSTEM,
# pg_reload_conf) takes effect only once the checkpointer has read it (pg_reload_conf only signals): on a
# loaded machine, seconds later. The probe is a commit that writes WAL (a temporary table made and dropped):
# it ends by itself (no wait), or is seen waiting for the standbys (SyncRep) and cancelled, which ends that
# wait with PostgreSQL's warning (no timeout does: statement_timeout ends before the commit); one that does
# neither within 10 s is cancelled and tried again.
sync_in_effect() {
	local name=$1 want=$2 probe waited
	for _ in $(seq 1 60); do
		PGAPPNAME=idtypes_sync_probe sql "$name" -c 'SET synchronous_commit = on' \
			-c 'CREATE TEMP TABLE idtypes_sync_probe () ON COMMIT DROP' >/dev/null 2>&1 &
		probe=$! waited=''
		for _ in $(seq 1 100); do
			kill -0 "$probe" 2>/dev/null || { waited=no; break; }
			[ "$(sql "$name" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idtypes_sync_probe' AND wait_event = 'SyncRep'")" = 1 ] &&
				{ waited=yes; break; }
			sleep 0.1
		done
		[ "$waited" = no ] || sql "$name" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'idtypes_sync_probe'" >/dev/null
		wait "$probe"
		[ "$waited" = "$want" ] && return 0
		sleep 0.2
	done
	return 1
}

# A hot standby of a running primary; sets `how` to the way it was made.

# make_standby PRIMARY_DIR STANDBY_DIR SOCKET_DIR PORT: pg_basebackup -R where the version has one (15 and 19 here);
# else (17 and 18 come without client tools here, and 15's pg_basebackup refuses newer servers) the same by
# the low-level backup API. The standby is then started like any cluster.
make_standby() {
	local primary=$1 standby=$2 socket=$3 port=$4
	if [ -x "$bin/pg_basebackup" ]; then
		how="pg_basebackup -R"
		as_postgres "$bin/pg_basebackup" -D "$standby" -R -X stream -c fast -h "$socket" -p "$port" -U postgres
		return
	fi
	how="pg_backup_start, a file copy, pg_backup_stop"
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -h "$socket" -p "$port" -U postgres \
		-d postgres >"$socket/backup_label" <<-EOS || return 1
		SELECT pg_backup_start('make_standby', true) IS NOT NULL \g /dev/null
		\! cp -a "$primary" "$standby"
		SELECT labelfile FROM pg_backup_stop(false)
	EOS
	rm -f "$standby"/postmaster.{pid,opts}
	mv "$socket/backup_label" "$standby/backup_label"
	touch "$standby/standby.signal"
	echo "primary_conninfo = 'host=$socket port=$port user=postgres'" >>"$standby/postgresql.auto.conf"
	chown -R postgres: "$standby"
}

# wait_replay PRIMARY STANDBY: true once the standby has replayed the WAL the primary had written when called
# (up to 60 s)
wait_replay() {
	local lsn
	lsn=$(sql "$1" -c 'SELECT pg_current_wal_lsn()') || return 1
	for _ in $(seq 1 120); do
		[ "$(sql "$2" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'" 2>/dev/null)" = t ] && return 0
		sleep 0.5
	done
	return 1
}
# ready NAME: true once the cluster accepts connections (up to 30 s)
ready() { for _ in $(seq 1 60); do sql "$1" -c 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }
# failover PRIMARY STANDBY: the primary killed (immediate shutdown), the standby promoted by pg_ctl; true once
# the standby is out of recovery. Nothing of idtypes runs.
failover() {
	as_postgres "$bin/pg_ctl" -D "$work/$1" -w -s -m immediate stop
	as_postgres "$bin/pg_ctl" -D "$work/$2" -w -s promote || return 1
	for _ in $(seq 1 60); do [ "$(sql "$2" -c 'SELECT pg_is_in_recovery()')" = f ] && return 0; sleep 0.5; done
	return 1
}
# start_at NAME: starts the cluster in $work/NAME on the port already in port[NAME]
start_at() { as_postgres "$bin/pg_ctl" -D "$work/$1" -l "$work/$1.log" -w -s -o "-p ${port[$1]} -k $work $settings" start; }
# restart NAME: a clean restart on the same port (its standbys' primary_conninfo names it)
restart() { stop "$1" && start_at "$1"; }

# root_bindir BIN: BIN as PostgreSQL's programs see it: where BIN holds wrappers running them in a Debian root
# (19's, and an older version's beside it: scripts/pgversions.sh), the root's own bin directory they name
root_bindir() {
	if grep -q in-root "$1/pg_ctl" 2>/dev/null; then
		dirname "$(grep -o '/usr/lib/postgresql/[0-9]*/bin/pg_ctl' "$1/pg_ctl")"
	else
		echo "$1"
	fi
}
# upgrade OLD_BIN NEW_BIN FROM TO: pg_upgrade (NEW_BIN's, copying the files: FROM stays as it was) of the
# stopped cluster $work/FROM of OLD_BIN's version onto a new cluster $work/TO made by NEW_BIN's initdb, both run
# with `settings`; its output in $work/pg_upgrade-TO.log, the end of it shown on failure
upgrade() {
	local old=$1 new=$2 from=$3 to=$4
	as_postgres "$new/initdb" -D "$work/$to" -A trust -U postgres --no-sync >/dev/null &&
		as_postgres "$new/pg_upgrade" -b "$(root_bindir "$old")" -B "$(root_bindir "$new")" -d "$work/$from" -D "$work/$to" \
			-s "$work" -o "$settings" -O "$settings" >"$work/pg_upgrade-$to.log" 2>&1 && return 0
	tail -20 "$work/pg_upgrade-$to.log"
	return 1
}
# runbook_block PAGE NAME: the first fenced block after docs/PAGE's `<!-- runbook: NAME -->` line, its
# indentation removed (runbooks.sh, runbook_repmgr.sh: what the page says is what runs)
runbook_block() {
	awk -v m="<!-- runbook: $2 -->" '
		index($0, m) { found = 1; next }
		found && /^[[:space:]]*```/ { if (inside) exit; inside = 1; match($0, /^[[:space:]]*/); cut = RLENGTH; next }
		inside { print substr($0, cut + 1) }' "$(dirname "${BASH_SOURCE[0]}")/../../docs/$1"
}
# repmgr_node ID NAME: repmgr's configuration of the node in $work/NAME (port[NAME] set) in $work/NAME.conf,
# its log in $work/repmgrd-NAME.log; the caller appends what else it needs (failover_manager.sh: repmgrd's)
repmgr_node() {
	cat >"$work/$2.conf" <<-EOF2
		node_id=$1
		node_name='$2'
		conninfo='host=$work port=${port[$2]} user=postgres dbname=repmgr connect_timeout=2'
		data_directory='$work/$2'
		pg_bindir='$bin'
		log_file='$work/repmgrd-$2.log'
	EOF2
	chown postgres: "$work/$2.conf"
}
# identity NAME: the node's clock id, machine id and their sources, as idtypes_identity() gives them
identity() { sql "$1" -F' ' -c 'SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()'; }
# rejoined_checks NODE PRIMARY BLOCK NOUN: a runbook's step 3 on NODE, the old primary (3, 3) rejoined as a
# standby of PRIMARY (4, 4): BLOCK, the page's step 3, runs on it; idtypes_identity() then names each node's own,
# from configuration; NODE refuses timeid_generate (55000). Three checks, each counted by the caller's
# planned_check (runbook_repmgr.sh, runbook_pgaf.sh); NOUN names PRIMARY in the lines.
rejoined_checks() {
	local node=$1 primary=$2 block=$3 noun=$4 out got
	planned_check
	out=$(sql "$node" <<<"$block" 2>&1) && ok "step 3's block runs on the rejoined node ($(wc -l <<<"$block") lines)" ||
		fail "step 3's block on the rejoined node: $out"
	got="$(identity "$node") / $(identity "$primary")"
	planned_check
	[ "$got" = "3 configuration 3 configuration / 4 configuration 4 configuration" ] &&
		ok "after step 3 idtypes_identity() names each node's own: the rejoined node 3 and 3, $noun 4 and 4, from configuration" ||
		fail "after step 3 (the rejoined node / $noun): '$got'"
	out=$(sql "$node" -v VERBOSITY=verbose -c 'SELECT timeid_generate()' 2>&1)
	planned_check
	[[ "$out" == *55000*"timeid_generate() cannot generate on a standby"* ]] && ok "the rejoined node, a standby, refuses timeid_generate (55000)" ||
		fail "timeid_generate on the rejoined node: $out"
}
