#!/usr/bin/env bash
# The extension under AddressSanitizer and UndefinedBehaviorSanitizer in real PostgreSQL 15 servers.
#
# Builds it with clang++ -fsanitize=address,undefined -fno-sanitize-recover=all (`make SANITIZE=...`) in a
# copy of the sources (build-asan/), installs it into a private copy of PostgreSQL 15 of its own (test.sh's
# copy keeps the normal build for its other suites), and starts two servers at once with clang's ASan
# runtime (which carries UBSan's) preloaded into the server only, not initdb: one loading idtypes on demand,
# one with shared_preload_libraries = idtypes. The server is not instrumented, the extension is: what is
# checked is the extension's own memory accesses (its heap, stack and globals, what it passes to libc's
# memcpy and the like, memory it reads past the end of a malloc'd block) and its undefined behavior; reads
# past a palloc'd chunk inside a larger block of PostgreSQL's are not seen. In each server: the pg_regress
# suite (all of it on demand, the suites that are not bulk data preloaded), the generator checks
# (test/concurrency/run.sh, smaller sizes; settings.sh session) and the random binary COPY payloads
# (binary_copy.py). Any sanitizer report (a file in the server's reports directory), crashed backend or
# failing suite fails the run; at the end a canary library with deliberate bugs must be reported, which
# proves every run that reports are produced and seen.
# Run as root, like scripts/test.sh (clusters run as postgres); installs what is missing (clang and its
# sanitizer runtimes too). Prints `ok` / `FAIL` lines; exits non-zero on any FAIL.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
here=$ROOT/test/sanitize
flags=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

ensure_packages clang libclang-rt-14-dev >/dev/null || { echo "FAIL installing the packages the run needs"; exit 1; }
psql_bindir=$(dirname "$(command -v psql)")
work=$(mktemp -d /tmp/idtypes-sanitize.XXXXXX)
chmod 755 "$work"
servers=()
trap 'kill "${servers[@]}" 2>/dev/null; wait; rm -rf "$work"' EXIT

started=$SECONDS
PG_CONFIG=$(private_install "$PG_CONFIG" "$work") || { echo "FAIL a private copy of PostgreSQL 15"; exit 1; }
export PG_CONFIG
# WERROR off: the warnings policy is the gcc build's; clang also warns about PostgreSQL's headers
tree=$(source_copy build-asan) &&
	WERROR='' build_and_install "$tree" SANITIZE=address,undefined CC=clang CXX=clang++ 2>"$work/build.log" ||
	{ echo "FAIL the extension did not build with clang++ ${flags[*]}:" && tail -30 "$work/build.log" && exit 1; }
runtime=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
[ -f "$runtime" ] || { echo "FAIL no ASan runtime: clang -print-file-name says $runtime"; exit 1; }
cc -shared -fPIC -O2 -o "$work/asan_startup.so" "$here/asan_startup.c" &&
	clang "${flags[@]}" -w -shared -fPIC -O1 -I"$("$PG_CONFIG" --includedir-server)" \
		-o "$("$PG_CONFIG" --pkglibdir)/sanitize_canary.so" "$here/canary.c" ||
	{ echo "FAIL building test/sanitize's helper libraries"; exit 1; }
echo "ok   the extension built with clang++ ${flags[*]} ($((SECONDS - started)) s)"

