#!/usr/bin/env bash
# Adoption (docs/adopting.md) around its design, in a cluster of its own (autovacuum on) with PostgreSQL's bin
# directory BIN_DIR. Prints `ok` / `FAIL` lines. The cases: a child table another role owns; a step called again
# with other arguments; a publication added after the start; a cut-over run by a role that cannot see other
# sessions; an anti-wraparound autovacuum on the parent (failure mode 2); an INVALID index left by a CREATE
# INDEX CONCURRENTLY that timed out behind an old snapshot (failure mode 4); a foreign key added mid-migration;
# a dump restored mid-migration in another cluster; pg_upgrade mid-migration; two runs at once; the application's UPDATE trigger; rows planted in the state tables by a role with pg_write_all_data and by a role with nothing; an adoption abandoned after a constrain that failed half way; what each referencing column keeps (NOT NULL, comment, privileges, statistics target) and what the plan lists as not kept; redefault whose first try times out on a table with no adoption; constraint names after
# a cut-over and a rollback; the state tables locked by another role or a prepared transaction; two foreign keys
# of one child with long names alike; the caller's lock_timeout and search_path after steps in its transaction.
set -uo pipefail
bin=${1:?usage: around.sh BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../concurrency/server.sh"
source "$here/../concurrency/clusters.sh"
settings="-c listen_addresses= -c max_prepared_transactions=2 -c fsync=off -c autovacuum=on -c autovacuum_naptime=1 -c synchronous_commit=off"
SECONDS=0
as_postgres "$bin/initdb" -D "$work/pg" -A trust -U postgres --no-sync >/dev/null || die "initdb"
start pg || die "the cluster does not start"
db() { local d=$1; shift; PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v VERBOSITY=terse -h "$work" -p "${port[pg]}" -U postgres -d "$d" "$@" 2>&1; }
as() { local d=$1 r=$2; shift 2; PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v VERBOSITY=terse -h "$work" -p "${port[pg]}" -U "$r" -d "$d" "$@" 2>&1; }
sql pg -c "CREATE ROLE ow LOGIN" -c "CREATE ROLE other LOGIN" -c "CREATE ROLE nothing LOGIN" -c "CREATE ROLE wad LOGIN IN ROLE pg_write_all_data" || die "roles"
# a database where ow owns a parent of N rows (no autovacuum but an anti-wraparound one) and a child (the second child's owner: CHILD_OWNER); stats: whether ow
# has pg_read_all_stats
mk() {
	local d=$1 n=$2 child_owner=${3:-ow}
	sql pg -c "CREATE DATABASE $d" && db "$d" -c "CREATE EXTENSION idtypes" -c "GRANT CREATE ON SCHEMA public TO ow, other" >/dev/null &&
		as "$d" ow -v ON_ERROR_STOP=1 -c "CREATE TABLE p (id bigint PRIMARY KEY, n int NOT NULL DEFAULT 0, pad text) WITH (autovacuum_enabled = false)" \
			-c "INSERT INTO p SELECT i, 0, repeat('x', 100) FROM generate_series(1, $n) i" \
			-c "CREATE TABLE c (id int PRIMARY KEY, pid bigint REFERENCES p)" -c "INSERT INTO c SELECT i, i FROM generate_series(1, 100) i" \
			-c "GRANT SELECT, REFERENCES ON p TO other" >/dev/null &&
		as "$d" "$child_owner" -v ON_ERROR_STOP=1 -c "CREATE TABLE c2 (id int PRIMARY KEY, pid bigint REFERENCES p)" -c "INSERT INTO c2 VALUES (1, 1)" >/dev/null
}
to_constrained() {
	as "$1" ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_start('p', 'timeid')" -c "CALL idtypes_adopt_backfill('p')" >/dev/null &&
		echo "SELECT s FROM idtypes_adopt_prepare('p') s \\gexec" | as "$1" ow -v ON_ERROR_STOP=1 >/dev/null &&
		as "$1" ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_constrain('p')" >/dev/null &&
		[ "$(as "$1" ow -c "SELECT sum(failures) FROM idtypes_adopt_verify('p')")" = 0 ]
}
phase() { db "$1" -c "SELECT phase FROM idtypes_adopt.migration"; }

# 1. a child another role owns: the plan says so, start refuses before changing anything
mk own 100 other || die "the database own"
plan=$(as own ow -c "SELECT count(*) FROM idtypes_adopt_plan('p', 'timeid') WHERE blocking AND kind = 'owner' AND object = 'public.c2'")
out=$(as own ow -c "CALL idtypes_adopt_start('p', 'timeid')")
cols=$(db own -c "SELECT count(*) FROM pg_attribute WHERE attname LIKE '%\_new' AND attrelid IN ('p'::regclass, 'c'::regclass, 'c2'::regclass)")
check "a child owned by another role: the plan lists it as blocking, start refuses with nothing added (shadow columns: $cols, phase: $(phase own))" \
	'[ "$plan" = 1 ] && [[ $out == *"owned by other"* ]] && [ "$cols" = 0 ] && [ -z "$(phase own)" ]' "$plan; $out"

# 1b. the schema's owner plants a function of the name the table's sync function will take: the plan blocks,
#     start refuses before changing anything (it used to stop half way, the shadow column added)
sql pg -c "CREATE ROLE sown" >/dev/null
mk plant 100 || die "the database plant"
db plant -c "ALTER SCHEMA public OWNER TO sown" >/dev/null
db plant <<-'EOS' >/dev/null
	SET ROLE sown;
	SELECT format('CREATE FUNCTION public.idtypes_adopt_sync_%s() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$', 'p'::regclass::oid) \gexec
EOS
[ "$(db plant -c "SELECT count(*) FROM pg_proc WHERE proname ~ '^idtypes_adopt_sync_[0-9]+$'")" = 1 ] || fail "plant: the function was not planted"
out=$(as plant ow -c "CALL idtypes_adopt_start('p', 'timeid')")
check "a function planted by the schema's owner under the sync function's name: start refuses with nothing added (phase: $(phase plant))" \
	'[[ $out == *"a function of the name of the sync function"* ]] && [ -z "$(phase plant)" ] && [ "$(db plant -c "SELECT count(*) FROM pg_attribute WHERE attname = '"'id_new'"'")" = 0 ]' "$out"

# 1c. time mode's backfill runs under the caller's search_path (for the application's own triggers): an
#     operator numeric * integer planted in public by its owner (an exact match, which beats pg_catalog's
#     numeric * numeric) must not be called with the table owner's rights
mk plantop 100 || die "the database plantop"
as plantop ow -c "ALTER TABLE p ADD COLUMN at timestamptz NOT NULL DEFAULT '2024-01-01'" -c "UPDATE p SET at = at + id * interval '1 s'" >/dev/null
db plantop -c "ALTER SCHEMA public OWNER TO sown" -c "SET ROLE sown" \
	-c "CREATE FUNCTION public.evil_mul(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS \$\$BEGIN RAISE EXCEPTION 'planted * called by %', current_user; END\$\$" \
	-c "CREATE OPERATOR public.* (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = public.evil_mul)" >/dev/null
out=$(as plantop ow -c "CALL idtypes_adopt_start('p', 'timeid', 'time', 'at')" -c "CALL idtypes_adopt_backfill('p')" -c "SELECT sum(failures) FROM idtypes_adopt_verify('p')")
check "time mode's backfill under a search_path where public's owner planted numeric * integer: not called, verify $out failures" \
	'[ "$out" = 0 ]' "$out"

# 2. start called again with other arguments: refused, not carried on with the first ones
mk args 100 || die "the database args"
as args ow -c "CALL idtypes_adopt_start('p', 'timeid')" >/dev/null
out=$(as args ow -c "CALL idtypes_adopt_start('p', 'timeid', 'time', 'n')")
check "start called again with another mapping: refused (22023), the adoption as started" \
	'[[ $out == *"was started to public.timeid by keep, not to public.timeid by time from n"* ]] && [ "$(db args -c "SELECT mapping FROM idtypes_adopt.migration")" = keep ]' "$out"

# 3. cut-over by a role that cannot see other roles' sessions: refused, naming pg_read_all_stats
mk stats 20000 || die "the database stats"
to_constrained stats || fail "stats: the steps before the cut-over"
out=$(as stats ow -c "CALL idtypes_adopt_cutover('p', tries => 1)")
check "cut-over by an owner without pg_read_all_stats (the guard would see no other role's VACUUM or transaction): refused, phase $(phase stats)" \
	'[[ $out == *"needs the rights of pg_read_all_stats"* ]] && [ "$(phase stats)" = constrained ]' "$out"
sql pg -c "GRANT pg_read_all_stats TO ow" >/dev/null

# 4. a publication added after the start: the cut-over refuses (the plan refused one before it)
db stats -c "CREATE PUBLICATION adopt_pub FOR TABLE c2" >/dev/null
out=$(as stats ow -c "CALL idtypes_adopt_cutover('p', tries => 1)")
check "a publication of a child added after the start: the cut-over refuses, phase $(phase stats)" \
	'[[ $out == *"are published (adopt_pub: public.c2)"* ]] && [ "$(phase stats)" = constrained ]' "$out"
db stats -c "DROP PUBLICATION adopt_pub" >/dev/null

# 5. a foreign key to the key added mid-migration: the cut-over refuses (the old key's constraint has a new dependent)
as stats ow -c "CREATE TABLE c3 (id int PRIMARY KEY, pid bigint REFERENCES p)" >/dev/null
out=$(as stats ow -c "CALL idtypes_adopt_cutover('p', tries => 1)")
check "a foreign key to the key added after the start: the cut-over refuses (2BP01), nothing half done, phase $(phase stats)" \
	'[[ $out == *"cannot drop constraint p_pkey"* ]] && [ "$(phase stats)" = constrained ] && [ "$(db stats -c "SELECT count(*) FROM pg_attribute WHERE attrelid = '"'p'::regclass"' AND attname = '"'id_old'"'")" = 0 ]' "$out"
as stats ow -c "DROP TABLE c3" >/dev/null

# 6. failure mode 2: an anti-wraparound autovacuum of the parent (made slow), the cut-over run by the owner
#    (pg_read_all_stats granted): every try refuses, none counted a success
as stats ow -c "ALTER TABLE p SET (autovacuum_freeze_max_age = 100000, autovacuum_vacuum_cost_delay = 100, autovacuum_vacuum_cost_limit = 1)" >/dev/null
db stats -c "CREATE PROCEDURE burn(n int) LANGUAGE plpgsql AS \$\$BEGIN FOR i IN 1..n LOOP PERFORM txid_current(); COMMIT; END LOOP; END\$\$" -c "CALL burn(110000)" >/dev/null
for _ in $(seq 1 100); do
	[ -n "$(db stats -c "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'autovacuum: VACUUM public.p (to prevent wraparound)'")" ] && break
	sleep 0.2
done
out=$(as stats ow -c "CALL idtypes_adopt_cutover('p', tries => 3)")
refused=$(db stats -c "SELECT count(*) FROM idtypes_adopt.log WHERE step = 'cut-over' AND detail LIKE 'try %: an anti-wraparound VACUUM of public.p (pid %'")
check "an anti-wraparound autovacuum of the parent: the cut-over refused $refused of 3 tries, raised, phase $(phase stats)" \
	'[ "$refused" = 3 ] && [[ $out == *"not done after 3 tries"* ]] && [ "$(phase stats)" = constrained ]' "$out"
# the launcher starts the anti-wraparound VACUUM again at once (still under the slow settings): the RESET waited
# behind the next one (3 min and more, on a busy machine); cancelled and tried again under lock_timeout instead
for _ in $(seq 1 50); do
	db stats -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE 'autovacuum: VACUUM public.p%'" >/dev/null
	[ -z "$(db stats -c "SET lock_timeout = '200ms'" -c "ALTER TABLE p RESET (autovacuum_freeze_max_age, autovacuum_vacuum_cost_delay, autovacuum_vacuum_cost_limit)")" ] && break
done

# 7. failure mode 4: CREATE INDEX CONCURRENTLY of the new key's index times out behind an old snapshot and leaves
#    it INVALID; prepare drops it and builds it again; the adoption goes on to its end
mk cic 1000 || die "the database cic"
as cic ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_start('p', 'timeid')" -c "CALL idtypes_adopt_backfill('p')" >/dev/null
(db cic -c "BEGIN ISOLATION LEVEL REPEATABLE READ" -c "SELECT count(*) FROM c" -c "SELECT pg_sleep(8)" >/dev/null) &
holder=$!
sleep 0.5
first=$(as cic ow -c "SELECT s FROM idtypes_adopt_prepare('p') s LIMIT 1")
as cic ow -c "SET statement_timeout = '1s'" -c "$first" >/dev/null
invalid=$(db cic -c "SELECT count(*) FROM pg_index WHERE NOT indisvalid AND indrelid = 'p'::regclass")
again=$(as cic ow -c "SELECT string_agg(split_part(s, ' ', 1) || ' ' || split_part(s, ' ', 2), ', ') FROM idtypes_adopt_prepare('p') s")
wait "$holder"
echo "SELECT s FROM idtypes_adopt_prepare('p') s \\gexec" | as cic ow -v ON_ERROR_STOP=1 >/dev/null
as cic ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_constrain('p')" >/dev/null
verify=$(as cic ow -c "SELECT sum(failures) FROM idtypes_adopt_verify('p')")
as cic ow -c "CALL idtypes_adopt_cutover('p')" -c "CALL idtypes_adopt_finish('p')" >/dev/null
check "a CREATE INDEX CONCURRENTLY timed out behind an old snapshot: $invalid INVALID index, prepare dropped and built it again ($again), verify $verify failures, phase $(phase cic)" \
	'[ "$invalid" = 1 ] && [[ $again == "DROP INDEX, CREATE UNIQUE"* ]] && [ "$verify" = 0 ] && [ "$(phase cic)" = finished ] && [ "$(db cic -c "SELECT count(*) FROM pg_index WHERE NOT indisvalid")" = 0 ]'

# 8. dump and restore mid-migration (constrained), into another cluster where the owner's role has another OID:
#    the owner finds its adoption there and carries it to its end
mk dump 1000 || die "the database dump"
to_constrained dump || fail "dump: the steps before the cut-over"
as_postgres "$bin/pg_dump" -Fc -h "$work" -p "${port[pg]}" -U postgres -d dump -f "$work/dump.pgdump" || fail "pg_dump"
as_postgres "$bin/initdb" -D "$work/pg2" -A trust -U postgres --no-sync >/dev/null && start pg2 || die "the second cluster"
as2() { local r=$1; shift; PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v VERBOSITY=terse -h "$work" -p "${port[pg2]}" -U "$r" -d dump "$@" 2>&1; }
PGOPTIONS="-c client_min_messages=warning" psql -X -q -h "$work" -p "${port[pg2]}" -U postgres -d postgres -c "CREATE ROLE shift" \
	-c "CREATE ROLE ow LOGIN IN ROLE pg_read_all_stats" -c "CREATE ROLE other" -c "CREATE DATABASE dump" >/dev/null
as2 postgres -c "GRANT CREATE ON SCHEMA public TO ow" >/dev/null
as_postgres "$bin/pg_restore" -h "$work" -p "${port[pg2]}" -U postgres -d dump "$work/dump.pgdump" || fail "pg_restore"
oids=$(sql pg -c "SELECT 'ow'::regrole::oid")/$(PGOPTIONS= psql -X -At -h "$work" -p "${port[pg2]}" -U postgres -d postgres -c "SELECT 'ow'::regrole::oid")
out=$(as2 ow -c "CALL idtypes_adopt_cutover('p')" -c "CALL idtypes_adopt_finish('p')" -c "SELECT phase FROM idtypes_adopt_progress")
rows=$(as2 ow -c "SELECT count(*) FILTER (WHERE pg_typeof(id) = 'timeid'::regtype AND id::bigint BETWEEN 1 AND 1000) || ' of ' || count(*) FROM p")
check "dump and restore mid-migration into another cluster (the owner's OID $oids): cut over and finished there ($out), $rows keys mapped" \
	'[[ $out == finished ]] && [ "$rows" = "1000 of 1000" ]' "$out"
stop pg2

# 9. two adoption runs at once on one table: three cut-overs, then two rollbacks, started together: one of each
#    does it, the others end (the phase read first) or raise naming the phase another session left
mk race 1000 || die "the database race"
to_constrained race || fail "race: the steps before the cut-over"
for i in 1 2 3; do as race ow -c "CALL idtypes_adopt_cutover('p')" >"$work/race_c$i" & done
wait
for i in 1 2; do as race ow -c "CALL idtypes_adopt_rollback('p')" >"$work/race_r$i" & done
wait
done=$(db race -c "SELECT string_agg(step || ' ' || n, ', ' ORDER BY step) FROM (SELECT step, count(*) AS n FROM idtypes_adopt.log WHERE detail LIKE 'try %: done' GROUP BY step) s")
other=$(cat "$work"/race_c? "$work"/race_r? | grep ERROR | grep -vc "is in phase")
check "three cut-overs at once, then two rollbacks: done once each ($done), the others ended or raised naming the phase ($other other errors); phase $(phase race), the key bigint again" \
	'[ "$done" = "cut-over 1, rollback 1" ] && [ "$other" = 0 ] && [ "$(phase race)" = backfilled ] && [ "$(db race -c "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = '"'p'::regclass"' AND attname = '"'id'"'")" = bigint ]' \
	"$(cat "$work"/race_c? "$work"/race_r?)"

# 10. the application's own row UPDATE trigger, its names unqualified (written for the application's
#     search_path): the plan lists it, the backfill (whose UPDATEs fire it) fills every row
mk trig 100 || die "the database trig"
as trig ow -v ON_ERROR_STOP=1 -c "CREATE TABLE audit (row_id bigint)" \
	-c "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS \$\$BEGIN INSERT INTO audit VALUES (NEW.id); RETURN NEW; END\$\$" \
	-c "CREATE TRIGGER audited BEFORE UPDATE ON p FOR EACH ROW EXECUTE FUNCTION touch()" >/dev/null
listed=$(as trig ow -c "SELECT count(*) FROM idtypes_adopt_plan('p', 'timeid') WHERE kind = 'trigger' AND object = 'public.p: audited'")
out=$(as trig ow -c "CALL idtypes_adopt_start('p', 'timeid')" -c "CALL idtypes_adopt_backfill('p')")
filled=$(db trig -c "SELECT count(*) FILTER (WHERE id_new IS NOT NULL) || ' of ' || count(*) FROM p")
check "the application's UPDATE trigger (unqualified names): listed by the plan ($listed), the backfill filled $filled rows, the trigger fired for $(db trig -c "SELECT count(*) FROM audit")" \
	'[ "$listed" = 1 ] && [ "$filled" = "100 of 100" ] && [ -z "$out" ]' "$out"

# 11. rows planted in the state tables: by a role with pg_write_all_data, by a role with nothing
refused=0
for r in wad nothing; do
	for s in "INSERT INTO idtypes_adopt.member (relid, tab, old_att, base) VALUES ('p', 'c', 1, 'x')" \
		"INSERT INTO idtypes_adopt.cursor (relid, leaf, next_block) VALUES ('p', 'p', 100000)" \
		"INSERT INTO idtypes_adopt.log (relid, step) VALUES ('p', 'cut-over')" \
		"INSERT INTO idtypes_adopt.migration (relid, to_type, mapping, phase) VALUES ('c2', 'timeid', 'keep', 'constrained')"; do
		[[ $(as args "$r" -c "$s") == *"violates row-level security"* ]] && refused=$((refused + 1))
	done
	[ "$(as args "$r" -c "UPDATE idtypes_adopt.migration SET phase = 'constrained' RETURNING 1")" = "" ] && refused=$((refused + 1))
done
check "rows planted or changed in the state tables by pg_write_all_data and by a role with nothing: $refused of 10 refused" '[ "$refused" = 10 ]'
# 11b. time mode, a row written behind the backfill's cursor whose reference (the parent's to itself) looks up
#      a row the backfill has not reached: its new reference is empty; the backfill passes again over it
sql pg -c "CREATE DATABASE behind" >/dev/null
out=$(db behind -v ON_ERROR_STOP=1 <<-'EOS'
	CREATE EXTENSION idtypes;
	CREATE TABLE p (id bigint PRIMARY KEY, at timestamptz NOT NULL, up bigint REFERENCES p, pad text) WITH (autovacuum_enabled = false);
	INSERT INTO p SELECT i, '2024-01-01'::timestamptz + i * interval '1 s', NULL, repeat('x', 200) FROM generate_series(1, 3000) i;
	DELETE FROM p WHERE id BETWEEN 2 AND 20;
	VACUUM p;
	CALL idtypes_adopt_start('p', 'timeid', 'time', 'at');
	CALL idtypes_adopt_backfill('p', 1, max_batches => 3);
	UPDATE p SET up = 2900 WHERE id = 1;
	SELECT (ctid::text::point)[0] < (SELECT next_block FROM idtypes_adopt.cursor) AND up_new IS NULL FROM p WHERE id = 1;
	CALL idtypes_adopt_backfill('p');
	SELECT sum(failures) FROM idtypes_adopt_verify('p');
EOS
)
check "time mode, a row behind the cursor whose reference was not filled yet: filled by a pass again, verify 0 (behind and empty, then failures: $(echo $out))" \
	'[ "$(echo $out)" = "t 0" ]' "$out"

# 11c. abandoned after a constrain that failed half way: a self-reference's new foreign key made and validated,
#      a child's made but its validation failed (a row written with the trigger bypassed). finish drops the
#      children's new columns before the parent's key (the new foreign keys go with them): triggers, new
#      columns, sync functions gone, the old keys as they were
sql pg -c "CREATE DATABASE halfway" >/dev/null
out=$(db halfway -v ON_ERROR_STOP=1 <<-'EOS'
	CREATE EXTENSION idtypes;
	CREATE TABLE p (id bigint PRIMARY KEY, up bigint REFERENCES p);
	INSERT INTO p SELECT i, NULLIF(i - 1, 0) FROM generate_series(1, 100) i;
	CREATE TABLE c (id int PRIMARY KEY, pid bigint REFERENCES p);
	INSERT INTO c SELECT i, i FROM generate_series(1, 100) i;
	CALL idtypes_adopt_start('p', 'timeid');
	CALL idtypes_adopt_backfill('p');
	SELECT s FROM idtypes_adopt_prepare('p') s \gexec
	SET session_replication_role = replica;
	UPDATE c SET pid_new = '0'::bigint::timeid WHERE id = 1;
	RESET session_replication_role;
EOS
)
failed=$(db halfway -c "CALL idtypes_adopt_constrain('p')")
made=$(db halfway -c "SELECT string_agg(conrelid::regclass || ' ' || conname || ' ' || convalidated, ', ' ORDER BY conname) FROM pg_constraint WHERE conname LIKE '%\_idn'")
finished=$(db halfway -c "CALL idtypes_adopt_finish('p')")
left=$(db halfway -c "SELECT (SELECT count(*) FROM pg_attribute WHERE attrelid IN ('p'::regclass, 'c'::regclass) AND attname LIKE '%\_new' AND NOT attisdropped)
	+ (SELECT count(*) FROM pg_constraint WHERE conname LIKE '%\_idn%') + (SELECT count(*) FROM pg_trigger WHERE tgname = 'zz_idtypes_adopt')
	+ (SELECT count(*) FROM pg_proc WHERE proname ~ '^idtypes_adopt_sync_[0-9]+$')")
old=$(db halfway -c "SELECT string_agg(conrelid::regclass || ' ' || conname || ' ' || convalidated, ', ' ORDER BY conname) FROM pg_constraint WHERE conrelid IN ('p'::regclass, 'c'::regclass) AND contype <> 'n'")
check "finish after a constrain failed half way ($(grep -o 'violates foreign key constraint "[a-z_]*"' <<<"$failed"); made: $made): abandoned ($finished), phase $(phase halfway), $left new columns, constraints, triggers or sync functions left; $old" \
	'[ -z "$out" ] && [[ $failed == *"violates foreign key constraint \"c_pid_fkey_idn\""* ]] && [ "$made" = "c c_pid_fkey_idn false, p p_up_fkey_idn true" ] && [ -z "$finished" ] && [ "$(phase halfway)" = finished ] && [ "$left" = 0 ] && [ "$old" = "c c_pid_fkey true, c c_pkey true, p p_pkey true, p p_up_fkey true" ]' \
	"$out $failed $finished"

# 11d. finish against a cut-over (and against a rollback) of another session: finish stopped (gdb: a breakpoint
#      at its first FOR loop's cursor, SPI_cursor_open_with_paramlist) after it read the phase, before its
#      first drop; the other step commits meanwhile. finish must refuse, the key in use kept (it dropped the
#      new key, now the primary key, after a cut-over, and the old, the primary key again, after a rollback:
#      4 of 4 before the row lock). Then a cut-over after a finish cancelled half way (a child's new column
#      dropped): refused as not verified (it raised 'null values cannot be formatted as an SQL identifier').
# race_finish DB STEP: DB constrained and verified (cut over first when STEP is rollback); finish stopped by gdb
#      while STEP runs in another session; sets fin (finish's output)
race_finish() {
	local d=$1 step=$2 fifo=$work/fifo_$1 pid
	[ "$step" = rollback ] && as "$d" ow -c "CALL idtypes_adopt_cutover('p')" >/dev/null
	mkfifo "$fifo"
	PGAPPNAME=race_fin as "$d" ow <"$fifo" >"$work/fin_$d" &
	exec 7>"$fifo"
	echo "SELECT 1;" >&7
	for _ in $(seq 1 40); do
		pid=$(db "$d" -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'race_fin'")
		[ -n "$pid" ] && break
		sleep 0.1
	done
	printf '%s\n' "set pagination off" "break SPI_cursor_open_with_paramlist" "commands 1" \
		"shell psql -X -q -At -h $work -p ${port[pg]} -U ow -d $d -c \"CALL idtypes_adopt_$step('p')\" >$work/step_$d 2>&1" \
		"detach" "quit" "end" "continue" >"$work/gdb_$d"
	gdb -q -p "$pid" -x "$work/gdb_$d" >"$work/gdblog_$d" 2>&1 &
	for _ in $(seq 1 100); do grep -q "^Breakpoint 1 at" "$work/gdblog_$d" && break; sleep 0.1; done
	echo "CALL idtypes_adopt_finish('p');" >&7
	exec 7>&-
	wait
	fin=$(tail -n +2 "$work/fin_$d")
	stopped=$(grep -c "^Breakpoint 1," "$work/gdblog_$d")
}
# the key in use: p's primary key on id, c's foreign key on pid
key_kept() { [ "$(db "$1" -c "SELECT count(*) FROM pg_constraint k WHERE (k.conrelid = 'p'::regclass AND k.contype = 'p' AND k.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = 'p'::regclass AND a.attname = 'id')]) OR (k.conrelid = 'c'::regclass AND k.contype = 'f' AND k.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = 'c'::regclass AND a.attname = 'pid')])")" = 2 ]; }
if command -v gdb >/dev/null; then
	for step in cutover rollback; do
		mk "fin_$step" 100 && to_constrained "fin_$step" || fail "fin_$step: the steps before the cut-over"
		race_finish "fin_$step" "$step"
		# a machine that refuses ptrace (a container's seccomp, yama's ptrace_scope = 3) cannot hold finish
		if [ "$stopped" = 0 ] && grep -qiE 'ptrace: Operation not permitted|Could not attach' "$work/gdblog_fin_$step"; then
			echo "skip finish against a $step of another session: gdb may not attach to a backend here ($(grep -m1 -iE 'ptrace|attach' "$work/gdblog_fin_$step"))"
			continue
		fi
		check "finish stopped after it read the phase while a $step of another session commits: refused, the key in use kept (stopped: $stopped; $step: $(cat "$work/step_fin_$step"); phase $(phase "fin_$step"))" \
			'[ "$stopped" = 1 ] && [[ $fin == *"(another session'"'"'s step ended first)"* ]] && key_kept "fin_$step" && [ "$(phase "fin_$step")" = "$([ $step = cutover ] && echo cut_over || echo backfilled)" ]' "$fin"
	done
