#!/usr/bin/env bash
# Every test suite, in order: code style, the core (fuzzing, unit tests), then each PostgreSQL version
# (`--pg N` runs only the versions named) in throwaway clusters. What every version runs is listed in
# version_suites; what only some versions run is the table `only_on` below (why: each entry's comment, and
# docs/internals/postgresql-19.md, "What runs on which version"). Installs what is missing first.
# Ends with `N passed, M failed, K skipped` (skipped: a prerequisite absent here, e.g. Citus); exits
# non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pgversions.sh"
source "$(dirname "$0")/installcheck_default.sh"

versions=()
while [ $# -gt 0 ]; do
	case $1 in
	--pg) versions+=("${2:?--pg needs a version: 15, 17, 18 or 19}"); shift 2 ;;
	*) echo "usage: $0 [--pg 15|17|18|19]..." >&2; exit 2 ;;
	esac
done
[ ${#versions[@]} -gt 0 ] || versions=(15 17 18 19)

# What only some versions run: entry -> the versions that run it (every other suite runs on every version).
declare -A only_on=(
	[own_fetch]=15            # the system's 15; 17, 18 and 19 come from scripts/pgversions.sh
	[state_at_first_use]=15   # generator state in the main segment when not preloaded; 17+ use a named DSM segment
	[durable_first]=19        # 19 marks pages all-visible while reading them, which synchronous_commit = off delays
	[full_size]=15            # uuid_v7 5 x 300,000 (else 5 x 60,000); the SQL edition's 100,000 cross-check, standby, dump
	[pg_upgrade_rebuild]=15   # pg_upgrade onto its own major, then the mark rebuilt
	[standby_public]="15 19"  # the oldest and the newest: a standby's identity, synchronous standby, public forms
	[privileges]=19           # pg_maintain (17 and later) among the roles; 15 runs it preloaded
	[dump_from]=15            # dumped by 15, restored into every other version
	[clients]=15              # the client tools are 15's (pg_dump dumps no newer server): round trips, drivers, ORMs, docs
	[binary_drivers]=19       # the binary formats are the extension's own: the newest server is enough
	[preloaded]="15 19"       # the state is reserved at start the same way on every version (CI time)
	[preloaded_failover]=15   # fail-safe mark, copies, failover, privileges, repmgrd, preloaded
	[extra_clusters]=15       # what does not depend on the version, and the slower extra clusters
	[pg_upgrade_from_18]=19   # 18 installed beside 19 in 19's Debian root
	[pg_auto_failover]=15     # Debian's postgresql-15-auto-failover is for 15 only
	[patroni]=15              # Debian's patroni drives its own 15
	[live_upgrade]="15 19"    # issue 65: the releases' libraries built for the oldest and the newest (CI time)
	[upgrade_scripts]="15 19" # the update scripts' shapes, grants and planted operators: SQL the server runs alike (CI time)
	[sql_edition_logical]="15 19" # the SQL edition under logical replication: the oldest and the newest (origin = none from 16)
	[adopt]="15 19"           # adoption under pgbench at 1M rows: the oldest and the newest (CI time)
)
# on ENTRY: whether the version being tested ($v) runs ENTRY
on() { [[ " ${only_on[$1]} " == *" $v "* ]]; }

passed=0
failed=0
skipped=0
failures=() # a line for each failure, repeated just above the last line, where a log's tail shows it
section=""
log() { section=$*; printf '==> [%ss] %s\n' "$SECONDS" "$*" >&2; }
count() {
	passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + ${3:-0}))
	[ "$2" = 0 ] || failures+=("$2 in: $section${4:+: $4}")
}
finish() {
	[ "$failed" = 0 ] || { echo "failed:"; printf '  %s\n' "${failures[@]}"; }
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
	exit
}

