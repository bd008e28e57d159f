#!/usr/bin/env bash
# Generator state that fails safe, against a running cluster (PGHOST etc. set; its server log in
# DATA_DIR/../log, as scripts/lib.sh starts it). Arguments: the cluster's data directory and bin directory
# (its pg_ctl, run as postgres). Prints `ok` / `FAIL` lines.
# - idtypes.clock_backward = 'error' with 8 sessions generating TBSLs: no false "clock went backwards";
# - idtypes.test_clock_offset only sets a session's clock back, which moves nothing other sessions see;
# - the mark cannot be written (an immutable file, as a full or read-only disk fails): every generator
#   fails with 58030 instead of issuing an ID a restart could forget or a TBSL behind the clock, also after
#   a restart; the failure is logged once, not once per call; generation resumes once the file is writable;
# - another session's write hangs (the temporary file is a FIFO nobody reads): a waiting session is
#   canceled by statement_timeout at once, and one that waits gives up after 10 s saying what happened;
# - a waiting session shows its wait event in pg_stat_activity;
# - a garbled, unreadable or newer mark file stops generation with an error naming the file, whose hint
#   (remove the file and restart) works; an unreadable one is read again at each attempt: once readable,
#   generation resumes without a restart; a layout 1 file (idtypes 1.1) keeps its mark and key.
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
cp "$mark" "$workdir/good_mark" # a mark file of this server, for the unreadable file's check

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
mark_us=$(grep -oE '^mark [0-9]+' "$mark" | cut -d' ' -f2)
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

# --- the mark cannot be written
# (an immutable file where the file system has them, else a directory where the temporary file goes)
block_writes() { chattr +i "$mark" 2>/dev/null || mkdir "$mark.tmp"; }
allow_writes() { chattr -i "$mark" 2>/dev/null; rmdir "$mark.tmp" 2>/dev/null; true; }
psql_q -c "CREATE TABLE IF NOT EXISTS failsafe_issued (b tbsl)" -c "TRUNCATE failsafe_issued" \
	-c "INSERT INTO failsafe_issued SELECT tbsl_generate(7, true) FROM generate_series(1, 3)" || exit 1
# Generates with one expression (an ID's time) for up to 1.5 s (past the 200 ms reserve); says how it ended.
# A TBSL whose time is behind the clock read before it is 'stale'.
psql_q -c "CREATE OR REPLACE FUNCTION failsafe_run(what text) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE before timestamptz; t timestamptz; n int := 0; stop timestamptz := clock_timestamp() + interval '1.5 s';
BEGIN
	LOOP
		before := clock_timestamp();
		EXECUTE 'SELECT ' || what INTO t;
		IF what LIKE 'tbsl%' AND t < before THEN RETURN 'stale: ' || t || ' read at ' || before; END IF;
		n := n + 1;
		IF clock_timestamp() > stop THEN RETURN 'no error after ' || n; END IF;
	END LOOP;
EXCEPTION WHEN io_error THEN
	RETURN 'io_error after ' || n || ': ' || SQLERRM;
END \$\$" || exit 1
before_log=$(log_lines)
block_writes
# every generator at once, each in a session of its own; uid11_generate_random's values are unordered: no time
# to see, it must fail like the others
generators=(tbsl_generate\(\) 'tbsl_generate(7, true)' timeid_generate\(\) uid11_generate\(\) scru160_generate\(\)
	'uid11_generate_random()' 'uuid_v7_generate()')
for i in "${!generators[@]}"; do
	g=${generators[$i]}
	case $g in
	'uid11_generate_random()') g="CASE WHEN $g IS NOT NULL THEN clock_timestamp() END" ;;
	'uuid_v7_generate()') g="uuid_v7_timestamp($g)" ;;
	*) g="$g::timestamptz" ;;
	esac
	psql_q -c "SELECT failsafe_run('$g')" >"$workdir/run.$i" 2>&1 &
done
wait
for i in "${!generators[@]}"; do
	out=$(cat "$workdir/run.$i")
	check "the mark cannot be written: ${generators[$i]} fails with 58030 and issues no ID of a time behind the clock" \
		'grep -q "^io_error after .*could not write its high-water mark" <<<"$out"' "$out"
done
failures=$(log_since "$before_log" | grep -c 'LOG:  idtypes could not write its high-water mark')
check "seven generators failed many times: the write failure is logged once" '[ "$failures" = 1 ]' "$failures LOG lines"
restart
out=$(psql_q -c "SELECT failsafe_run('tbsl_generate(7, true)')" 2>&1)
check "after a restart, the mark still not writable: tbsl fails with 58030 too" \
	'grep -q "^io_error after 0: .*could not write its high-water mark" <<<"$out"' "$out"
out=$(psql_q -c "SELECT tbsl_generate(7, true)" 2>&1)
check "the error says what failed, with SQLSTATE 58030" \
	'grep -q "58030" <<<"$out" && grep -qE "DETAIL:  could not (rename|create) file .*: (Operation not permitted|Is a directory)" <<<"$out"' "$out"
allow_writes
out=$(psql_q -c "SELECT count(*) FROM failsafe_issued WHERE b >= (SELECT tbsl_generate(7, true))" 2>&1)
check "writable again: tbsl resumes above every TBSL issued before" '[ "$out" = 0 ]' "$out"
check "writable again: the server log says so" 'log_since "$before_log" | grep -q "wrote its high-water mark again"'
psql_q -c "DROP TABLE failsafe_issued" -c "DROP FUNCTION failsafe_run(text)"

