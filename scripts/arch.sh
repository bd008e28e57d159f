#!/usr/bin/env bash
# scripts/arch.sh ARCH [--pg N] [SUITE...]: the extension built and tested on another of Debian's architectures
# (i386, armhf, arm64, s390x, ppc64el...) with Debian's own PostgreSQL N there (15, Debian 12's, by default; 17
# from trixie, 18 from sid, 19 from sid with experimental's packages: pgversions.sh's pg_debian_suite):
# `make WERROR=1`, the core's unit tests (CMake + GoogleTest), `make install` and `make installcheck` (only the
# pg_regress SUITEs named, if any; the unit tests then only run if `unit` is among them, the dump checks if
# `dump` is), all inside a Debian root of that architecture; then the versioned-upgrade check, and (15 only)
# pg_dump and COPY (text, binary) from amd64's PostgreSQL 15 (the host's) to that architecture's and back
# (test/dump/run.sh).
# The root is built once per machine with debootstrap and cached in $IDTYPES_CACHE/arch-ARCH/pgN (a few
# minutes natively, more under emulation), the same way as scripts/pgversions.sh builds PostgreSQL 19's (its
# in-root, bin/ wrappers and pg_config; lib.sh's private_install, pg_make and cluster_start use it as they
# use 19's). A foreign architecture's programs run under qemu-user (qemu-user-static, registered in
# binfmt_misc with its F flag, so they run in the sandbox too); i386 runs natively on amd64.
# Prints `ok ...` / `FAIL ...` lines (scripts/test.sh counts them); exits non-zero on a failure.
# shellcheck disable=SC2015 # a && b || fail: fail is meant to run if either fails
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pgversions.sh"
ensure_packages >/dev/null || { echo "FAIL the host's packages could not be installed"; exit 1; } # the host's 15, psql

usage="usage: $0 ARCH [--pg 15|17|18|19] [SUITE...|unit|dump]   (ARCH: i386, armhf, arm64, s390x, ppc64el, amd64)"
arch=${1:?$usage}
shift
major=15
if [[ ${1:-} == --pg ]]; then
	major=${2:?$usage}
	shift 2
fi
debian=$(pg_debian_suite "$major") || exit 2
suites=()
unit=yes dump=yes
# the dump checks need the host's client tools to dump the server: 15's refuse a newer one (test.sh's checks
# between versions run on amd64)
[[ $major == 15 ]] || dump=no
if (($#)); then
	unit=no dump=no
	suites=(00_helpers) # the other suites use its helpers
	for s; do case $s in unit) unit=yes ;; dump) dump=yes ;; 00_helpers) ;; *) suites+=("$s") ;; esac; done
fi
[[ $dump == yes && $major != 15 ]] && { echo "$0: the dump checks run with 15 only" >&2; exit 2; }
failed=0
ok() { echo "ok   $arch: $*"; }
fail() { echo "FAIL $arch: $*"; failed=1; }
# Relays a check script's `ok` / `FAIL` lines as this script's, after PREFIX.
relay() {
	local line
	while read -r line; do
		case $line in ok*) ok "$1${line#ok   }" ;; FAIL*) fail "$1${line#FAIL }" ;; *) echo "$line" ;; esac
	done
}

# The qemu-user emulator of a Debian architecture, as binfmt_misc names it; none for what runs natively.
qemu_name() {
	case $1 in
	"$(dpkg --print-architecture)" | i386) echo "" ;; # i386: an amd64 kernel runs it (IA32 emulation)
	arm64) echo aarch64 ;;
	armhf | armel) echo arm ;;
	ppc64el) echo ppc64le ;;
	*) echo "$1" ;; # s390x, riscv64, mips64el
	esac
}