# pg_regress in the build tree DIR (only the suites named in TESTS, if given): one count per test file
# (`... ok` / `... FAILED`), the diffs shown on failure. psql is 15's (17 and 18 have none; they accept it),
# 19's own for 19 (whose pg_regress runs inside its Debian root).
regress() {
	local dir=$1 tests=${2:-} out ok bad
	out=$(pg_make -C "$dir" -s installcheck EXTRA_REGRESS_OPTS="--bindir=$(regress_psql_bindir)" \
		${tests:+"REGRESS=$tests"} 2>&1)
	# 15 prints `test x ... ok` / `... FAILED`; 16 and later print TAP: `ok 3 - x` / `not ok 3 - x`
	ok=$(grep -cE '^(ok|test) .*\.\.\. ok|^ok [0-9]+ ' <<<"$out")
	bad=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' <<<"$out")
	grep -E '^(ok|not ok|test) ' <<<"$out"
	[ "$bad" = 0 ] || { [ -f "$dir/regression.diffs" ] && head -200 "$dir/regression.diffs"; }
	[ $((ok + bad)) -gt 0 ] || { printf '%s\n' "$out" | tail -30; bad=1; }
	count "$ok" "$bad" 0 "$(grep -E '\.\.\. FAILED|^not ok [0-9]+ ' <<<"$out" | paste -sd'|')"
}

# A script printing one `ok ...` or `FAIL ...` line per check, or `skip ...` lines for checks it cannot run
# here (counted as skipped, neither passed nor failed).
checks() {
	local out
	out=$("$@" 2>&1)
	printf '%s\n' "$out"
	count "$(grep -c '^ok ' <<<"$out")" "$(grep -c '^FAIL' <<<"$out")" "$(grep -c '^skip ' <<<"$out")" \
		"$(grep '^FAIL' <<<"$out" | cut -c1-160 | paste -sd'|')"
	grep -qE '^(ok|FAIL|skip )' <<<"$out" || count 0 1 0 "no check ran: $*"
}

export WERROR=1 # the extension's build treats warnings as errors here, like the core's
# gdb: test/adopt/around.sh holds one session at a breakpoint to race two steps; debootstrap and bubblewrap:
# for 19's root (scripts/pgversions.sh); repmgr: the failover manager of
# test/concurrency/failover_manager.sh; pg_auto_failover: test/concurrency/runbook_pgaf.sh (both before the
# private copies of 15 are made, which then hold them)
ensure_packages gdb debootstrap bubblewrap postgresql-15-repmgr postgresql-15-auto-failover || { count 0 1; finish; }
# patroni and etcd-server: test/concurrency/runbook_patroni.sh (Debian's Patroni 3.0.2 and etcd 3.4, driving
# its 15), which says skip where they could not be installed
install_missing patroni etcd-server || echo "==> patroni and etcd-server could not be installed: the Patroni runbook says skip"

# The newer versions are fetched in the background while the core's checks and 15 run: on a fresh machine
# that is minutes of downloads (19's Debian root above all). pg_ensure_version waits for a fetch under way
# (its lock), and says what failed; the background's own log is kept for that.
prefetch_log=$(mktemp /tmp/idtypes-prefetch.XXXXXX)
(for v in "${versions[@]}"; do on own_fetch || pg_ensure_version "$v" >/dev/null; done) >"$prefetch_log" 2>&1 &

log "code style (clang-format --dry-run --Werror over src/, test/ and bench/)"
if (cd "$ROOT" && clang-format --dry-run --Werror src/*/*.[ch]pp src/pg/*/*.[ch]pp test/*/*.[ch]pp bench/*.cpp); then
	echo "ok   every C++ file of src/ (src/pg/*/ too), test/ and bench/ is formatted by .clang-format"
	count 1 0
else
	echo "FAIL: run clang-format -i over the files named above"
	count 0 1
fi

log "every script with a #! line is executable (test.sh runs them as commands)"
not_x=$(cd "$ROOT" && for f in $(git ls-files scripts test clients bench 2>/dev/null); do
	[ -f "$f" ] && [ ! -x "$f" ] && head -c2 "$f" | grep -q '^#!' && echo "$f"; done)
