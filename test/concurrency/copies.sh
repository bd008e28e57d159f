#!/usr/bin/env bash
# Copies of a data directory never share the fullrand key of uid11_generate_random (a shared key gives the
# same values to two servers generating in the same microseconds). In clusters of its own (small, so that
# copying is quick), with PostgreSQL's bin directory BIN_DIR and idtypes preloaded or not (PRELOAD yes|no):
# a primary and its hot standby (pg_basebackup -R: it refuses uid11_generate_random, as every generator that
# rests on the mark), then the standby promoted, then a file copy of the stopped promoted standby started
# beside it, each pair generating 200,000 values at once: none in common; and a server keeps its key across
# a restart. Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: copies.sh BIN_DIR yes|no}
preload=${2:?usage: copies.sh BIN_DIR yes|no}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload")
key_of() { grep '^key ' "$work/$1/pg_idtypes_high_water"; }

# name name label: 200,000 values from each server at once (both start at the same instant: a shared key
# gives equal values only where the two overlap in time); none may be in common
none_in_common() {
	local a=$1 b=$2 label=$3 common at name
	at=$(date -u -d '+1 second' '+%Y-%m-%d %H:%M:%S.%N+00')
	for name in "$a" "$b"; do
		sql "$name" -c "SELECT pg_sleep_until('$at')" \
			-c "COPY (SELECT uid11_generate_random() FROM generate_series(1, 200000)) TO STDOUT" | grep -v '^$' |
			sort >"$work/$name.ids" &
	done
	wait
	common=$(comm -12 "$work/$a.ids" "$work/$b.ids" | wc -l)
	if [ "$(sort -u "$work/$a.ids" | wc -l)" = 200000 ] && [ "$(sort -u "$work/$b.ids" | wc -l)" = 200000 ] && [ "$common" = 0 ]; then
		ok "$label: 200,000 uid11_generate_random() from each at once, none in common"
	else
		fail "$label: $(wc -l <"$work/$a.ids") and $(wc -l <"$work/$b.ids") values, $common in common"
	fi
}

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || exit 1
start primary || exit 1
sql primary -c 'CREATE EXTENSION idtypes' -c 'SELECT uid11_generate_random()' >/dev/null || exit 1
primary_key=$(key_of primary)

# A standby (test/concurrency/clusters.sh)
make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" || exit 1
start standby || exit 1
for _ in $(seq 1 60); do sql standby -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done
out=$(sql standby -c 'SELECT uid11_generate_random()' 2>&1)
[ "$(sql standby -c 'SELECT pg_is_in_recovery()')" = t ] && grep -q 'cannot generate on a standby' <<<"$out" &&
	ok "the hot standby ($how) refuses uid11_generate_random" || fail "the hot standby: $out"

as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s promote
none_in_common primary standby "a primary and its promoted standby"
standby_key=$(key_of standby)
[ -n "$standby_key" ] && [ "$standby_key" != "$primary_key" ] &&
	ok "the promoted standby drew and wrote a key of its own" || fail "standby key: '$standby_key', primary's: '$primary_key'"

stop standby
cp -a "$work/standby" "$work/copy"
start standby && start copy || exit 1
none_in_common standby copy "a server and a file copy of its stopped data directory started elsewhere"
[ "$(key_of standby)" = "$standby_key" ] && ok "the promoted standby kept its key across a restart" ||
	fail "key after a restart: $(key_of standby)"
[ "$(key_of copy)" != "$standby_key" ] && ok "the file copy drew a key of its own" || fail "the copy's key: $(key_of copy)"
[ "$(key_of primary)" = "$primary_key" ] && ok "the primary kept its key throughout" || fail "the primary's key: $(key_of primary)"

# Where statx fails (a seccomp profile answering EPERM; here a preloaded statx that does), the data directory
# cannot be told from its copies: uid11_generate_random refuses rather than take the key the file holds,
# which a copy would share.
cat >"$work/no_statx.c" <<-'EOF'
	#define _GNU_SOURCE
	#include <errno.h>
	#include <sys/stat.h>
	int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf) { errno = EPERM; return -1; }
EOF
if cc -shared -fPIC -o "$work/no_statx.so" "$work/no_statx.c"; then
	stop copy
	as_postgres env LD_PRELOAD="$work/no_statx.so" "$bin/pg_ctl" -D "$work/copy" -l "$work/copy.log" -w -s \
		-o "-p ${port[copy]} -k $work $settings" start || exit 1
	out=$(sql copy -c 'SELECT uid11_generate_random()' 2>&1)
	grep -q 'cannot tell its data directory from a copy: statx(".*") failed: Operation not permitted' <<<"$out" &&
		ok "statx failing (EPERM): uid11_generate_random refuses, naming the cause, rather than share a key" ||
		fail "statx failing: $out"
else
	fail "no C compiler for the statx check"
fi
exit $status
