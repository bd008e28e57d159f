#!/usr/bin/env bash
# Generator state that fails safe, against a running cluster (PGHOST etc. set; its server log in
# DATA_DIR/../log, as scripts/lib.sh starts it). Arguments: the cluster's data directory and bin directory
# (its pg_ctl, run as postgres). Prints `ok` / `FAIL` lines.
# - idtypes.clock_backward = 'error' with 8 sessions generating TBSLs: no false "clock went backwards";
# - idtypes.test_clock_offset only sets a session's clock back, which moves nothing other sessions see;
# - the file of uid11_generate_random's key (pg_idtypes_high_water: the mark is the replication
#   origin idtypes_high_water, and the file holds only the key) cannot be written (an immutable file, as a
#   full or read-only disk fails): uid11_generate_random fails with 58030 instead of using a key a restart
#   could forget, the other generators go on; the failure is logged once, not once per call; it resumes
#   once the file is writable;
# - another session's write hangs (the key's temporary file is a FIFO nobody reads, the writer holding the
#   lock the mark's writers take): a waiting session is canceled by statement_timeout at once, and one that
#   waits gives up after 10 s saying what happened;
# - a waiting session shows its wait event in pg_stat_activity;
# - a garbled, unreadable or newer file stops uid11_generate_random (only) with an error naming the file,
#   whose hint (remove the file and restart) works; an unreadable one is read again at each attempt: once
#   readable, it resumes without a restart; a layout 1 file (idtypes 1.1) keeps its key, and its mark is a
#   floor (the IDs continue above it); the file is written again in layout 3, without the mark.
set -uo pipefail
data=${1:?usage: failsafe.sh DATA_DIR BIN_DIR}
bin=${2:?usage: failsafe.sh DATA_DIR BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
log=$(dirname "$data")/log
mark=$data/pg_idtypes_high_water
workdir=$(mktemp -d)
trap 'chattr -i "$mark" 2>/dev/null; rm -rf "$workdir" "$mark.tmp"' EXIT
PSQL_VERBOSITY=verbose # errors with their SQLSTATE
source "$here/server.sh"
restart() { restart_server fast; }
log_lines() { wc -l <"$log"; }
log_since() { tail -n +"$(($1 + 1))" "$log"; }
all_generators="SELECT timeid_generate(), uid11_generate(), scru160_generate(), tbsl_generate(), uid11_generate_random(), uuid_v7_generate()"

restart || exit 1 # with the server log in $log (a restart by an earlier check may have sent it elsewhere)
psql_q -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1
psql_q -c "$all_generators" >/dev/null || exit 1

# --- clock_backward = 'error' with sessions at once: each reads the clock where it compares
echo 'SELECT tbsl_generate();' >"$workdir/tbsl.sql"
out=$(PGOPTIONS="-c idtypes.clock_backward=error" pgbench -n -c 8 -j 2 -T 2 -f "$workdir/tbsl.sql" 2>&1)
rc=$?
check "clock_backward = 'error', 8 pgbench sessions x 2 s of tbsl_generate(): no session fails" \
	'[ $rc = 0 ] && ! grep -qiE "error|abort" <<<"$out"' "$(grep -m2 -iE 'error|abort' <<<"$out")"

# --- idtypes.test_clock_offset: back only, and only for the session
out=$(psql_q -c "LOAD 'idtypes'" -c "SET idtypes.test_clock_offset = '1d'" 2>&1)
check "idtypes.test_clock_offset cannot set the clock ahead" 'grep -q "outside the valid range" <<<"$out"' "$out"
out=$(psql_q -c "SET idtypes.test_clock_offset = '-1d'" \
	-c "SELECT count(*) FROM (SELECT timeid_generate(), uid11_generate(), scru160_generate(), uid11_generate_random()
		FROM generate_series(1, 20000)) g" \
	-c "SET idtypes.clock_backward_max_wait = 0" -c "SELECT tbsl_generate()" 2>&1)
check "a session with the clock a day back generates above the others' IDs, its TBSL refused" \
	'grep -q "^20000$" <<<"$out" && grep -q "behind the last TBSL generated" <<<"$out"' "$out"
out=$(psql_q -c "SELECT now() - interval '1 s' < all(ARRAY[timeid_generate()::timestamptz, uid11_generate()::timestamptz,
	scru160_generate()::timestamptz, tbsl_generate()::timestamptz])
	AND clock_timestamp() + interval '1 s' > all(ARRAY[timeid_generate()::timestamptz, uid11_generate()::timestamptz,
	scru160_generate()::timestamptz, tbsl_generate()::timestamptz])" 2>&1)
