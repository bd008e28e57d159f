#!/usr/bin/env bash
# docs/failover.md's pg_auto_failover runbook, step by step on one machine (issue 60), with PostgreSQL's bin
# directory BIN_DIR (whose library directory must hold pgautofailover, and pg_autoctl on the PATH: Debian's
# postgresql-15-auto-failover, installed by scripts/test.sh), idtypes preloaded. A monitor, a primary and a
# secondary, each run by its own `pg_autoctl run`, talking over loopback TCP, their sockets in a throwaway
# directory. The blocks run are read from the page (after their `<!-- runbook: NAME -->` markers), so that what
# the page says is what runs: the primary takes its identity (3, 3, require_identity) by the page's ALTER
# SYSTEM block; `pg_autoctl create postgres` makes the secondary (pg_basebackup), which starts with the
# primary's identity; step 1's block, run on the secondary, gives it its own (4, 4); the primary issues ROWS
# (2,000) IDs of every generator, the secondary replays; step 2: `pg_autoctl perform failover`; the new
# primary generates with its own identity from `configuration`, its clock set back onto the old primary's
# first IDs, then with its clock as it is: no ID of any generator in common with the old primary's, none
# twice; step 3: the old primary, rejoined by pg_autoctl as a secondary, has what the page says it has, then
# step 3's block gives it its own identity again, and it refuses the generators that rest on one. Prints
# `ok` / `FAIL` lines, or a `skip` line where BIN_DIR has no pg_auto_failover.
set -uo pipefail
bin=${1:?usage: runbook_pgaf.sh BIN_DIR}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
if ! command -v pg_autoctl >/dev/null || [ ! -f "$(dirname "$bin")/lib/pgautofailover.so" ]; then
	echo "skip docs/failover.md's pg_auto_failover runbook: no pg_autoctl, or $bin's library directory has no pgautofailover (Debian's postgresql-15-auto-failover, for PostgreSQL 15)"
	exit 0
fi
source "$(dirname "$0")/clusters.sh"
source "$(dirname "$0")/ids.sh"
# pg_autoctl reads libpq's environment: scripts/test.sh exports its own cluster's PGHOST and PGPORT, which
# would send the monitor's setup to that cluster's socket
unset PGHOST PGPORT PGDATABASE PGUSER PGSERVICE PGOPTIONS
planned=12 ran=0
planned_check() { ran=$((ran + 1)); } # (server.sh's check is another)

alter_system=$(runbook_block failover.md alter-system)
secondary_identity=$(runbook_block failover.md pgaf-secondary-identity)
rejoined_identity=$(runbook_block failover.md pgaf-rejoined-identity)
[ -n "$alter_system" ] && [ -n "$secondary_identity" ] && [ -n "$rejoined_identity" ] ||
	die "docs/failover.md: no alter-system, pgaf-secondary-identity or pgaf-rejoined-identity block"