else
	echo "skip finish against a cut-over or rollback of another session: no gdb here"
fi
mk fin_half 100 && to_constrained fin_half || fail "fin_half: the steps before the cut-over"
db fin_half -c "BEGIN" -c "LOCK TABLE c2 IN ACCESS SHARE MODE" -c "SELECT pg_sleep(3)" >/dev/null &
sleep 0.5
PGAPPNAME=half_fin as fin_half ow -c "CALL idtypes_adopt_finish('p')" >/dev/null &
for _ in $(seq 1 40); do [ "$(db fin_half -c "SELECT count(*) FROM pg_attribute WHERE attrelid = 'c'::regclass AND attname = 'pid_new'")" = 0 ] && break; sleep 0.05; done
db fin_half -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'half_fin'" >/dev/null
wait
out=$(as fin_half ow -c "CALL idtypes_adopt_cutover('p', tries => 2)")
check "a cut-over after a finish cancelled half way (c's new column dropped, c2's kept): refused as not verified, then finish again ends it" \
	'[ "$(db fin_half -c "SELECT count(*) FROM pg_attribute WHERE attrelid IN ('"'c'::regclass, 'c2'::regclass"') AND attname = '"'pid_new'"' AND NOT attisdropped")" = 1 ] && [[ $out == *"in phase constrained, not verified"* ]] && [ -z "$(as fin_half ow -c "CALL idtypes_adopt_finish('"'p'"')")" ] && [ "$(phase fin_half)" = finished ]' "$out"

