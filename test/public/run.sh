#!/usr/bin/env bash
# The keyed public forms with a keyring (docs/public-ids.md), in clusters of this check's own (pg_regress
# cannot configure its server: sql/public_ids.sql has the rest). Usage: run.sh BIN (the bin directory of the
# PostgreSQL under test, idtypes installed in it). Prints `ok` / `FAIL` lines.
#
# Known answers of every type (test/public/known_answers.txt, made by 1.5); round trips of every type and every
# width's edge values; a different key or key name gives a different form; 1,000,000 consecutive timeids and
# UUIDv7s give distinct forms whose order tells nothing; one keyring per reload (an edited file changes nothing
# until the reload, in new sessions and in a parallel query); a bad file at a reload keeps the last good keyring
# and is logged with its line (every kind of bad file, a FIFO included); a rotation by stages on a primary and
# its standby, to a retired version whose forms are refused; scopes (another database, another role: the same
# error as a key that does not exist); who sees the keyring's path, preloaded and not; no key byte in
# idtypes_keys(), the server log, pg_settings, pg_stat_statements or a pg_dump.
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../concurrency/server.sh
source "$here/../concurrency/server.sh"
# shellcheck source=../concurrency/clusters.sh
source "$here/../concurrency/clusters.sh"
settings=$(settings_for no "-c shared_preload_libraries=idtypes,pg_stat_statements -c max_wal_senders=4")

key_orders1=$(openssl rand -hex 32)
key_orders2=$(openssl rand -hex 32)
key_users1=$(openssl rand -hex 32)
keys_all=("$key_orders1" "$key_orders2" "$key_users1")

