#!/usr/bin/env bash
# Several sessions at once inserting rows whose primary key comes from a generator DEFAULT. Run by
# scripts/test.sh against a running cluster with the extension installed (PGHOST etc. set).
# Prints one line per check, `ok` or `FAIL`.
set -uo pipefail
clients=8
per_client=${IDTYPES_CONCURRENCY_ROWS:-5000}
status=0
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS idtypes' || exit 1

# name, column type, default expression
run() {
	local name=$1 type=$2 default=$3 script out rows
	psql_q -c "DROP TABLE IF EXISTS conc_$name" -c "CREATE TABLE conc_$name (id $type PRIMARY KEY DEFAULT $default, client int)" || return 1
	script=$(mktemp)
	echo "INSERT INTO conc_$name (client) VALUES (:client_id);" > "$script"
	if ! out=$(pgbench -n -c "$clients" -j 2 -t "$per_client" -f "$script" 2>&1); then
		echo "FAIL $name: $clients sessions inserting with DEFAULT $default"
		printf '%s\n' "$out" | grep -iE 'error|abort|duplicate' | head -5 | sed 's/^/     /'
		status=1
	else
		rows=$(psql_q -c "SELECT count(*) FROM conc_$name")
		if [ "$rows" = $((clients * per_client)) ]; then
			echo "ok   $name: $clients sessions inserted $rows rows with DEFAULT $default, no error"
		else
			echo "FAIL $name: expected $((clients * per_client)) rows, found $rows"
			status=1
		fi
	fi
	rm -f "$script"
}

run tbsl tbsl 'tbsl_generate()'
exit $status