# 11e. operators public's owner plants where pg_catalog has no exact match (regclass <> regclass, integer ^
#      integer): code of the procedures that ran after a COMMIT, before search_path was pinned again, called
#      them with the table owner's rights (the backfill's first pass; the cut-over's backoff after a failed
#      try). The adoption carried through a cut-over whose first tries wait for a held lock, then finish: none
#      called
mk plantop2 100 || die "the database plantop2"
db plantop2 -c "ALTER SCHEMA public OWNER TO sown" -c "SET ROLE sown" \
	-c "CREATE FUNCTION public.evil_ne(regclass, regclass) RETURNS boolean LANGUAGE plpgsql AS \$\$BEGIN RAISE EXCEPTION 'planted <> called by %', current_user; END\$\$" \
	-c "CREATE OPERATOR public.<> (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = public.evil_ne)" \
	-c "CREATE FUNCTION public.evil_pow(integer, integer) RETURNS double precision LANGUAGE plpgsql AS \$\$BEGIN RAISE EXCEPTION 'planted ^ called by %', current_user; END\$\$" \
	-c "CREATE OPERATOR public.^ (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.evil_pow)" >/dev/null
out=$(as plantop2 ow -c "CALL idtypes_adopt_start('p', 'timeid')" -c "CALL idtypes_adopt_backfill('p')")
echo "SELECT s FROM idtypes_adopt_prepare('p') s \\gexec" | as plantop2 ow >/dev/null
out+=$(as plantop2 ow -c "CALL idtypes_adopt_constrain('p')" -c "SELECT sum(failures) FROM idtypes_adopt_verify('p')")
db plantop2 -c "BEGIN" -c "LOCK TABLE c IN ACCESS SHARE MODE" -c "SELECT pg_sleep(1.5)" >/dev/null &
sleep 0.3
out+=$(as plantop2 ow -c "CALL idtypes_adopt_cutover('p', lock_wait => '100ms', max_age => '1h')" -c "CALL idtypes_adopt_finish('p')")
wait
tries=$(db plantop2 -c "SELECT count(*) FROM idtypes_adopt.log WHERE step = 'cut-over' AND detail NOT LIKE '%done'")
check "operators planted by public's owner (regclass <>, integer ^): adoption finished through $tries failed cut-over tries, none called ($out)" \
	'[ "$out" = 0 ] && [ "$tries" -ge 1 ] && [ "$(phase plantop2)" = finished ]' "$out"