if [ -z "$not_x" ]; then
	echo "ok   every script of scripts/, test/, clients/ and bench/ with a #! line is executable"
	count 1 0
else
	echo "FAIL: chmod +x (git keeps the mode): $not_x"
	count 0 1 0 "not executable: $(paste -sd' ' <<<"$not_x")"
fi

log "the include arrows between the folders of src/pg/: downward only (scripts/include_arrows.sh)"
checks "$ROOT/scripts/include_arrows.sh"

log "fuzzing the core: every parser and formatter, ${IDTYPES_FUZZ_SECONDS:-3} s per target (scripts/fuzz.sh)"
checks "$ROOT/scripts/fuzz.sh" "${IDTYPES_FUZZ_SECONDS:-3}"

# The core's unit tests in a CMake build directory; extra arguments are CMake options.
unit_tests() {
	local build=$1 ctest_out summary total bad
	shift
	if cmake -S "$ROOT" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null &&
		cmake --build "$build" -j"$(nproc)" >/dev/null; then
		ctest_out=$(cd "$build" && ctest --output-on-failure 2>&1)
		summary=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' <<<"$ctest_out")
		total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$summary")
		bad=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$summary")
		if [ -n "$total" ]; then count $((total - bad)) "$bad"; else count 0 1; fi
		[ "${bad:-1}" = 0 ] || printf '%s\n' "$ctest_out" | grep -vE '^\s+[0-9]+/[0-9]+ Test' | tail -60
		echo "$summary"
	else
		echo "FAIL: the core or its tests did not build in $build"
		count 0 1
	fi
}

log "core unit tests (CMake + GoogleTest)"
unit_tests "$ROOT/build"
log "core unit tests built with AddressSanitizer + UndefinedBehaviorSanitizer"
unit_tests "$ROOT/build-sanitize" -DIDTYPES_SANITIZE=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON

dump_dir=$(mktemp -d)
run_dir=$(mktemp -d /tmp/idtypes-run.XXXXXX) # this run's copies of the PostgreSQL installations
chmod 755 "$run_dir"
trap 'cluster_stop; rm -rf "$dump_dir" "$run_dir" "$prefetch_log"' EXIT

