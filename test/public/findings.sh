#!/usr/bin/env bash
# The public forms can never answer wrong (issue 64), in clusters of this check's own. Usage: findings.sh BIN
# (the bin directory of the PostgreSQL under test, idtypes installed in it). Prints `ok` / `FAIL` lines; each
# check counts what it planned against what ran. 1.6's library (ea3c833) fails checks 1 to 8 here.
#
#  1. a retired version's forms are refused for every kind, the uuid form included: 0 wrong of N per kind
#  2. a removed line and a version taking its symbol: the file refused whole naming the line (at a reload, and
#     at a restart where no good keyring was kept), on a primary and on its standby (the memory replicates);
#     0 wrong decodes of N per kind; a version a standby loads first is refused there until the primary's
#     record of it (the same key) replays; under synchronous replication, a version the primary loads is used
#     once its synchronous standbys confirmed its record (a failover to one then decodes no form wrong)
#  3. the worker: in pg_stat_activity and idtypes_keyring_status(); when it could not start (every slot of
#     max_worker_processes taken), the forms are refused naming it
#  4. no 16 consecutive hex digits of the file in the log, the errors' DETAILs or pg_stat_statements, for every
#     malformed shape of a line, at a reload and at a start
#  5. a crash restart keeps the last good keyring (the file refused at a reload stays refused)
#  6. scopes resolved when the keyring is read: a missing role is a WARNING naming it (by position when it may
#     be part of a key, in any spelling); a renamed role keeps its key until the next reload, a new role under
#     the old name gains it only then
#  7. parallel workers convert at the leader's generation: workers launched, forms right, 0 statements mixing
#     two keyrings of M while the file is rewritten and reloaded
#  8. more than 128 versions in a file (1.5 read them)
#  9-12 (red team): a function's SET idtypes.keyring_generation in a parallel worker; records past 4,096; a lock on
#     pg_replication_origin during a reload; pg_upgrade with idtypes preloaded, and the memory after it when the
#     documented procedure is followed (every version's line, retired ones included, kept in the file; a version
#     kept retired never gets a key again).
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../concurrency/server.sh
source "$here/../concurrency/server.sh"
# shellcheck source=../concurrency/clusters.sh
source "$here/../concurrency/clusters.sh"
N=${FINDINGS_N:-20000}
base="-c max_wal_senders=4 -c idtypes.keyring=keyring"
settings=$(settings_for no "-c shared_preload_libraries=idtypes,pg_stat_statements $base")

