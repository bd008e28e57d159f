#!/usr/bin/env bash
# The keyed public forms with a keyring (docs/public-ids.md), in clusters of this check's own (pg_regress
# cannot configure its server: sql/public_ids.sql has the rest). Usage: run.sh BIN (the bin directory of the
# PostgreSQL under test, idtypes installed in it). Prints `ok` / `FAIL` lines.
#
# Round trips of every type and every width's edge values; a different key or key name gives a different
# form; 1,000,000 consecutive timeids and UUIDv7s give distinct forms whose order tells nothing; the keyring
# missing, unreadable, too open, malformed, with a duplicate version, an unknown key, a reload with a new
# version, the removal of an old one (also seen by a session that was open across the reload); no key byte in
# the server log, pg_settings, pg_stat_statements or a pg_dump; a role without EXECUTE refused; a standby with
# the same keyring decodes what its primary encoded.
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../concurrency/server.sh
source "$here/../concurrency/server.sh"
# shellcheck source=../concurrency/clusters.sh
source "$here/../concurrency/clusters.sh"
settings=$(settings_for no "-c shared_preload_libraries=pg_stat_statements -c max_wal_senders=4")

key_orders1=$(openssl rand -hex 32)
key_orders2=$(openssl rand -hex 32)
key_users1=$(openssl rand -hex 32)
keys_all=("$key_orders1" "$key_orders2" "$key_users1")

# write_keyring NAME LINE...: the keyring file of cluster NAME, 0600 and the server's, unless MODE is set
write_keyring() {
	local name=$1 file=$work/$1/keyring
	shift
	printf '%s\n' "$@" >"$file"
	chown postgres: "$file"
	chmod "${MODE:-600}" "$file"
}
reload() { sql "$1" -c 'SELECT pg_reload_conf()' >/dev/null && sleep 0.3; }
# q SQL: one value from the primary, errors with their SQLSTATE on stdout
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v VERBOSITY=verbose -At -h "$work" -p "${port[primary]}" -U postgres -d postgres -c "$1" 2>&1; }

as_postgres "$bin/initdb" -D "$work/primary" -A trust -U postgres --no-sync >/dev/null || die "initdb"
echo "idtypes.keyring = 'keyring'" >>"$work/primary/postgresql.conf"
write_keyring primary "# the public forms' keys" "orders 1 $key_orders1" "" "users 1 $key_users1" \
	"orders_copy 1 $key_orders1"
start primary || die "the primary does not start"
sql primary -c 'CREATE EXTENSION idtypes' -c 'CREATE EXTENSION pg_stat_statements' || die "CREATE EXTENSION"

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

# ---- rotation ---------------------------------------------------------------------------------------------
old_form=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
old_uuid=$(q "SELECT uuid_to_public('01890a5d-ac96-774b-bcb1-11ea7a5b1d9a', 'orders')")
# a session open across the reload sees the new keyring too
across=$(PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -h "$work" -p "${port[primary]}" -U postgres -d postgres 2>&1 <<SQL
SELECT left(timeid_to_public('3kxmtyqiinc23', 'orders'), 1);
\! printf 'orders 1 $key_orders1\norders 2 $key_orders2\nusers 1 $key_users1\n' > '$work/primary/keyring'
SELECT pg_reload_conf() \g /dev/null
SELECT pg_sleep(0.5) \g /dev/null
SELECT left(timeid_to_public('3kxmtyqiinc23', 'orders'), 1);
SQL
)
check "a session open across a reload makes its forms with the new version (2, symbol 4) from then on" \
	'[ "$across" = $'"'"'3\n4'"'"' ]' "$across"
