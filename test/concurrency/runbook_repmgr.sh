#!/usr/bin/env bash
# docs/failover.md's repmgr runbook, step by step on one machine (issue 60), with PostgreSQL's bin directory
# BIN_DIR (which must hold repmgr: Debian's postgresql-15-repmgr, installed by scripts/test.sh), idtypes loaded
# on demand, unix sockets only. The blocks run are read from the page (after their `<!-- runbook: NAME -->`
# markers), so that what the page says is what runs: the primary takes its identity (3, 3, require_identity)
# by the page's ALTER SYSTEM block and is registered (`repmgr primary register`); `repmgr standby clone` makes
# a standby, which starts with the primary's identity (postgresql.auto.conf copied); step 1's block, run on
# the standby, gives it its own (4, 4), as idtypes_identity() says before and after `repmgr standby register`;
# the primary issues ROWS (2,000) IDs of every generator, the standby replays; step 2: the primary stopped
# (immediate), `repmgr standby promote` by hand; the promoted node generates with its own identity from
# `configuration`, its clock set back onto the old primary's first IDs (tbsl may refuse while its clock is
# behind), then with its clock as it is: no ID of any generator in common with the old primary's, none twice;
# step 3: the old primary, started again and stopped (as when its host restarts it: it then has WAL past the
# fork), rejoins the promoted node by `repmgr node rejoin --force-rewind` (wal_log_hints on from the start, and wal_keep_size, as
# pg_rewind needs): a standby replaying the new primary's IDs, with the new primary's identity (4, 4) that
# pg_rewind copied; step 3's block gives it its own again (3, 3), and it refuses the generators that rest on
# one. Prints `ok` / `FAIL` lines, or a `skip` line where BIN_DIR has no repmgr.
set -uo pipefail
bin=${1:?usage: runbook_repmgr.sh BIN_DIR}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
if [ ! -x "$bin/repmgr" ]; then
	echo "skip docs/failover.md's repmgr runbook: $bin has no repmgr (Debian's postgresql-15-repmgr, for PostgreSQL 15)"
	exit 0
fi
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for no "-c shared_preload_libraries=repmgr -c wal_log_hints=on -c wal_keep_size=256MB") # for pg_rewind (step 3): hints, and the WAL back to the fork
source "$(dirname "$0")/ids.sh"
planned=14 ran=0
planned_check() { ran=$((ran + 1)); } # (server.sh's check is another)

alter_system=$(runbook_block failover.md alter-system)
standby_identity=$(runbook_block failover.md repmgr-standby-identity)
rejoined_identity=$(runbook_block failover.md repmgr-rejoined-identity)
[ -n "$alter_system" ] && [ -n "$standby_identity" ] && [ -n "$rejoined_identity" ] ||
	die "docs/failover.md: no alter-system, repmgr-standby-identity or repmgr-rejoined-identity block"

repmgr() { as_postgres "$bin/repmgr" "$@" >>"$work/repmgr.log" 2>&1; }

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
sql primary -c 'CREATE DATABASE repmgr' -c 'CREATE EXTENSION idtypes' || die "the databases"
out=$(sql primary <<<"$alter_system" 2>&1) || die "docs/failover.md's ALTER SYSTEM block on the primary: $out"
got=$(identity primary)
planned_check
[ "$got" = "3 configuration 3 configuration" ] && ok "the primary: the page's ALTER SYSTEM block gives it 3 and 3 from configuration" ||
	fail "the primary's identity: '$got'"
repmgr_node 1 primary
# (repmgr node rejoin starts the node again: on its port, with the settings of the others)
echo "service_start_command='$bin/pg_ctl -D $work/primary -l $work/primary.log -w -s -o \"-p ${port[primary]} -k $work $settings\" start'" >>"$work/primary.conf"
repmgr -f "$work/primary.conf" primary register || { tail -20 "$work/repmgr.log"; die "repmgr primary register"; }
port[standby]=$((20000 + RANDOM % 20000))
repmgr_node 2 standby
repmgr -f "$work/standby.conf" -h "$work" -p "${port[primary]}" -U postgres -d repmgr standby clone --fast-checkpoint ||
	{ tail -20 "$work/repmgr.log"; die "repmgr standby clone"; }