k1=$(openssl rand -hex 32)
k2=$(openssl rand -hex 32)
k3=$(openssl rand -hex 32)
# every file written, for the search of its hex digits in what the server shows
all_files=$work/all_files
write_keyring() { # NAME LINE...: the keyring of cluster NAME (mode 0600 unless MODE)
	local file=$work/$1/keyring
	shift
	rm -f "$file"
	printf '%s\n' "$@" >"$file"
	printf '%s\n' "$@" >>"$all_files"
	chown postgres: "$file"
	chmod "${MODE:-600}" "$file"
}
# qc CLUSTER [ROLE] SQL: one value, errors with their SQLSTATE (and DETAIL) on stdout
qc() {
	local name=$1 role=postgres
	[ $# -ge 3 ] && role=$2
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -v VERBOSITY=verbose -At -h "$work" -p "${port[$name]}" \
		-U "$role" -d postgres -c "${!#}" 2>&1 | tee -a "$work/shown"
}
# generation NAME: the keyring generation in use (empty where the library has no idtypes_keyring_status)
generation() { sql "$1" -c 'SELECT generation FROM idtypes_keyring_status()' 2>/dev/null; }
# reload NAME: the worker has read the file (its generation or its last refusal changed; 1.6: a pause)
reload() {
	local before
	before=$(sql "$1" -c "SELECT generation || ' ' || coalesce(refused_at::text, '') FROM idtypes_keyring_status()" 2>/dev/null)
	sql "$1" -c 'SELECT pg_reload_conf()' >/dev/null
	for i in $(seq 1 40); do
		sleep 0.25
		[ -z "$before" ] && [ "$i" -ge 4 ] && return 0
		[ -n "$before" ] && [ "$(sql "$1" -c "SELECT generation || ' ' || coalesce(refused_at::text, '') FROM idtypes_keyring_status()")" != "$before" ] && return 0
	done
}
# ready_forms NAME: once the keyring is in use after a start (up to 20 s)
ready_forms() {
	for _ in $(seq 1 80); do
		[ "$(sql "$1" -c "SELECT worker_pid IS NOT NULL AND generation IS NOT NULL FROM idtypes_keyring_status()" 2>/dev/null)" = t ] && return 0
		sql "$1" -c "SELECT idtypes_keyring_status()" >/dev/null 2>&1 || { sleep 1; return 0; } # 1.6
		sleep 0.25
	done
}
err() { sed -n 's/^ERROR:  \([0-9A-Z]*\): .*/\1/p' <<<"$1" | head -1; }

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
write_keyring primary "orders 1 $k1"
start primary || die "the primary does not start"
ready_forms primary
sql primary -c 'CREATE EXTENSION idtypes' -c 'CREATE EXTENSION pg_stat_statements' || die "CREATE EXTENSION"

# try(T, form, key): the ID as text, or the error's SQLSTATE
sql primary <<'SQL' || die "helpers"
CREATE FUNCTION try_from(t text, form text, k text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN CASE t WHEN 'timeid' THEN timeid_from_public(form, k)::text WHEN 'tbsl' THEN tbsl_from_public(form, k)::text
	              WHEN 'uid11' THEN uid11_from_public(form, k)::text WHEN 'scru160' THEN scru160_from_public(form, k)::text
	              ELSE uuid_from_public(form::uuid, k)::text END;
EXCEPTION WHEN OTHERS THEN RETURN 'error ' || SQLSTATE;
END $$;
CREATE FUNCTION to_form(t text, id text, k text) RETURNS text LANGUAGE sql AS $$
	SELECT CASE t WHEN 'timeid' THEN timeid_to_public(id::timeid, k) WHEN 'tbsl' THEN tbsl_to_public(id::tbsl, k)
	              WHEN 'uid11' THEN uid11_to_public(id::uid11, k) WHEN 'scru160' THEN scru160_to_public(id::scru160, k)
	              ELSE uuid_to_public(id::uuid, k)::text END $$;
SQL
# forms(N): N IDs of every kind and their forms under the keyring in use, in table made
make_forms() {
	sql primary -c "DROP TABLE IF EXISTS made" -c "CREATE TABLE made AS
	SELECT t, id, to_form(t, id, 'orders') AS form FROM (
		SELECT 'timeid' t, timeid_generate()::text id FROM generate_series(1, $1)
		UNION ALL SELECT 'tbsl', tbsl_generate()::text FROM generate_series(1, $1)
		UNION ALL SELECT 'uid11', uid11_generate_random()::text FROM generate_series(1, $1)
		UNION ALL SELECT 'scru160', scru160_generate()::text FROM generate_series(1, $1)
		UNION ALL SELECT 'uuid', uuid_v7_generate()::text FROM generate_series(1, $1)) s" >/dev/null
}
# verdicts NODE: per kind, "wrong/refused-42704/total" of decoding every form of `made`
verdicts() {
	qc "$1" "SELECT string_agg(t || ' ' || wrong || '/' || refused || '/' || total, ', ' ORDER BY t) FROM (
		SELECT t, count(*) FILTER (WHERE got NOT LIKE 'error%' AND got <> id) wrong,
		       count(*) FILTER (WHERE got = 'error 42704') refused, count(*) total
		FROM (SELECT t, id, try_from(t, form, 'orders') got FROM made) s GROUP BY t) s"
}
none_wrong() { # VERDICTS: no wrong decode, every form refused with 42704, N of each kind
	local v=$1
	[ "$v" = "scru160 0/$N/$N, tbsl 0/$N/$N, timeid 0/$N/$N, uid11 0/$N/$N, uuid 0/$N/$N" ]
}

# ---- 1. a retired version's forms, every kind ---------------------------------------------------------------
make_forms "$N"
write_keyring primary "orders 1 retired" "orders 2 $k2"
reload primary
v=$(verdicts primary)
check "1. version 1 retired, version 2 active: forms of version 1 decoded wrong/refused (42704)/made, per kind: $v" 'none_wrong "$v"' "$v"

# ---- 2. a removed line and a new version with its symbol ------------------------------------------------------
write_keyring primary "orders 1 $k1"
reload primary
make_forms "$N"
from=$(wc -l <"$work/primary.log")
write_keyring primary "orders 17 $k2"
reload primary
v=$(verdicts primary)
logged=$(tail -n +"$((from + 1))" "$work/primary.log" | grep -c 'keyring file "keyring", line 1: version 17 takes the symbol of version 1 of this key, which this server has loaded before')
right=$(qc primary "SELECT count(*) FILTER (WHERE try_from(t, form, 'orders') = id) || '/' || count(*) FROM made WHERE t <> 'uuid'")
# the uuid forms: refused, since the server remembers version 2 of section 1 (a public uuid names no version)
check "2. version 1's line removed, version 17 added: the reload refused naming line 1 ($logged logged), the last keyring kept: text forms $right decoded right; $v" \
	'[ "$logged" = 1 ] && [ "$right" = "$((4 * N))/$((4 * N))" ] && [[ $v == *"uuid 0/$N/$N" ]]' "$right / $v"
restart primary >/dev/null 2>&1 && ready_forms primary
v=$(verdicts primary)
state=$(qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
check "2. the same file at a restart (no good keyring kept by a clean restart): refused whole, no form decoded wrong: $v" \
	'[[ $state == *F0000*"line 1: version 17 takes the symbol of version 1"* ]] && [[ $v == *"uuid 0/0/$N" ]] && ! grep -Eq "(^| )[a-z0-9]+ [1-9][0-9]*/" <<<"$v"' "$state / $v"
# a retired line, a version of another symbol: accepted; version 1's forms refused, the new one's right
write_keyring primary "orders 1 retired" "orders 2 $k2"
reload primary
v=$(verdicts primary)
check "2. then version 1 retired, version 2 active: version 1's forms refused for every kind: $v" 'none_wrong "$v"' "$v"
# the standby: the memory reaches it through WAL (and pg_basebackup)
if make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null 2>&1 && start standby && ready standby &&
	ready_forms standby && wait_replay primary standby; then
	write_keyring standby "orders 17 $k2"
	from=$(wc -l <"$work/standby.log")
	reload standby
	logged=$(tail -n +"$((from + 1))" "$work/standby.log" | grep -c 'line 1: version 17 takes the symbol of version 1')
	v=$(verdicts standby)
	check "2. on a standby made by $how: version 17 in place of the remembered version 1 refused naming line 1 ($logged), no form decoded wrong: $v" \
		'[ "$logged" = 1 ] && ! grep -Eq "(^| )[a-z0-9]+ [1-9][0-9]*/" <<<"$v"' "$v"
	# a rotation on both, the standby a step behind: the primary's version 3 forms decode on the standby at step 1
	write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3"
	write_keyring standby "orders 1 retired" "orders 2 $k2" "orders 3 $k3 decrypt"
	reload primary
	reload standby
	sql primary -c "CREATE TABLE made3 AS SELECT t, id, to_form(t, id, 'orders') form FROM made WHERE t <> 'uuid'" && wait_replay primary standby
	right=$(qc standby "SELECT count(*) FILTER (WHERE try_from(t, form, 'orders') = id) || '/' || count(*) FROM made3")
	v=$(verdicts standby)
	check "2. rotating, the standby a step behind: the primary's new text forms decode on the standby ($right), version 1's refused there: $v" \
		'[ "$right" = "$((4 * N))/$((4 * N))" ] && [[ $v == *"timeid 0/$N/$N"* ]] && [[ $v == *"uuid 0/$N/$N"* ]]' "$right / $v"
	# a lock on pg_replication_origin held 8 s on the primary (replayed on the standby): the standby's worker, which
	# re-checks its keyring against the records every 2 s, waits for no lock there (waiting, it ended at its
	# lock_timeout of 5 s, and the forms were refused while it was away)
	from=$(wc -l <"$work/standby.log")
	sql primary -c "BEGIN" -c "LOCK pg_replication_origin IN ACCESS EXCLUSIVE MODE" -c "SELECT pg_sleep(8)" -c "COMMIT" >/dev/null &
	locker=$!
	for _ in $(seq 1 20); do # taken on the primary, then its WAL flushed (a commit) for the standby to replay
		[ "$(sql primary -c "SELECT count(*) FROM pg_locks WHERE relation = 'pg_replication_origin'::regclass AND mode = 'AccessExclusiveLock' AND granted")" = 1 ] && break
		sleep 0.1
	done
	sql primary -c 'SELECT txid_current()' >/dev/null
	seen=0
	for _ in $(seq 1 20); do # the lock replayed, held by the standby's startup process
		seen=$(sql standby -c "SELECT count(*) FROM pg_locks WHERE relation = 'pg_replication_origin'::regclass AND mode = 'AccessExclusiveLock' AND granted")
		[ "$seen" = 1 ] && break
		sleep 0.2
	done
	wait "$locker"
	wait_replay primary standby
	exits=$(tail -n +"$((from + 1))" "$work/standby.log" | grep -c 'canceling statement due to lock timeout')
	check "2. pg_replication_origin locked 8 s on the primary (held on the standby: $seen): the standby's worker ended $exits times" \
		'[ "$seen" = 1 ] && [ "$exits" = 0 ]' "$seen / $exits"
	# a version the standby loads before the primary does: refused there (55000, naming the primary) until the
	# primary's record of it, with the same key, replays; the primary then given ANOTHER key for it: the standby
	# refuses the file naming the line (its worker re-checks every 2 s while a version is pending), never a form
	sql primary -c "CREATE FUNCTION try_to(t text, id text, k text) RETURNS text LANGUAGE plpgsql AS \$\$
		BEGIN RETURN to_form(t, id, k); EXCEPTION WHEN OTHERS THEN RETURN 'error ' || SQLSTATE; END \$\$" >/dev/null
	wait_replay primary standby
	# standby_made KEY: the standby's try at 2,000 forms, as "form id" lines (errors as "error <SQLSTATE> id")
	standby_made() { sql standby -c "SELECT try_to('timeid', id, '$1') || ' ' || id FROM made WHERE t = 'timeid' LIMIT 2000"; }
	# decoded_on_primary KEY: forms the standby made, decoded on the primary: "wrong/made"
	decoded_on_primary() {
		sql primary -c "DROP TABLE IF EXISTS standby_forms" -c "CREATE TABLE standby_forms (form text, id text)" >/dev/null
		grep -v '^error' "$work/standby_forms" | tr ' ' '\t' | sql primary -c "COPY standby_forms FROM STDIN" >/dev/null
		qc primary "SELECT count(*) FILTER (WHERE try_from('timeid', form, '$1') <> id) || '/' || count(*) FROM standby_forms"
	}
	# wait_standby_log TEXT: up to 20 s for TEXT in the standby's log after line $from
	wait_standby_log() {
		for _ in $(seq 1 80); do
			tail -n +"$((from + 1))" "$work/standby.log" | grep -q "$1" && return 0
			sleep 0.25
		done
	}
	ka=$(openssl rand -hex 32)
	kb=$(openssl rand -hex 32)
	kc=$(openssl rand -hex 32)
	from=$(wc -l <"$work/standby.log")
	write_keyring standby "same 1 $kc"
	reload standby
	standby_made same >"$work/standby_forms"
	pending=$(grep -c '^error 55000 ' "$work/standby_forms")
	# said in the log and in pg_stat_activity (1.7 before: "1 key versions", usable, nothing waiting)
	told=$(tail -n +"$((from + 1))" "$work/standby.log" | grep -c 'on this standby, the versions of lines 1 wait for their primary')
	told=$told/$(sql standby -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes keyring' AND query LIKE '%(usable, 1 waiting for the primary''s record)'")
	said=$(qc standby "SELECT to_form('timeid', (SELECT id FROM made WHERE t = 'timeid' LIMIT 1), 'same')" | grep -c 'primary has not recorded it')
	as_uuid=$(err "$(qc standby "SELECT uuid_from_public(gen_random_uuid(), 'same')")")
	write_keyring primary "same 1 $kc"
	from=$(wc -l <"$work/standby.log")
	reload primary
	wait_replay primary standby
	wait_standby_log 'every version usable'
	standby_made same >"$work/standby_forms"
	wrong=$(decoded_on_primary same)
	check "2. a version loaded on the standby first: its forms refused there ($pending of 2000 55000, naming the primary: $said; uuid_from_public: $as_uuid; the line named in the log / pg_stat_activity: $told); once the primary loaded it (the same key) and its record replayed, the standby's forms decode on the primary, wrong/made: $wrong" \
		'[ "$pending" = 2000 ] && [ "$said" = 1 ] && [ "$as_uuid" = 55000 ] && [ "$told" = 1/1 ] && [ "$wrong" = 0/2000 ]' "$pending / $said / $as_uuid / $told / $wrong"
	# the primary gives a version the standby loaded first another key: the standby refuses its file naming the line
	write_keyring standby "same 1 $kc" "fresh 1 $ka"
	reload standby
	standby_made fresh >"$work/standby_forms"
	pending=$(grep -c '^error 55000 ' "$work/standby_forms")
	write_keyring primary "same 1 $kc" "fresh 1 $kb"
	from=$(wc -l <"$work/standby.log")
	reload primary
	wait_replay primary standby
	wait_standby_log 'line 2: version 1 of this key had another key'
	refused=$(tail -n +"$((from + 1))" "$work/standby.log" | grep -c 'line 2: version 1 of this key had another key')
	standby_made fresh >"$work/standby_forms"
	after=$(grep -vc '^error' "$work/standby_forms")
	wrong=$(decoded_on_primary fresh)
	check "2. a version loaded on the standby first ($pending of 2000 forms refused), the primary then given another key for it: the standby refuses its file naming line 2 ($refused); forms it made after: $after; decoded wrong on the primary: $wrong" \
		'[ "$pending" = 2000 ] && [ "$refused" -ge 1 ] && [ "$after" = 0 ] && [ "$wrong" = 0/0 ]' "$pending / $refused / $after / $wrong"
	# the primary's record of a version dropped after the standby replayed it (a superuser's
	# pg_replication_origin_drop: the primary forgets), then the primary given another key for that version: the
	# standby, still decoding with the first, refuses its file naming the line (1.7 before the fix: it re-checked
	# only while a version was pending, and decoded the primary's new forms, 2,000 of 2,000, to other IDs)
	kg=$(openssl rand -hex 32)
	kh=$(openssl rand -hex 32)
	records="SELECT roname FROM pg_replication_origin WHERE roname LIKE 'idtypes_keyring %' ORDER BY 1"
	sql primary -c "$records" >"$work/records_before"
	write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3" "gone 1 $kg"
	reload primary
	sql primary -c "$records" >"$work/records_after"
	record=$(comm -13 "$work/records_before" "$work/records_after")
	wait_replay primary standby
	write_keyring standby "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3" "gone 1 $kg"
	reload standby
	usable=$(standby_made gone | grep -vc '^error')
	sql primary -c "SELECT pg_replication_origin_drop('$record')" >/dev/null
	write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3" "gone 1 $kh"
	from=$(wc -l <"$work/standby.log")
	reload primary
	sql primary -c "CREATE TABLE made_gone AS SELECT id, to_form(t, id, 'gone') form FROM made WHERE t = 'timeid' LIMIT 2000" >/dev/null
	wait_replay primary standby
	wait_standby_log 'line 4: version 1 of this key had another key'
	refused=$(tail -n +"$((from + 1))" "$work/standby.log" | grep -c 'line 4: version 1 of this key had another key')
	wrong=$(qc standby "SELECT count(*) FILTER (WHERE try_from('timeid', form, 'gone') NOT IN (id, 'error F0000')) || '/' || count(*) FROM made_gone")
	check "2. a version usable on the standby ($usable of 2000 forms), its record dropped on the primary, the primary then given another key for it: the standby refuses its file naming line 4 ($refused); the primary's new forms decoded wrong on the standby: $wrong" \
		'[ "$usable" = 2000 ] && [ -n "$record" ] && [ "$refused" -ge 1 ] && [ "$wrong" = 0/2000 ]' "$usable / $record / $refused / $wrong"
	# under synchronous replication (synchronous_standby_names '*'), the standby cut off (its WAL receiver stopped):
	# a version the primary loads is used there only once the synchronous standbys confirm its record, so a
	# failover to the standby, which has that version pending with another key, cannot decode the primary's forms
	# under that key (1.7 before the fix: the worker committed locally, 200 forms made, 200 of 200 decoded wrong)
	kp=$(openssl rand -hex 32)
	ks=$(openssl rand -hex 32)
	write_keyring standby "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3" "lost 1 $ks"
	reload standby
	sql standby -c "ALTER SYSTEM SET primary_conninfo = ''" -c 'SELECT pg_reload_conf()' >/dev/null
	for _ in $(seq 1 80); do
		[ "$(sql primary -c 'SELECT count(*) FROM pg_stat_replication')" = 0 ] && break
		sleep 0.25
	done
	# once in effect, a commit waits (no standby confirms): sync_in_effect sees one waiting
	sql primary -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c 'SELECT pg_reload_conf()' >/dev/null
	in_effect=$(sync_in_effect primary yes && echo yes)
	before=$(generation primary)
	write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3" "lost 1 $kp"
	sql primary -c 'SELECT pg_reload_conf()' >/dev/null
	for _ in $(seq 1 80); do # the worker waits for the standbys, or (before the fix) published
		[ "$(sql primary -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'idtypes keyring' AND wait_event = 'SyncRep'")" = 1 ] && break
		[ "$(generation primary)" != "$before" ] && break
		sleep 0.25
	done
	waiting=$(sql primary -c "SELECT wait_event FROM pg_stat_activity WHERE backend_type = 'idtypes keyring'")
	sql primary -c "SELECT try_to('timeid', id, 'lost') || ' ' || id FROM made WHERE t = 'timeid' LIMIT 200" >"$work/standby_forms"
	made=$(grep -vc '^error' "$work/standby_forms")
	as_postgres "$bin/pg_ctl" -D "$work/standby" -w -s promote
	for _ in $(seq 1 40); do # the promoted standby's worker reads its file again as a primary's
		[ "$(sql standby -c "SELECT count(*) FROM idtypes_keys() WHERE name = 'lost'")" = 1 ] && break
		sleep 0.25
	done
	sql standby -c "DROP TABLE IF EXISTS standby_forms" -c "CREATE TABLE standby_forms (form text, id text)" >/dev/null
	grep -v '^error' "$work/standby_forms" | tr ' ' '\t' | sql standby -c "COPY standby_forms FROM STDIN" >/dev/null
	wrong=$(qc standby "SELECT count(*) FILTER (WHERE try_from('timeid', form, 'lost') <> id) || '/' || count(*) FROM standby_forms")
	sql primary -c "ALTER SYSTEM RESET synchronous_standby_names" -c 'SELECT pg_reload_conf()' >/dev/null
	check "2. synchronous replication ($in_effect), the standby cut off, a version loaded on the primary (the standby has it pending with another key): the worker waits ($waiting), forms made on the primary meanwhile: $made of 200; after a failover to the standby, decoded wrong: $wrong" \
		'[ "$in_effect" = yes ] && [ "$waiting" = SyncRep ] && [ "$made" = 0 ] && [ "$wrong" = 0/0 ]' "$waiting / $made / $wrong"
	write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3"
	reload primary
	stop standby
else
	fail "2. the standby did not start and catch up"
fi

# ---- 3. the worker, seen and loud ------------------------------------------------------------------------------
# docs/operations.md's check for a monitoring system (its first column: 0 when all is well)
monitor="$(sed -n '/^SELECT CASE WHEN NOT preloaded/,/^FROM idtypes_keyring_status();/p' "$here/../../docs/operations.md")"
seen=$(qc primary "SELECT backend_type || ': ' || query FROM pg_stat_activity WHERE backend_type = 'idtypes keyring'")
st=$(qc primary "SELECT worker_pid IS NOT NULL, generation > 0, usable, versions, file FROM idtypes_keyring_status()")
mon=$(qc primary "$monitor")
check "3. the worker in pg_stat_activity ($seen) and idtypes_keyring_status() ($st); the monitoring query of docs/operations.md says 0" \
	'[[ $seen == "idtypes keyring: keyring generation "*": 3 key versions (usable)" ]] && [ "$st" = "t|t|t|3|keyring" ] && [[ $mon == 0\|* ]]' "$seen / $st / $mon"
# docs/public-ids.md's wait after pg_reload_conf() (its sh block), run as written: it ends at the new generation
before=$(generation primary)
waited=$(sed -n '/^  ```sh$/,/^  ```$/p' "$here/../../docs/public-ids.md" | sed '1d;$d;s/^  //' |
	PGHOST=$work PGPORT=${port[primary]} PGUSER=postgres PGDATABASE=postgres timeout 60 bash 2>&1 | tail -1)
check "3. docs/public-ids.md's wait after pg_reload_conf(): it ended at generation ${waited%%|*} (before: $before), usable: $(cut -d"|" -f2 <<<"$waited")" \
	'[ "${waited%%|*}" -gt "$before" ] && [[ $waited == *"|t|"* ]]' "${waited%%|*}"
as_postgres "$bin/initdb" -D "$work/starved" -A trust -U postgres --no-sync >/dev/null || die "initdb starved"
write_keyring starved "orders 1 $k1"
settings=$(settings_for no "-c shared_preload_libraries=pg_prewarm,idtypes -c max_worker_processes=1 $base")
start starved || die "starved"
sql starved -c 'CREATE EXTENSION idtypes' >/dev/null
sleep 11 # past the 10 s a session waits for the worker after a start
refused=$(qc starved "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
st=$(qc starved "SELECT worker_pid IS NULL AND generation IS NULL FROM idtypes_keyring_status()")
mon=$(qc starved "$monitor")
check "3. every slot of max_worker_processes taken at start: the forms refused naming the worker (55000), the status says it never ran, the monitoring query 1" \
	'[[ $refused == *55000*"background worker has not started"* ]] && [ "$st" = t ] && [[ $mon == 1\|* ]]' "$refused / $st / $mon"
stop starved
settings=$(settings_for no "-c shared_preload_libraries=idtypes,pg_stat_statements $base")

# ---- 4. no byte of a key-like field in any message ------------------------------------------------------------
h1=${k1:0:32} h2=${k1:32}
shapes=(
	"$h1 $h2 decrypt" "orders 1 $h1 $h2" "$k1 1 $k2" "orders $k1 $k2" "orders 1 ${k1}0" "orders 1 ${k1:1}"
	"orders 1 ${k1:0:63}g" "orders 1 $k1 $k2" "orders 1 $k1 roles=$k2" "orders 1 $k1 databases=x$k2\""
	"orders 1 retired $k1" "${k1:0:63} 1 $k2" "orders 1 $k1 active roles=a databases=b $k2" "orders 1" "$k1"
	"orders 1 $k1 roles=${k2:0:40}"
)
for s in "${shapes[@]}"; do
	write_keyring primary "orders 2 $k2" "$s"
	reload primary
	qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')" >/dev/null
done
write_keyring primary "$h1 $h2 decrypt"
restart primary >/dev/null 2>&1 && ready_forms primary
at_start=$(qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
sql primary -c "SELECT query FROM pg_stat_statements" >"$work/statements.txt"
refusals=$(grep -c 'WARNING:  keyring file "keyring"' "$work/primary.log")
# every run of 16 hex digits in the log, the errors shown and the statements, against every file written
leaks=$(cat "$work/primary.log" "$work/shown" "$work/statements.txt" | grep -oiE '[0-9a-f]{16,}' | sort -u |
	while read -r run; do
		for ((i = 0; i + 16 <= ${#run}; i++)); do grep -qiF "${run:i:16}" "$all_files" && echo "${run:i:16}"; done
	done | sort -u | wc -l)
check "4. ${#shapes[@]} malformed shapes at reloads and one at a start ($refusals refusals logged; at start: $(err "$at_start")): 16 hex digits of the file in the log, DETAILs or pg_stat_statements: $leaks" \
	'[ "$leaks" = 0 ] && [ "$refusals" -ge "$((${#shapes[@]} + 1))" ] && [[ $at_start == *F0000*"line 1, field 1"* ]]' "$at_start"

# ---- 5. a crash restart keeps the last good keyring ----------------------------------------------------------
write_keyring primary "orders 1 retired" "orders 2 $k2"
reload primary
good=$(qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
MODE=640 write_keyring primary "orders 1 retired" "orders 2 $k2"
reload primary
data=$work/primary
PGHOST=$work PGPORT=${port[primary]} PGUSER=postgres PGDATABASE=postgres crash_a_backend && ready primary && ready_forms primary
after=$(qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
check "5. a file refused at a reload (mode 0640), then a crash restart: the last good keyring still makes the same form" \
	'[ -n "$good" ] && [ "$after" = "$good" ]' "$good / $after"

# ---- 6. scopes -------------------------------------------------------------------------------------------------
sql primary -c 'CREATE ROLE web LOGIN' -c "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO web" >/dev/null
from=$(wc -l <"$work/primary.log")
write_keyring primary "orders 1 retired" "orders 2 $k2 roles=web,ghost"
reload primary
warned=$(tail -n +"$((from + 1))" "$work/primary.log" | grep -c 'line 2: role "ghost" does not exist')
sql primary -c 'ALTER ROLE web RENAME TO web_old' -c 'CREATE ROLE web LOGIN' -c "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO web" >/dev/null
renamed=$(qc primary web_old "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
newcomer=$(err "$(qc primary web "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")")
reload primary
renamed_after=$(err "$(qc primary web_old "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")")
newcomer_after=$(qc primary web "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
check "6. roles=web,ghost: a WARNING names ghost ($warned); web renamed keeps the key until the reload, a new web gains it only then" \
	'[ "$warned" = 1 ] && [ "$renamed" = "$good" ] && [ "$newcomer" = 42704 ] && [ "$renamed_after" = 42704 ] && [ "$newcomer_after" = "$good" ]' \
	"$renamed / $newcomer / $renamed_after / $newcomer_after"
# a key pasted into roles= in chunks of 15 hex digits (no such roles): the WARNINGs name them by position only,
# and a roles= list none of whose names exists leaves the key to superusers (docs/public-ids.md)
kx=$(openssl rand -hex 32)
from=$(wc -l <"$work/primary.log")
write_keyring primary "orders 1 retired" "orders 2 $k2 roles=${kx:0:15},${kx:15:15},${kx:30:15},${kx:45:15}"
reload primary
logged=$(tail -n +"$((from + 1))" "$work/primary.log")
positions=$(grep -c 'line 2: role name [1-4] of roles= (not shown' <<<"$logged")
leaked=0
for i in $(seq 0 56); do grep -qi "${kx:i:8}" <<<"$logged" && leaked=$((leaked + 1)); done
by_super=$(qc primary "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
by_web=$(err "$(qc primary web "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")")
check "6. roles= of 4 chunks of 15 hex digits of a key, no such roles: WARNINGs by position ($positions of 4), runs of 8 hex digits of the key in the log: $leaked of 57; the key a superuser's only (superuser: $([ "$by_super" = "$good" ] && echo the form), web: $by_web)" \
	'[ "$positions" = 4 ] && [ "$leaked" = 0 ] && [ "$by_super" = "$good" ] && [ "$by_web" = 42704 ]' "$positions / $leaked / $by_super / $by_web"

# a key written as bytes (0x12,0x34,…: 32 names of 3 hex digits each) in roles=, and as 12:34:… (two names, runs
# of 2) in databases=: no name of either is shown by its text (1.7 before the fix: the whole key, in 34 WARNINGs)
kb=$(openssl rand -hex 32)
colons=$(sed 's/../&:/g;s/:$//' <<<"$kb")
from=$(wc -l <"$work/primary.log")
write_keyring primary "orders 1 retired" "orders 2 $k2 roles=$(sed 's/../0x&,/g;s/,$//' <<<"$kb") databases=${colons:0:48},${colons:48}"
reload primary
logged=$(tail -n +"$((from + 1))" "$work/primary.log" | grep 'line 2: \(role\|database\) .* does not exist')
positions=$(grep -c 'line 2: \(role name [0-9]* of roles=\|database name [12] of databases=\) (not shown' <<<"$logged")
shown=$(grep -o '"[^"]*" does not exist' <<<"$logged" | cut -d'"' -f2 | tr -cd '0-9a-f' | wc -c)
check "6. a key as roles=0x..,0x.. (32 names) and databases=..:..:.. (2 names), none a role or database: WARNINGs by position ($positions of 34), hex digits shown in names: $shown" \
	'[ "$positions" = 34 ] && [ "$shown" = 0 ]' "$positions / $shown"

# ---- 7. parallel workers at the leader's generation -------------------------------------------------------------
write_keyring primary "orders 1 retired" "orders 2 $k2"
reload primary
sql primary -c "CREATE TABLE same_id AS SELECT '3kxmtyqiinc23'::timeid AS id FROM generate_series(1, 300000)" -c "ANALYZE same_id" || die same_id
parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;"
plan=$(qc primary "$parallel EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT timeid_to_public(id, 'orders') FROM same_id")
# computed below the Gather: the scan's output is the form (PARALLEL RESTRICTED: the scan gives id, the leader converts)
in_workers=$(grep -A1 'Parallel Seq Scan' <<<"$plan" | grep -c 'Output: timeid_to_public')
forms=$(qc primary "$parallel SELECT count(DISTINCT f) || ' ' || min(f) FROM (SELECT timeid_to_public(id, 'orders') f FROM same_id) s")
check "7. a parallel scan converts in its workers (the form computed in the Parallel Seq Scan: $in_workers), one form: the leader's keyring" \
	'[[ $plan == *"Workers Launched: 2"* ]] && [ "$in_workers" = 1 ] && [ "$forms" = "1 $good" ]' "$forms / $plan"
# a database still on 1.5's catalog (its forms PARALLEL SAFE) under this library: converted in the workers too
sql primary -c 'CREATE DATABASE old15' >/dev/null
old=$(PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -h "$work" -p "${port[primary]}" -U postgres -d old15 2>&1 <<SQL
CREATE EXTENSION idtypes VERSION '1.5';
CREATE TABLE same_id AS SELECT '3kxmtyqiinc23'::timeid AS id FROM generate_series(1, 300000);
ANALYZE same_id;
$parallel
SELECT extversion FROM pg_extension WHERE extname = 'idtypes';
SELECT count(DISTINCT f) || ' ' || min(f) FROM (SELECT timeid_to_public(id, 'orders') f FROM same_id) s;
SQL
)
check "7. a database on 1.5's catalog (not updated): a parallel scan's forms made in the workers, the leader's keyring" \
	'[ "$old" = "1.5
1 $good" ]' "$old"
# rewritten and reloaded while parallel statements run: each statement gives one form
( for i in $(seq 1 30); do
	# the active version alternates (2, 3), so two generations give two forms (a version's key never changes:
	# version 2 given k3 would be refused, every other reload changing nothing)
	if [ $((i % 2)) = 0 ]; then write_keyring primary "orders 1 retired" "orders 2 $k2" "orders 3 $k3 decrypt"; else write_keyring primary "orders 1 retired" "orders 2 $k2 decrypt" "orders 3 $k3"; fi
	sql primary -c 'SELECT pg_reload_conf()' >/dev/null
	sleep 0.2
done ) &
storm=$!
mixed=0 ran=0
while kill -0 "$storm" 2>/dev/null; do
	n=$(qc primary "$parallel SELECT count(DISTINCT f) FROM (SELECT timeid_to_public(id, 'orders') f FROM same_id) s")
	ran=$((ran + 1))
	[ "$n" = 1 ] || mixed=$((mixed + 1))
done
wait "$storm"
check "7. 30 reloads between two active versions during $ran parallel statements of 300,000 conversions: $mixed statements with other than one form" \
	'[ "$mixed" = 0 ] && [ "$ran" -ge 5 ]' "$mixed"

# ---- 8. more than 128 versions -----------------------------------------------------------------------------------
lines=()
for i in $(seq 1 200); do lines+=("key$i 1 $(openssl rand -hex 32)"); done
write_keyring primary "${lines[@]}" "orders 1 retired" "orders 2 $k2"
reload primary
count=$(qc primary "SELECT count(*) FROM idtypes_keys()")
check "8. a keyring of 202 lines (1.6 held 128): every key usable ($count listed)" '[ "$count" = 201 ]' "$count"
# a file of 1,024 lines (the limit) leaves no room for a remembered version: its forms are still refused, the
# text form's DETAIL saying so (not "never loaded"), the uuid form's as a retired version's
kf=$(openssl rand -hex 32)
write_keyring primary "full 1 $kf"
reload primary
sql primary -c "DROP TABLE IF EXISTS made_full" -c "CREATE TABLE made_full AS SELECT id, timeid_to_public(id, 'full') form, uuid_to_public(u, 'full') uform
	FROM (SELECT timeid_generate() id, uuid_v7_generate() u FROM generate_series(1, 200)) s" >/dev/null
lines=()
for i in $(seq 1 1023); do lines+=("r$i 1 retired"); done
write_keyring primary "${lines[@]}" "full 2 $(openssl rand -hex 32)"
reload primary
text=$(qc primary "SELECT timeid_from_public(form, 'full') FROM made_full LIMIT 1")
wrong=$(qc primary "SELECT count(*) FILTER (WHERE try_from('timeid', form, 'full') NOT IN (id::text, 'error 42704')) + count(*) FILTER (WHERE try_from('uuid', uform::text, 'full') <> 'error 42704') || '/' || 2 * count(*) FROM made_full")
check "8. 1,024 lines, a remembered version left out: its forms refused (text: $(err "$text"), the DETAIL naming the limit: $(grep -c 'did not fit' <<<"$text")), wrong or not refused with 42704: $wrong" \
	'[ "$(err "$text")" = 42704 ] && [ "$(grep -c "did not fit" <<<"$text")" = 1 ] && [ "$wrong" = 0/400 ]' "$text / $wrong"

# ---- 9. a parallel worker's generation is its leader's, whatever a function's SET clause says ---------------------
# A function's SET clause applies in the parallel worker that runs it: idtypes.keyring_generation set there would
# take an older generation still kept (a retired version decoding again, a scope since narrowed). The worker takes
# the setting when its plan starts, and only a superuser may set it.
write_keyring primary "orders 2 $k2" "orders 3 $k3"
reload primary
older=$(generation primary)
sql primary -c "CREATE TABLE made_v3 AS SELECT id, timeid_to_public(id, 'orders') form FROM same_id LIMIT 2000" >/dev/null
write_keyring primary "orders 2 $k2" "orders 3 retired"
reload primary
forced="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET parallel_leader_participation = off; SET force_parallel_mode = on;"
[ "$(sql primary -c 'SHOW server_version_num')" -ge 160000 ] && forced=${forced/force_parallel_mode/debug_parallel_query}
sql primary -c "CREATE FUNCTION at_older(f text) RETURNS timeid LANGUAGE sql STABLE PARALLEL SAFE SET idtypes.keyring_generation = $older AS \$\$ SELECT timeid_from_public(f, 'orders') \$\$" >/dev/null
plan=$(qc primary "$forced EXPLAIN (COSTS OFF) SELECT count(*) FROM made_v3 WHERE at_older(form) IS NULL")
older_decoded=$(qc primary "$forced SELECT count(*) FILTER (WHERE at_older(form) = id) || '/' || count(*) FROM made_v3")
by_web=$(qc primary web "CREATE FUNCTION pg_temp.web_older(f text) RETURNS timeid LANGUAGE sql SET idtypes.keyring_generation = $older AS \$\$ SELECT timeid_from_public(f, 'orders') \$\$")
set_web=$(qc primary web "SET idtypes.keyring_generation = $older")
role_web=$(qc primary web "ALTER ROLE web SET idtypes.keyring_generation = $older")
check "9. a superuser's function SET idtypes.keyring_generation = $older (v3 active there, retired now) in a parallel worker: its forms refused ($(err "$older_decoded")), not decoded; web may not set it (function, SET, ALTER ROLE: $(err "$by_web") $(err "$set_web") $(err "$role_web"))" \
	'[[ $plan == *"Gather"* ]] && [ "$(err "$older_decoded")" = 42704 ] && [[ $older_decoded == *"made under version 3"*"parallel worker"* ]] && [ "$(err "$by_web")" = 42501 ] && [ "$(err "$set_web")" = 42501 ] && [ "$(err "$role_web")" = 42501 ]' \
	"$older_decoded / $by_web / $set_web / $role_web / $plan"

# ---- 10. every remembered version is read, however many there are -------------------------------------------------
# 4,096 records planted ahead of a key's own (a superuser may create origins; a server with many keys has as many):
# the worker reads them all, so a version taking the symbol of one read after them is still refused.
sql primary -c "SELECT count(pg_replication_origin_create('idtypes_keyring ' || substr(md5(g::text), 1, 16) || ' 1 ' || substr(md5((-g)::text), 1, 16))) FROM generate_series(1, 4096) g" >/dev/null
k4=$(openssl rand -hex 32)
k5=$(openssl rand -hex 32)
write_keyring primary "victim 1 $k4"
reload primary
sql primary -c "CREATE TABLE made_victim AS SELECT id, timeid_to_public(id, 'victim') form FROM same_id LIMIT 2000" >/dev/null
from=$(wc -l <"$work/primary.log")
write_keyring primary "victim 17 $k5"
reload primary
logged=$(tail -n +"$((from + 1))" "$work/primary.log" | grep -c 'line 1: version 17 takes the symbol of version 1 of this key')
wrong=$(qc primary "SELECT count(*) FILTER (WHERE try_from('timeid', form, 'victim') NOT IN (id::text, 'error 42704')) || '/' || count(*) FROM made_victim")
records=$(qc primary "SELECT count(*) FROM pg_replication_origin WHERE roname LIKE 'idtypes_keyring %'")
check "10. $records records, a key's version 1 recorded after 4,096 others: version 17 in its place refused naming line 1 ($logged); wrong decodes $wrong" \
	'[ "$logged" = 1 ] && [ "$wrong" = "0/2000" ] && [ "$records" -gt 4096 ]' "$logged / $wrong"

# ---- 11. a lock on pg_replication_origin does not leave a reload unread while forms go on --------------------------
# A session holding the catalog's lock (a superuser; from 17 on, a member of pg_maintain) kept the worker from
# reading a reload that retires a version, while every form still decoded with the keyring before it. The worker's
# wait ends at its lock_timeout (5 s): it ends, logged, and the forms are refused naming it.
write_keyring primary "victim 1 $k4"
reload primary
from=$(wc -l <"$work/primary.log")
locker=postgres
if [ "$(sql primary -c 'SHOW server_version_num')" -ge 170000 ]; then # a maintenance role, no superuser
	sql primary -c 'CREATE ROLE maint LOGIN IN ROLE pg_maintain' >/dev/null
	locker=maint
fi
psql -X -q -At -h "$work" -p "${port[primary]}" -U "$locker" -d postgres -c "BEGIN" \
	-c "LOCK pg_replication_origin IN ACCESS EXCLUSIVE MODE" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 80); do # the lock taken before the reload
	[ "$(sql primary -c "SELECT count(*) FROM pg_locks WHERE relation = 'pg_replication_origin'::regclass AND mode = 'AccessExclusiveLock' AND granted")" = 1 ] && break
	sleep 0.25
done
write_keyring primary "victim 1 retired"
sql primary -c 'SELECT pg_reload_conf()' >/dev/null
for _ in $(seq 1 80); do
	tail -n +"$((from + 1))" "$work/primary.log" | grep -q 'canceling statement due to lock timeout' && break
	sleep 0.25
done
timed_out=$(tail -n +"$((from + 1))" "$work/primary.log" | grep -c 'canceling statement due to lock timeout')
during=$(qc primary "SELECT count(*) FILTER (WHERE timeid_from_public(form, 'victim') = id) || '/' || count(*) FROM made_victim")
sql primary -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'" >/dev/null
wait "$holder"
ready_forms primary
after=$(qc primary "SELECT count(*) FILTER (WHERE timeid_from_public(form, 'victim') = id) || '/' || count(*) FROM made_victim")
check "11. the catalog locked by $locker, a reload retiring version 1: the worker's wait ended ($timed_out logged); version 1's forms meanwhile: $(err "$during"), once released: $(err "$after")" \
	'[ "$timed_out" -ge 1 ] && [[ $(err "$during") =~ ^(55000|42704)$ ]] && [ "$(err "$after")" = 42704 ]' "$during / $after"

# ---- 12. pg_upgrade ------------------------------------------------------------------------------------------------
# With idtypes preloaded in both clusters (as postgresql.conf has it), pg_upgrade runs: the worker, connected to
# idtypes.keyring_database (postgres), kept pg_restore from re-creating that database. Then the memory: the
# remembered versions are in pg_replication_origin, which pg_upgrade does not carry (and their digests are keyed
# by the old cluster's nonce). docs/upgrading.md's procedure: the file keeps a line for every version the old
# server loaded, retired ones included; the new server records them at its first reading, so a version taking
# a remembered symbol after the upgrade is still refused.
stop primary
if upgrade "$bin" "$bin" primary upgraded; then
	ok "12. pg_upgrade with idtypes preloaded in both clusters"
	write_keyring upgraded "victim 1 retired"
	start upgraded && ready upgraded && ready_forms upgraded
	# refused_upgraded LINE TEXT: LINE as the file, reloaded: how many times TEXT was logged, and the forms of
	# made_victim decoded wrong / all
	refused_upgraded() {
		local from
		from=$(wc -l <"$work/upgraded.log")
		write_keyring upgraded "$1"
		reload upgraded
		echo "$(tail -n +"$((from + 1))" "$work/upgraded.log" | grep -c "$2")" \
			"$(qc upgraded "SELECT count(*) FILTER (WHERE try_from('timeid', form, 'victim') NOT IN (id::text, 'error 42704')) || '/' || count(*) FROM made_victim")"
	}
	read -r logged wrong <<<"$(refused_upgraded "victim 17 $k5" 'line 1: version 17 takes the symbol of version 1 of this key')"
	check "12. after pg_upgrade, version 1's line kept retired (docs/upgrading.md), then version 17 in its place: refused ($logged logged); wrong decodes $wrong" \
		'[ "$logged" = 1 ] && [ "$wrong" = "0/2000" ]' "$logged / $wrong"
	# version 1, kept retired (its record: key unknown), given a key again, not the one it had on the old server
	# (which refused that): refused naming the line (1.7 before the fix: accepted, 2,000 of 2,000 decoded wrong)
	read -r logged wrong <<<"$(refused_upgraded "victim 1 $(openssl rand -hex 32)" 'line 1: version 1 of this key was first recorded retired')"
	check "12. after pg_upgrade, version 1 kept retired, then given another key than the old server's: refused ($logged logged); wrong decodes $wrong" \
		'[ "$logged" = 1 ] && [ "$wrong" = "0/2000" ]' "$logged / $wrong"
	stop upgraded
else
	fail "12. pg_upgrade with idtypes preloaded in both clusters"
fi

exit "$status"