# 13. the constraints' names after a cut-over, and after finish, as before the adoption: a partitioned child's
#     partitions' foreign keys included (one cloned from the child's, one the partition had before it was
#     attached, under a name of its own). The cut-over gave the child's new foreign key its old name, but its
#     partitions kept <name>_idn; on 18 and later a NOT NULL constraint has a name too (the key's). Compared by
#     table, kind, name and columns (the old key column kept until finish left out after the cut-over)
mk names 100 || die "the database names"
as names ow -v ON_ERROR_STOP=1 -c "CREATE TABLE cp (id int, k int, pid bigint REFERENCES p, PRIMARY KEY (id, k)) PARTITION BY LIST (k)" \
	-c "CREATE TABLE cp0 PARTITION OF cp FOR VALUES IN (0)" \
	-c "CREATE TABLE cp1 (id int NOT NULL, k int NOT NULL, pid bigint, CONSTRAINT cp1_own_fkey FOREIGN KEY (pid) REFERENCES p)" \
	-c "ALTER TABLE cp ATTACH PARTITION cp1 FOR VALUES IN (1)" -c "INSERT INTO cp SELECT i, i % 2, i FROM generate_series(1, 20) i" >/dev/null
cons() { db "${1:-names}" -c "SELECT string_agg(format('%s %s %s(%s)', c.conrelid::regclass, c.contype, c.conname, (SELECT string_agg(a.attname, ',' ORDER BY a.attnum)
	FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey))), ', ' ORDER BY c.conrelid::regclass::text, c.conname)
	FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid WHERE t.relnamespace = 'public'::regnamespace
	AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) AND (a.attname LIKE '%\_old' OR a.attname LIKE '%\_new'))"; }