mark_us=$(psql_q -c "SELECT (pg_replication_origin_progress('idtypes_high_water', false) - '0/0')::bigint")
check "another session is unaffected: its IDs carry the real time, and the mark is at most 1 s ahead" \
	'[ "$out" = t ] && [ "${mark_us:-0}" -lt $(( $(date +%s%6N) + 1000000 )) ]' "$out, mark $mark_us"
# a session whose clock is behind its last TBSL waits for it (clock_backward = 'wait') asleep on its latch,
# seen in pg_stat_activity as the extension's wait event IdtypesClock (17 and later; else its generic one)
psql_q -c "SELECT tbsl_generate()" >/dev/null
psql_q -c "SET application_name = 'clock_waiter'" -c "SET idtypes.test_clock_offset = '-3s'" \
	-c "SET idtypes.clock_backward_max_wait = 6000" -c "SELECT tbsl_generate()" >"$workdir/clock_waiter" 2>&1 &
waiter=$!
expected=$(psql_q -c "SELECT CASE WHEN current_setting('server_version_num')::int >= 170000 THEN 'Extension|IdtypesClock'
	ELSE 'Extension|Extension' END")
for _ in $(seq 1 20); do
	seen=$(psql_q -c "SELECT wait_event_type || '|' || wait_event FROM pg_stat_activity
		WHERE application_name = 'clock_waiter' AND state = 'active'")
	[ "$seen" = "$expected" ] && break
	sleep 0.1
done
wait "$waiter"
check "tbsl_generate() with the clock 3 s behind its last TBSL waits, showing the wait event $expected, then generates" \
	'[ "$seen" = "$expected" ] && grep -qE "^[0-9A-F]{20}$" "$workdir/clock_waiter"' "seen '${seen:-no waiting session}': $(cat "$workdir/clock_waiter")"

# --- the key's file cannot be written
# (a directory where the temporary file goes, as a full or read-only disk fails); the file removed first and
# the server restarted, so that the key is drawn and must be written
rm -f "$mark"
restart
before_log=$(log_lines)
as_postgres mkdir "$mark.tmp" # the temporary file cannot be created
out=$(for _ in 1 2 3; do psql_q -c "SELECT uid11_generate_random()" 2>&1; done)
check "the key cannot be written: uid11_generate_random fails with 58030, naming the key and the file" \
	'[ "$(grep -c "58030" <<<"$out")" = 3 ] && grep -q "could not write the key of uid11_generate_random" <<<"$out"' "$out"
out=$(psql_q -c "SELECT count(*) FROM (SELECT timeid_generate(), uid11_generate(), scru160_generate(), tbsl_generate(),
	uuid_v7_generate() FROM generate_series(1, 1000)) g" 2>&1)
check "the key cannot be written: the other generators go on" '[ "$out" = 1000 ]' "$out"
failures=$(log_since "$before_log" | grep -c 'LOG:  idtypes could not write the key of uid11_generate_random')
check "uid11_generate_random failed three times: the write failure is logged once" '[ "$failures" = 1 ]' "$failures LOG lines"
rmdir "$mark.tmp"
out=$(psql_q -c "SELECT uid11_generate_random() IS NOT NULL" 2>&1)
check "writable again: uid11_generate_random resumes, its key written" '[ "$out" = t ] && grep -q "^key " "$mark"' "$out"
check "writable again: the server log says so" 'log_since "$before_log" | grep -q "wrote the key of uid11_generate_random again"'

# --- another session's write hangs: the waiting sessions
# The writer: the first uid11_generate_random of a state without a key (the file removed, the server
# restarted) writes the key and hangs opening the FIFO, holding the lock that the mark's writers take too.
rm -f "$mark" "$mark.tmp"
restart
psql_q -c "SELECT timeid_generate()" >/dev/null
as_postgres mkfifo "$mark.tmp"
psql_q -c "SELECT count(uid11_generate_random())" >"$workdir/writer" 2>&1 &
writer=$!
# the writer hangs opening the FIFO, holding the lock: waited for (in the kernel's wait for a FIFO's
# reader), since a loaded machine can take longer than any fixed pause; then the mark (200 ms ahead of its
# last write) behind the clock, so that the next timeid must write it
for _ in $(seq 1 100); do
	pid=$(psql_q -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT count(uid11_generate_random())%'")
	[ -n "$pid" ] && grep -q wait_for_partner "/proc/$pid/wchan" 2>/dev/null && break
	sleep 0.1
done
sleep 0.3
psql_q -c "SELECT timeid_generate()" >"$workdir/patient" 2>&1 &
patient=$!
out=$(psql_q -c "SET statement_timeout = '100ms'" -c "DO \$\$
DECLARE started timestamptz := clock_timestamp();
BEGIN
	PERFORM timeid_generate(); -- waits at once: the mark is behind the clock, its writer hung
EXCEPTION WHEN query_canceled THEN
	RAISE WARNING 'canceled after % ms', round(extract(epoch FROM clock_timestamp() - started) * 1000);
END \$\$" 2>&1)
took=$(grep -oE 'canceled after [0-9]+ ms' <<<"$out" | grep -oE '[0-9]+')
check "waiting for a hung write: statement_timeout = 100 ms cancels the wait at once (after ${took:-?} ms)" \
	'[ -n "$took" ] && [ "$took" -lt 1000 ]' "$out"
# the waiting session sleeps, seen in pg_stat_activity: the extension's own wait event where PostgreSQL has
# custom ones (17 and later), else its generic one for extensions
expected=$(psql_q -c "SELECT CASE WHEN current_setting('server_version_num')::int >= 170000 THEN 'Extension|IdtypesMarkWrite'
	ELSE 'Extension|Extension' END")
for _ in $(seq 1 20); do
	seen=$(psql_q -c "SELECT wait_event_type || '|' || wait_event FROM pg_stat_activity
		WHERE query = 'SELECT timeid_generate()' AND state = 'active'")
	[ "$seen" = "$expected" ] && break
	sleep 0.2
done
check "waiting for a hung write: the waiting session shows the wait event $expected in pg_stat_activity" \
	'[ "$seen" = "$expected" ]' "seen '${seen:-no waiting session}'"
wait "$patient"
out=$(cat "$workdir/patient")
check "waiting for a hung write: the wait ends after 10 s, saying which session is writing" \
	'grep -q "gave up waiting for its mark to be written" <<<"$out" && grep -q "Another session (PID [0-9]*) has been writing uid11_generate_random.s key .* for more than 10 s" <<<"$out"' "$out"
# The writer's open returns. A FIFO cannot be fsynced: with fsync on (19's first cluster), the write fails
# (58030: the rename's fsync of the FIFO, EINVAL); with fsync off the FIFO becomes the mark until the next
# write replaces it.
timeout 10 cat "$mark.tmp" >/dev/null
wait "$writer"
rm -f "$mark.tmp"
out=$(psql_q -c "SELECT timeid_generate() IS NOT NULL, uid11_generate_random() IS NOT NULL" 2>&1)
check "the hung write ends, and the next generation works" \
	'grep -qE "^1$|could not fsync file|durably: Invalid argument" "$workdir/writer" && [ "$out" = "t|t" ]' \
	"$(cat "$workdir/writer") / $out"
# with fsync off the FIFO became the key's file, which nothing writes again (the key is saved): removed, and
# the key written again after a restart
[ -p "$mark" ] && rm -f "$mark" && restart && psql_q -c "SELECT uid11_generate_random()" >/dev/null
check "the key's file is a regular file again" '[ -f "$mark" ] && [ ! -p "$mark" ]'

# --- a key's file that cannot be used; the hint's remedy
# file contents, what the error must say
unusable() {
	local what=$1 pattern=$2 out
	restart
	out=$(psql_q -c "SELECT uid11_generate_random()" 2>&1)
	check "$what file: uid11_generate_random stops with an error naming the file and the remedy" \
		'grep -qE "$pattern" <<<"$out" && grep -q "$data/pg_idtypes_high_water" <<<"$out" &&
			grep -q "HINT:  .*remove it .*; then restart the server" <<<"$out"' "$out"
	out=$(psql_q -c "SELECT timeid_generate(), uid11_generate(), scru160_generate(), tbsl_generate(), uuid_v7_generate()" 2>&1)
	check "$what file: the other generators go on" '[[ $out != *ERROR* ]]' "$out"
}
put_mark() { rm -f "$mark" && printf "$@" >"$mark" && chown postgres: "$mark"; }
psql_q -c "SELECT uid11_generate_random()" >/dev/null
cp "$mark" "$workdir/good_mark"
last_key=$(grep '^key ' "$mark")
put_mark 'garbage here\n'
unusable "a garbled" 'XX001: idtypes. high-water mark ".*" is garbled'
put_mark 'idtypes high-water mark layout 4\nsomething new\n'
unusable "a later layout's" '55000: .* has layout 4, which this version of idtypes cannot read'
rm -f "$mark"
restart
out=$(psql_q -c "$all_generators" 2>&1)
rc=$?
check "the hint's remedy (remove the file, restart) works: uid11_generate_random resumes" '[ $rc = 0 ] && grep -q "^key " "$mark"' "$out"
# an unreadable file (this server's): read again at each attempt, so that uid11_generate_random resumes once
# it is readable, without a restart
cp "$workdir/good_mark" "$mark" && chown postgres: "$mark"
chmod 000 "$mark"
unusable "an unreadable" '58030: idtypes could not read its high-water mark ".*": Permission denied'
before_log=$(log_lines)
chmod 600 "$mark"
out=$(psql_q -c "SELECT uid11_generate_random() IS NOT NULL" 2>&1)
check "an unreadable file made readable: uid11_generate_random resumes without a restart" \
	'[ "$out" = t ] && log_since "$before_log" | grep -q "idtypes read its high-water mark .* again"' "$out"

# --- a layout 1 file (idtypes 1.1): the key is kept, its mark is a floor, and it is written again in layout 3
read -r k0 k1 <<<"${last_key#key }"
ahead=$(($(date +%s%6N) + 3000000))
put_mark '%s %s %s\n' "$ahead" "$k0" "$k1"
restart
out=$(psql_q -c "SELECT timeid_generate()::timestamptz > to_timestamp($ahead / 1e6)" 2>&1)
ticket=$(psql_q -c "SELECT uid11_generate_random()::numeric" | "$here/fullrand_tickets.py" "$mark")
check "a layout 1 file: timeid continues above its mark, uid11_generate_random with its key above it" \
	'[ "$out" = t ] && [ $((${ticket:-0} >> 12)) -gt "$ahead" ] && [ $((${ticket:-0} >> 12)) -lt $((ahead + 600000000)) ]' \
	"$out, ticket ${ticket:-none}"
check "a layout 1 file is written again in layout 3, with the same key and its owner, without a mark" \
	'head -1 "$mark" | grep -q "layout 3" && grep -q "^key $k0 $k1$" "$mark" && grep -q "^owner " "$mark" && ! grep -q "^mark" "$mark"' "$(cat "$mark")"
exit $status