# The tests every version runs, in a cluster of its own per mode. MODE_ON_DEMAND: what
# idtypes_generator_mode() says when idtypes is not preloaded.
version_suites() {
	local dir=$1 v=$2 on_demand=$3
	log "PostgreSQL $v: the server's identity: roles, privileges, require_identity, idtypes_identity() (not preloaded)"
	# on 19, this cluster (the generators, failover) is as durable as initdb's defaults, as pg_regress's is
	# below: 19 marks pages all-visible while reading them once their hint bits can be set, which
	# synchronous_commit = off delays (rows_since_analyze.cpp)
	local durable=()
	on durable_first && durable=(fsync=on synchronous_commit=on)
	cluster_start wal_level=logical "${durable[@]}" # wal_level: for the logical replication round trip
	checks "$ROOT/test/concurrency/identity.sh" # first: it sees the cluster before any ID
	# pg_regress, not preloaded, runs below against a cluster with initdb's default settings (the whole
	# suite, then the suites that are not bulk data again): that is where the tests must hold
	log "PostgreSQL $v: generators as applications use them ($on_demand)"
	checks "$ROOT/test/concurrency/run.sh" "$on_demand"
	checks "$ROOT/test/concurrency/settings.sh" session
	log "PostgreSQL $v: no repeated or earlier ID after a restart, an immediate shutdown, a killed backend"
	checks "$ROOT/test/concurrency/restart.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
	# the issue's full size (5 x 300,000 one after another) on 15; the same code with 5 x 60,000 on the others
	local serial_rows=300000
	on full_size || serial_rows=60000
	log "PostgreSQL $v: uuid_v7_generate() in order across the server: sessions, restarts (5 x $serial_rows one after another)"
	IDTYPES_UUID_SERIAL_ROWS=$serial_rows checks "$ROOT/test/concurrency/uuid_v7.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
	log "PostgreSQL $v: generator state that fails safe (mark not writable, hung, garbled; clock_backward; copies)"
	checks "$ROOT/test/concurrency/failsafe.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
	checks "$ROOT/test/concurrency/copies.sh" "$("$PG_CONFIG" --bindir)" no
	log "PostgreSQL $v: failover: a promoted standby continues above its old primary's IDs (the mark through WAL)"
	IDTYPES_FAILOVER_SETTINGS="${durable[*]/#/-c }" checks "$ROOT/test/concurrency/failover.sh" "$("$PG_CONFIG" --bindir)" no
	log "PostgreSQL $v: failover with several databases, in either order, the clock behind (no step after promotion)"
	checks "$ROOT/test/concurrency/failover_multidb.sh" "$("$PG_CONFIG" --bindir)" no
	log "PostgreSQL $v: a clock that jumped ahead, put right: the documented way back issues no ID again"
	checks "$ROOT/test/concurrency/clock_ahead.sh" "$("$PG_CONFIG" --bindir)" no
	if on pg_upgrade_rebuild; then
		log "PostgreSQL $v: pg_upgrade, then one launcher rebuilds the mark (CREATE/ALTER EXTENSION first, a locked carrier, statement_timeout, 200 databases)"
		checks "$ROOT/test/concurrency/upgrade_rebuild.sh" "$("$PG_CONFIG" --bindir)" no
	fi
	if on standby_public; then
		log "PostgreSQL $v: the rebuild reads only idtypes' own carriers (decoys, VACUUM FULL pg_extension), past a held ALTER DATABASE, never below the published mark; within its deadline, one at a time, the standby down (issue 63)"
		checks "$ROOT/test/concurrency/rebuild_carriers.sh" "$("$PG_CONFIG" --bindir)" no
		log "PostgreSQL $v: a session's carrier cache dropped with the carrier's file: REFRESH, CLUSTER, SET TABLESPACE rolled back, rewrites committed; the origin lost, the clock behind (issue 63)"
		checks "$ROOT/test/concurrency/carrier_cache.sh" "$("$PG_CONFIG" --bindir)" no
		log "PostgreSQL $v: a standby with its primary's identity, then with its own, then promoted"
		checks "$ROOT/test/concurrency/standby_identity.sh" "$("$PG_CONFIG" --bindir)" no
		log "PostgreSQL $v: the DBA's pages step by step: ALTER SYSTEM with and without LOAD, the pg_ctl promote runbook, the way back to 1.4's file"
		checks "$ROOT/test/concurrency/runbooks.sh" "$("$PG_CONFIG" --bindir)"
		log "PostgreSQL $v: the repmgr runbook: standby clone, step 1's block, idtypes_identity() before and after standby register, repmgr standby promote, no ID in common, node rejoin --force-rewind and step 3's block"
		checks "$ROOT/test/concurrency/runbook_repmgr.sh" "$("$PG_CONFIG" --bindir)"
		if on patroni; then
			log "PostgreSQL $v: the Patroni runbook: step 1's block in each node's patroni.yml, patronictl switchover, an automatic failover with a lag, pg_rewind, idtypes_identity() on each node, no ID in common"
			checks "$ROOT/test/concurrency/runbook_patroni.sh" "$("$PG_CONFIG" --bindir)"
		fi
		if on pg_auto_failover; then
			log "PostgreSQL $v: the pg_auto_failover runbook: a monitor, pg_autoctl create postgres, step 1's block, pg_autoctl perform failover, no ID in common, the old primary rejoined and given its own identity again"
			checks "$ROOT/test/concurrency/runbook_pgaf.sh" "$("$PG_CONFIG" --bindir)"
		fi
		log "PostgreSQL $v: idtypes 1.5's library beside this one in one server: one generator state issues, never two"
		checks "$ROOT/test/concurrency/two_libraries.sh" "$PG_CONFIG"
		log "PostgreSQL $v: synchronous replication with the standby stopped: no generator returns (the mark waits for it, whatever a session's synchronous_commit), then a failover"
		checks "$ROOT/test/concurrency/sync_standby.sh" "$("$PG_CONFIG" --bindir)" no
		log "PostgreSQL $v: uid11_generate_random across a failover: the promoted standby skips the values its predecessors' keys issued (key records), clock set back"
		checks "$ROOT/test/concurrency/fullrand_failover.sh" "$("$PG_CONFIG" --bindir)" "$([ "$v" = 15 ] && echo no || echo yes)"
		log "PostgreSQL $v: uid11_generate_random's key records: one maker per key, no value before the synchronous standbys confirm its record (a cancel, every session), waits that end (lock_timeout, statement_timeout, transaction_timeout, an own lock), more keys than the budget"
		checks "$ROOT/test/concurrency/key_records.sh" "$("$PG_CONFIG" --bindir)" "$([ "$v" = 15 ] && echo no || echo yes)"
		log "PostgreSQL $v: the mark's writer waits with no LWLock held: a held lock on pg_replication_origin, timeouts, a cancel, a failed write"
		checks "$ROOT/test/concurrency/mark_waits.sh" "$("$PG_CONFIG" --bindir)" no
		log "PostgreSQL $v: public forms with a keyring: known answers, round trips, order, one keyring per reload, bad reloads kept, scopes, staged rotation on a standby, no key byte shown"
		checks "$ROOT/test/public/run.sh" "$("$PG_CONFIG" --bindir)"
		log "PostgreSQL $v: the public forms never answer wrong (issue 64): retired and removed versions refused for every kind, a remembered symbol refused on a primary and its standby, the keyring's worker seen and its absence refused, no 16 hex digits of the file shown, a crash keeps the last good keyring, scopes by OID, parallel workers at the leader's keyring"
		checks "$ROOT/test/public/findings.sh" "$("$PG_CONFIG" --bindir)"
	fi
	if on privileges; then
		log "PostgreSQL $v: grants, a schema's and a database's owner, pg_write_all_data, pg_maintain try to move or block the mark"
		checks "$ROOT/test/concurrency/privileges.sh" "$("$PG_CONFIG" --bindir)" no
	fi
	if on adopt; then
		log "PostgreSQL $v: adoption: a key and its foreign keys moved to timeid and UUIDv7 under pgbench (1M rows), a cancel, a crash, a failover at each step"
		checks "$ROOT/test/adopt/run.sh" "$("$PG_CONFIG" --bindir)"
		log "PostgreSQL $v: adoption around its design: another role's child, other arguments, a late publication or foreign key, an anti-wraparound autovacuum, an INVALID index, planted state rows"
		checks "$ROOT/test/adopt/around.sh" "$("$PG_CONFIG" --bindir)"
	fi
	log "PostgreSQL $v: versioned upgrades: every earlier version updated equals a fresh install"
	checks "$ROOT/test/upgrade/run.sh"
	# ---- issue 65: upgrades that no session feels ----
	if on upgrade_scripts; then
		log "PostgreSQL $v: no update gives a C symbol another shape (1.0 to this tree); a grant, comment, view and function on every function kept by every update; operators planted by a database owner never called"
		checks "$ROOT/test/upgrade/shapes.sh"
		checks "$ROOT/test/upgrade/attached.sh"
		checks "$ROOT/test/upgrade/planted.sh"
	fi
	if on live_upgrade; then
		log "PostgreSQL $v: live upgrades from 1.5 and 1.6 (preloaded and not, a standby, old sessions open, generators throughout); make install under new sessions"
		checks "$ROOT/test/upgrade/live.sh" "$PG_CONFIG" "$dir"
		checks "$ROOT/test/upgrade/install.sh" "$PG_CONFIG" "$dir"
	fi
	# ---- end of issue 65 ----
	if [ "$v" = 15 ] || [ "$v" = 19 ]; then
		log "PostgreSQL $v: pg_regress (the light suites) on SQL_ASCII and LATIN1 databases"
		checks "$ROOT/test/encoding/run.sh" "$dir"
	fi
	log "PostgreSQL $v: binary COPY of random payloads into every type"
	checks "$ROOT/test/sanitize/binary_copy.py"
	log "PostgreSQL $v: the SQL edition: installs, suite, both editions compared, generators, failover, dump, moves"
	if on full_size; then set -- 100000 full; else set -- 1000 lean; fi
	checks "$ROOT/test/sql_edition/run.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)" "$@"
	log "PostgreSQL $v: both editions on one server, preloaded and not; docs/sql-edition.md top to bottom"
	checks "$ROOT/test/sql_edition/both.sh"
	if on sql_edition_logical; then
		log "PostgreSQL $v: the SQL edition under logical replication, both directions (two clusters)"
		checks "$ROOT/test/sql_edition/logical.sh"
	fi
	if on dump_from; then
		log "a database with every type dumped from 15, to be restored into the newer versions"
		checks "$ROOT/test/dump/run.sh" dump "$dump_dir"
	elif [ -f "$dump_dir/idtypes.dump" ]; then
		log "PostgreSQL $v: restoring the dump from 15"
		checks "$ROOT/test/dump/run.sh" restore "$dump_dir"
	fi
	if on clients; then
		log "round trips: pg_dump (plain, custom, directory), COPY (text, binary), logical replication"
		checks "$ROOT/test/roundtrip/run.sh"
		log "interop with reference implementations"
		checks "$ROOT/test/interop/run.sh"
		log "client drivers: node-postgres, psycopg, JDBC, pgx, asyncpg, SQLAlchemy, Django"
		checks "$ROOT/test/drivers/run.sh"
		log "ORMs and their schema tools: Drizzle, TypeORM, Prisma, Kysely, Knex, ActiveRecord, GORM"
		checks "$ROOT/test/orms/run.sh"
		log "PHP: PDO, Doctrine DBAL, Laravel (clients/php) and docs/clients.md's PHP snippets"
		checks "$ROOT/test/php/run.sh"
		log "the docs: every sql block of README.md and docs/ runs, every relative link resolves"
		checks "$ROOT/test/docs/run.sh"
	fi
	if on binary_drivers; then
		log "PostgreSQL $v: the binary rounds of the client drivers pgx and asyncpg"
		checks "$ROOT/test/drivers/run.sh" binary
		log "PostgreSQL $v: PHP: PDO, Doctrine DBAL, Laravel (clients/php)"
		checks "$ROOT/test/php/run.sh"
	fi
	cluster_stop
	log "PostgreSQL $v: pg_regress (idtypes not preloaded): make installcheck, twice, against a cluster with initdb's default settings"
	checks installcheck_default_cluster "$dir"
	on preloaded || return 0

	# the suites that are not bulk data (light_suites): the bulk ones do not depend on where the generator
	# state lives, and run in the first mode, the sanitized servers and the default-settings cluster
	log "PostgreSQL $v: the server's identity, then pg_regress, with shared_preload_libraries = idtypes"
	cluster_start shared_preload_libraries=idtypes
	checks "$ROOT/test/concurrency/identity.sh" # first: it sees the cluster before any ID
	regress "$dir" "$(light_suites "$dir")"
	log "PostgreSQL $v: generators as applications use them (state reserved at start)"
	checks "$ROOT/test/concurrency/run.sh" "shared (preloaded)"
	checks "$ROOT/test/concurrency/settings.sh" session
	checks "$ROOT/test/concurrency/restart.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
	IDTYPES_UUID_SERIAL_ROWS=60000 checks "$ROOT/test/concurrency/uuid_v7.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
	if on preloaded_failover; then
		checks "$ROOT/test/concurrency/failsafe.sh" "$CLUSTER_DIR/data" "$("$PG_CONFIG" --bindir)"
		checks "$ROOT/test/concurrency/copies.sh" "$("$PG_CONFIG" --bindir)" yes
		checks "$ROOT/test/concurrency/failover.sh" "$("$PG_CONFIG" --bindir)" yes
		checks "$ROOT/test/concurrency/failover_multidb.sh" "$("$PG_CONFIG" --bindir)" yes
		checks "$ROOT/test/concurrency/clock_ahead.sh" "$("$PG_CONFIG" --bindir)" yes
		log "grants, a schema's and a database's owner, pg_write_all_data try to move or block the mark (preloaded)"
		checks "$ROOT/test/concurrency/privileges.sh" "$("$PG_CONFIG" --bindir)" yes
		log "failover by a real failover manager: repmgrd promotes the standby, nothing of idtypes runs"
		checks "$ROOT/test/concurrency/failover_manager.sh" "$("$PG_CONFIG" --bindir)" yes
	fi
	cluster_stop
}

