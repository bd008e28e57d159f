#!/usr/bin/env bash
# `make install` on a live server never shows a session a half-written library (issue 65): the Makefile writes
# the library beside its final name and renames it over (docs/upgrading.md, step 1). PG_CONFIG: a private
# installation; TREE: a tree built for it (this one; given an earlier one, whose install writes in place,
# this check fails). A cluster not preloading idtypes (each new session loads the library from the file);
# TREE's `make install` 30 times over while 2 clients open new sessions that call a C function of the
# library, one after another. Every session must load it: 0 failures, and at least one session opened
# during every install. Prints `ok` / `FAIL` lines.
set -uo pipefail
pg_config=${1:?usage: install.sh PG_CONFIG TREE}
tree=${2:?usage: install.sh PG_CONFIG TREE}
here=$(cd "$(dirname "$0")" && pwd)
bin=$("$pg_config" --bindir)
source "$here/../../scripts/lib.sh"
source "$here/../concurrency/server.sh"
source "$here/../concurrency/clusters.sh"
PG_CONFIG=$pg_config
installs=30
lib=$("$pg_config" --pkglibdir)/idtypes.so

settings=$(settings_for no)
as_postgres "$bin/initdb" -D "$work/c" -A trust -U postgres --no-sync >/dev/null && start c || die "the cluster"
sql c -c 'CREATE EXTENSION idtypes' || die "CREATE EXTENSION"
# clients NAME: new sessions, each loading the library, until $work/stop; one line per session in NAME (ok or
# its error)
clients() {
	while [ ! -f "$work/stop" ]; do
		if out=$(sql c -c 'SELECT make_timeid(1721382046481000, 1)' 2>&1); then echo ok; else echo "$out" | head -1; fi
	done >"$work/$1"
}
clients a & clients b &
sleep 0.5
during=0
for i in $(seq 1 "$installs"); do
	before=$(cat "$work/a" "$work/b" | wc -l)
	pg_make -C "$tree" -s install >/dev/null 2>&1 || fail "make install $i"
	[ "$(cat "$work/a" "$work/b" | wc -l)" -gt "$before" ] && during=$((during + 1))
done
touch "$work/stop"
wait
opened=$(cat "$work/a" "$work/b" | wc -l)
failed=$(cat "$work/a" "$work/b" | grep -vc '^ok$')
[ "$failed" = 0 ] && [ "$during" = "$installs" ] &&
	ok "$opened new sessions during $installs installs of the library (sessions opened during each), none failed to load it" ||
	fail "$failed of $opened new sessions failed during $installs installs (sessions opened during $during of them): $(cat "$work/a" "$work/b" | grep -v '^ok$' | sort | uniq -c | head -3)"
# (a version in a Debian root names its paths inside it: in-root sees them, scripts/pgversions.sh)
inside() { if [ -x "$(dirname "$pg_config")/in-root" ]; then "$(dirname "$pg_config")/in-root" "$@"; else "$@"; fi; }
left=$(inside find "$(dirname "$lib")" -maxdepth 1 -name '.idtypes.so.*' | wc -l)
mode=$(inside stat -c %a "$lib")
[ "$left" = 0 ] && [ "$mode" = 755 ] && ok "no temporary file left beside the library; its mode 755" ||
	fail "$left temporary files left beside the library; its mode $mode"
exit $status
