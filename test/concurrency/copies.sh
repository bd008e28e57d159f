#!/usr/bin/env bash
# Copies of a data directory never share the fullrand key of uid11_generate_random (a shared key gives the
# same values to two servers generating in the same microseconds). In clusters of its own (small, so that
# copying is quick), with PostgreSQL's bin directory BIN_DIR and idtypes preloaded or not (PRELOAD yes|no):
# a primary and its hot standby (pg_basebackup -R), then the standby promoted, then a file copy of the
# stopped promoted standby started beside it, each pair generating 200,000 values at once: none in common;
# and a server keeps its key across a restart. Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: copies.sh BIN_DIR yes|no}
preload=${2:?usage: copies.sh BIN_DIR yes|no}
status=0
work=$(mktemp -d /tmp/idtypes-copies.XXXXXX)
chown postgres: "$work"
chmod 755 "$work"
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
as_postgres() { (cd "$work" && runuser -u postgres -- "$@"); }
settings="-c listen_addresses= -c fsync=off -c autovacuum=off"
[ "$preload" = yes ] && settings+=" -c shared_preload_libraries=idtypes"
declare -A port
start() { # name: starts the cluster in $work/name on a port of its own, its socket in $work
	local name=$1 tries
	for tries in 1 2 3 4 5; do
		port[$name]=$((20000 + RANDOM % 20000))
		as_postgres "$bin/pg_ctl" -D "$work/$name" -l "$work/$name.log" -w -s -o "-p ${port[$name]} -k $work $settings" \
			start && return 0
	done
	return 1
}
stop() { as_postgres "$bin/pg_ctl" -D "$work/$1" -w -s -m fast stop; }
trap 'for d in "$work"/*/; do [ -f "$d/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$d" -s -m immediate stop; done; rm -rf "$work"' EXIT
sql() { local name=$1; shift; PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -h "$work" -p "${port[$name]}" -U postgres -d postgres "$@"; }
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

# A standby: pg_basebackup -R where the version has one (15 and 19 here); else (17 and 18 come without client
# tools here, and 15's pg_basebackup refuses newer servers) the same by the low-level backup API.
if [ -x "$bin/pg_basebackup" ]; then
	how="pg_basebackup -R"
	as_postgres "$bin/pg_basebackup" -D "$work/standby" -R -X stream -c fast -h "$work" -p "${port[primary]}" -U postgres ||
		exit 1
else
	how="pg_backup_start, a file copy, pg_backup_stop"
	sql primary >"$work/backup_label" <<-EOF || exit 1
		SELECT pg_backup_start('copies.sh', true) IS NOT NULL \g /dev/null
		\! cp -a "$work/primary" "$work/standby"
		SELECT labelfile FROM pg_backup_stop(false)
	EOF
	rm -f "$work/standby"/postmaster.{pid,opts}
	mv "$work/backup_label" "$work/standby/backup_label"
	touch "$work/standby/standby.signal"
	echo "primary_conninfo = 'host=$work port=${port[primary]} user=postgres'" >>"$work/standby/postgresql.auto.conf"
	chown -R postgres: "$work/standby"
fi
start standby || exit 1
for _ in $(seq 1 60); do sql standby -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done
none_in_common primary standby "a primary and its hot standby ($how)"
standby_key=$(key_of standby)
[ "$(sql standby -c 'SELECT pg_is_in_recovery()')" = t ] && [ -n "$standby_key" ] && [ "$standby_key" != "$primary_key" ] &&
	ok "the standby, in recovery, drew and wrote a key of its own" || fail "standby key: '$standby_key', primary's: '$primary_key'"

as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s promote
none_in_common primary standby "a primary and its promoted standby"
[ "$(key_of standby)" = "$standby_key" ] && ok "the promoted standby keeps its key" || fail "key after promotion: $(key_of standby)"

stop standby
cp -a "$work/standby" "$work/copy"
start standby && start copy || exit 1
none_in_common standby copy "a server and a file copy of its stopped data directory started elsewhere"
[ "$(key_of standby)" = "$standby_key" ] && ok "the promoted standby kept its key across a restart" ||
	fail "key after a restart: $(key_of standby)"
[ "$(key_of copy)" != "$standby_key" ] && ok "the file copy drew a key of its own" || fail "the copy's key: $(key_of copy)"
[ "$(key_of primary)" = "$primary_key" ] && ok "the primary kept its key throughout" || fail "the primary's key: $(key_of primary)"
exit $status