# Everything in one sanitized server: NAME, the generator mode it must report, then server settings.
# Prints its lines with NAME after ok/FAIL, so that the two servers' lines tell apart.
sanitized_server() {
	local name=$1 mode=$2 reports=$work/reports-$1 regress=$work/regress-$1 t maps out passed failed files
	shift 2
	ok() { echo "ok   $name: $*"; }
	fail() { echo "FAIL $name: $*"; }
	tag() { sed -E "s/^(ok|FAIL)( +)/\1\2$name: /"; }
	# pg_regress runs in a copy of the tests of its own: the tests write files under results/
	mkdir -p "$reports" "$regress" && chown postgres: "$reports" &&
		cp -r "$tree"/{Makefile,idtypes.control,sql,expected} "$regress"/ || { fail "setting up"; return; }
	# detect_leaks=0: the postmaster keeps its allocations on purpose; abort_on_error: a report ends the
	# backend at once; log_path: a file per reporting process, for UBSan's reports too (same runtime)
	CLUSTER_ENV="LD_PRELOAD=$runtime:$work/asan_startup.so
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$reports/asan
		UBSAN_OPTIONS=print_stacktrace=1" cluster_start "$@" || { fail "the server did not start"; return; }
	trap cluster_stop EXIT
	trap 'exit 130' INT TERM

	# a backend has the runtime and the instrumented idtypes.so mapped
	maps=$(psql -X -At 2>&1 <<-'EOF'
		LOAD 'idtypes';
		SELECT pg_backend_pid() AS pid \gset
		\setenv BACKEND :pid
		\! grep -oE '\S*(libclang_rt[.]asan\S*|/idtypes[.]so)$' /proc/$BACKEND/maps | sort -u
	EOF
	)
	if grep -q libclang_rt.asan <<<"$maps" && grep -q "$("$PG_CONFIG" --pkglibdir)/idtypes.so" <<<"$maps" &&
		[ "$(nm -D "$("$PG_CONFIG" --pkglibdir)/idtypes.so" | grep -c __asan_report_load)" -gt 0 ]; then
		ok "a backend has the ASan runtime and the instrumented idtypes.so mapped"
	else
		fail "a backend's mappings: $maps"
	fi

	t=$SECONDS
	# the preloaded server runs the suites that are not bulk data (light_suites): the other server runs them
	# all through the same code, and the two share two cores
	local tests=
	[ "$name" = preloaded ] && tests=$(light_suites "$regress")
	out=$(make -C "$regress" -s installcheck PG_CONFIG="$PG_CONFIG" EXTRA_REGRESS_OPTS="--bindir=$psql_bindir" \
		${tests:+"REGRESS=$tests"} 2>&1)
	passed=$(grep -cE '^test .*\.\.\. ok' <<<"$out")
	failed=$(grep -cE '\.\.\. FAILED' <<<"$out")
	if [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; then
		ok "pg_regress: all $passed tests passed ($((SECONDS - t)) s)"
	else
		fail "pg_regress: $failed failed, $passed passed:"
		grep -E '^test ' <<<"$out" | grep -v '\.\.\. ok' | sed 's/^/     /'
		[ -f "$regress/regression.diffs" ] && head -40 "$regress/regression.diffs" | sed 's/^/     /'
	fi

	t=$SECONDS
	# what matters here is every code path, not volume (the normal suites run the full sizes)
	IDTYPES_SERIAL_SESSIONS=3 IDTYPES_SERIAL_ROWS=20000 IDTYPES_ROUNDS=1 IDTYPES_CONCURRENT_ROWS=5000 \
		"$ROOT/test/concurrency/run.sh" "$mode" 2>&1 | tag "$name"
	"$ROOT/test/concurrency/settings.sh" session 2>&1 | tag "$name"
	echo "==> $name: the generator checks took $((SECONDS - t)) s"
	t=$SECONDS
	python3 "$here/binary_copy.py" 2>&1 | tag "$name"
	echo "==> $name: the binary COPY payloads took $((SECONDS - t)) s"

	if grep -E 'terminated by signal|exited with exit code' "$CLUSTER_DIR/log"; then
		fail "a server process crashed or exited abnormally (server log above)"
	else
		ok "no server process crashed"
	fi
	files=$(find "$reports" -type f)
	if [ -z "$files" ]; then
		ok "no ASan or UBSan report"
	else
		fail "sanitizer reports:"
		for f in $files; do head -40 "$f" | sed "s|^|     $(basename "$f"): |"; done
	fi

	# SQL calling the canary, again until its report (PATTERN) appears: the previous report ended its
	# backend, and the server may still be restarting
	canary() {
		local try
		for try in 1 2 3 4 5 6 7 8 9 10; do
			psql -X -q -c "$1" >/dev/null 2>&1
			grep -qs "$2" "$reports"/* && return 0
			sleep "$try"
		done
		return 1
	}
	# the canary: a heap overflow (ASan) and an oversized shift (UBSan), each in a backend of its own (each
	# report ends its backend, and the server restarts: the functions are committed synchronously first)
	psql -X -q -c 'SET synchronous_commit = on' \
		-c "CREATE FUNCTION canary_overflow(int, int) RETURNS int
			AS 'sanitize_canary', 'sanitize_canary_heap_overflow' LANGUAGE C STRICT" \
		-c "CREATE FUNCTION canary_shift(int) RETURNS int AS 'sanitize_canary', 'sanitize_canary_shift' LANGUAGE C STRICT" \
		-c 'SELECT canary_overflow(8, 7), canary_shift(1)' >/dev/null || fail "setting up the canary"
	if canary 'SELECT canary_overflow(8, 8)' 'in sanitize_canary_heap_overflow' &&
		canary 'SELECT canary_shift(40)' 'canary.c:[0-9:]*: runtime error: shift exponent 40 is too large' &&
		grep -qs 'ERROR: AddressSanitizer: heap-buffer-overflow' "$reports"/*; then
		ok "the canary's deliberate heap overflow and oversized shift were both reported"
	else
		fail "the canary's bugs went unreported: $(ls "$reports")"
	fi
	cluster_stop
}

sanitized_server on-demand "shared (allocated at first use)" >"$work/on-demand.out" 2>&1 &
servers+=($!)
sanitized_server preloaded "shared (preloaded)" shared_preload_libraries=idtypes >"$work/preloaded.out" 2>&1 &
servers+=($!)
wait
servers=()
cat "$work/on-demand.out" "$work/preloaded.out"
echo "==> the sanitized run took $((SECONDS - started)) s"
! grep -q '^FAIL' "$work/on-demand.out" "$work/preloaded.out"
