#!/usr/bin/env bash
# The DBA's pages, step by step, on one machine (issue 60), with PostgreSQL's bin directory BIN_DIR, idtypes
# loaded on demand; the blocks run are read from the pages (after their `<!-- runbook: NAME -->` markers),
# so that what the pages say is what runs:
# - docs/failover.md "Where each node's identity is set": `ALTER SYSTEM SET idtypes.…` in a session that has
#   not loaded idtypes is refused on 15 and 16 (unrecognized configuration parameter) and accepted on 17 and
#   later, as the page says; the page's ALTER SYSTEM block (LOAD 'idtypes' first) is accepted on every
#   version, and a new session generates with that identity, from `configuration`, under require_identity;
# - its `pg_ctl promote` runbook: a standby on another port (pg_basebackup -R, or the backup API where the
#   version has no client tools: clusters.sh) starts with its primary's identity (postgresql.auto.conf copied);
#   step 1's block, run on the standby, gives it its own; it refuses timeid_generate (55000); the primary
#   stopped and the standby promoted, its IDs carry its own identity from `configuration`, none in common
#   with the old primary's; step 3: the old primary rewound onto the new one (pg_rewind -R, where BIN_DIR has
#   it) comes back with the new primary's identity, as the page warns, then takes its own again;
# - docs/upgrading.md's way back from 1.5 to 1.4: the old primary's key file (layout 3, after
#   uid11_generate_random) rewritten by the page's commands into layout 2 with the page's mark query; the
#   file then reads as layout 2 (this library reads layout 2 as 1.4 does): the server starts, generates, and
#   writes the same key back.
# Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: runbooks.sh BIN_DIR}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for no "-c wal_log_hints=on -c wal_keep_size=256MB") # for pg_rewind (step 3): hints, and the WAL back to the fork
rows=5000

alter_system=$(runbook_block failover.md alter-system)
standby_identity=$(runbook_block failover.md standby-identity)
mark_query=$(runbook_block upgrading.md mark-for-1.4)
layout_2=$(runbook_block upgrading.md layout-2-for-1.4)
for b in alter_system standby_identity mark_query layout_2; do
	[ -n "${!b}" ] || die "no block for $b in docs/ (its runbook marker is missing)"
done

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start primary || die "the primary does not start"
version=$(sql primary -c 'SHOW server_version_num')
major=$((version / 10000))
sql primary -c 'CREATE EXTENSION idtypes' || die "CREATE EXTENSION"

# ALTER SYSTEM without LOAD, in a new session
out=$(sql primary -c 'ALTER SYSTEM SET idtypes.require_identity = on' 2>&1)
if [ "$major" -lt 17 ]; then
	[[ "$out" == *'unrecognized configuration parameter "idtypes.require_identity"'* ]] &&
		ok "PostgreSQL $major: ALTER SYSTEM SET idtypes.require_identity without LOAD 'idtypes' is refused, as the page says" ||
		fail "PostgreSQL $major: ALTER SYSTEM without LOAD: '$out' (the page says 15 and 16 refuse it)"
else
	[ -z "$out" ] && ok "PostgreSQL $major: ALTER SYSTEM SET idtypes.require_identity without LOAD 'idtypes' is accepted, as the page says" ||
		fail "PostgreSQL $major: ALTER SYSTEM without LOAD: '$out' (the page says 17 and later accept it)"
	sql primary -c 'ALTER SYSTEM RESET idtypes.require_identity' || fail "ALTER SYSTEM RESET"
fi

# the page's block, as written
out=$(sql primary <<<"$alter_system" 2>&1) && ok "PostgreSQL $major: docs/failover.md's ALTER SYSTEM block runs ($(wc -l <<<"$alter_system") lines)" ||
	fail "PostgreSQL $major: docs/failover.md's ALTER SYSTEM block: $out"
got=$(sql primary -F' ' -c 'SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()' -c 'SHOW idtypes.require_identity' | tr '\n' ' ')
[ "$got" = "3 configuration 3 configuration on " ] && ok "a new session: idtypes_identity() says 3 and 3 from configuration, require_identity on" ||
	fail "the identity after the block: '$got'"