# In a cluster with max_replication_slots = 0: every generator refuses with 55000 naming the setting (idtypes
# keeps its mark in a replication origin, which needs one replication state).
origin_states_refused() {
	local t out bad=0
	psql -X -q -c 'CREATE EXTENSION idtypes' >/dev/null || { echo "FAIL CREATE EXTENSION idtypes with max_replication_slots = 0"; return; }
	for t in timeid tbsl uid11 scru160 uuid_v7; do
		out=$(psql -X -q -v VERBOSITY=verbose -c "SELECT ${t}_generate()" 2>&1)
		[[ $out == *"55000"*"max_replication_slots is 0, and idtypes keeps its mark in a replication origin"*"Set max_replication_slots"* ]] || { bad=1; echo "     ${t}_generate(): $out"; }
	done
	[ "$bad" = 0 ] && echo "ok   max_replication_slots = 0: every generator refuses with 55000, naming the setting and what to raise" ||
		echo "FAIL max_replication_slots = 0: a generator did not refuse as it should"
}

# What does not depend on the version, and the slower extra clusters (only_on[extra_clusters]).
extra_suites() {
	log "generators with max_connections = 3000"
	cluster_start max_connections=3000
	checks "$ROOT/test/concurrency/run.sh" "shared (allocated at first use)"
	IDTYPES_UUID_SERIAL_ROWS=60000 checks "$ROOT/test/concurrency/uuid_v7.sh"
	cluster_stop

	log "identity settings out of range at server start (preloaded, then not)"
	cluster_start shared_preload_libraries=idtypes idtypes.tbsl_machine_id=100 idtypes.timeid_clock_id=5000
	checks "$ROOT/test/concurrency/settings.sh" at-start
	cluster_stop
	cluster_start idtypes.tbsl_machine_id=100 idtypes.timeid_clock_id=5000
	checks "$ROOT/test/concurrency/settings.sh" at-start
	cluster_stop

	log "no replication state for idtypes' origin: the generators refuse, naming the setting"
	cluster_start max_replication_slots=0
	checks origin_states_refused
	cluster_stop

	log "planner: the newest rows after autovacuum's VACUUM, a clean restart, a crash" && checks "$ROOT/test/planner/autovacuum.sh"

	log "the README's quick start: scripts/demo.sh runs, without a warning"
	if "$ROOT/scripts/demo.sh" >"$run_dir/demo.log" 2>&1 && ! grep -qE 'WARNING|NOTICE|could not|ERROR' "$run_dir/demo.log"; then
		echo "ok   scripts/demo.sh runs, without a warning"
		count 1 0
	else
		tail -30 "$run_dir/demo.log"
		echo "FAIL scripts/demo.sh"
		count 0 1
	fi

	log "several servers: a table sharded with postgres_fdw over three clusters, range partitions, the collision table"
	checks "$ROOT/test/sharding/run.sh"

	log "Citus: a coordinator and two workers, every type distributed by its ID (skipped where Citus is not installed)"
	checks "$ROOT/test/citus/run.sh"

	log "time partitions: a pg_cron job, sessions at once, locks"
	checks "$ROOT/test/partitions/cron.sh"
	log "pg_cron's connection: cron.host on a server without TCP, a failed run in cron.job_run_details, scheduled again"
	checks "$ROOT/test/partitions/cron_connect.sh"

	log "packages: META.json (PGXN); the Debian package built, installed, used by the system's PostgreSQL 15, removed"
	checks "$ROOT/test/package/meta.sh"
	checks "$ROOT/test/package/run.sh"

	log "the extension under ASan + UBSan in two PostgreSQL 15 servers (test/sanitize/run.sh)"
	checks "$ROOT/test/sanitize/run.sh"

	log "i386 (32-bit), natively in a Debian 12 root: build, unit tests, pg_regress, upgrades, dump and COPY with amd64"
	checks "$ROOT/scripts/arch.sh" i386
	# s390x under emulation costs ~10 min a run and ~12 min to build its root on a fresh machine: more than CI's
	# budget allows, so on demand (IDTYPES_BIG_ENDIAN=1, or scripts/arch.sh s390x by hand)
	if [ "${IDTYPES_BIG_ENDIAN:-0}" = 1 ]; then
		log "s390x (big-endian), under qemu-user: the suites of the types' bytes and order, dump and COPY with amd64"
		checks "$ROOT/scripts/arch.sh" s390x timeid_io tbsl_io uid11_io scru160_io timeid_index tbsl_index \
			uid11_index scru160_index in_range dump
	else
		echo "skip s390x (big-endian, emulated): on demand, IDTYPES_BIG_ENDIAN=1 ./scripts/test.sh --pg 15 (CI's time)"
		count 0 0 1
	fi
}