before=$(cons)
to_constrained names || fail "names: the steps before the cut-over"
as names ow -c "CALL idtypes_adopt_cutover('p')" >/dev/null
cut=$(cons)
as names ow -c "CALL idtypes_adopt_finish('p')" >/dev/null
fin=$(cons)
differ=$(diff <(tr , '\n' <<<"$before") <(tr , '\n' <<<"$cut") | grep -c '^[<>]')
check "the constraints' names (partitions' foreign keys included: $(grep -o 'cp[01] f [a-z0-9_]*' <<<"$cut" | paste -sd' ')) after the cut-over as before: $differ lines differ; after finish: $([ "$fin" = "$before" ] && echo the same || echo others) (phase $(phase names))" \
	'[ "$differ" = 0 ] && [ "$fin" = "$before" ] && [ "$(phase names)" = finished ] && [[ $before == *"cp1 f cp1_own_fkey(pid)"* ]]' \
	"before: $before; after the cut-over: $cut; after finish: $fin"

# 14. the caller's lock_timeout after a step that runs in the caller's transaction (redefault, verify): its own
#     (7s; 0), not the 200 ms the step's statements ran under (the step set it back to its own value, which then
#     held for the rest of the caller's transaction)
as names ow -c "CREATE TABLE u (id uuid PRIMARY KEY)" >/dev/null
lt=$(as names ow -c "BEGIN" -c "SET LOCAL lock_timeout = '7s'" -c "CALL idtypes_adopt_redefault('u', 'id')" -c "SHOW lock_timeout" -c "COMMIT" \
	-c "BEGIN" -c "CALL idtypes_adopt_redefault('u', 'id')" -c "SHOW lock_timeout" -c "COMMIT" | paste -sd' ')
check "the caller's lock_timeout after redefault in its transaction: $lt (7s, then 0)" '[ "$lt" = "7s 0" ]'

# 15. the state tables are writable by PUBLIC (row-level security keeps the rows apart), so a role with nothing
#     may LOCK one of them and hold it: each step (start, backfill, cut-over) of another role's adoption ends at
#     lock_timeout (1 s at most) with an error naming the holder, rather than waiting as long as it is held
#     (here cut short by a statement_timeout of 4 s)
mk held 100 || die "the database held"
to_constrained held || fail "held: the steps before the cut-over"
as held ow -v ON_ERROR_STOP=1 -c "CREATE TABLE q (id bigint PRIMARY KEY)" -c "CREATE TABLE r (id bigint PRIMARY KEY)" -c "CALL idtypes_adopt_start('r', 'timeid')" >/dev/null
PGAPPNAME=holder as held nothing -c "BEGIN" -c "LOCK TABLE idtypes_adopt.migration IN ACCESS EXCLUSIVE MODE" -c "SELECT pg_sleep(60)" >"$work/holder" &
holder=$!
for _ in $(seq 1 50); do
	hpid=$(db held -c "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.application_name = 'holder' AND l.granted AND l.relation = 'idtypes_adopt.migration'::regclass")
	[ -n "$hpid" ] && break
	sleep 0.1
