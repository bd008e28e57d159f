#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz (clang, ASan + UBSan, no recovery) into build-fuzz/ and runs each
# one after the other for SECONDS (default 60) on a copy of its seed corpus test/fuzz/corpus/<target>/ (the
# repository's corpus is never modified). Prints `ok   <target>: N executions in S s` or `FAIL <target>: ...`
# per target, keeps crash reproducers under build-fuzz/crashes/<target>/, and ends with `N passed, M failed`
# (non-zero exit when any failed). Installs clang and libFuzzer's runtime with apt-get when missing.
#
#   ./scripts/fuzz.sh [SECONDS]
#   FUZZ_TARGETS="tbsl_parse uid11_prefix"  only these targets
#   FUZZ_RUNS=10000000                      stop each target after that many executions (then SECONDS only
#                                           limits the time when given explicitly)
#   FUZZ_ARGS="-use_value_profile=0"         more libFuzzer flags (the last of a flag wins)
#   FUZZ_CXXFLAGS="-O1"                     more compiler flags
#   ./build-fuzz/<target> build-fuzz/crashes/<target>/crash-...   replays a reproducer
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build-fuzz
SRC=$ROOT/test/fuzz
SECS=${1:-60}
case $SECS in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2 && exit 2 ;; esac
case ${FUZZ_RUNS:-} in *[!0-9]*) echo "FUZZ_RUNS must be a number" >&2 && exit 2 ;; esac

# --- toolchain: clang++ (14 on Debian 12) and its libFuzzer / sanitizer runtimes
CXX=${CXX_FUZZ:-}
if [ -z "$CXX" ]; then
	for c in clang++-14 clang++; do
		command -v "$c" >/dev/null && CXX=$c && break
	done
fi
probe() { [ -n "$CXX" ] && echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }' |
	"$CXX" -x c++ -fsanitize=fuzzer,address,undefined -o /dev/null - 2>/dev/null; }
if ! probe; then
	echo "installing clang and libclang-rt-14-dev (libFuzzer)"
	missing=$(for p in clang libclang-rt-14-dev; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
	SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
	$SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
	[ -n "$CXX" ] || CXX=clang++
	probe || { echo "FAIL: $CXX cannot link a libFuzzer target" && exit 1; }
fi

# --- build: the core with coverage instrumentation, then one binary per target
FLAGS=(-std=c++17 -g -O2 -fno-exceptions -fno-sanitize-recover=all -I"$ROOT/src" ${FUZZ_CXXFLAGS:-})
mkdir -p "$BUILD/obj" "$BUILD/crashes"
for f in "$ROOT"/src/core/*.cpp; do
	"$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link,address,undefined -c "$f" -o "$BUILD/obj/$(basename "$f" .cpp).o" ||
		{ echo "FAIL: building $f" && exit 1; }
done
if [ -n "${FUZZ_TARGETS:-}" ]; then
	read -r -a targets <<<"$FUZZ_TARGETS"
else
	targets=()
	for f in "$SRC"/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

passed=0
failed=0
for t in "${targets[@]}"; do
	# the harness's own reference code gets edge coverage but no comparison tracing (that would halve the speed)
	if ! "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-coverage=trace-cmp "$SRC/$t.cpp" \
		"$BUILD"/obj/*.o -o "$BUILD/$t" >"$BUILD/$t.build.log" 2>&1; then
		echo "FAIL $t: does not build (build-fuzz/$t.build.log)"
		failed=$((failed + 1))
		continue
	fi
	work=$(mktemp -d)
	mkdir -p "$work/corpus" "$work/artifacts"
	[ -d "$SRC/corpus/$t" ] && cp -R "$SRC/corpus/$t/." "$work/corpus/"
	limits=()
	if [ -n "${FUZZ_RUNS:-}" ]; then
		limits+=(-runs="$FUZZ_RUNS")
		[ $# -gt 0 ] && limits+=(-max_total_time="$SECS")
	else
		limits+=(-max_total_time="$SECS")
	fi
	start=$(date +%s)
	"$BUILD/$t" "${limits[@]}" -print_final_stats=1 -use_value_profile=1 -max_len=256 -timeout=30 \
		${FUZZ_ARGS:-} -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
	artifacts=$(ls -A "$work/artifacts")
	if [ "$rc" = 0 ] && [ -z "$artifacts" ] && [ -n "$execs" ]; then
		echo "ok   $t: $execs executions in $secs s"
		passed=$((passed + 1))
	else
		keep="$BUILD/crashes/$t"
		mkdir -p "$keep"
		cp "$work/log" "$keep/log.txt"
		kept=""
		for a in $artifacts; do
			mv "$work/artifacts/$a" "$keep/" && kept="$kept build-fuzz/crashes/$t/$a"
		done
		why=$(grep -m1 -E 'property violated|ERROR: (libFuzzer|AddressSanitizer)|runtime error' "$work/log")
		echo "FAIL $t: exit $rc after ${execs:-?} executions in $secs s: ${why:-see log}; reproducer:${kept:- none} (log: build-fuzz/crashes/$t/log.txt)"
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
