# shellcheck shell=bash
# An earlier release's tree, built from the repository's history once per PostgreSQL major and revision, and
# kept ($ROOT/build-pg<major>-<revision>/, which git ignores) for every check that runs an earlier library
# (test/concurrency/two_libraries.sh beside this one, test/upgrade/live.sh before it). Source it after
# scripts/lib.sh, with PG_CONFIG set (pg_make builds for it).

# earlier_tree REVISION [MAKE ARGUMENTS]: prints the tree of REVISION built for $PG_CONFIG with those arguments
# (e.g. MODULE_big=idtypes_v1_5: the library under another name), building what is missing; the build's log
# is the tree's build.log, returned on failure.
earlier_tree() {
	local rev=$1 major tree stamp
	shift
	major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	tree=$ROOT/build-pg$major-$rev
	stamp=$tree/.built$(printf '%s' "$*" | tr -c 'A-Za-z0-9_.' _)
	if [ ! -f "$stamp" ]; then
		if [ ! -f "$tree/Makefile" ]; then
			rm -rf "$tree" && mkdir -p "$tree" && git -C "$ROOT" archive "$rev" | tar -x -C "$tree" || return 1
		fi
		pg_make -C "$tree" -s -j"$(nproc)" "$@" >>"$tree/build.log" 2>&1 || { tail -5 "$tree/build.log" >&2; return 1; }
		touch "$stamp"
	fi
	echo "$tree"
}