# Registers qemu-NAME in binfmt_misc (mounting it first if needed) from qemu-user-static's own entry, whose
# F flag opens the emulator once, at registration, so that it runs inside any sandbox.
register_qemu() {
	local name=$1 conf=/usr/lib/binfmt.d/qemu-$1.conf
	install_missing qemu-user-static || return 1
	[[ -f /proc/sys/fs/binfmt_misc/register ]] || mount binfmt_misc -t binfmt_misc /proc/sys/fs/binfmt_misc || return 1
	[[ -f /proc/sys/fs/binfmt_misc/qemu-$name ]] || cat "$conf" >/proc/sys/fs/binfmt_misc/register || return 1
	grep -q '^enabled' "/proc/sys/fs/binfmt_misc/qemu-$name"
}

qemu=$(qemu_name "$arch")
if [[ -n $qemu ]]; then
	register_qemu "$qemu" || { fail "qemu-$qemu could not be registered in binfmt_misc"; exit 1; }
fi
install_missing debootstrap bubblewrap || { fail "debootstrap and bubblewrap could not be installed"; exit 1; }

# The root, built once (pgversions.sh's lock and .ready protocol): the directory is named pgN so that lib.sh's
# private_install reads the version from it as it does for 19's.
# What the build needs besides PostgreSQL (libssl-dev: the Makefile links OpenSSL's libcrypto); a root built
# with another list (an older arch.sh's) is built again.
cache=$IDTYPES_CACHE/arch-$arch/pg$major
packages=('libpq5$pin' g++ make cmake libgtest-dev libssl-dev)
if [[ ! -f $cache/.ready || $(cat "$cache/.packages" 2>/dev/null) != "${packages[*]}" ]]; then
	start=$SECONDS
	mkdir -p "$IDTYPES_CACHE/arch-$arch" && chmod a+rx "$IDTYPES_CACHE" "$IDTYPES_CACHE/arch-$arch"
	(
		flock -w 3600 9 || { _pgv_fail "timed out waiting for $IDTYPES_CACHE/arch-$arch.lock"; exit 1; }
		[[ $(cat "$cache/.packages" 2>/dev/null) == "${packages[*]}" ]] || rm -f "$cache/.ready"
		_pgv_build_root "$major" "$debian" "$cache" "$arch" "${packages[@]}" && echo "${packages[*]}" >"$cache/.packages"
	) 9>"$IDTYPES_CACHE/arch-$arch.lock" || { fail "the Debian $debian $arch root could not be built"; exit 1; }
	log "the Debian $debian $arch root took $((SECONDS - start)) s to build"
fi
runner=$cache/in-root

run_dir=$(mktemp -d /tmp/idtypes-arch.XXXXXX)
chmod 755 "$run_dir"
trap 'cluster_stop; rm -rf "$run_dir"' EXIT
PG_CONFIG=$(private_install "$cache/pg_config" "$run_dir") || { fail "a private copy of the root's PostgreSQL"; exit 1; }
export PG_CONFIG

# The sources in a build tree of their own (build-arch-ARCH/, seen at the same path inside the root), with
# what the unit tests read (docs/cli.md: the tool's tests run its examples and its build).
tree=$(source_copy "build-arch-$arch") && cp -r "$ROOT"/{CMakeLists.txt,test,docs} "$tree/" ||
	{ fail "cannot copy the sources"; exit 1; }
server=$("$runner" gcc -dumpmachine)
if WERROR=1 build_and_install "$tree"; then
	ok "make WERROR=1 and make install ($server, $("$PG_CONFIG" --version))"
else
	pg_make -C "$tree" -s WERROR=1 2>&1 | tail -30
	fail "make WERROR=1 ($server)"
	exit 1
fi