# write_keyring NAME LINE...: the keyring file of cluster NAME, 0600 and the server's, unless MODE is set
write_keyring() {
	local file=$work/$1/keyring
	shift
	rm -f "$file"
	printf '%s\n' "$@" >"$file"
	chown postgres: "$file"
	chmod "${MODE:-600}" "$file"
}
# the keyring's worker reads the file at the reload; it takes milliseconds
reload() { sql "$1" -c 'SELECT pg_reload_conf()' >/dev/null && sleep 0.6; }
# qc CLUSTER [ROLE [DATABASE]] SQL: one value, errors with their SQLSTATE on stdout
qc() {
	local name=$1 role=postgres db=postgres
	[ $# -ge 3 ] && role=$2
	[ $# -ge 4 ] && db=$3
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -v VERBOSITY=verbose -At -h "$work" -p "${port[$name]}" \
		-U "$role" -d "$db" -c "${!#}" 2>&1
}
q() { qc primary "$1"; }
log_lines() { wc -l <"$work/primary.log"; }

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
echo "idtypes.keyring = 'keyring'" >>"$work/primary/postgresql.conf"
write_keyring primary "# the public forms' keys" "orders 1 $key_orders1" "" "users 1 $key_users1" \
	"orders_copy 1 $key_orders1"
start primary || die "the primary does not start"
sql primary -c 'CREATE EXTENSION idtypes' -c 'CREATE EXTENSION pg_stat_statements' || die "CREATE EXTENSION"

# ---- known answers ------------------------------------------------------------------------------------------
# The forms idtypes 1.5 made (test/public/known_answers.txt): version 1 of orders active (version 2 present to
# decode only), then version 2 active; every form back to its ID under the keyring holding both.
ka_keys=$(sed -n 's/^# *\(keyring:\)\{0,1\} *\(orders\|users\) *\([0-9]*\) \([0-9a-f]\{64\}\)$/\2 \3 \4/p' "$here/known_answers.txt")
ka_key() { awk -v n="$1" -v v="$2" '$1 == n && $2 == v { print $3 }' <<<"$ka_keys"; }
known_answers() { # VERSION-OF-ORDERS: "bad of checked" for forms made (to_public) and decoded (from_public)
	local v=$1 sql_rows
	sql_rows=$(awk -v v="$v" '!/^#/ && NF == 5 && ($3 == "users" || $4 == v) {
		printf "%s(%s, %s, %s, %s)", (n++ ? "," : ""), "'\''" $1 "'\''", "'\''" $2 "'\''", "'\''" $3 "'\''", "'\''" $5 "'\''" }' \
		"$here/known_answers.txt")
	q "SELECT count(*) FILTER (WHERE made IS DISTINCT FROM form) || '/' || count(*) || ' ' ||
	          count(*) FILTER (WHERE back IS DISTINCT FROM id) || '/' || count(*)
	   FROM (VALUES $sql_rows) v(t, id, k, form),
	   LATERAL (SELECT CASE t WHEN 'timeid' THEN timeid_to_public(id::timeid, k) WHEN 'tbsl' THEN tbsl_to_public(id::tbsl, k)
	                   WHEN 'uid11' THEN uid11_to_public(id::uid11, k) WHEN 'scru160' THEN scru160_to_public(id::scru160, k)
	                   ELSE uuid_to_public(id::uuid, k)::text END AS made,
	                   CASE t WHEN 'timeid' THEN timeid_from_public(form, k)::text WHEN 'tbsl' THEN tbsl_from_public(form, k)::text
	                   WHEN 'uid11' THEN uid11_from_public(form, k)::text WHEN 'scru160' THEN scru160_from_public(form, k)::text
	                   ELSE (uuid_from_public_candidates(form::uuid, k))[CASE WHEN k = 'orders' THEN 3 - $v ELSE 1 END]::text END AS back) x"
}
# (in a cluster of their own: a server never takes another key under a version it has loaded)
as_postgres "$bin/initdb" -D "$work/answers" -A trust -U postgres --no-sync >/dev/null || die "initdb answers"
echo "idtypes.keyring = 'keyring'" >>"$work/answers/postgresql.conf"
write_keyring answers "orders 1 $(ka_key orders 1)" "orders 2 $(ka_key orders 2) decrypt" "users 7 $(ka_key users 7)"
start answers && sql answers -c 'CREATE EXTENSION idtypes' || die "the known answers' cluster"
q() { qc answers "$1"; }
ka1=$(known_answers 1)
write_keyring answers "orders 1 $(ka_key orders 1) decrypt" "orders 2 $(ka_key orders 2) active" "users 7 $(ka_key users 7)"
reload answers
ka2=$(known_answers 2)
check "known answers of every type as 1.5 made them: orders 1 (active) and users 7 ($ka1 wrong, made/decoded), then orders 2 active ($ka2)" \
	'[ "$ka1" = "0/32 0/32" ] && [ "$ka2" = "0/32 0/32" ]' "$ka1 / $ka2"
stop answers
q() { qc primary "$1"; }

# ---- round trips and separation ---------------------------------------------------------------------------
# Every type: generated IDs and each width's edge values (0, all ones, the largest TID, the largest TBSL, the
# UUIDv7s with all variable bits 0 or 1) come back; the form is not the ID and does not parse as its type.
round_trips() {
	sql primary <<'SQL'
CREATE TEMP TABLE ids (t text, id text, form text, back text, parses boolean);
INSERT INTO ids
SELECT 'timeid', id::text, f, timeid_from_public(f, 'orders')::text, timeid_or_null(f) IS NOT NULL
FROM (SELECT id, timeid_to_public(id, 'orders') f FROM (
	SELECT timeid_generate() id FROM generate_series(1, 2000)
	UNION ALL SELECT unnest('{2222222222222,2222222222223,bzzzzzzzzzzzz,c222222222222,jzzzzzzzzzzzz}'::timeid[])) s) s;
INSERT INTO ids
SELECT 'uid11', id::text, f, uid11_from_public(f, 'orders')::text, uid11_or_null(f) IS NOT NULL
FROM (SELECT id, uid11_to_public(id, 'orders') f FROM (
	SELECT uid11_generate_random() id FROM generate_series(1, 2000)
	UNION ALL SELECT unnest('{11111111111,11111111112,jpXCZedGfVQ}'::uid11[])) s) s;
INSERT INTO ids
SELECT 'tbsl', id::text, f, tbsl_from_public(f, 'orders')::text, tbsl_or_null(f) IS NOT NULL
FROM (SELECT id, tbsl_to_public(id, 'orders') f FROM (
	SELECT tbsl_generate() id FROM generate_series(1, 2000)
	UNION ALL SELECT unnest('{00000000000000000000,00000000000000000001,DE0B6B3A763FFFFFFFFF,DE0B6B3A763FFFF00000}'::tbsl[])) s) s;
INSERT INTO ids
SELECT 'scru160', id::text, f, scru160_from_public(f, 'orders')::text, scru160_or_null(f) IS NOT NULL
FROM (SELECT id, scru160_to_public(id, 'orders') f FROM (
	SELECT scru160_generate() id FROM generate_series(1, 2000)
	UNION ALL SELECT unnest('{00000000000000000000000000000000,VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV}'::scru160[])) s) s;
INSERT INTO ids
SELECT 'uuid', id::text, f::text, uuid_from_public(f, 'orders')::text, f::text = id::text
FROM (SELECT id, uuid_to_public(id, 'orders') f FROM (
	SELECT uuid_v7_generate() id FROM generate_series(1, 2000)
	UNION ALL SELECT unnest('{00000000-0000-7000-8000-000000000000,ffffffff-ffff-7fff-bfff-ffffffffffff}'::uuid[])) s) s;
-- every form back to its ID, none equal to it or parsing as the type, all distinct; uuid forms version 4
SELECT t || ': ' || count(*) FILTER (WHERE back IS DISTINCT FROM id OR parses OR form = id) || ' bad of ' || count(*)
       || ', ' || count(DISTINCT form) || ' distinct forms'
FROM ids GROUP BY t ORDER BY t;
SELECT 'uuid forms not version 4, variant 10: ' || count(*) FROM ids
WHERE t = 'uuid' AND (substr(form, 15, 1) <> '4' OR substr(form, 20, 1) NOT IN ('8', '9', 'a', 'b'));
-- a TBSL's public form is a TBSL (cycle-walking: the inner text parses as a tbsl)
SELECT 'tbsl forms whose inner text is no TBSL: ' || count(*) FROM ids WHERE t = 'tbsl' AND tbsl_or_null(substr(form, 2)) IS NULL;
-- a TID's form keeps the top bit 0, a timeid with it set keeps it set
SELECT 'timeid forms with the top bit changed: ' || count(*) FROM ids
WHERE t = 'timeid' AND (substr(id, 1, 1) > 'b') <> (substr(form, 2, 1) > 'b');
SQL
}
out=$(round_trips 2>&1)
expect="scru160: 0 bad of 2002, 2002 distinct forms
tbsl: 0 bad of 2004, 2004 distinct forms
timeid: 0 bad of 2005, 2005 distinct forms
uid11: 0 bad of 2003, 2003 distinct forms
uuid: 0 bad of 2002, 2002 distinct forms
uuid forms not version 4, variant 10: 0
tbsl forms whose inner text is no TBSL: 0
timeid forms with the top bit changed: 0"
check "round trips of every type, edge values included (0, all ones, largest TID and TBSL); forms distinct, never the ID, never parsing as the type" \
	'[ "$out" = "$expect" ]' "$out"

# the same key bytes under another name, another key, another type (timeid and uid11 of the same 64 bits)
sep=$(q "SELECT timeid_to_public(t, 'orders') <> timeid_to_public(t, 'orders_copy'),
                timeid_to_public(t, 'orders') <> timeid_to_public(t, 'users'),
                uuid_to_public(u, 'orders') <> uuid_to_public(u, 'orders_copy'),
                substr(timeid_to_public(t, 'orders'), 2) <> substr(timeid_to_public(t, 'orders_copy'), 2)
         FROM (SELECT '3kxmtyqiinc23'::timeid t, '01890a5d-ac96-774b-bcb1-11ea7a5b1d9a'::uuid u) s")
check "a different key name (same key bytes) or a different key gives a different form" '[ "$sep" = "t|t|t|t" ]' "$sep"

# ---- 1,000,000 consecutive IDs ----------------------------------------------------------------------------
# Order tells nothing: the rank of the ID against the rank of its form (the text in byte order) has a
# Spearman correlation near 0 (a random order: standard deviation 1/sqrt(n) = 0.001; accepted below 0.01),
# and the fraction of consecutive IDs whose forms are in order is near 1/2 (standard deviation 0.0005;
# accepted within 0.005). Both are far outside what they would be for forms that kept any order (1 and 1).
order_of() { # TYPE GENERATOR
	sql primary <<SQL
CREATE TEMP TABLE consecutive AS
SELECT n, id, ${1}_to_public(id, 'orders')::text COLLATE "C" AS form
FROM (SELECT n, $2 AS id FROM generate_series(1, 1000000) n) s;
SELECT count(DISTINCT id) || ' ' || count(DISTINCT form) || ' ' || count(*) FILTER (WHERE id_order <> n)
       || ' ' || round(corr(id_order, form_order)::numeric, 4)
       || ' ' || round(avg((next_form > form)::int), 4)
FROM (SELECT n, id, form, lead(form) OVER (ORDER BY id) AS next_form,
             rank() OVER (ORDER BY id) AS id_order, rank() OVER (ORDER BY form) AS form_order
      FROM consecutive) s;
SQL
}
for t in timeid:timeid_generate uuid:uuid_v7_generate; do
	got=$(order_of "${t%%:*}" "${t#*:}()" 2>&1)
	read -r ids forms out_of_order rho in_order <<<"$got"
	check "1,000,000 consecutive ${t%%:*}s (generated in order) give 1,000,000 distinct forms; rank correlation $rho, $in_order of neighbours' forms in order" \
		'[ "$ids" = 1000000 ] && [ "$forms" = 1000000 ] && [ "$out_of_order" = 0 ] && awk -v r="$rho" -v f="$in_order" "BEGIN { exit !(r < 0.01 && r > -0.01 && f > 0.495 && f < 0.505) }"' "$got"
done

# ---- one keyring per reload -------------------------------------------------------------------------------
# orders 2 made the active version in the file, no reload: a new session and every process of a parallel query (400,000 rows
# of one ID, workers launched) still make the form of the keyring the server read; after the reload, the new.
sql primary -c "CREATE TABLE same_id AS SELECT '3kxmtyqiinc23'::timeid AS id FROM generate_series(1, 400000)" \
	-c "ANALYZE same_id" || die "same_id"
before=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
write_keyring primary "orders 1 $key_orders1 decrypt" "orders 2 $key_orders2" "users 1 $key_users1" "orders_copy 1 $key_orders1"
# debug_parallel_query is 16's name for 15's force_parallel_mode
debug_parallel=$(q "SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END")
parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
          SET max_parallel_workers_per_gather = 2;"
forms=$(q "$parallel SELECT count(DISTINCT f) || ' ' || min(f) FROM (SELECT timeid_to_public(id, 'orders') f FROM same_id) s")
launched=$(q "$parallel EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
              SELECT timeid_to_public(id, 'orders') FROM same_id" | sed -n 's/.*Workers Launched: \([0-9]*\).*/\1/p')
debug=$(q "SET $debug_parallel = on; SELECT timeid_to_public(id, 'orders') FROM same_id LIMIT 1")
new_session=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
check "an edited file, not reloaded: a parallel query over 400,000 rows of one ID ($launched workers launched) gives one form, the old keyring's; so do $debug_parallel and a new session" \
	'[ "$forms" = "1 $before" ] && [ "${launched:-0}" -ge 1 ] && [ "$debug" = "$before" ] && [ "$new_session" = "$before" ]' \
	"$forms / $launched / $debug / $new_session / $before"
# a PARALLEL SAFE caller runs the form in the workers: with the leader's keyring, never one of the worker's own
sql primary -c "CREATE FUNCTION leaky(timeid) RETURNS text LANGUAGE plpgsql PARALLEL SAFE AS \$\$ BEGIN RETURN timeid_to_public(\$1, 'orders'); END \$\$" || die leaky
leaky=$(q "$parallel SET $debug_parallel = on; SELECT count(DISTINCT leaky(id)) || ' ' || min(leaky(id)) FROM same_id")
check "in parallel workers (a PARALLEL SAFE caller), the leader's keyring: one form, the old keyring's" \
	'[ "$leaky" = "1 $before" ]' "$leaky"
reload primary
after=$(q "$parallel SELECT count(DISTINCT f) || ' ' || min(f) FROM (SELECT timeid_to_public(id, 'orders') f FROM same_id) s")
check "after the reload, every process makes the new keyring's form" \
	'[ "${after%% *}" = 1 ] && [ "${after#* }" != "$before" ]' "$after"
write_keyring primary "orders 1 $key_orders1" "users 1 $key_users1" "orders_copy 1 $key_orders1"
reload primary

# ---- a bad file at a reload ------------------------------------------------------------------------------
# each: the file as given, reloaded: a WARNING naming the file and the line (no key byte), and the last good
# keyring still in use (orders version 1 still makes and decodes the same forms)
good_form=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
bad_reload() { # WHAT EXPECTED-WARNING-PART [LINES...]
	local what=$1 expected=$2 from got warning
	shift 2
	from=$(log_lines)
	write_keyring primary "$@"
	reload primary
	got=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders') || ' ' || timeid_from_public('$good_form', 'orders')")
	warning=$(tail -n +"$((from + 1))" "$work/primary.log" | grep -A1 'WARNING')
	check "a reload with $what: the last good keyring kept; logged: $expected" \
		'[ "$got" = "$good_form 3kxmtyqiinc23" ] && [[ $warning == *"WARNING:  keyring file \"keyring\""*"$expected"*"stays as it was before"* ]] && ! grep -qiF -e "$key_orders1" -e "$key_orders2" <<<"$warning"' \
		"$got / $warning"
}
bad_reload "a key of 63 hex digits" 'line 2, field 3: a key is 64 hexadecimal digits' \
	"orders 1 $key_orders1" "orders 2 ${key_orders2:1}"
bad_reload "too many fields" 'line 1: too many fields' "orders 1 $key_orders1 active databases=a roles=b x y"
bad_reload "a version that is no number" 'line 1, field 2: a version is a whole number' "orders one $key_orders1"
bad_reload "an unknown stage" 'line 1, field 4: neither a stage' "orders 1 $key_orders1 encrypt"
bad_reload "a second key on a line" 'line 1, field 4: neither a stage' "orders 1 $key_orders1 $key_orders2"
bad_reload "a duplicate version" 'line 2: version 1 of this key is on line 1 too' "orders 1 $key_orders1" "orders 1 $key_orders2"
bad_reload "versions sharing a symbol" 'line 2: versions 17 (here) and 1 (line 1) of this key have the same symbol' "orders 1 $key_orders1" "orders 17 $key_orders2"
bad_reload "a retired version's symbol taken again" 'line 2: versions 17 (here) and 1 (line 1) of this key have the same symbol' "orders 1 retired" "orders 17 $key_orders2"
bad_reload "a new key under a version loaded before" 'line 1: version 1 of this key had another key when this server loaded it before' "orders 1 $key_users1"
bad_reload "versions of one key with other scopes" 'line 2: the scope differs from line 1' \
	"orders 1 $key_orders1" "orders 2 $key_orders2 decrypt roles=web"
MODE=640 bad_reload "a file group may read (0640)" 'it has group or world access (mode 0640)' "orders 1 $key_orders1"
MODE=000 bad_reload "an unreadable file (0000)" 'cannot open it: Permission denied' "orders 1 $key_orders1"
rm -f "$work/primary/keyring"
from=$(log_lines)
reload primary
got=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
check "a reload with the file missing: the last good keyring kept, logged" \
	'[ "$got" = "$good_form" ] && tail -n +"$((from + 1))" "$work/primary.log" | grep -q "keyring file \"keyring\": cannot open it: No such file"' "$got"
as_postgres mkfifo "$work/primary/keyring"
from=$(log_lines)
started=$SECONDS
reload primary
got=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
write_keyring primary "orders 1 $key_orders1" "orders 2 $key_orders2 decrypt" "users 1 $key_users1"
reload primary
keys=$(q "SELECT string_agg(name || version || stage, ',' ORDER BY name, version) FROM idtypes_keys()")
check "a FIFO at the keyring's path: refused at once (not a regular file), the worker not stuck: the next reload reads the fixed file" \
	'[ "$got" = "$good_form" ] && tail -n +"$((from + 1))" "$work/primary.log" | grep -q "keyring file \"keyring\": it is not a regular file" && [ "$keys" = "orders1active,orders2decrypt,users1active" ] && [ $((SECONDS - started)) -lt 10 ]' \
	"$got / $keys"

# ---- scopes --------------------------------------------------------------------------------------------------
# users: database postgres, role web only. web2 has EXECUTE too; `other` is another database with idtypes.
sql primary -c 'CREATE ROLE web LOGIN' -c 'CREATE ROLE web2 LOGIN' -c 'CREATE ROLE nobody LOGIN' \
	-c 'CREATE ROLE reader LOGIN IN ROLE pg_read_all_settings' -c 'CREATE DATABASE other' || die "roles"
write_keyring primary "orders 1 $key_orders1" "users 1 $key_users1 databases=postgres roles=web"
reload primary
sql primary -d other -c 'CREATE EXTENSION idtypes' || die "other"
for db in postgres other; do
	sql primary -d "$db" -c "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO web, web2" || die "grant"
done
err() { sed -n 's/^ERROR:  \([0-9A-Z]*\): /\1 /p' <<<"$1" | head -1; }
web=$(qc primary web postgres "SELECT timeid_from_public(timeid_to_public('3kxmtyqiinc23', 'users'), 'users')")
web_keys=$(qc primary web postgres "SELECT string_agg(name, ',' ORDER BY name) FROM idtypes_keys()")
missing=$(err "$(qc primary web postgres "SELECT timeid_to_public('3kxmtyqiinc23', 'nosuchkey')")")
other_db=$(err "$(qc primary web other "SELECT timeid_to_public('3kxmtyqiinc23', 'users')")")
other_missing=$(err "$(qc primary web other "SELECT timeid_to_public('3kxmtyqiinc23', 'nosuchkey')")")
other_role=$(err "$(qc primary web2 postgres "SELECT timeid_to_public('3kxmtyqiinc23', 'users')")")
other_role_keys=$(qc primary web2 postgres "SELECT string_agg(name, ',' ORDER BY name) FROM idtypes_keys()")
check "a key scoped to database postgres and role web: web uses it there; in another database, and for web2 (EXECUTE granted), the same error as a key that does not exist, naming no version or file; idtypes_keys() lists only the keys the caller may use" \
	'[ "$web" = 3kxmtyqiinc23 ] && [ "$web_keys" = orders,users ] && [ "$other_db" = "${missing//nosuchkey/users}" ] && [ "$other_role" = "${missing//nosuchkey/users}" ] && [ "$other_missing" = "$missing" ] && [[ $missing == "42704 key \"nosuchkey\" does not exist" ]] && [ "$other_role_keys" = orders ]' \
	"$web / $web_keys / $missing / $other_db / $other_role / $other_role_keys"

# ---- privileges and the keyring's path ----------------------------------------------------------------------
nobody=$(qc primary nobody postgres "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
nobody_keys=$(qc primary nobody postgres "SELECT * FROM idtypes_keys()")
nobody_show=$(qc primary nobody postgres "SHOW idtypes.keyring")
nobody_path=$(qc primary nobody postgres "SELECT count(*) FROM pg_settings WHERE name = 'idtypes.keyring'")
reader_path=$(qc primary reader postgres "SHOW idtypes.keyring")
check "preloaded: a role without EXECUTE is refused and sees neither the keyring nor its path (SHOW, pg_settings) from its first statement; a pg_read_all_settings member sees the path" \
	'[[ $nobody == *"permission denied for function timeid_to_public"* ]] && [[ $nobody_keys == *"permission denied"* ]] && [[ $nobody_show == *42501* ]] && [ "$nobody_path" = 0 ] && [ "$reader_path" = keyring ]' \
	"$nobody / $nobody_keys / $nobody_show / $nobody_path / $reader_path"

# ---- no key byte anywhere ---------------------------------------------------------------------------------
sql primary -c "CREATE TABLE posts AS SELECT timeid_generate() id FROM generate_series(1, 10)" \
	-c "CREATE VIEW public_posts AS SELECT timeid_to_public(id, 'orders') AS public_id FROM posts" || die "posts"
as_postgres "$bin/pg_dump" -h "$work" -p "${port[primary]}" -U postgres -d postgres >"$work/dump.sql" || fail "pg_dump"
sql primary -c "SELECT * FROM pg_settings" >"$work/settings.txt"
sql primary -c "SELECT query FROM pg_stat_statements" >"$work/statements.txt"
sql primary -c "SELECT * FROM idtypes_keys()" >"$work/keys.txt"
seen=$(grep -liF -e "${keys_all[0]}" -e "${keys_all[1]}" -e "${keys_all[2]}" "$work/dump.sql" "$work/settings.txt" \
	"$work/statements.txt" "$work/primary.log" "$work/keys.txt")
calls=$(wc -l <"$work/statements.txt")
check "no key byte (hex, either case) in idtypes_keys(), the server log, pg_settings, pg_stat_statements ($calls statements) or a pg_dump" \
	'[ -z "$seen" ] && [ "$calls" -gt 10 ] && grep -q public_posts "$work/dump.sql" && [ -s "$work/primary.log" ] && [ -s "$work/keys.txt" ]' "found in: $seen"

# ---- a rotation by stages, on a primary and its standby -------------------------------------------------------
# The steps of docs/public-ids.md: (1) the new version on every node, decrypt only; (2) active on every node;
# (3) the old version retired. A standby that has not got step 2 yet decodes the primary's new forms.
write_keyring primary "orders 1 $key_orders1"
reload primary
sql primary -c "CREATE TABLE shown AS SELECT id, timeid_to_public(id, 'orders') AS form FROM posts" || die "shown"
both() { echo "$(qc primary "$1") $(qc standby "$1")"; }
if make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null 2>&1 && start standby && ready standby &&
	wait_replay primary standby; then
	decoded=$(qc standby "SELECT count(*) FILTER (WHERE timeid_from_public(form, 'orders') = id) || '/' || count(*) FROM shown")
	check "a standby made by $how, with the keyring its data directory carries, decodes what its primary encoded" \
		'[ "$decoded" = 10/10 ]' "$decoded"
	v1_form=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
	for node in primary standby; do write_keyring "$node" "orders 1 $key_orders1" "orders 2 $key_orders2 decrypt"; done
	reload primary
	reload standby
	step1=$(both "SELECT left(timeid_to_public('3kxmtyqiinc23', 'orders'), 1) || (SELECT string_agg(version || stage || current, ',' ORDER BY version) FROM idtypes_keys())")
	check "step 1, version 2 added as decrypt on both: both still make version 1's forms (symbol 3)" \
		'[ "$step1" = "31activetrue,2decryptfalse 31activetrue,2decryptfalse" ]' "$step1"
	write_keyring primary "orders 1 $key_orders1 decrypt" "orders 2 $key_orders2 active"
	reload primary
	v2_form=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
	early=$(qc standby "SELECT timeid_from_public('$v2_form', 'orders') || ' ' || timeid_from_public('$v1_form', 'orders')")
	write_keyring standby "orders 1 $key_orders1 decrypt" "orders 2 $key_orders2 active"
	reload standby
	step2=$(both "SELECT timeid_to_public('3kxmtyqiinc23', 'orders') || ' ' || timeid_from_public('$v1_form', 'orders')")
	check "step 2, version 2 active on the primary first: its new forms (symbol 4) decode on the standby still at step 1, and version 1's on both; then the standby makes the same forms" \
		'[ "${v2_form:0:1}" = 4 ] && [ "$early" = "3kxmtyqiinc23 3kxmtyqiinc23" ] && [ "$step2" = "$v2_form 3kxmtyqiinc23 $v2_form 3kxmtyqiinc23" ]' \
		"$v2_form / $early / $step2"
	write_keyring primary "orders 2 $key_orders2"
	write_keyring standby "orders 1 retired" "orders 2 $key_orders2"
	reload primary
	reload standby
	gone=$(both "SELECT timeid_from_public('$v1_form', 'orders')")
	still=$(both "SELECT timeid_from_public('$v2_form', 'orders')")
	uuid_one=$(qc standby "SELECT uuid_from_public(uuid_to_public('01890a5d-ac96-774b-bcb1-11ea7a5b1d9a', 'orders'), 'orders')")
	check "step 3, version 1 retired (line removed on the primary, marked retired on the standby): its forms refused (42704) on both, naming it; version 2's decode; uuid_from_public refuses (a public uuid names no version)" \
		'[[ $gone == *"42704"*"made under version 1 of key \"orders\", which is retired"*"42704"*"made under version 1 of key \"orders\", which is retired"* ]] && [ "$still" = "3kxmtyqiinc23 3kxmtyqiinc23" ] && [[ $uuid_one == *42704*"cannot tell whether a retired version"* ]]' \
		"$gone / $still / $uuid_one"
else
	fail "the standby did not start and catch up"
fi

# ---- uuid forms across a rotation -------------------------------------------------------------------------
write_keyring primary "orders 1 $key_orders1"
reload primary
old_uuid=$(sql primary -c "SELECT uuid_to_public('01890a5d-ac96-774b-bcb1-11ea7a5b1d9a', 'orders')" 2>&1)
write_keyring primary "orders 1 $key_orders1 decrypt" "orders 2 $key_orders2"
reload primary
ambiguous=$(q "SELECT uuid_from_public('$old_uuid', 'orders')")
candidates=$(q "SELECT array_length(uuid_from_public_candidates('$old_uuid', 'orders'), 1),
                       '01890a5d-ac96-774b-bcb1-11ea7a5b1d9a' = ANY (uuid_from_public_candidates('$old_uuid', 'orders'))")
check "two versions of a key present: uuid_from_public refuses, naming the versions it cannot choose between; uuid_from_public_candidates finds the ID" \
	'[[ $ambiguous == *"55000"*"cannot tell which version"*"versions 2 (active), 1 (decrypt)"*"uuid_from_public_candidates"* ]] && [ "$candidates" = "2|t" ]' \
	"$ambiguous / $candidates"

# ---- not preloaded ------------------------------------------------------------------------------------------
# The keyring needs idtypes preloaded: without it the forms are refused naming the setting. With no
# idtypes.keyring setting (the file idtypes.keyring in the data directory), no role can see a path.
settings=$(settings_for no)
as_postgres "$bin/initdb" -D "$work/plain" -A trust -U postgres --no-sync >/dev/null || die "initdb plain"
write_keyring plain "orders 1 $key_orders1"
mv "$work/plain/keyring" "$work/plain/idtypes.keyring"
start plain || die "plain"
sql plain -c 'CREATE EXTENSION idtypes' -c 'CREATE ROLE nobody LOGIN' || die "plain extension"
refused=$(qc plain "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
show=$(qc plain nobody postgres "SHOW idtypes.keyring")
check "not preloaded: the forms are refused naming shared_preload_libraries; with the keyring at its fixed place no setting shows a path to anyone" \
	'[[ $refused == *"55000"*"shared_preload_libraries"* ]] && [[ $show == *"unrecognized configuration parameter"* ]]' "$refused / $show"

exit "$status"
