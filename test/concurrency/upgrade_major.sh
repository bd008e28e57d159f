#!/usr/bin/env bash
# pg_upgrade across major versions keeps the generators above every ID (issue 42). In clusters of its own,
# OLD_BIN's PostgreSQL (18) and NEW_BIN's (19; both in 19's Debian root here, scripts/pgversions.sh's
# pg_ensure_root_old), each with idtypes installed, the fleet's identity (7, 7): a cluster of OLD_BIN with the
# databases da and db, each with idtypes; da issues ROWS (2,000) of every generator, then db as many. It is
# stopped and upgraded twice by pg_upgrade (copying, so the old cluster stays as it was) onto new clusters of
# NEW_BIN; in the first, db (the database that generated last) generates first, then da; in the second, da
# first, then db; each with its clock set back onto da's first IDs (idtypes.test_clock_offset). No ID of any
# generator in common with those issued before the upgrade, none twice (tbsl may refuse while its clock is
# behind). Prints `ok` / `FAIL` lines.
set -uo pipefail
old_bin=${1:?usage: upgrade_major.sh OLD_BIN NEW_BIN [yes|no]}
new_bin=${2:?usage: upgrade_major.sh OLD_BIN NEW_BIN [yes|no]}
preload=${3:-no}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
bin=$old_bin # clusters.sh's start, stop and make_standby use `bin`
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity")
source "$(dirname "$0")/ids.sh"
version() { as_postgres "$1/postgres" --version | sed 's/^postgres (PostgreSQL) //'; }
from=$(version "$old_bin") to=$(version "$new_bin")

as_postgres "$old_bin/initdb" -D "$work/old" -A trust -U postgres --no-sync >/dev/null || die "initdb ($from)"
start old || die "the cluster of $from does not start"
sql old -c 'CREATE DATABASE da' -c 'CREATE DATABASE db' && sql old -d da -c 'CREATE EXTENSION idtypes' &&
	sql old -d db -c 'CREATE EXTENSION idtypes' || die "the databases"
sql old -d da -c "$(every_generator u_da "$rows" tbsl)" -c '\c db' -c "$(every_generator u_db "$rows" tbsl)" ||
	die "the IDs issued on $from"
keep old da u_da old && keep old db u_db old || die "the IDs issued on $from"
first=$(first_issued old da u_da)
stop old || die "the cluster of $from does not stop"

# upgraded NAME FIRST_DB THEN_DB: pg_upgrade onto the cluster NAME; FIRST_DB generates first, then THEN_DB
upgraded() {
	local name=$1 one=$2 two=$3 label back
	bin=$new_bin
	upgrade "$old_bin" "$new_bin" old "$name" || { fail "pg_upgrade $from -> $to onto $name"; return; }
	start "$name" || { fail "the upgraded cluster $name does not start"; return; }
	label="pg_upgrade $from -> $to, $one generating first"
	ok "$label: upgraded (the mark file left behind: $([ -e "$work/$name/pg_idtypes_high_water" ] && echo copied || echo yes))"
	back=$(sql "$name" -c "SELECT round(extract(epoch FROM clock_timestamp()) - $first, 1)")
	generate_back "$name" "$one" "${name}_$one" "$rows" "$first" 0 "$name" "$label, its clock set back onto da's first IDs"
	generate_back "$name" "$two" "${name}_$two" "$rows" "$first" 0 "$name" "$label, then $two, its clock set back onto da's first IDs"
	echo "     $label: the clocks set back $back s onto da's first IDs"
	none_in_common old "$name" "$label"
	stop "$name"
}
upgraded up_db db da
upgraded up_da da db
exit $status
