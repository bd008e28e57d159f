#!/usr/bin/env bash
# Every type through two client drivers, as applications use them: node-postgres (npm `pg`, node_pg.mjs)
# and psycopg 3 (Debian's python3-psycopg, psycopg_test.py). Per driver and type: insert and select with
# parameters, `WHERE id = $1`, `id ^@ $1`, `id <@ tstzrange($1, $2)`, keyset pagination, binary results
# decoded by a parser registered by OID, binary parameters. Run by scripts/test.sh against a running cluster
# with the extension installed (PGHOST etc. set); works in a database of its own, dropped at the end.
# Installs what is missing (npm ci here; python3-psycopg from Debian). Prints `ok` / `FAIL` lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
export DEBIAN_FRONTEND=noninteractive
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
status=0

npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund || { echo "FAIL npm ci"; exit 1; }
if ! dpkg-query -W -f='${Status}' python3-psycopg 2>/dev/null | grep -q 'install ok installed'; then
	apt_out=$(apt-get update -qq 2>&1 && apt-get install -y -qq --no-install-recommends python3-psycopg 2>&1) ||
		{ echo "FAIL installing python3-psycopg"; printf '%s\n' "$apt_out" | tail -20; exit 1; }
fi

db=idtypes_drivers_$$
psql_q -d postgres -c "CREATE DATABASE $db" || { echo "FAIL creating database $db"; exit 1; }
trap 'psql_q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
psql_q -d "$db" -c 'CREATE EXTENSION IF NOT EXISTS idtypes' -f samples.sql >/dev/null ||
	{ echo "FAIL creating the extension and the samples in $db"; exit 1; }
export PGDATABASE=$db

# A driver script prints its own lines; one that stops without saying why gets a FAIL line here.
driver() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	if [ "$rc" != 0 ]; then
		status=1
		grep -q '^FAIL' <<<"$out" || echo "FAIL $name: exited with status $rc"
	fi
}
driver node-postgres node node_pg.mjs
# Debian's interpreter, which has python3-psycopg (a python3 earlier on PATH, e.g. pyenv's, would not)
driver psycopg /usr/bin/python3 psycopg_test.py
exit $status
