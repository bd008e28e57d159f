# shellcheck shell=bash
# Sourced by test/citus/run.sh and bench/citus.sh: a Citus fleet of throwaway PostgreSQL clusters on
# this machine, node 0 the coordinator and nodes 1..N workers, each started like scripts/lib.sh's
# cluster_start (its own directory, unix socket and random port) with shared_preload_libraries = 'citus',
# listening on 127.0.0.1 only (Citus names its nodes by host and port), and its own idtypes identity in
# its postgresql.conf. Needs PG_CONFIG of an installation that holds both Citus and idtypes.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

# Citus is not packaged for Debian: present only where someone installed it for this PostgreSQL.
citus_installed() {
	[ -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ] && [ -f "$("$PG_CONFIG" --sharedir)/extension/citus.control" ]
}

declare -a fleet_dirs=() fleet_ports=()

fleet_stop() {
	local k
	for k in "${!fleet_dirs[@]}"; do
		CLUSTER_DIR=${fleet_dirs[k]}
		cluster_stop
	done
	fleet_dirs=()
}

# psql on node K (0: the coordinator), unaligned and quiet; further arguments go to psql.
on() {
	local k=$1
	shift
	PGHOST=127.0.0.1 PGPORT=${fleet_ports[k]} PGUSER=postgres PGDATABASE=postgres \
		PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$@"
}

# The identity node K is given: clock id and machine id K + 1 (a fleet of distinct identities).
node_clock_id() { echo $(($1 + 1)); }
node_machine_id() { echo $(($1 + 1)); }

# Sets node K's identity in its postgresql.conf (a later line wins) and reloads; returns once a new
# session sees it.
set_identity() {
	local k=$1 clock=$2 machine=$3 tries
	printf 'idtypes.timeid_clock_id = %s\nidtypes.tbsl_machine_id = %s\n' "$clock" "$machine" \
		>>"${fleet_dirs[k]}/data/postgresql.conf"
	on "$k" -c "SELECT pg_reload_conf()" >/dev/null || return 1
	for tries in $(seq 50); do
		[ "$(on "$k" -c "SELECT current_setting('idtypes.timeid_clock_id', true) || '/' || current_setting('idtypes.tbsl_machine_id', true)")" = "$clock/$machine" ] &&
			return 0
		sleep 0.1
	done
	return 1
}

# Starts a coordinator and WORKERS workers (settings given as further arguments go to every node), creates
# Citus on each, registers them (the coordinator too, so that run_command_on_all_nodes reaches it and
# workers can query distributed tables), then CREATE EXTENSION idtypes on the coordinator, which Citus
# propagates to the workers. SHARDS: citus.shard_count.
fleet_start() {
	local workers=$1 shards=$2 k
	shift 2
	for k in $(seq 0 "$workers"); do
		cluster_start shared_preload_libraries=citus listen_addresses=127.0.0.1 citus.local_hostname=127.0.0.1 \
			"citus.shard_count=$shards" TimeZone=UTC "$@" || return 1
		fleet_dirs[k]=$CLUSTER_DIR fleet_ports[k]=$PGPORT
		CLUSTER_DIR=
		set_identity "$k" "$(node_clock_id "$k")" "$(node_machine_id "$k")" || return 1
		on "$k" -c "CREATE EXTENSION citus" || return 1
	done
	on 0 -c "SELECT citus_set_coordinator_host('127.0.0.1', ${fleet_ports[0]})" >/dev/null || return 1
	for k in $(seq 1 "$workers"); do
		on 0 -c "SELECT citus_add_node('127.0.0.1', ${fleet_ports[k]})" >/dev/null || return 1
	done
	on 0 -c "CREATE EXTENSION idtypes"
}