sql primary -c "CREATE TABLE primary_ids AS SELECT timeid_generate() AS t, tbsl_generate() AS b FROM generate_series(1, $rows)" &&
	[ "$(sql primary -c 'SELECT count(DISTINCT timeid_clock_id(t))::text || count(*) FILTER (WHERE timeid_clock_id(t) = 3) FROM primary_ids')" = "1$rows" ] &&
	ok "the primary generates $rows timeids under require_identity, each with clock id 3" || fail "the primary's IDs"
sql primary -c 'SELECT uid11_generate_random() FROM generate_series(1, 10)' >/dev/null || fail "uid11_generate_random on the primary"

# the pg_ctl promote runbook
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null || die "a standby of the primary"
start standby && ready standby || die "the standby does not start"
wait_replay primary standby || die "the standby does not replay"
[ "$(sql standby -c "LOAD 'idtypes'" -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')" = "3 3 " ] &&
	ok "a standby made by $how, on port ${port[standby]}, starts with its primary's identity (3, 3): postgresql.auto.conf copied" ||
	fail "the standby's identity before step 1 is not its primary's"
out=$(sql standby <<<"$standby_identity" 2>&1) && ok "step 1's block runs on the standby ($(wc -l <<<"$standby_identity") lines)" ||
	fail "step 1's block on the standby: $out"
got=$(sql standby -F' ' -c 'SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity()')
[ "$got" = "4 configuration 4 configuration" ] && ok "the standby's own identity: 4 and 4 from configuration" || fail "the standby's identity: '$got'"
out=$(sql standby -v VERBOSITY=verbose -c 'SELECT timeid_generate()' 2>&1)
[[ "$out" == *55000*"timeid_generate() cannot generate on a standby"* ]] && ok "the standby refuses timeid_generate (55000)" ||
	fail "timeid_generate on the standby: $out"
