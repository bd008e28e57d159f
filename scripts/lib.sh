# Shared by demo.sh, test.sh and the benchmarks (bench/): install what is missing, build, install, and run throwaway
# PostgreSQL clusters as the postgres user (PostgreSQL refuses to run as root). Source it; don't run it.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=15
export DEBIAN_FRONTEND=noninteractive

log() { printf '==> [%ss] %s\n' "$SECONDS" "$*" >&2; }

# Runs a command as the postgres user from /, which it can read (from root's home it would warn
# "could not change directory").
as_postgres() { (cd / && runuser -u postgres -- "$@"); }

# Installs those of the Debian packages named that are missing.
install_missing() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	log "installing ${missing[*]}"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Debian packages the build and the tests need, and those named as arguments; installs only those missing.
ensure_packages() {
	local want=(make g++ cmake clang-format libgtest-dev libssl-dev python3 "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" postgresql-contrib "$@")
	command -v node >/dev/null && command -v npm >/dev/null || want+=(nodejs npm)
	install_missing "${want[@]}"
	export PATH="/usr/lib/postgresql/$PG_MAJOR/bin:$PATH"
	PG_CONFIG=$(command -v pg_config)
	export PG_CONFIG
}

# A private copy, under DIR, of the PostgreSQL installation that PG_CONFIG describes; prints the copy's
# pg_config. `make install` and the clusters of a test run then use the copy, so that test runs from
# several clones at once never write each other's files (the system's extension directory included).
# Debian's installation relocates itself (its pg_config and server compute their paths from where they
# are); a pg_config of scripts/pgversions.sh does too, from its own directory (19's is a Debian root, shared:
# the copy holds the directories the extension is installed into).
private_install() {
	local pg_config=$1 dir=$2 bindir sharedir
	bindir=$("$pg_config" --bindir) && sharedir=$("$pg_config" --sharedir) || return 1
	local cached copy major
	case $pg_config in
	"${IDTYPES_CACHE:-/var/cache/idtypes}"/*)
		cached=$(dirname "$pg_config") copy=$dir/$(basename "$(dirname "$pg_config")")
		if [ -d "$cached/root" ]; then
			# A version in a Debian root (19): the root stays shared (read-only when entered); the copy has the
			# scripts and its own library and extension directories, which in-root mounts over the root's.
			major=${copy##*/pg}
			mkdir -p "$copy" && cp -a "$cached"/{in-root,pg_config,bin} "$copy/" && ln -s "$cached/root" "$copy/root" &&
				cp -a "$cached/root/usr/lib/postgresql/$major/lib" "$copy/lib" &&
				cp -a "$cached/root/usr/share/postgresql/$major/extension" "$copy/extension" || return 1
			# an older version beside it in the root (pgversions.sh's pg_ensure_root_old: 18 for pg_upgrade), the same way
			local old_bin old
			for old_bin in "$cached"/bin-[0-9]*; do
				[ -d "$old_bin" ] || continue
				old=${old_bin##*-}
				cp -a "$old_bin" "$copy/" && cp -a "$cached/root/usr/lib/postgresql/$old/lib" "$copy/lib-$old" &&
					cp -a "$cached/root/usr/share/postgresql/$old/extension" "$copy/extension-$old" || return 1
			done
			echo "$copy/pg_config"
		else
			cp -a "$cached" "$dir/" && echo "$copy/pg_config"
		fi
		;;
	*)
		mkdir -p "$dir$(dirname "$(dirname "$bindir")")" "$dir$(dirname "$sharedir")" "$dir/usr" &&
			cp -a "$(dirname "$bindir")" "$dir$(dirname "$(dirname "$bindir")")/" &&
			cp -a "$sharedir" "$dir$(dirname "$sharedir")/" &&
			ln -sfn /usr/include "$dir/usr/include" && echo "$dir$bindir/pg_config"
		;;
	esac
}

# A copy of the extension's sources in $ROOT/NAME (git ignores build-*/), without the repository's objects,
# for a build of its own; prints its path.
source_copy() {
	local dir=$ROOT/$1
	rm -rf "$dir" && mkdir -p "$dir" && cp -r "$ROOT"/{Makefile,idtypes.control,idtypes_sql.control,src,sql,expected} "$dir"/ &&
		find "$dir/src" -name '*.[od]' -delete && echo "$dir"
}