# pg_upgrade from 18 to 19, once: 18 in 19's Debian root (sid's postgresql-18 beside experimental's 19: the npm
# servers of 17 and 18 ship no pg_upgrade), the extension built for it there and installed into the private copy
upgrade_from_18() {
	local d18 runner
	log "pg_upgrade 18 -> 19: two databases' IDs, then each generator's clock set back onto them (either database first)"
	if [ ! -d "$(dirname "$PG_CONFIG")/bin-18" ]; then
		echo "skip pg_upgrade 18 -> 19: PostgreSQL 18 could not be installed in 19's root (scripts/pgversions.sh, pg_ensure_root_old)"
		count 0 0 1
		return
	fi
	runner=$(dirname "$PG_CONFIG")/in-root
	d18=$(source_copy build-pg18root) &&
		"$runner" make -C "$d18" -s -j"$(nproc)" WERROR="${WERROR:-}" PG_CONFIG=/usr/lib/postgresql/18/bin/pg_config >/dev/null &&
		"$runner" make -C "$d18" -s install PG_CONFIG=/usr/lib/postgresql/18/bin/pg_config >/dev/null ||
		{ echo "FAIL: the extension did not build for PostgreSQL 18 in 19's root"; count 0 1; return; }
	checks "$ROOT/test/concurrency/upgrade_major.sh" "$(dirname "$PG_CONFIG")/bin-18" "$("$PG_CONFIG" --bindir)"
}

for v in "${versions[@]}"; do
	PG_CONFIG=$(pg_ensure_version "$v") || { cat "$prefetch_log"; echo "FAIL: PostgreSQL $v could not be fetched"; count 0 1; continue; }
	# 18 beside 19 in its root, before the private copy (which then holds it too)
	on pg_upgrade_from_18 && { pg_ensure_root_old 19 18 >/dev/null || echo "==> PostgreSQL 18 could not be added to 19's root"; }
	PG_CONFIG=$(private_install "$PG_CONFIG" "$run_dir") || { echo "FAIL: a private copy of PostgreSQL $v"; count 0 1; continue; }
	export PG_CONFIG
	dir=$(version_tree "$v")
	if ! build_and_install "$dir"; then
		echo "FAIL: the extension did not build for PostgreSQL $v"
		count 0 1
		continue
	fi
	if on state_at_first_use; then mode="shared (allocated at first use)"; else mode="shared (named DSM segment)"; fi
	version_suites "$dir" "$v" "$mode"
	on extra_clusters && extra_suites
	on pg_upgrade_from_18 && upgrade_from_18
done

finish