done
steps=()
for s in "idtypes_adopt_start('q', 'timeid')" "idtypes_adopt_backfill('r')" "idtypes_adopt_cutover('p')"; do
	(t0=$(date +%s%N); out=$(as held ow -c "SET statement_timeout = '4s'" -c "CALL $s" | tr '\n' ' '); echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms: $out") >"$work/held_${s%%(*}" &
	steps+=($!)
done
wait "${steps[@]}"
db held -c "SELECT pg_terminate_backend($hpid)" >/dev/null
wait "$holder"
named=$(cat "$work"/held_idtypes_adopt_* | grep -c "locked by pid $hpid (role nothing)")
check "a role with nothing holds idtypes_adopt.migration: $named of 3 steps of another owner (start, backfill, cut-over) ended at lock_timeout naming it, after $(cut -d' ' -f1 "$work"/held_idtypes_adopt_* | paste -sd/) ms (holder pid ${hpid:-none}); phases after: $(db held -c "SELECT string_agg(relid || ' ' || phase, ', ' ORDER BY relid::text) FROM idtypes_adopt.migration")" \
	'[ -n "$hpid" ] && [ "$named" = 3 ] && [ "$(db held -c "SELECT string_agg(relid || '"' '"' || phase, '"', '"' ORDER BY relid::text) FROM idtypes_adopt.migration")" = "p constrained, r started" ]' \
	"$(cat "$work"/held_idtypes_adopt_*)"

# 16. what each referencing column had before the cut-over, after it, after a rollback and a cut-over again,
#     and after finish: NOT NULL (it was lost: nothing set it on the new column), with its constraint's name
#     on 18 and later, a comment, column privileges, a statistics target, a view reading it; a partitioned
#     child's column NOT NULL too. What is not carried over (a DEFAULT, a CHECK, a composite or a partial
#     index) the plan lists, one row each
mk cols 100 || die "the database cols"
as cols ow -v ON_ERROR_STOP=1 -c "CREATE TABLE k (id int PRIMARY KEY, pid bigint NOT NULL DEFAULT 1 REFERENCES p CHECK (pid > 0), pid2 bigint NOT NULL REFERENCES p, t text)" \
	-c "INSERT INTO k SELECT i, i, i, 'x' FROM generate_series(1, 50) i" -c "CREATE INDEX ON k (pid)" -c "CREATE INDEX ON k (pid, t)" -c "CREATE INDEX ON k (pid2) WHERE t IS NOT NULL" \
	-c "COMMENT ON COLUMN k.pid IS 'the parent'" -c "GRANT SELECT (pid) ON k TO other" -c "ALTER TABLE k ALTER COLUMN pid SET STATISTICS 500" \
	-c "CREATE VIEW kv AS SELECT id, pid FROM k" -c "GRANT SELECT ON kv TO other" \
	-c "CREATE TABLE kp (id int PRIMARY KEY, pid bigint NOT NULL REFERENCES p) PARTITION BY RANGE (id)" \
	-c "CREATE TABLE kp0 PARTITION OF kp FOR VALUES FROM (0) TO (50)" -c "CREATE TABLE kp1 PARTITION OF kp FOR VALUES FROM (50) TO (1000)" \
	-c "INSERT INTO kp SELECT i, i FROM generate_series(1, 100) i" >/dev/null
# one line per referencing column (by its name): NOT NULL, its constraint's name (18+), comment, privileges, statistics target
attrs() { db cols -c "SELECT string_agg(format('%s.%s %s %s %s %s %s', a.attrelid::regclass, a.attname, a.attnotnull,
	(SELECT c.conname FROM pg_constraint c WHERE c.conrelid = a.attrelid AND c.contype = 'n' AND c.conkey = ARRAY[a.attnum]),
	col_description(a.attrelid, a.attnum), a.attacl, nullif(a.attstattarget, -1)), '; ' ORDER BY a.attrelid::regclass::text, a.attname)
	FROM pg_attribute a WHERE a.attrelid IN ('k'::regclass, 'kp'::regclass, 'kp0'::regclass) AND a.attname IN ('pid', 'pid2')"; }
not_kept=$(as cols ow -c "SELECT string_agg(object || ': ' || split_part(detail, ':', 1), ', ' ORDER BY object, detail) FROM idtypes_adopt_plan('p', 'timeid') WHERE kind = 'not kept'")
before=$(attrs)
to_constrained cols || fail "cols: the steps before the cut-over"
# the cut-over's SET NOT NULL reads the validated CHECKs: PostgreSQL's DEBUG1 line for each column (partitions
# included), and none of a table scanned
db cols -c "ALTER ROLE ow IN DATABASE cols SET log_min_messages = debug1" >/dev/null
from=$(wc -l <"$work/pg.log")
as cols ow -c "CALL idtypes_adopt_cutover('p')" >/dev/null
db cols -c "ALTER ROLE ow IN DATABASE cols RESET log_min_messages" >/dev/null
proven=$(tail -n +$((from + 1)) "$work/pg.log" | grep -o 'column "[a-z0-9_.]*" are sufficient to prove that it does not contain nulls' | cut -d'"' -f2 | sort | paste -sd' ')
scanned=$(tail -n +$((from + 1)) "$work/pg.log" | grep -c 'verifying table')
cut=$(attrs)
as cols ow -c "CALL idtypes_adopt_rollback('p')" >/dev/null
rolled=$(attrs)
to_constrained cols || fail "cols: the steps after the rollback"
as cols ow -c "CALL idtypes_adopt_cutover('p')" >/dev/null
again=$(attrs)
as cols ow -c "CALL idtypes_adopt_finish('p')" >/dev/null
fin=$(attrs)
null=$(as cols ow -c "INSERT INTO k (id, pid, pid2) VALUES (0, NULL, 1::bigint::timeid)" -c "INSERT INTO kp VALUES (0, NULL)" | grep -c 'violates not-null constraint')
view=$(as cols other -c "SELECT count(*) FILTER (WHERE pg_typeof(pid) = 'timeid'::regtype) FROM kv")
check "the cut-over's SET NOT NULL proven by the validated CHECKs for $proven, $scanned tables scanned" \
	'[ "$proven" = "k.pid2_new k.pid_new kp.pid_new kp0.pid_new kp1.pid_new p.id_new" ] && [ "$scanned" = 0 ]'
check "each referencing column after the cut-over, a rollback and a cut-over again, finish: NOT NULL (constraint names on 18+), comment, privileges, statistics target as before ($before: $([ "$cut" = "$before" ] && echo same || echo other), $([ "$rolled" = "$before" ] && echo same || echo other), $([ "$again" = "$before" ] && echo same || echo other), $([ "$fin" = "$before" ] && echo same || echo other)); $null of 2 NULL inserts refused; the view read by another role: $view timeid rows; not kept, listed by the plan: $not_kept" \
	'[ "$cut" = "$before" ] && [ "$rolled" = "$before" ] && [ "$again" = "$before" ] && [ "$fin" = "$before" ] && [[ $before == "k.pid t "* ]] && [ "$null" = 2 ] && [ "$view" = 50 ] && [ "$(phase cols)" = finished ] && [ "$not_kept" = "public.k.pid: CHECK k_pid_check, public.k.pid: DEFAULT 1, public.k.pid: index public.k_pid_t_idx, public.k.pid2: index public.k_pid2_idx" ]' \
	"before: $before; after the cut-over: $cut; after the rollback: $rolled; again: $again; after finish: $fin"

# 17. redefault on a table with no adoption whose first try times out (another session holds a lock on it
#     until 0.5 s after redefault is seen waiting): it tries again and sets the default (its retry logged the
#     wait under an adoption that does not exist: the log's row-level security, or its foreign key for a role
#     that bypasses it, raised)
as cols ow -c "CREATE TABLE u (id uuid PRIMARY KEY)" >/dev/null
PGAPPNAME=holder db cols -c "BEGIN" -c "LOCK TABLE u IN ACCESS SHARE MODE" -c "SELECT pg_sleep(60)" >/dev/null &
holder=$!
for _ in $(seq 1 100); do [ -n "$(db cols -c "SELECT 1 FROM pg_stat_activity WHERE application_name = 'holder' AND wait_event = 'PgSleep'")" ] && break; sleep 0.05; done
PGAPPNAME=redef as cols ow -c "CALL idtypes_adopt_redefault('u', 'id')" >"$work/redef" &
redef=$!
seen=0
for _ in $(seq 1 200); do
	[ -n "$(db cols -c "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.application_name = 'redef' AND NOT l.granted")" ] && { seen=1; break; }
	sleep 0.05
done
sleep 0.5 # held past the 200 ms lock_timeout of the try seen waiting: it timed out
db cols -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'holder'" >/dev/null
wait "$redef"
wait "$holder"
out=$(cat "$work/redef")
def=$(db cols -c "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'u'::regclass")
check "redefault on a table with no adoption, seen waiting ($seen) behind another session's lock: tried again and set $def${out:+; $out}" \
	'[ "$seen" = 1 ] && [ -z "$out" ] && [[ $def == *"uuid_v7_generate()" ]]' "$out"

# 18. a unique index on a referencing column (a join table's primary key, a one-to-one reference) and a
#     composite unique one on the key in keep mode: finish would drop each with its old column, so the plan
#     blocks on each and start refuses before changing anything
sql pg -c "CREATE DATABASE uniq" && db uniq -c "CREATE EXTENSION idtypes" -c "GRANT CREATE ON SCHEMA public TO ow" >/dev/null
as uniq ow -v ON_ERROR_STOP=1 -c "CREATE TABLE p (id bigint PRIMARY KEY, t int, UNIQUE (id, t))" -c "CREATE TABLE tags (pid bigint REFERENCES p, tag int, PRIMARY KEY (pid, tag))" \
	-c "CREATE TABLE one (id int PRIMARY KEY, pid bigint UNIQUE REFERENCES p)" -c "CREATE TABLE plain (id int PRIMARY KEY, pid bigint REFERENCES p, t int)" -c "CREATE INDEX ON plain (pid, t)" >/dev/null
blocks=$(as uniq ow -c "SELECT string_agg(object, ' ' ORDER BY object) FROM idtypes_adopt_plan('p', 'timeid') WHERE blocking")
v7=$(as uniq ow -c "SELECT string_agg(object, ' ' ORDER BY object) FROM idtypes_adopt_plan('p', 'uuid', 'v7') WHERE blocking AND kind = 'not kept'")
out=$(as uniq ow -c "CALL idtypes_adopt_start('p', 'timeid')" | head -1)
left=$(db uniq -c "SELECT count(*) FROM pg_attribute WHERE attrelid IN ('p'::regclass, 'tags'::regclass, 'one'::regclass) AND attname ~ '_new$' AND NOT attisdropped")
check "a unique index on a referencing column or (keep mode) on the key with another column: the plan blocks on $blocks (v7 mode: ${v7:-none}); start refused, $left new columns: $out" \
	'[ "$blocks" = "public.one.pid public.p.id public.tags.pid" ] && [ "$v7" = "public.one.pid public.tags.pid" ] && [[ $out == *"public.tags.pid"* ]] && [ "$left" = 0 ]'

# 19. two foreign keys from one child to the parent, their names 63 bytes long and alike in their first 59: the
#     new ones took the same name (<59 bytes>_idn), constrain failed, again it made one, verify passed and the
#     cut-over failed on the other's rename; each gets a name of its own (the column's number after _idn)
mk longfk 100 || die "the database longfk"
f=$(printf 'f%.0s' $(seq 1 59))
as longfk ow -v ON_ERROR_STOP=1 -c "CREATE TABLE cc (id int PRIMARY KEY, a bigint, b bigint, CONSTRAINT ${f}_one FOREIGN KEY (a) REFERENCES p, CONSTRAINT ${f}_two FOREIGN KEY (b) REFERENCES p)" \
	-c "INSERT INTO cc SELECT i, i, 51 - i FROM generate_series(1, 50) i" >/dev/null
to_constrained longfk || fail "longfk: the steps before the cut-over"
made=$(db longfk -c "SELECT count(*) FROM pg_constraint WHERE conrelid = 'cc'::regclass AND contype = 'f' AND confrelid = 'p'::regclass AND conkey[1] IN (SELECT attnum FROM pg_attribute WHERE attrelid = 'cc'::regclass AND attname LIKE '%\_new')")
as longfk ow -c "CALL idtypes_adopt_cutover('p', tries => 1)" >/dev/null
fks=$(db longfk -c "SELECT string_agg(conname || ' ' || (SELECT attname FROM pg_attribute WHERE attrelid = conrelid AND attnum = conkey[1]), ', ' ORDER BY conname) FROM pg_constraint WHERE conrelid = 'cc'::regclass AND contype = 'f'")
check "two foreign keys of one child named alike in their first 59 of 63 bytes: $made of 2 new ones made before the cut-over, phase $(phase longfk) after it" \
	'[ "$made" = 2 ] && [ "$(phase longfk)" = cut_over ] && [ "$fks" = "${f}_one a, ${f}_two b" ]' "$fks"

# 20. a prepared transaction (of a role with nothing) holds a state table: it has no pid and outlives every
#     session and a restart, so the step's error names it by its gid (it named "pid  (role ?)")
mk prep 100 || die "the database prep"
as prep ow -c "CALL idtypes_adopt_start('p', 'timeid')" >/dev/null
as prep nothing -c "BEGIN" -c "LOCK TABLE idtypes_adopt.log IN EXCLUSIVE MODE" -c "PREPARE TRANSACTION 'adopt_held'" >/dev/null
out=$(as prep ow -c "CALL idtypes_adopt_backfill('p')")
db prep -c "ROLLBACK PREPARED 'adopt_held'" >/dev/null
check "a prepared transaction holds idtypes_adopt.log: the backfill ends naming it ($out)" \
	'[[ $out == *"idtypes_adopt.log is locked by the prepared transaction '"'adopt_held'"' (owner nothing) in ExclusiveLock"* ]] && [ "$(phase prep)" = started ]' "$out"

# 21. a step that ends in the caller's transaction (redefault; start, backfill, constrain, cut-over called again
#     after their phase) gives the caller its search_path back: it left it pinned to pg_catalog, pg_temp for the
#     rest of that transaction, where the application's next unqualified name was not found
as longfk ow -c "CREATE TABLE u (id uuid PRIMARY KEY)" >/dev/null
path=0
for s in "idtypes_adopt_redefault('u', 'id')" "idtypes_adopt_start('p', 'timeid')" "idtypes_adopt_backfill('p')" "idtypes_adopt_constrain('p')" "idtypes_adopt_cutover('p')"; do
	out=$(as longfk ow -c "BEGIN" -c "CALL $s" -c "SELECT count(*) FROM cc" -c "COMMIT")
	[ "$out" = 50 ] && path=$((path + 1)) || echo "$s: $out" >>"$work/path"
done
check "the caller's search_path after 5 steps that ended in its transaction: $path of 5 found its table (phase $(phase longfk))" \
	'[ "$path" = 5 ] && [ "$(phase longfk)" = cut_over ]' "$(cat "$work/path" 2>/dev/null)"

# 22. a partitioned child whose partition has a foreign key of its own name, cut over by the application's
#     procedure (its next statement under its own search_path: the cut-over left it pinned), then rolled back:
#     the names as before (before 18 the rollback adds the foreign key per partition under the child's name,
#     which the partition kept: 1 of 1 on 15), then abandoned
mk rbnames 100 || die "the database rbnames"
as rbnames ow -v ON_ERROR_STOP=1 -c "CREATE TABLE cp (id int, k int, pid bigint REFERENCES p, PRIMARY KEY (id, k)) PARTITION BY LIST (k)" \
	-c "CREATE TABLE cp0 PARTITION OF cp FOR VALUES IN (0)" \
	-c "CREATE TABLE cp1 (id int NOT NULL, k int NOT NULL, pid bigint, CONSTRAINT \"cp1 Own\" FOREIGN KEY (pid) REFERENCES p)" \
	-c "ALTER TABLE cp ATTACH PARTITION cp1 FOR VALUES IN (1)" -c "INSERT INTO cp SELECT i, i % 2, i FROM generate_series(1, 20) i" \
	-c "CREATE PROCEDURE go() LANGUAGE plpgsql AS \$\$BEGIN CALL idtypes_adopt_cutover('p'); PERFORM count(*) FROM cp; END\$\$" >/dev/null
before=$(cons rbnames)
to_constrained rbnames || fail "rbnames: the steps before the cut-over"
go=$(as rbnames ow -c "CALL go()")
cut=$(phase rbnames)
as rbnames ow -c "CALL idtypes_adopt_rollback('p')" >/dev/null
rb=$(cons rbnames)
as rbnames ow -c "CALL idtypes_adopt_finish('p')" >/dev/null
fin=$(cons rbnames)
check "a procedure's cut-over (${go:-its next statement ran}; phase $cut), then rollback: the constraints' names as before ($(grep -o 'cp1 f [^(]*' <<<"$rb")), after abandoning too ($(phase rbnames))" \
	'[ -z "$go" ] && [ "$cut" = cut_over ] && [ "$rb" = "$before" ] && [ "$fin" = "$before" ] && [ "$(phase rbnames)" = finished ]' \
	"before: $before; after the rollback: $rb; after finish: $fin"

# 23. 18 and later: the key's NOT NULL constraint named in 63 bytes and 29 characters (a table named in 17 CJK
#     characters: <table>_id_not_null): the cut-over renamed it through <its first 58 characters>_swap, which
#     PostgreSQL cut back to the name itself (42710, every try); done, the name kept by the key
sql pg -c "CREATE DATABASE cjk ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" >/dev/null &&
	db cjk -c "CREATE EXTENSION idtypes" -c "GRANT CREATE ON SCHEMA public TO ow" >/dev/null || die "the database cjk"
t=$(printf '表%.0s' $(seq 1 17))
as cjk ow -v ON_ERROR_STOP=1 -c "CREATE TABLE $t (id bigint PRIMARY KEY)" -c "INSERT INTO $t SELECT generate_series(1, 10)" >/dev/null
as cjk ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_start('$t', 'timeid')" -c "CALL idtypes_adopt_backfill('$t')" >/dev/null
echo "SELECT s FROM idtypes_adopt_prepare('$t') s \\gexec" | as cjk ow -v ON_ERROR_STOP=1 >/dev/null
out=$(as cjk ow -v ON_ERROR_STOP=1 -c "CALL idtypes_adopt_constrain('$t')" -c "SELECT sum(failures) FROM idtypes_adopt_verify('$t')" -c "CALL idtypes_adopt_cutover('$t', tries => 1)")
nn=$(db cjk -c "SELECT count(*) FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] WHERE c.conrelid = '$t'::regclass AND c.contype = 'n' AND a.attname = 'id' AND c.conname = '${t}_id_not_null'")
check "a table named in 17 CJK characters: cut over ($(db cjk -c "SELECT phase FROM idtypes_adopt.migration WHERE relid = '$t'::regclass")), its key's NOT NULL constraint under its name: $nn (18 and later: 1)" \
	'[ "$out" = 0 ] && [ "$(db cjk -c "SELECT phase FROM idtypes_adopt.migration WHERE relid = '"'$t'"'::regclass")" = cut_over ] && [ "$nn" = "$(db cjk -c "SELECT (current_setting('"'server_version_num'"')::int >= 180000)::int")" ]' "$out"

# 24. after the cut-over, rows inserted with their values in the old column order (INSERT ... VALUES and COPY
#     without a column list): the value lands in pid_old (the old column's place) and the new pid, last, is
#     empty; the reverse sync trigger then emptied pid_old too (the row kept no reference, no error). COPY
#     refuses such a line itself (a value for every column)
mk posins 100 || die "the database posins"
to_constrained posins || fail "posins: the steps before the cut-over"
as posins ow -c "CALL idtypes_adopt_cutover('p')" >/dev/null
out=$(as posins ow -c "INSERT INTO c VALUES (1001, 5)"; printf '1002\t7\n' | as posins ow -c "COPY c FROM STDIN")
rows=$(db posins -c "SELECT string_agg(format('%s %s %s', id, pid::bigint, pid_old), ', ' ORDER BY id) FROM c WHERE id > 1000")
check "after the cut-over, INSERT ... VALUES in the old column order: $rows (id, the new key as bigint, the old one); COPY refused: $out" \
	'[ "$rows" = "1001 5 5" ] && [[ $out == *"missing data for column"* ]]' "$out"

# 12. pg_upgrade mid-migration (to the same version: what it checks and copies is the same), last: it takes
#     the cluster. pg_upgrade refuses a cluster with a regprocedure column in any table (function OIDs are not
#     kept): the state tables must have none. The adoption, constrained before, is cut over and finished after.
mk upg 1000 || die "the database upg"
to_constrained upg || fail "upg: the steps before the cut-over"
for d in own plant plantop args stats cic dump race trig behind halfway names held cols uniq longfk prep rbnames cjk posins; do sql pg -c "DROP DATABASE $d" >/dev/null; done # less to copy
stop pg || die "the cluster does not stop"
out=$(upgrade "$bin" "$bin" pg pg3)
up=$?
start pg3 || die "the upgraded cluster does not start"
out3=$(PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -h "$work" -p "${port[pg3]}" -U ow -d upg -c "CALL idtypes_adopt_cutover('p')" \
	-c "CALL idtypes_adopt_finish('p')" -c "SELECT phase FROM idtypes_adopt_progress" \
	-c "SELECT count(*) FILTER (WHERE pg_typeof(id) = 'timeid'::regtype AND id::bigint BETWEEN 1 AND 1000) || ' of ' || count(*) FROM p" 2>&1 | tr '\n' ' ')
check "pg_upgrade mid-migration (constrained): upgraded (exit $up), then cut over and finished there: $out3" \
	'[ "$up" = 0 ] && [ "$out3" = "finished 1000 of 1000 " ]' "$out"
stop pg3

echo "     test/adopt/around.sh took $SECONDS s"
exit $status
