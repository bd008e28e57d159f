#!/usr/bin/env bash
# Every test suite: the core's GoogleTest unit tests (CTest), pg_regress in a throwaway cluster, and the
# interop checks against reference implementations. Installs what is missing first. Ends with the line
# `N passed, M failed` and exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

passed=0
failed=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); }

ensure_packages || { echo "0 passed, 1 failed"; exit 1; }

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

build_and_install || { count 0 1; echo "$passed passed, $failed failed"; exit 1; }

log "pg_regress in a throwaway cluster"
cluster_start
trap cluster_stop EXIT
regress_out=$(make -C "$ROOT" -s installcheck 2>&1)
ok=$(grep -cE '^(ok|test) .*\.\.\. ok' <<<"$regress_out")
bad=$(grep -cE '\.\.\. FAILED' <<<"$regress_out")
grep -E '^(ok|not ok|test) ' <<<"$regress_out"
[ "$bad" = 0 ] || { [ -f "$ROOT/regression.diffs" ] && head -200 "$ROOT/regression.diffs"; }
[ $((ok + bad)) -gt 0 ] || { printf '%s\n' "$regress_out" | tail -30; bad=1; }
count "$ok" "$bad"

log "concurrent sessions"
conc_out=$("$ROOT/test/concurrency/run.sh" 2>&1)
printf '%s\n' "$conc_out"
count "$(grep -c '^ok ' <<<"$conc_out")" "$(grep -c '^FAIL' <<<"$conc_out")"
grep -qE '^(ok|FAIL)' <<<"$conc_out" || count 0 1

log "interop with reference implementations"
interop_out=$("$ROOT/test/interop/run.sh" 2>&1)
printf '%s\n' "$interop_out"
count "$(grep -c '^ok ' <<<"$interop_out")" "$(grep -c '^FAIL' <<<"$interop_out")"
grep -qE '^(ok|FAIL)' <<<"$interop_out" || count 0 1

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
