#!/usr/bin/env bash
# Interop checks against atproto's TypeScript TID code, run by scripts/test.sh against a running cluster
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

check "atproto-made TIDs parse to the same fields" parse_agrees
check "timeid_generate and make_timeid output passes isValidTid and atproto's reading" ours_valid
exit $status
