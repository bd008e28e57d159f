# shellcheck shell=bash
# Sourced by test/drivers/run.sh and test/orms/run.sh (after scripts/lib.sh): client programs run side by
# side, each in a database of its own copied from a template that holds the extension and samples.sql.
#   side_by_side_start NAME [DIR]   makes $tmp (in DIR, default $TMPDIR or /tmp), the template database
#                             idtypes_NAME_PID, and the cleanup at exit
#   client NAME BUILD CMD...  starts CMD (after the function BUILD, or :) with PGDATABASE set; its output
#                             goes to $tmp/NAME.out, its exit status and seconds to $tmp/NAME.rc
#   side_by_side_report       waits, prints each client's output and time in the order started, and a FAIL
#                             line for a client that stopped without saying why; returns 1 if any failed
tmp='' template='' dbs=() clients=() # set by side_by_side_start
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

side_by_side_start() {
	tmp=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/.run.XXXXXX")
	template=idtypes_$1_$$
	dbs=("$template")
	clients=()
	trap side_by_side_cleanup EXIT
	psql_q -d postgres -c "CREATE DATABASE $template" || { echo "FAIL creating database $template"; exit 1; }
	psql_q -d "$template" -c 'CREATE EXTENSION IF NOT EXISTS idtypes' -f "$ROOT/test/drivers/samples.sql" >/dev/null ||
		{ echo "FAIL creating the extension and the samples in $template"; exit 1; }
}

side_by_side_cleanup() {
	local db
	for db in "${dbs[@]}"; do psql_q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"; done
	rm -rf "$tmp"
}

# client NAME BUILD COMMAND...; a program may make databases named after its own with a suffix
# (activerecord_round.rb: ${PGDATABASE}_schema): they are dropped too
client() {
	local name=$1 build=$2 db=${template}_${1//-/_}
	shift 2
	clients+=("$name")
	dbs+=("$db" "${db}_schema")
	psql_q -d postgres -c "CREATE DATABASE $db TEMPLATE $template" || { echo "FAIL $name: creating $db" >"$tmp/$name.out"; echo 1 >"$tmp/$name.rc"; return; }
	(
		start=$SECONDS
		"$build" && PGDATABASE=$db timeout 600 "$@"
		echo $? $((SECONDS - start)) >"$tmp/$name.rc"
	) >"$tmp/$name.out" 2>&1 &
}

side_by_side_report() {
	local name rc seconds status=0
	wait
	for name in "${clients[@]}"; do
		cat "$tmp/$name.out"
		read -r rc seconds <"$tmp/$name.rc" || rc="no status"
		echo "($name: ${seconds:-?} s, with its build)"
		if [ "$rc" != 0 ]; then
			status=1
			grep -q '^FAIL' "$tmp/$name.out" || echo "FAIL $name: exited with status $rc"
		fi
	done
	return $status
}
