#!/usr/bin/env bash
# Interop checks against atproto's TypeScript TID code and the ULID spec's JavaScript ulid, run by scripts/test.sh against a running cluster
# with the extension installed (PGHOST etc. set). Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
status=0
check() { # name, then a command that must succeed
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then
		echo "ok   $name: ${out##*$'\n'}"
	else
		echo "FAIL $name"; printf '%s\n' "$out" | sed 's/^/     /' | tail -25
		status=1
	fi
}
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund || exit 1
psql_q -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS idtypes' >/dev/null || exit 1

atproto_made() {
	node tid.mjs make > /tmp/idtypes_atproto_tids.csv || return 1
	psql_q <<'SQL'
CREATE TEMP TABLE atproto (tid text, micros bigint, clock_id int);
\copy atproto FROM '/tmp/idtypes_atproto_tids.csv' (FORMAT csv)
SELECT CASE WHEN count(*) < 3000 THEN 'too few rows' END FROM atproto;
SELECT tid || ': PostgreSQL reads ' || timeid_micros(tid::timeid) || ' µs, clock ' || timeid_clock_id(tid::timeid)
FROM atproto
WHERE timeid_micros(tid::timeid) <> micros OR timeid_clock_id(tid::timeid) <> clock_id
   OR tid::timeid::text <> tid OR make_timeid(micros, clock_id) <> tid::timeid;
SQL
}

# every row is a disagreement; no output means agreement
parse_agrees() {
	local out
	out=$(atproto_made) || { echo "$out"; return 1; }
	[ -z "$out" ] || { echo "$out"; return 1; }
	echo "$(wc -l < /tmp/idtypes_atproto_tids.csv) atproto TIDs read alike"
}

ours_valid() {
	psql_q -F, <<'SQL' | node tid.mjs check
-- generated ones (isValidTid only), then constructed ones with their fields
SELECT timeid_generate() FROM generate_series(1, 2000);
SELECT timeid_generate(c) FROM generate_series(0, 1023) c;
SELECT t, timeid_micros(t), timeid_clock_id(t), timeid_to_dashed(t)
FROM (SELECT make_timeid(m, c) AS t
      FROM (VALUES (0::bigint), (1), (1125899906842624), (1721382046481000), (9007199254740991)) v(m),
           (VALUES (0), (1), (31), (32), (991), (992), (1023)) w(c)
      UNION ALL
      SELECT make_timeid((1125899906842624 + (hashint8(g) & 2147483647)::bigint * 3000000)::bigint, g % 1024)
      FROM generate_series(1, 3000) g) s;
SQL
}


# ULIDs: every text ulid makes or mutates, read by uuid_from_ulid; PostgreSQL must accept exactly the texts
# ulid's ulidToUUID accepts, with the same uuid (and time); every row is a disagreement
ulid_read() {
	node ulid.mjs make > /tmp/idtypes_ulids.csv || return 1
	local out
	out=$(psql_q <<'SQL'
CREATE TEMP TABLE ulids (text text, uuid uuid, ms bigint);
\copy ulids FROM '/tmp/idtypes_ulids.csv' (FORMAT csv)
CREATE FUNCTION pg_temp.read(t text) RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
	RETURN uuid_from_ulid(t);
EXCEPTION WHEN invalid_text_representation THEN
	RETURN NULL;
END $$;
SELECT CASE WHEN count(*) < 5000 OR count(uuid) < 3000 OR count(*) = count(uuid) THEN 'too few rows: ' || count(*) END
FROM ulids;
SELECT quote_literal(text) || ': ulid reads ' || coalesce(uuid::text, 'an error') || ', PostgreSQL '
       || coalesce(pg_temp.read(text)::text, 'an error')
FROM ulids
WHERE pg_temp.read(text) IS DISTINCT FROM uuid
   OR (uuid IS NOT NULL AND (uuid_to_ulid(uuid) <> upper(text)
                             OR (extract(epoch FROM uuid_v7_timestamp(uuid)) * 1000)::bigint <> ms));
SQL
) || { echo "$out"; return 1; }
	[ -z "$out" ] || { echo "$out" | head -20; return 1; }
	echo "$(wc -l < /tmp/idtypes_ulids.csv) texts ($(cut -d, -f2 /tmp/idtypes_ulids.csv | grep -c .) ULIDs) read alike"
}

ulid_written() {
	psql_q -F, <<'SQL' | node ulid.mjs check
SELECT u, uuid_to_ulid(u) FROM (
  SELECT gen_random_uuid() AS u FROM generate_series(1, 3000)
  UNION ALL SELECT uuid_v7_generate() FROM generate_series(1, 1000)
  UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
                   (uuid_v7_min('2026-11-28')), (uuid_v7_max('2026-11-28'))) s;
SQL
}

check "atproto-made TIDs parse to the same fields" parse_agrees
check "timeid_generate and make_timeid output passes isValidTid and atproto's reading" ours_valid
check "ULIDs made and mutated by ulid: uuid_from_ulid accepts what ulidToUUID does, with its uuid" ulid_read
check "uuid_to_ulid output passes ulid's isValid, uuidToULID and ulidToUUID" ulid_written
exit $status