# pg_autoctl keeps its configuration and state under XDG directories: those of $work, so nothing outlives it.
# Each `pg_autoctl run` is a process group of its own (setsid), ended at exit before clusters.sh's trap stops
# any server left. autoctl SECONDS ARGS: pg_autoctl ARGS, ended after SECONDS.
autoctl() { local t=$1; shift; as_postgres timeout "$t" env HOME="$work" XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_RUNTIME_DIR="$work/xdg" pg_autoctl "$@"; }
runs=()
cleanup() {
	local p
	for p in "${runs[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done
	for _ in $(seq 20); do
		for p in "${runs[@]}"; do kill -0 -- "-$p" 2>/dev/null && break; p=; done
		[ -z "${p:-}" ] && break
		sleep 0.5
	done
	for p in "${runs[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
	for d in "$work"/*/; do [ -f "$d/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$d" -s -m immediate stop; done
	rm -rf "$work"
}
trap cleanup EXIT
run() { # NAME: pg_autoctl run of the node in $work/NAME, in the background, its log in $work/NAME.autoctl.log
	(cd "$work" && exec setsid runuser -u postgres -- env HOME="$work" XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" \
		XDG_RUNTIME_DIR="$work/xdg" pg_autoctl run --pgdata "$work/$1") >>"$work/$1.autoctl.log" 2>&1 &
	runs+=($!)
}
mkdir -p "$work/xdg" && chown postgres: "$work/xdg"
# initdb NAME [LINES]: a data directory whose postgresql.conf puts the socket in $work, then LINES (pg_autoctl
# includes its own file before them)
initdb() {
	as_postgres "$bin/initdb" -D "$work/$1" -A trust -U postgres --no-sync >/dev/null || return 1
	printf '%s\n' "unix_socket_directories = '$work'" "fsync = off" "shared_buffers = '32MB'" "${@:2}" >>"$work/$1/postgresql.conf"
}
# state NAME: the node's reported and goal states on the monitor
state() { sql monitor -d pg_auto_failover -F' ' -c "SELECT reportedstate, goalstate FROM pgautofailover.node WHERE nodename = '$1'" 2>/dev/null; }
# wait_state NAME STATE [SECONDS]: true once the monitor has the node reported and aimed at STATE (default 90 s)
wait_state() {
	for _ in $(seq $((2 * ${3:-90}))); do [ "$(state "$1")" = "$2 $2" ] && return 0; sleep 0.5; done
	return 1
}
create_opts=(--pgctl "$bin/pg_ctl" --auth trust --no-ssl --hostname 127.0.0.1)

# the monitor, then the primary
port[monitor]=$((20000 + RANDOM % 20000))
initdb monitor || die "initdb of the monitor"
autoctl 60 create monitor --pgdata "$work/monitor" --pgport "${port[monitor]}" "${create_opts[@]}" >"$work/monitor.create.log" 2>&1 ||
	{ tail -20 "$work/monitor.create.log"; die "pg_autoctl create monitor"; }
run monitor
ready monitor || die "the monitor does not start"
uri=$(autoctl 10 show uri --pgdata "$work/monitor" --formation monitor) || die "the monitor's URI"
port[node1]=$((20000 + RANDOM % 20000))
initdb node1 "shared_preload_libraries = 'pg_stat_statements, idtypes'" || die "initdb of the primary"
autoctl 90 create postgres --pgdata "$work/node1" --pgport "${port[node1]}" --pghost "$work" --listen 127.0.0.1 --name node1 \
	--monitor "$uri" "${create_opts[@]}" >"$work/node1.create.log" 2>&1 || { tail -20 "$work/node1.create.log"; die "pg_autoctl create postgres (the primary)"; }
run node1
wait_state node1 single || { tail -20 "$work/node1.autoctl.log"; die "the primary does not reach the state single: $(state node1)"; }
ready node1 || die "the primary does not accept connections"
sql node1 -c 'CREATE EXTENSION idtypes' || die "CREATE EXTENSION"
out=$(sql node1 <<<"$alter_system" 2>&1) || die "docs/failover.md's ALTER SYSTEM block on the primary: $out"
got=$(sql node1 -c 'SHOW shared_preload_libraries')" $(identity node1)"
planned_check
[ "$got" = "pg_stat_statements, idtypes 3 configuration 3 configuration" ] &&
	ok "pg_auto_failover ($(pg_autoctl version | head -1)): the primary preloads idtypes beside pg_autoctl's pg_stat_statements; the page's ALTER SYSTEM block gives it 3 and 3 from configuration" ||
	fail "the primary (shared_preload_libraries, identity): '$got'"

# the secondary, made by pg_autoctl create postgres (pg_basebackup)
port[node2]=$((20000 + RANDOM % 20000))
autoctl 120 create postgres --pgdata "$work/node2" --pgport "${port[node2]}" --pghost "$work" --listen 127.0.0.1 --name node2 \
	--monitor "$uri" "${create_opts[@]}" >"$work/node2.create.log" 2>&1 || { tail -20 "$work/node2.create.log"; die "pg_autoctl create postgres (the secondary)"; }
run node2
wait_state node2 secondary && wait_state node1 primary || { tail -20 "$work/node2.autoctl.log"; die "the secondary: $(state node2), the primary: $(state node1)"; }
ready node2 || die "the secondary does not accept connections"
got=$(sql node2 -c 'SELECT pg_is_in_recovery()' -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')
planned_check
[ "$got" = "t 3 3 " ] && ok "the secondary made by pg_autoctl create postgres starts with its primary's identity (3, 3): postgresql.auto.conf copied" ||
	fail "the secondary before step 1 (recovery, clock id, machine id): '$got' (the primary's is 3 3)"

# step 1: the page's block on the secondary
planned_check
out=$(sql node2 <<<"$secondary_identity" 2>&1) && ok "step 1's block runs on the secondary ($(wc -l <<<"$secondary_identity") lines)" ||
	fail "step 1's block on the secondary: $out"
got="$(identity node2) / $(identity node1)"
planned_check
[ "$got" = "4 configuration 4 configuration / 3 configuration 3 configuration" ] &&
	ok "idtypes_identity() on each node names its own: the secondary 4 and 4, the primary 3 and 3, from configuration" ||
	fail "the identities (secondary / primary): '$got'"

# the old primary's IDs, replayed; step 2: pg_autoctl perform failover
sql node1 -c "$(every_generator old_ids "$rows" tbsl)" || die "the primary's IDs"
keep node1 postgres old_ids old || die "keeping the primary's IDs"
wait_replay node1 node2 || die "the secondary did not replay the primary's WAL"
autoctl 120 perform failover --pgdata "$work/monitor" --wait 90 >"$work/failover.log" 2>&1 || { tail -20 "$work/failover.log"; fail "pg_autoctl perform failover"; }
wait_state node2 primary || die "after pg_autoctl perform failover: node2 is $(state node2), node1 $(state node1)"
got=$(sql node2 -F' ' -c 'SELECT pg_is_in_recovery(), timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()')
planned_check
[ "$got" = "f 4 configuration 4 configuration" ] &&
	ok "step 2: pg_autoctl perform failover: the new primary is out of recovery, its own identity 4 and 4 from configuration" ||
	fail "after pg_autoctl perform failover: '$got'"

promoted_checks node2 "the new primary" "pg_auto_failover runbook" "after pg_autoctl perform failover"

# step 3: the old primary, rejoined by pg_autoctl as a secondary of the new one
wait_state node1 secondary || { tail -20 "$work/node1.autoctl.log"; die "the old primary does not rejoin: $(state node1)"; }
ready node1 || die "the rejoined node does not accept connections"
wait_replay node2 node1 || fail "the rejoined node does not replay the new primary's WAL"
# what pg_autoctl did: pg_rewind (which copies the new primary's files, postgresql.auto.conf included, when there
# is WAL to rewind, and nothing when the old primary stopped at the fork), or pg_basebackup where it failed
did=$(grep -oE 'bin/pg_basebackup |pg_rewind: (servers diverged at WAL location [0-9A-F/]+|no rewind required)' "$work/node1.autoctl.log" | tail -1)
case $did in
*diverged*) expect="4 configuration 4 configuration" how="$did: the new primary's files copied, its identity (4, 4) with them" ;;
*"no rewind required") expect="3 configuration 3 configuration" how="$did (no WAL past the fork): no file copied, its own identity (3, 3) kept" ;;
*pg_basebackup*) expect="4 configuration 4 configuration" how="rebuilt by pg_basebackup: the new primary's identity (4, 4)" ;;
*) expect="?" how="neither pg_rewind nor pg_basebackup in its log" ;;
esac
got=$(sql node1 -c 'SELECT pg_is_in_recovery()' -c "SELECT count(*) FROM now_ids" | tr '\n' ' ')"$(identity node1)"
planned_check
[ "$got" = "t $rows $expect" ] && ok "step 3: the old primary, rejoined by pg_autoctl, is a secondary replaying the new primary's IDs; $how, as the page says" ||
	fail "step 3: the rejoined node (recovery, the new primary's rows, identity): '$got'; $how"
rejoined_checks node1 node2 "$rejoined_identity" "the new primary"
[ "$ran" = "$planned" ] && ok "the pg_auto_failover runbook: $ran of $planned checks ran" || fail "the pg_auto_failover runbook: $ran of $planned checks ran"
exit $status