sql primary -c "INSERT INTO primary_ids SELECT timeid_generate(), tbsl_generate() FROM generate_series(1, $rows)" || fail "the primary's last IDs"
wait_replay primary standby || fail "the standby did not replay the primary's last IDs"
failover primary standby && ok "step 2: the primary stopped (immediate), the standby promoted by pg_ctl promote" || die "promotion"
got=$(sql standby -F' ' -c 'SELECT pg_is_in_recovery(), timeid_clock_id, timeid_clock_id_source, tbsl_machine_id FROM idtypes_identity()')
[ "$got" = "f 4 configuration 4" ] && ok "the new primary: out of recovery, its own identity 4 from configuration" || fail "after the promotion: '$got'"
sql standby -c "CREATE TABLE promoted AS SELECT timeid_generate() AS t, tbsl_generate() AS b FROM generate_series(1, $rows)" || fail "generating after the promotion"
got=$(sql standby -c "SELECT (SELECT count(*) FROM promoted WHERE timeid_clock_id(t) = 4 AND tbsl_machine_id(b) = 4)
	|| ' ' || (SELECT count(*) FROM primary_ids) || ' ' ||
	(SELECT count(*) FROM promoted p JOIN primary_ids o ON o.t = p.t OR o.b = p.b)")
[ "$got" = "$rows $((2 * rows)) 0" ] && ok "the new primary's $rows timeids and TBSLs carry 4 and 4; none in common with the old primary's $((2 * rows))" ||
	fail "after the promotion (own identity, the old primary's IDs, in common): '$got'"

# docs/upgrading.md, from 1.5 back to 1.4: the key file in layout 2, with the mark
start primary && ready primary || die "the old primary does not start again"
mark=$(sql primary <<<"$mark_query") && [[ "$mark" =~ ^[0-9]{16}$ ]] &&
	ok "upgrading.md's mark query gives the mark in Unix microseconds ($mark)" || fail "upgrading.md's mark query: '$mark'"
key=$(grep '^key ' "$work/primary/pg_idtypes_high_water")
head -1 "$work/primary/pg_idtypes_high_water" | grep -qx 'idtypes high-water mark layout 3' && [ -n "$key" ] ||
	fail "the key file before the way back is not layout 3 with a key: $(cat "$work/primary/pg_idtypes_high_water")"
stop primary || fail "stopping the old primary"
out=$(cd "$work/primary" && MARK=$mark bash -c "$layout_2" 2>&1) || fail "upgrading.md's commands: $out"
[ "$(sed -n 1,2p "$work/primary/pg_idtypes_high_water" | tr '\n' ' ')" = "idtypes high-water mark layout 2 mark $mark " ] &&
	[ "$(grep '^key ' "$work/primary/pg_idtypes_high_water")" = "$key" ] &&
	ok "upgrading.md's commands write the file in layout 2: the mark first, the key and its owner kept" ||
	fail "the file after upgrading.md's commands: $(cat "$work/primary/pg_idtypes_high_water")"
chown postgres: "$work/primary/pg_idtypes_high_water"
start primary && ready primary && sql primary -c 'SELECT uid11_generate_random(), timeid_generate()' >/dev/null &&
	[ "$(grep '^key ' "$work/primary/pg_idtypes_high_water")" = "$key" ] &&
	ok "the layout 2 file reads as layout 2 reads in 1.4: the server generates, and keeps the same key" ||
	fail "the server with the layout 2 file: $(cat "$work/primary/pg_idtypes_high_water")"

# step 3 of the pg_ctl promote runbook: the old primary back as a standby by pg_rewind
if [ ! -x "$bin/pg_rewind" ] || [ -x "$(dirname "$bin")/in-root" ]; then
	# (19's Debian root: its pg_rewind, run through the root's wrapper, stalled fetching from the source)
	echo "skip step 3 (pg_rewind): not run with $bin (no pg_rewind, or one in a Debian root)"
	exit $status
fi
# the new primary checkpointed first, as the page says: until then its control file names the old timeline,
# and pg_rewind finds nothing to rewind (and copies nothing)
sql standby -c CHECKPOINT >/dev/null || fail "CHECKPOINT on the new primary"
stop primary || fail "stopping the old primary for pg_rewind"
if as_postgres timeout 120 "$bin/pg_rewind" -D "$work/primary" -R --source-server="host=$work port=${port[standby]} user=postgres dbname=postgres" \
	>"$work/rewind.log" 2>&1 && start primary && ready primary; then
	got=$(sql primary -c "LOAD 'idtypes'" -c 'SELECT pg_is_in_recovery()' -c 'SHOW idtypes.timeid_clock_id' -c 'SHOW idtypes.tbsl_machine_id' | tr '\n' ' ')
	# pg_rewind copies the new primary's files only when it rewinds; where it finds the old primary's WAL
	# not past the fork it says "no rewind required" and copies nothing (the page says to check either way)
	if grep -q "no rewind required" "$work/rewind.log"; then
		[ "$got" = "t 3 3 " ] && ok "step 3: the old primary, which pg_rewind -R found needing no rewind, is a standby with its own identity (3, 3)" ||
			fail "step 3: the node pg_rewind did not rewind: '$got' (recovery, clock id, machine id)"
	else
		[ "$got" = "t 4 4 " ] && ok "step 3: the old primary, rewound by pg_rewind -R, is a standby with the new primary's identity (4, 4), as the page warns" ||
			fail "step 3: the rewound node: '$got' (recovery, clock id, machine id)"
	fi
	sql primary -c "LOAD 'idtypes'" -c 'ALTER SYSTEM SET idtypes.timeid_clock_id = 3' -c 'ALTER SYSTEM SET idtypes.tbsl_machine_id = 3' \
		-c 'SELECT pg_reload_conf()' >/dev/null || fail "step 3: its own identity again"
	got=$(sql primary -F' ' -c 'SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id FROM idtypes_identity()')
	[ "$got" = "3 configuration 3" ] && ok "step 3: given its own identity again as in step 1: 3 and 3 from configuration" ||
		fail "step 3: the rewound node's identity: '$got'"
else
	fail "step 3: pg_rewind of the old primary: $(tail -5 "$work/rewind.log")"
fi
exit $status