# --- another session's write hangs: the waiting sessions
rm -f "$mark.tmp"
as_postgres mkfifo "$mark.tmp"
# The writer: one timeid once the mark (200 ms ahead of its last write) is behind the clock, so that it must
# write the mark, and hangs opening the FIFO, holding the lock; still running after 0.3 s, it hangs there (the
# waiting sessions must not start before: one of them would be the writer).
sleep 0.3
psql_q -c "SELECT count(timeid_generate())" >"$workdir/writer" 2>&1 &
writer=$!
# the writer passes its 200 ms reserve and hangs opening the FIFO, holding the lock: waited for (in the
# kernel's wait for a FIFO's reader), since a loaded machine can take longer than any fixed pause
for _ in $(seq 1 100); do
	pid=$(psql_q -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT count(timeid_generate())%'")
	[ -n "$pid" ] && grep -q wait_for_partner "/proc/$pid/wchan" 2>/dev/null && break
	sleep 0.1
done
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
	'grep -q "gave up waiting for its high-water mark" <<<"$out" && grep -q "Another session (PID [0-9]*) has been writing it for more than 10 s" <<<"$out"' "$out"
# The writer's open returns. A FIFO cannot be fsynced: with fsync on (19's first cluster), the write fails
# (58030: the rename's fsync of the FIFO, EINVAL); with fsync off the FIFO becomes the mark until the next
# write replaces it.
timeout 10 cat "$mark.tmp" >/dev/null
wait "$writer"
rm -f "$mark.tmp"
sleep 0.3
out=$(psql_q -c "SELECT timeid_generate() IS NOT NULL" 2>&1)
check "the hung write ends, and the next generation works and writes the mark" \
	'grep -qE "^1$|could not fsync file|durably: Invalid argument" "$workdir/writer" && [ "$out" = t ] && [ -f "$mark" ] && [ ! -p "$mark" ]' \
	"$(cat "$workdir/writer") / $out"

# --- a mark file that cannot be used; the hint's remedy
# file contents, what the error must say
unusable() {
	local what=$1 pattern=$2 out
	restart
	out=$(psql_q -c "SELECT timeid_generate()" 2>&1)
	check "$what mark file: generation stops with an error naming the file and the remedy" \
		'grep -qE "$pattern" <<<"$out" && grep -q "$data/pg_idtypes_high_water" <<<"$out" &&
			grep -q "HINT:  .*remove it .*; then restart the server" <<<"$out"' "$out"
	out=$(psql_q -c "SELECT uid11_generate_random()" 2>&1)
	check "$what mark file: uid11_generate_random stops too (no new key)" 'grep -qE "$pattern" <<<"$out"' "$out"
}
put_mark() { rm -f "$mark" && printf "$@" >"$mark" && chown postgres: "$mark"; }
last_key=$(grep '^key ' "$mark")
put_mark 'garbage here\n'
unusable "a garbled" 'XX001: idtypes. high-water mark ".*" is garbled'
put_mark 'idtypes high-water mark layout 3\nsomething new\n'
unusable "a later layout's" '55000: .* has layout 3, which this version of idtypes cannot read'
# the remedy, while the clock is past every ID issued (as the hint says: a removed file does not forget the
# IDs in the replicated mark, idtypes_high_water)

rm -f "$mark"
restart
out=$(psql_q -c "$all_generators" 2>&1)
rc=$?
check "the hint's remedy (remove the file, restart) works: generation resumes" '[ $rc = 0 ] && grep -q "^key " "$mark"' "$out"
# an unreadable file (a mark of this server, 3 s ahead of the clock): read again at each attempt, so that
# generation resumes, above the mark, once it is readable, without a restart
ahead=$(($(date +%s%6N) + 3000000))
rm -f "$mark" && sed "s/^mark .*/mark $ahead/" "$workdir/good_mark" >"$mark" && chown postgres: "$mark"
chmod 000 "$mark"
unusable "an unreadable" '58030: idtypes could not read its high-water mark ".*": Permission denied'
before_log=$(log_lines)
chmod 600 "$mark"
out=$(psql_q -c "SELECT timeid_generate()::timestamptz > to_timestamp($ahead / 1e6)" 2>&1)
check "an unreadable mark file made readable: generation resumes without a restart, above its mark" \
	'[ "$out" = t ] && log_since "$before_log" | grep -q "idtypes read its high-water mark .* again"' "$out"

# --- a layout 1 file (idtypes 1.1): the mark and the key are kept, and written again in layout 2
read -r k0 k1 <<<"${last_key#key }"
ahead=$(($(date +%s%6N) + 3000000))
put_mark '%s %s %s\n' "$ahead" "$k0" "$k1"
restart
out=$(psql_q -c "SELECT timeid_generate()::timestamptz > to_timestamp($ahead / 1e6)" 2>&1)
ticket=$(psql_q -c "SELECT uid11_generate_random()::numeric" | "$here/fullrand_tickets.py" "$mark")
check "a layout 1 file: timeid continues above its mark, uid11_generate_random with its key above it" \
	'[ "$out" = t ] && [ $((${ticket:-0} >> 12)) -gt "$ahead" ] && [ $((${ticket:-0} >> 12)) -lt $((ahead + 600000000)) ]' \
	"$out, ticket ${ticket:-none}"
check "a layout 1 file is written again in layout 2, with the same key and its owner" \
	'head -1 "$mark" | grep -q "layout 2" && grep -q "^key $k0 $k1$" "$mark" && grep -q "^owner " "$mark"' "$(cat "$mark")"
exit $status