start_at standby && ready standby || die "the standby does not start"
got=$(sql standby -c "LOAD 'idtypes'" -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')
planned_check
[ "$got" = "3 3 " ] && ok "repmgr ($("$bin/repmgr" --version)): the standby made by repmgr standby clone starts with its primary's identity (3, 3)" ||
	fail "the clone's identity before step 1: '$got' (the primary's is 3 3)"

# step 1: the page's block on the standby, its identity checked before and after repmgr standby register
planned_check
out=$(sql standby <<<"$standby_identity" 2>&1) && ok "step 1's block runs on the standby ($(wc -l <<<"$standby_identity") lines)" ||
	fail "step 1's block on the standby: $out"
got=$(identity standby)
planned_check
[ "$got" = "4 configuration 4 configuration" ] && [ "$(identity primary)" = "3 configuration 3 configuration" ] &&
	ok "before repmgr standby register: the standby's identity 4 and 4 from configuration, the primary's 3 and 3" ||
	fail "before register: the standby's '$got', the primary's '$(identity primary)'"
repmgr -f "$work/standby.conf" standby register || { tail -20 "$work/repmgr.log"; die "repmgr standby register"; }
got=$(identity standby)
planned_check
[ "$got" = "4 configuration 4 configuration" ] && [ "$(identity primary)" = "3 configuration 3 configuration" ] &&
	ok "after repmgr standby register: the standby's identity 4 and 4 from configuration, the primary's 3 and 3" ||
	fail "after register: the standby's '$got', the primary's '$(identity primary)'"

# the old primary's IDs, replayed; step 2: repmgr standby promote by hand
sql primary -c "$(every_generator old_ids "$rows" tbsl)" || die "the primary's IDs"
keep primary postgres old_ids old || die "keeping the primary's IDs"
wait_replay primary standby || die "the standby did not replay the primary's WAL"
as_postgres "$bin/pg_ctl" -D "$work/primary" -w -s -m immediate stop
repmgr -f "$work/standby.conf" standby promote || { tail -20 "$work/repmgr.log"; die "repmgr standby promote"; }
for _ in $(seq 60); do [ "$(sql standby -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break; sleep 0.5; done
got=$(sql standby -F' ' -c 'SELECT pg_is_in_recovery(), timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()')
planned_check
[ "$got" = "f 4 configuration 4 configuration" ] &&
	ok "step 2: the primary stopped (immediate), repmgr standby promote: out of recovery, its own identity 4 and 4 from configuration" ||
	fail "after repmgr standby promote: '$got'"

promoted_checks standby "the promoted node" "repmgr runbook" "after repmgr standby promote"
# step 3: the old primary back (started and stopped, as when its host restarts it: WAL past the fork), then
# repmgr node rejoin --force-rewind onto the promoted node
start_at primary && ready primary && stop primary || die "the old primary does not start and stop again"
# the promoted node checkpointed first, as the page says: until then its control file names the old timeline,
# and pg_rewind finds nothing to rewind (the node then never streams: the new timeline forked before its WAL)
sql standby -c CHECKPOINT || die "CHECKPOINT on the promoted node"
repmgr -f "$work/primary.conf" node rejoin -d "host=$work port=${port[standby]} user=postgres dbname=repmgr" --force-rewind --verbose ||
	{ grep -v "attached in state" "$work/repmgr.log" | tail -20; die "repmgr node rejoin --force-rewind"; }
ready primary || die "the rejoined node does not accept connections"
wait_replay standby primary || fail "the rejoined node does not replay the new primary's WAL"
rewound=$(grep -oE 'pg_rewind execution required|executing pg_rewind' "$work/repmgr.log" | paste -sd' ')
got=$(sql primary -c 'SELECT pg_is_in_recovery()' -c 'SELECT count(*) FROM now_ids' \
	-c "SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming' AND conninfo LIKE '%port=${port[standby]}%'" | tr '\n' ' ')
planned_check
[ "$got" = "t $rows 1 " ] && ok "step 3: repmgr node rejoin --force-rewind (repmgr: $rewound): the old primary is a standby streaming from the promoted node, its IDs replayed" ||
	fail "step 3: the rejoined node (recovery, the new primary's rows, streaming from it): '$got'"
got=$(identity primary)
planned_check
[ "$got" = "4 configuration 4 configuration" ] && [ "$rewound" = "pg_rewind execution required executing pg_rewind" ] &&
	ok "step 3: pg_rewind copied the promoted node's postgresql.auto.conf: the rejoined node has its identity (4, 4), as the page warns" ||
	fail "step 3: the rejoined node's identity after pg_rewind ($rewound): '$got' (the promoted node's is 4 4)"
rejoined_checks primary standby "$rejoined_identity" "the promoted node"
[ "$ran" = "$planned" ] && ok "the repmgr runbook: $ran of $planned checks ran" || fail "the repmgr runbook: $ran of $planned checks ran"
exit $status