if [[ $unit == yes ]]; then
	log "$arch: the core's unit tests"
	out=$("$runner" sh -c "cmake -S '$tree' -B '$tree/build' -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >/dev/null && cmake --build '$tree/build' -j$(nproc) >/dev/null &&
		cd '$tree/build' && ctest --output-on-failure" 2>&1)
	summary=$(grep -E 'tests passed, [0-9]+ tests failed out of' <<<"$out")
	if [[ $summary == '100% tests passed'* ]]; then ok "core unit tests: $summary"; else
		tail -60 <<<"$out"
		fail "core unit tests: ${summary:-did not build}"
	fi
fi

# JIT off under emulation: Debian's PostgreSQL JIT-compiles with LLVM, whose generated code crashes under
# qemu-user on some architectures (ppc64el, even for a query of the core alone); it is PostgreSQL's, not
# idtypes' (idtypes ships no bitcode), and JIT only starts above jit_above_cost, which no suite depends on.
settings=()
[[ -n $qemu ]] && settings+=(jit=off)
cluster_start "${settings[@]}" || { fail "the cluster did not start"; exit 1; }
log "$arch: make installcheck${suites[*]:+ (${suites[*]})}"
# 15 prints `test x ... ok` / `... FAILED`; 16 and later print TAP: `ok 3 - x` / `not ok 3 - x`
regress=()
((${#suites[@]})) && regress=("REGRESS=${suites[*]}")
out=$(pg_make -C "$tree" -s installcheck EXTRA_REGRESS_OPTS="--bindir=$(regress_psql_bindir)" "${regress[@]}" 2>&1)
while read -r name result; do
	if [[ $result == ok ]]; then ok "pg_regress $name"; else fail "pg_regress $name"; fi
done < <(sed -nE -e 's/^test ([a-z0-9_]+) +\.\.\. (ok|FAILED).*/\1 \2/p' \
	-e 's/^ok [0-9]+ +[-+] ([a-z0-9_]+) .*/\1 ok/p' -e 's/^not ok [0-9]+ +[-+] ([a-z0-9_]+) .*/\1 FAILED/p' <<<"$out")
grep -qE '^test .*\.\.\. |^(not )?ok [0-9]+ ' <<<"$out" || { tail -30 <<<"$out"; fail "make installcheck ran no test"; }
[[ -f $tree/regression.diffs ]] && head -100 "$tree/regression.diffs"

# Every released version installs here (the base script and the update scripts, chained) and updates to a
# catalog equal to a fresh install's (released scripts get the same layout of the 8-byte types as the current
# one: Makefile, U64_BYVAL).
relay "" < <(PATH="$("$PG_CONFIG" --bindir):$PATH" "$ROOT/test/upgrade/run.sh" 2>&1) # the root's psql
[[ $dump == yes ]] || exit "$failed"

# pg_dump and COPY between amd64 (the host's Debian PostgreSQL 15, the extension built for it in
# build-arch-amd64/) and ARCH, one cluster at a time: a database made on ARCH restores on amd64, and one made
# there restores on ARCH. The client tools are the host's (the dump's format does not depend on them).
arch_config=$PG_CONFIG
# across byte orders, hash partitions are loaded through their root (test/dump/run.sh says why)
[[ $("$runner" gcc -dM -E -x c /dev/null) == *"__BYTE_ORDER__ __ORDER_BIG_ENDIAN__"* ]] && export IDTYPES_DUMP_ACROSS_BYTE_ORDER=1
mkdir -p "$run_dir/from-$arch" "$run_dir/from-amd64"
relay "" < <("$ROOT/test/dump/run.sh" dump "$run_dir/from-$arch" 2>&1)
cluster_stop
host_tree=$(source_copy build-arch-amd64) && PG_CONFIG=$(private_install "$(pg_ensure_version 15)" "$run_dir/amd64") &&
	WERROR=1 build_and_install "$host_tree" && cluster_start ||
	{ fail "the extension for amd64's PostgreSQL 15 (the dump checks)"; exit 1; }
relay "to amd64: " < <("$ROOT/test/dump/run.sh" restore "$run_dir/from-$arch" 2>&1)
relay "amd64: " < <("$ROOT/test/dump/run.sh" dump "$run_dir/from-amd64" 2>&1)
cluster_stop
PG_CONFIG=$arch_config
cluster_start "${settings[@]}" || { fail "the cluster did not start again"; exit 1; }
relay "from amd64: " < <("$ROOT/test/dump/run.sh" restore "$run_dir/from-amd64" 2>&1)
exit "$failed"
