#!/usr/bin/env bash
# docs/failover.md's Patroni runbook, step by step on one machine (issue 60), with PostgreSQL's bin directory
# BIN_DIR (15: Debian's patroni 3.0.2 and etcd-server 3.4, installed by scripts/test.sh, drive its 15). A
# throwaway etcd (v3 API) and two Patroni nodes, all on loopback on free ports, run as postgres in a fresh
# directory, the servers' sockets in it. Step 1: each node's patroni.yml holds the page's
# `postgresql.parameters` block (read from the page after its `<!-- runbook: patroni-parameters -->` marker,
# with the node's numbers: node1 3, node2 4) merged into it, as its reader does; idtypes loads on demand on
# node1 (install.md: no preloading needed) and is preloaded on node2 (`shared_preload_libraries` in its own
# parameters, as where a generator asks for it). Patroni bootstraps node1 (initdb), idtypes is created there,
# Patroni makes node2 (pg_basebackup); each names its own identity from `configuration`; node1 issues ROWS
# (2,000) IDs of every generator, node2 replays them. Step 2, twice: `patronictl switchover --force` to node2,
# and an automatic failover back to node1 (node2's Patroni killed with SIGKILL, its server stopped
# immediately, node1 taking the leader key once its ttl ran out) after node2 issued ROWS IDs that node1 did not
# receive (node2's walsender stopped: the lag of asynchronous replication); each promoted node generates with
# its own identity, its clock set back onto the other's first IDs (tbsl may refuse while its clock is behind),
# then as it is: no ID in common with anything issued before, none twice. Step 3, with `use_pg_rewind: true`:
# the old primary back as a replica, node1 after the switchover, node2 after the failover by pg_rewind, each
# naming its own identity again. Prints `ok` / `FAIL` lines, or a `skip` line where Patroni, etcd or pg_rewind
# is missing.
set -uo pipefail
bin=${1:?usage: runbook_patroni.sh BIN_DIR}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
for p in patroni patronictl etcd python3; do
	command -v "$p" >/dev/null || { echo "skip docs/failover.md's Patroni runbook: no $p here (Debian's patroni and etcd-server)"; exit 0; }
done
[ -x "$bin/pg_rewind" ] || { echo "skip docs/failover.md's Patroni runbook: $bin has no pg_rewind"; exit 0; }
source "$(dirname "$0")/clusters.sh"
source "$(dirname "$0")/ids.sh"
planned=14 ran=0
planned_check() { ran=$((ran + 1)); } # (server.sh's check is another)

parameters=$(runbook_block failover.md patroni-parameters)
grep -q 'idtypes.timeid_clock_id: 3' <<<"$parameters" && grep -q 'idtypes.tbsl_machine_id: 3' <<<"$parameters" ||
	die "docs/failover.md: no patroni-parameters block giving identity 3 (got '$parameters')"