# The tree to build PostgreSQL MAJOR's extension in: the repository for 15; for a newer version a copy of
# the sources of its own (build-pgNN/), so that the repository's objects stay built for 15.
version_tree() {
	local major=$1
	[ "$major" = 15 ] && { echo "$ROOT"; return; }
	source_copy "build-pg$major"
}

# make, with PG_CONFIG=$PG_CONFIG: for a version in a Debian root (19), inside it, with its own pg_config,
# compiler and pg_regress (in-root sets PG_CONFIG there).
pg_make() {
	local runner
	runner=$(dirname "$PG_CONFIG")/in-root
	if [[ -x $runner ]]; then
		"$runner" make "$@"
	else
		make PG_CONFIG="$PG_CONFIG" "$@"
	fi
}

# The psql that pg_regress runs for PG_CONFIG's version: 15's on the host for 15, 17 and 18 (they have none),
# 19's own inside its root.
regress_psql_bindir() {
	if [[ -x $(dirname "$PG_CONFIG")/in-root ]]; then
		"$PG_CONFIG" --bindir-inside
	else
		dirname "$(command -v psql)"
	fi
}

# Builds and installs the extension for $PG_CONFIG, in the tree DIR (default: the repository). Further
# arguments go to make's build, e.g. SANITIZE=address,undefined CXX=clang++ (see the Makefile).
build_and_install() {
	local dir=${1:-$ROOT}
	[ $# -gt 0 ] && shift
	log "building and installing the extension ($("$PG_CONFIG" --version))${*:+: $*}"
	pg_make -C "$dir" -s -j"$(nproc)" WERROR="${WERROR:-}" "$@" >/dev/null &&
		pg_make -C "$dir" -s install >/dev/null
}

# The pg_regress suites of the tree DIR without the bulk ones (each type's *_index, brin, the planner suites,
# generate_at: data-heavy checks of code that does not depend on where the generator state lives), for the
# second mode of a run; the full suite runs in the first.
light_suites() { (cd "$1/sql" && ls -- *.sql) | sed 's/\.sql$//' | grep -vE '_index$|^(brin|planner|planner_stale|planner_bounds|generate_at)$' | tr '\n' ' '; }

# Starts a cluster in a fresh temporary directory; sets PGHOST, PGPORT, PGUSER, CLUSTER_DIR.
# Extra arguments are server settings, e.g. shared_preload_libraries=idtypes. CLUSTER_ENV, if set, holds
# VAR=value words (no spaces inside) put in the server's environment only, not initdb's (e.g. LD_PRELOAD).
cluster_start() {
	local bindir
	bindir=$("$PG_CONFIG" --bindir)
	CLUSTER_DIR=$(mktemp -d /tmp/idtypes-cluster.XXXXXX)
	chown postgres: "$CLUSTER_DIR"
	chmod 755 "$CLUSTER_DIR"
	as_postgres "$bindir/initdb" -D "$CLUSTER_DIR/data" -A trust -U postgres --no-sync >/dev/null
	local opts="-k $CLUSTER_DIR -c listen_addresses= -c fsync=off -c synchronous_commit=off -c autovacuum=off"
	for s in "$@"; do opts+=" -c $s"; done
	local tries
	for tries in 1 2 3 4 5; do # a random port, again if it happens to be taken
		PGPORT=$((20000 + RANDOM % 20000))
		# shellcheck disable=SC2086 # CLUSTER_ENV: one word per variable
		as_postgres env ${CLUSTER_ENV:-} "$bindir/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/log" -w -s \
			-o "-p $PGPORT $opts" start && break
		[ "$tries" = 5 ] && { cat "$CLUSTER_DIR/log" >&2; return 1; }
	done
	export PGHOST=$CLUSTER_DIR PGPORT PGUSER=postgres PGDATABASE=postgres
}

cluster_stop() {
	[ -n "${CLUSTER_DIR:-}" ] || return 0
	as_postgres "$("$PG_CONFIG" --bindir)/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -s stop || true
	rm -rf "$CLUSTER_DIR"
	CLUSTER_DIR=
}