reload primary
new_form=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
rot=$(q "SELECT timeid_from_public('$old_form', 'orders') = '3kxmtyqiinc23' AND timeid_from_public('$new_form', 'orders') = '3kxmtyqiinc23',
                (SELECT string_agg(name || version || current, ',' ORDER BY name, version) FROM idtypes_keys()),
                uuid_from_public('$old_uuid', 'orders') <> '01890a5d-ac96-774b-bcb1-11ea7a5b1d9a',
                (uuid_from_public_candidates('$old_uuid', 'orders'))[2] = '01890a5d-ac96-774b-bcb1-11ea7a5b1d9a',
                array_length(uuid_from_public_candidates('$old_uuid', 'orders'), 1)")
check "after a reload with version 2: new forms start with its symbol, version 1's still decode; idtypes_keys() shows both; old uuid forms resolve through uuid_from_public_candidates" \
	'[ "${old_form:0:1}" = 3 ] && [ "${new_form:0:1}" = 4 ] && [ "$rot" = "t|orders1false,orders2true,users1true|t|t|2" ]' "$old_form $new_form $rot"
write_keyring primary "orders 2 $key_orders2" "users 1 $key_users1"
reload primary
gone=$(q "SELECT timeid_from_public('$old_form', 'orders')")
still=$(q "SELECT timeid_from_public('$new_form', 'orders')")
check "version 1 removed: its forms fail with an error naming the version, version 2's still decode" \
	'[[ $gone == *"42704"*"key \"orders\" has no version 1 in the keyring file \"keyring\""* ]] && [ "$still" = 3kxmtyqiinc23 ]' "$gone / $still"

# ---- an unusable keyring ----------------------------------------------------------------------------------
# each: the keyring as given, then the error every use gives, naming the file and the key
unusable() { # WHAT EXPECTED-ERROR-PART [LINES...]
	local what=$1 expected=$2
	shift 2
	write_keyring primary "$@"
	reload primary
	local got
	got=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
	check "$what: $expected" '[[ $got == *"cannot use key \"orders\": the keyring file \"keyring\" is unusable"*"$expected"* ]] && ! grep -qiF -e "$key_orders1" -e "$key_orders2" <<<"$got"' "$got"
}
unusable "malformed (a key of 63 hex digits)" 'Line 2: the key of "orders" version 3 is not 64 hexadecimal digits' \
	"users 1 $key_users1" "orders 3 ${key_orders2:1}"
unusable "malformed (too many fields)" 'Line 1 has too many fields' "orders 1 $key_orders1 extra"
unusable "malformed (a version that is no number)" 'Line 1: the version of key "orders" is not a whole number' "orders one $key_orders1"
unusable "a duplicate version" 'Line 2: key "orders" version 1 appears twice' "orders 1 $key_orders1" "orders 1 $key_orders2"
unusable "versions a form's symbol cannot tell apart" 'versions 1 and 17' "orders 1 $key_orders1" "orders 17 $key_orders2"
MODE=640 unusable "too open (0640)" 'It has group or world access (mode 0640)' "orders 1 $key_orders1"
MODE=604 unusable "too open (0604)" 'It has group or world access (mode 0604)' "orders 1 $key_orders1"
MODE=000 unusable "unreadable (0000)" 'The file cannot be opened: Permission denied' "orders 1 $key_orders1"
rm -f "$work/primary/keyring"
reload primary
got=$(q "SELECT timeid_from_public('$new_form', 'orders')")
check "missing: an error naming the key, the file and why" \
	'[[ $got == *"F0000"*"cannot use key \"orders\": the keyring file \"keyring\" is unusable"*"No such file or directory"* ]]' "$got"
write_keyring primary "orders 2 $key_orders2" "users 1 $key_users1"
reload primary
got=$(q "SELECT timeid_to_public('3kxmtyqiinc23', 'invoices')")
check "an unknown key: 42704 naming the key and the file" \
	'[[ $got == *"42704"*"key \"invoices\" is not in the keyring file \"keyring\""* ]]' "$got"
again=$(q "SELECT timeid_from_public('$new_form', 'orders')")
check "fixed and reloaded: the forms decode again" '[ "$again" = 3kxmtyqiinc23 ]' "$again"

# ---- privileges -------------------------------------------------------------------------------------------
sql primary -c 'CREATE ROLE web LOGIN' -c 'CREATE ROLE nobody LOGIN' -c 'GRANT EXECUTE ON FUNCTION timeid_to_public(timeid, text), timeid_from_public(text, text) TO web' || die "roles"
as_role() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -h "$work" -p "${port[primary]}" -U "$1" -d postgres -c "$2" 2>&1; }
web=$(as_role web "SELECT timeid_from_public(timeid_to_public('3kxmtyqiinc23', 'orders'), 'orders')")
nobody=$(as_role nobody "SELECT timeid_to_public('3kxmtyqiinc23', 'orders')")
nobody_keys=$(as_role nobody "SELECT * FROM idtypes_keys()")
nobody_path=$(as_role nobody "SELECT count(*) FROM pg_settings WHERE name = 'idtypes.keyring'")
check "a role granted EXECUTE uses the forms; a role without it is refused, and sees neither the keyring nor its path" \
	'[ "$web" = 3kxmtyqiinc23 ] && [[ $nobody == *"permission denied for function timeid_to_public"* ]] && [[ $nobody_keys == *"permission denied"* ]] && [ "$nobody_path" = 0 ]' \
	"$web / $nobody / $nobody_keys / $nobody_path"

# ---- no key byte anywhere ---------------------------------------------------------------------------------
sql primary -c "CREATE TABLE posts AS SELECT timeid_generate() id FROM generate_series(1, 10)" \
	-c "CREATE VIEW public_posts AS SELECT timeid_to_public(id, 'orders') AS public_id FROM posts" || die "posts"
as_postgres "$bin/pg_dump" -h "$work" -p "${port[primary]}" -U postgres -d postgres >"$work/dump.sql" || fail "pg_dump"
sql primary -c "SELECT * FROM pg_settings" >"$work/settings.txt"
sql primary -c "SELECT query FROM pg_stat_statements" >"$work/statements.txt"
seen=$(grep -liF -e "${keys_all[0]}" -e "${keys_all[1]}" -e "${keys_all[2]}" "$work/dump.sql" "$work/settings.txt" \
	"$work/statements.txt" "$work/primary.log")
calls=$(wc -l <"$work/statements.txt")
check "no key byte (hex, either case) in the server log, pg_settings, pg_stat_statements ($calls statements) or a pg_dump" \
	'[ -z "$seen" ] && [ "$calls" -gt 10 ] && grep -q public_posts "$work/dump.sql" && [ -s "$work/primary.log" ]' "found in: $seen"

# ---- a standby --------------------------------------------------------------------------------------------
sql primary -c "CREATE TABLE shown AS SELECT id, timeid_to_public(id, 'orders') AS form FROM posts" || die "shown"
if make_standby "$work/primary" "$work/standby" "$work" "${port[primary]}" >/dev/null 2>&1 && start standby && ready standby &&
	wait_replay primary standby; then
	decoded=$(sql standby -c "SELECT count(*) FILTER (WHERE timeid_from_public(form, 'orders') = id) || '/' || count(*) FROM shown")
	check "a standby made by $how, with the keyring its data directory carries, decodes what its primary encoded" \
		'[ "$decoded" = 10/10 ]' "$decoded"
else
	fail "the standby did not start and catch up"
fi

exit "$status"