# Processes started here, each the leader of a session of its own (setsid): etcd and each node's Patroni, all
# killed with their session at exit; Patroni starts each server in a session of its own, which clusters.sh's
# cleanup stops (pg_ctl immediate stop of each data directory holding a postmaster.pid).
declare -A session
stop_session() { [ -n "${session[$1]:-}" ] && kill -KILL -- "-${session[$1]}" 2>/dev/null; wait "${session[$1]:-}" 2>/dev/null; session[$1]=; }
spawn() { # NAME COMMAND...: as postgres in a session of its own, its output in $work/NAME.out
	local name=$1; shift
	(cd "$work" && exec setsid runuser -u postgres -- "$@") >>"$work/$name.out" 2>&1 &
	session[$name]=$!
}
walsender=
cleanup() {
	local s d
	[ -n "$walsender" ] && kill -KILL "$walsender" 2>/dev/null # stopped (below), it would hold up its server's stop
	for s in node1 node2 etcd; do stop_session "$s"; done
	for d in "$work"/node1 "$work"/node2; do [ -f "$d/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$d" -s -m immediate stop; done
}
trap 'cleanup; rm -rf "$work"' EXIT

# Free loopback ports (the kernel's, all held at once so that they differ): etcd's two, each node's server and REST API
read -r etcd_client etcd_peer 'port[node1]' 'port[node2]' rest1 rest2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(6)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
declare -A rest=([node1]=$rest1 [node2]=$rest2)

spawn etcd etcd --name runbook --data-dir "$work/etcd" \
	--listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
	--listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
	--initial-cluster "runbook=http://127.0.0.1:$etcd_peer"
for _ in $(seq 60); do (exec 3<>"/dev/tcp/127.0.0.1/$etcd_client") 2>/dev/null && break; sleep 0.5; done
(exec 3<>"/dev/tcp/127.0.0.1/$etcd_client") 2>/dev/null || { tail -5 "$work/etcd.out"; die "etcd ($(etcd --version | head -1)) does not listen"; }

# patroni_node NAME ID [OPTIONS]: $work/NAME.yml, the node's patroni.yml: the cluster's, the page's block with
# the node's numbers merged in (under postgresql.parameters, as a reader edits it: appending its text would
# repeat the key `postgresql`, of which YAML keeps the last), then OPTIONS (YAML lines of its parameters)
patroni_node() {
	local name=$1 id=$2 options=${3:-}
	cat >"$work/$name.base.yml" <<-EOF
		scope: runbook
		name: $name
		restapi:
		  listen: 127.0.0.1:${rest[$name]}
		  connect_address: 127.0.0.1:${rest[$name]}
		etcd3:
		  hosts: 127.0.0.1:$etcd_client
		watchdog:
		  mode: "off"
		bootstrap:
		  dcs:
		    ttl: 10
		    loop_wait: 2
		    retry_timeout: 4
		    # the lag at the automatic failover (node2's last IDs) may exceed Patroni's default 1 MB
		    maximum_lag_on_failover: 67108864
		    postgresql:
		      use_pg_rewind: true
		      use_slots: true
		      parameters:
		        wal_log_hints: "on"
		  initdb:
		  - encoding: UTF8
		postgresql:
		  listen: 127.0.0.1:${port[$name]}
		  connect_address: 127.0.0.1:${port[$name]}
		  data_dir: $work/$name
		  bin_dir: $bin
		  pgpass: $work/$name.pgpass
		  use_unix_socket: true
		  use_unix_socket_repl: true
		  authentication:
		    superuser:
		      username: postgres
		    replication:
		      username: replicator
		  pg_hba:
		  - local all all trust
		  - local replication all trust
		  - host all all 127.0.0.1/32 trust
		  - host replication all 127.0.0.1/32 trust
		  parameters:
		    unix_socket_directories: $work
		    fsync: "off"
		    autovacuum: "off"
		$options
	EOF
	sed -E "s/^( *idtypes\.(timeid_clock_id|tbsl_machine_id): *)3\b/\1$id/" <<<"$parameters" >"$work/$name.idtypes.yml"
	python3 - "$work/$name.base.yml" "$work/$name.idtypes.yml" "$work/$name.yml" <<-'EOF' || die "$name's patroni.yml"
		import sys, yaml
		def merge(into, more):
		    for k, v in more.items():
		        if isinstance(v, dict) and isinstance(into.get(k), dict):
		            merge(into[k], v)
		        else:
		            into[k] = v
		config = yaml.safe_load(open(sys.argv[1]))
		merge(config, yaml.safe_load(open(sys.argv[2])))
		yaml.safe_dump(config, open(sys.argv[3], "w"))
	EOF
	chown postgres: "$work/$name.yml"
}
patroni_node node1 3
patroni_node node2 4 '    shared_preload_libraries: idtypes'

# in_recovery NAME t|f SECONDS: true once the node's server answers pg_is_in_recovery() so
in_recovery() {
	for _ in $(seq $(($3 * 2))); do
		[ "$(sql "$1" -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
identity() { sql "$1" -F' ' -c 'SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()'; }
patronictl() { timeout 60 patronictl -c "$work/node1.yml" "$@" >>"$work/patronictl.out" 2>&1; }
exists() { sql "$1" -c "SELECT to_regclass('$2') IS NOT NULL"; }

# Patroni bootstraps node1 (initdb), then makes node2 from it
spawn node1 patroni "$work/node1.yml"
in_recovery node1 f 60 || { tail -20 "$work/node1.out"; die "Patroni ($(patroni --version)) did not bootstrap node1 as the leader"; }
sql node1 -c 'CREATE EXTENSION idtypes' || die "CREATE EXTENSION idtypes on the leader"
spawn node2 patroni "$work/node2.yml"
in_recovery node2 t 60 || { tail -20 "$work/node2.out"; die "Patroni did not make node2 a replica"; }

# step 1: each node's own identity, from its patroni.yml
mode="SELECT idtypes_generator_mode(), current_setting('idtypes.require_identity')"
got="$(identity node1) $(sql node1 -F' ' -c "$mode")"
planned_check
[ "$got" = "3 configuration 3 configuration shared (allocated at first use) on" ] &&
	ok "step 1 ($(patroni --version), etcd $(etcd --version | sed -n 's/^etcd Version: //p')): node1, the leader Patroni bootstrapped, idtypes not preloaded, names its own identity 3 and 3 from configuration (the page's block in its patroni.yml), require_identity on" ||
	fail "step 1: node1's identity, generator mode, require_identity: '$got'"
got="$(sql node2 -c 'SELECT pg_is_in_recovery()') $(identity node2) $(sql node2 -F' ' -c "$mode")"
planned_check
[ "$got" = "t 4 configuration 4 configuration shared (preloaded) on" ] &&
	ok "step 1: node2, the replica Patroni made by pg_basebackup, idtypes preloaded, names its own identity 4 and 4 from configuration, require_identity on" ||
	fail "step 1: node2 in recovery, its identity, generator mode, require_identity: '$got'"
sql node1 -c "$(every_generator old_ids "$rows" tbsl)" || die "node1's IDs"
keep node1 postgres old_ids old || die "keeping node1's IDs"
planned_check
wait_replay node1 node2 && [ "$(sql node2 -c 'SELECT count(*) FROM old_ids')" = "$rows" ] &&
	ok "node2 replays node1's $rows IDs of every generator" || fail "node2 did not replay node1's $rows IDs"

# promoted NAME ID FIRST EARLIER LABEL: the promoted node generates ROWS IDs of every generator, its clock set
# back onto the Unix time FIRST, then as it is (tables NAME_back, NAME_now), kept in the set NAME; each carries
# its own identity ID; none of them in the set EARLIER nor twice
promoted() {
	local node=$1 id=$2 first=$3 earlier=$4 label=$5 from="" t m out n k
	generate_back "$node" postgres "${node}_back" "$rows" "$first" 0 "$node" "$label, its clock back onto the other's first IDs"
	generate_back "$node" postgres "${node}_now" "$rows" "" 0 "$node" "$label, its clock as it is"
	got=$(sql "$node" -c "SELECT count(*) FILTER (WHERE timeid_clock_id(t) = $id) || ' ' || count(*) FROM
		(SELECT t FROM ${node}_back UNION ALL SELECT t FROM ${node}_now) s")
	planned_check
	[ "$got" = "$((2 * rows)) $((2 * rows))" ] && ok "$label: its $((2 * rows)) timeids (clock back, clock as it is) carry its own clock id $id" ||
		fail "$label: its timeids (clock id $id, all): '$got'"
	# the TBSLs, both modes, with its clock back where tbsl did not refuse (then its table is absent)
	for t in "${node}_back" "${node}_now"; do
		for m in b q; do [ "$(exists "$node" "${t}_$m")" = t ] && from+="SELECT $m AS b FROM ${t}_$m UNION ALL "; done
	done
	got=$(sql "$node" -c "SELECT count(*) FILTER (WHERE tbsl_machine_id(b) = $id) || ' ' || count(*) FROM (${from% UNION ALL }) s")
	read -r n k <<<"$got"
	planned_check
	[ "$n" = "$k" ] && [ "${k:-0}" -ge $((2 * rows)) ] && ok "$label: its $k TBSLs (both modes; with its clock back where tbsl did not refuse) carry its own machine id $id" ||
		fail "$label: its TBSLs (machine id $id, all): '$got'"
	# (none_in_common in a subshell: its lines counted, its FAIL lines carried into status here)
	planned_check
	out=$(none_in_common "$earlier" "$node" "$label")
	echo "$out"
	grep -q '^FAIL' <<<"$out" && status=1
	[ "$(grep -c '^ok' <<<"$out")" = 7 ] || fail "$label: $(grep -c '^ok' <<<"$out") of 7 generators reported ok"
}

# step 2: a switchover to node2; step 3: node1 back as its replica
start=$SECONDS
patronictl switchover --leader node1 --candidate node2 --force || { tail -20 "$work/patronictl.out"; die "patronictl switchover"; }
in_recovery node2 f 60
got="$(sql node2 -c 'SELECT pg_is_in_recovery()') $(identity node2)"
planned_check
[ "$got" = "f 4 configuration 4 configuration" ] &&
	ok "step 2: patronictl switchover --force: node2 leads in $((SECONDS - start)) s, with its own identity 4 and 4 from configuration" ||
	fail "step 2: after patronictl switchover, node2 (in recovery, identity): '$got'"
promoted node2 4 "$(first_issued node2 postgres old_ids)" old "Patroni runbook, node2 after the switchover"
start=$SECONDS
planned_check
in_recovery node1 t 60 && wait_replay node2 node1 && [ "$(exists node1 node2_now)" = t ] &&
	[ "$(identity node1)" = "3 configuration 3 configuration" ] &&
	ok "step 3: node1, the old primary, back as node2's replica in $((SECONDS - start)) s ($(grep -q 'running pg_rewind' "$work/node1.out" && echo "by pg_rewind" || echo "stopped cleanly, without pg_rewind"); replays its IDs), names its own identity 3 and 3 from configuration" ||
	fail "step 3: node1 after the switchover (in recovery, node2's IDs, identity): $(sql node1 -F' ' -c "SELECT pg_is_in_recovery(), to_regclass('node2_now')") $(identity node1)"

# step 2 again, an automatic failover with a lag: node2's walsender stopped (SIGSTOP, while it waits for WAL
# to send: node1 has replayed all there was), node2 issues IDs, which node1 never receives; node2's Patroni
# killed, its walsender too (the connection ends there), its server stopped immediately
walsender=$(sql node2 -c "SELECT pid FROM pg_stat_replication WHERE application_name = 'node1'")
[ -n "$walsender" ] && kill -STOP "$walsender" || die "node2's walsender to node1: '$walsender'"
sql node2 -c "$(every_generator lag_ids "$rows" tbsl)" || die "node2's IDs during the lag"
keep node2 postgres lag_ids lag || die "keeping node2's IDs"
first=$(first_issued node2 postgres lag_ids)
lag=$(sql node2 -c 'SELECT pg_current_wal_lsn()')
stop_session node2
kill -KILL "$walsender" && walsender=
as_postgres "$bin/pg_ctl" -D "$work/node2" -w -s -m immediate stop
lag=$(sql node1 -c "SELECT pg_size_pretty(pg_wal_lsn_diff('$lag', pg_last_wal_receive_lsn()))")
start=$SECONDS
in_recovery node1 f 60
got="$(sql node1 -c 'SELECT pg_is_in_recovery()') $(identity node1) $(exists node1 lag_ids)"
planned_check
[ "$got" = "f 3 configuration 3 configuration f" ] &&
	ok "step 2: automatic failover (node2's Patroni killed, its server stopped immediately): node1 leads $((SECONDS - start)) s later, with its own identity 3 and 3 from configuration, without node2's last $rows IDs of every generator (lost with the lag, $lag of WAL)" ||
	fail "step 2: after the automatic failover, node1 (in recovery, identity, node2's last IDs received): '$got'"
for c in $id_columns; do cat "$work"/ids/{old,node2,lag}."$c" >>"$work/ids/earlier.$c" 2>/dev/null; done
promoted node1 3 "$first" earlier "Patroni runbook, node1 after the automatic failover"

# step 3: node2 back by pg_rewind
start=$SECONDS
spawn node2 patroni "$work/node2.yml"
planned_check
in_recovery node2 t 90 && wait_replay node1 node2 && [ "$(exists node2 node1_now)" = t ] &&
	[ "$(identity node2)" = "4 configuration 4 configuration" ] && [ "$(exists node2 lag_ids)" = f ] &&
	grep -q 'pg_rewind exit code=0' "$work/node2.out" &&
	ok "step 3: node2, the old primary, back by pg_rewind as node1's replica in $((SECONDS - start)) s (replays its IDs, its own last IDs rewound away), names its own identity 4 and 4 from configuration" ||
	fail "step 3: node2 after the failover (in recovery, node1's IDs, its lag IDs, identity; pg_rewind): $(sql node2 -F' ' -c "SELECT pg_is_in_recovery(), to_regclass('node1_now'), to_regclass('lag_ids')") $(identity node2); $(grep -o 'pg_rewind exit code=.*' "$work/node2.out" | paste -sd' ')"
echo "     node1's first IDs: $(kept old t) timeids, $(kept old b) + $(kept old q) TBSLs; node2's after the switchover: $(kept node2 t), $(kept node2 b) + $(kept node2 q); node2's lost with the lag: $(kept lag t), $(kept lag b) + $(kept lag q); node1's after the failover: $(kept node1 t), $(kept node1 b) + $(kept node1 q)"

# nothing left running (a zombie is no process: its parent, init here, reaps it)
postmasters=$(for d in "$work"/node1 "$work"/node2; do head -1 "$d/postmaster.pid" 2>/dev/null; done)
sessions="${session[etcd]} ${session[node1]} ${session[node2]}"
cleanup
left=$({
	for s in $sessions; do ps -o pid=,stat= -s "$s"; done
	for p in $postmasters; do ps -o pid=,stat= -p "$p"; done
} | awk '$2 !~ /^Z/ { print $1 }')
planned_check
[ -z "$left" ] && ok "every process of the runbook ended: etcd, both nodes' Patroni, their servers ($(wc -w <<<"$sessions $postmasters") processes)" ||
	fail "processes left running: $(ps -o pid=,ppid=,sid=,stat=,args= -p "$(paste -sd, <<<"$left")")"
[ "$ran" = "$planned" ] && ok "the Patroni runbook: $ran of $planned checks ran" || fail "the Patroni runbook: $ran of $planned checks ran"
exit $status
