#!/usr/bin/env bash
# Every test suite: the core's GoogleTest unit tests (CTest); then, in throwaway clusters, pg_regress, the
# generator checks (sessions at once and one after another, identity settings) and the interop checks against
# reference implementations, with idtypes loaded on demand and preloaded, and with max_connections = 3000.
# Installs what is missing first. Ends with the line `N passed, M failed`; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

passed=0
failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
	exit
}

# pg_regress: one count per test file (`... ok` / `... FAILED`), the diffs shown on failure.
regress() {
	local out ok bad
	out=$(make -C "$ROOT" -s installcheck 2>&1)
	ok=$(grep -cE '^(ok|test) .*\.\.\. ok' <<<"$out")
	bad=$(grep -cE '\.\.\. FAILED' <<<"$out")
	grep -E '^(ok|not ok|test) ' <<<"$out"
	[ "$bad" = 0 ] || { [ -f "$ROOT/regression.diffs" ] && head -200 "$ROOT/regression.diffs"; }
	[ $((ok + bad)) -gt 0 ] || { printf '%s\n' "$out" | tail -30; bad=1; }
	count "$ok" "$bad"
}

# A script printing one `ok ...` or `FAIL ...` line per check.
checks() {
	local out
	out=$("$@" 2>&1)
	printf '%s\n' "$out"
	count "$(grep -c '^ok ' <<<"$out")" "$(grep -c '^FAIL' <<<"$out")"
	grep -qE '^(ok|FAIL)' <<<"$out" || count 0 1
}

export WERROR=1 # the extension's build treats warnings as errors here, like the core's
ensure_packages || { count 0 1; finish; }

log "code style (clang-format --dry-run --Werror over src/ and test/)"
if (cd "$ROOT" && clang-format --dry-run --Werror src/*/*.[ch]pp test/*/*.[ch]pp); then
	echo "ok   every C++ file of src/ and test/ is formatted by .clang-format"
	count 1 0
else
	echo "FAIL: run clang-format -i over the files named above"
	count 0 1
fi

log "core unit tests (CMake + GoogleTest)"
if cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
	cmake --build "$ROOT/build" -j"$(nproc)" >/dev/null; then
	ctest_out=$(cd "$ROOT/build" && ctest --output-on-failure 2>&1)
	summary=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' <<<"$ctest_out")
	total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$summary")
	bad=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$summary")
	if [ -n "$total" ]; then count $((total - bad)) "$bad"; else count 0 1; fi
	[ "${bad:-1}" = 0 ] || printf '%s\n' "$ctest_out" | grep -vE '^\s+[0-9]+/[0-9]+ Test' | tail -60
	echo "$summary"
else
	echo "FAIL: the core or its tests did not build"
	count 0 1
fi

build_and_install || { count 0 1; finish; }
trap cluster_stop EXIT

log "pg_regress in a throwaway cluster (idtypes not preloaded)"
cluster_start
regress
log "generators as applications use them (state allocated at first use)"
checks "$ROOT/test/concurrency/run.sh" "shared (allocated at first use)"
checks "$ROOT/test/concurrency/settings.sh" session
log "versioned upgrades: every earlier version updated equals a fresh install"
checks "$ROOT/test/upgrade/run.sh"
log "interop with reference implementations"
checks "$ROOT/test/interop/run.sh"
cluster_stop

log "pg_regress with shared_preload_libraries = idtypes"
cluster_start shared_preload_libraries=idtypes
regress
log "generators as applications use them (state reserved at start)"
checks "$ROOT/test/concurrency/run.sh" "shared (preloaded)"
checks "$ROOT/test/concurrency/settings.sh" session
cluster_stop

log "generators with max_connections = 3000"
cluster_start max_connections=3000
checks "$ROOT/test/concurrency/run.sh" "shared (allocated at first use)"
cluster_stop

log "identity settings out of range at server start (preloaded, then not)"
cluster_start shared_preload_libraries=idtypes idtypes.tbsl_machine_id=100 idtypes.timeid_clock_id=5000
checks "$ROOT/test/concurrency/settings.sh" at-start
cluster_stop
cluster_start idtypes.tbsl_machine_id=100 idtypes.timeid_clock_id=5000
checks "$ROOT/test/concurrency/settings.sh" at-start
cluster_stop

finish
