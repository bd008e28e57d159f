#!/usr/bin/env bash
# A clock that jumped ahead, then was put right: the documented way back (docs/operations.md, "A clock that
# jumped ahead") never issues an ID again (issue 55). In a cluster of its own, with PostgreSQL's bin directory
# BIN_DIR and idtypes preloaded or not (PRELOAD yes|no), a fleet's identity (timeid_clock_id = 7,
# tbsl_machine_id = 7): the server issues ROWS (2,000) IDs of every generator while its clock is "ahead", and
# the mark that clock wrote is two days ahead (set by hand on the origin: no clock can be moved ahead here);
# then the clock is put right (idtypes.test_clock_offset: a day behind those IDs) and the server restarted.
# Every generator refuses (55000), its hint naming the way back and not a move of the mark; the way back
# taken (ALTER SYSTEM SET idtypes.mark_ahead = 'continue', a reload), every generator issues ROWS with the
# clock as it is and ROWS with it back onto the first IDs of the jump, then again after a restart: none in
# common with the IDs of the jump, none twice, the new timeids dated after the mark, the mark never lower.
# tbsl may refuse while its clock is behind (its clock error), never repeat. Prints `ok` / `FAIL` lines.
set -uo pipefail
bin=${1:?usage: clock_ahead.sh BIN_DIR yes|no}
preload=${2:?usage: clock_ahead.sh BIN_DIR yes|no}
rows=${IDTYPES_CLOCK_AHEAD_ROWS:-2000}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
mode=$([ "$preload" = yes ] && echo preloaded || echo "loaded on demand")
source "$(dirname "$0")/ids.sh"
day_ms=86400000
mark_lsn() { sql s -c "SELECT remote_lsn FROM pg_replication_origin_status WHERE external_id = 'idtypes_high_water'"; }
lsn_us() { sql s -c "SELECT ('$1'::pg_lsn - '0/0')::numeric"; }

as_postgres "$bin/initdb" -D "$work/s" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start s || die "the server does not start"
sql s -c 'CREATE EXTENSION idtypes' -c "$(every_generator jump "$rows" tbsl)" || die "the IDs of the jump"
keep s postgres jump old || die "the IDs of the jump"
first=$(first_issued s postgres jump)
# the mark a clock two days ahead wrote (Unix µs as the origin's LSN)
ahead_us=$(sql s -c "SELECT ((extract(epoch FROM clock_timestamp()) + 2 * 86400) * 1000000)::bigint")
sql s -c "SELECT pg_replication_origin_advance('idtypes_high_water', '0/0'::pg_lsn + $ahead_us)" \
	-c "LOAD 'idtypes'" -c "ALTER SYSTEM SET idtypes.test_clock_offset = '-$day_ms'" >/dev/null || die "the mark two days ahead"
restart s && ready s || die "the restart with the clock put right"
echo "     ($mode) the IDs of the jump from $(sql s -c "SELECT to_timestamp($first)"), the mark $(sql s -c "SELECT to_timestamp($ahead_us / 1e6)"), the clock put right a day behind the jump"

# refused, with the way back in the hint
for c in t x f s v b; do
	out=$(sql s -v VERBOSITY=verbose -c "$(ids_select 1 "$c")" 2>&1)
	grep -q '55000' <<<"$out" && grep -q "more than a day ahead" <<<"$out" &&
		grep -q "idtypes.mark_ahead = 'continue'" <<<"$out" && ! grep -q 'pg_replication_origin_advance' <<<"$out" &&
		ok "($mode) the mark two days ahead: ${generator[$c]} refuses (55000), the hint giving the way back, not a move of the mark" ||
		fail "($mode) the mark two days ahead: ${generator[$c]}: $out"
done

# the way back
sql s -c "LOAD 'idtypes'" -c "ALTER SYSTEM SET idtypes.mark_ahead = 'continue'" -c 'SELECT pg_reload_conf()' >/dev/null || die "the way back"
sleep 1
generate_back s postgres now "$rows" "" 0 new "($mode) the way back, the clock as put right"
generate_back s postgres onto "$rows" "$first" 0 new "($mode) the way back, the clock onto the jump's first IDs"
restart s && ready s || die "the restart after the way back"
generate_back s postgres later "$rows" "$first" 0 new "($mode) after a restart, the clock onto the jump's first IDs"
none_in_common old new "($mode) the way back from a clock that jumped ahead"
earliest=$(sql s -c "SELECT min(x) FROM (SELECT min(t) x FROM now UNION ALL SELECT min(t) FROM onto UNION ALL SELECT min(t) FROM later) m")
check "($mode) every timeid after the way back is dated after the mark ($(sql s -c "SELECT timeid_timestamp('$earliest')") the earliest)" \
	"[ \"\$(sql s -c \"SELECT extract(epoch FROM timeid_timestamp('$earliest')) * 1e6 > $ahead_us\")\" = t ]"
after_us=$(lsn_us "$(mark_lsn)")
check "($mode) the mark was never moved back (now $after_us, was $ahead_us)" "[ \"\$(sql s -c 'SELECT $after_us >= $ahead_us')\" = t ]"
stop s
exit $status
