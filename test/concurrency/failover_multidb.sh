#!/usr/bin/env bash
# Failover with several databases never repeats an ID, whatever the order in which the databases generate,
# with no step asked of failover tooling (issue 42). In clusters of its own (test/concurrency/clusters.sh),
# with PostgreSQL's bin directory BIN_DIR, idtypes preloaded or not (PRELOAD yes|no), the fleet's
# configuration on both servers (as failover.sh: timeid_clock_id = 7, tbsl_machine_id = 7, require_identity):
# a primary with the databases da and db, each with idtypes, and its hot standby.
# - Case A, a database generating under another's mark: db issues one ID of every generator, right after it
#   (the same psql, within the 200 ms db's write reserved) da issues ROWS (2,000) of each in one statement;
#   the standby replays, the primary is killed, the standby promoted (pg_ctl promote, nothing of idtypes
#   run); da issues ROWS of each again, its clock set back two minutes behind its first IDs, then onto them.
# - Case B, another database first: da issues ROWS of each; failover as above; db issues first, its clock set
#   back onto da's first IDs.
# Each time: no ID of any generator in common with those the old primary issued (in either database), none
# twice; tbsl may refuse while its clock is behind (its clock error), never repeat. Prints `ok` / `FAIL`.
set -uo pipefail
bin=${1:?usage: failover_multidb.sh BIN_DIR yes|no}
preload=${2:?usage: failover_multidb.sh BIN_DIR yes|no}
rows=${IDTYPES_MULTIDB_ROWS:-2000}
source "$(dirname "$0")/server.sh"
source "$(dirname "$0")/clusters.sh"
settings=$(settings_for "$preload" "$fleet_identity -c idtypes.require_identity=on")
mode=$([ "$preload" = yes ] && echo preloaded || echo "loaded on demand")
source "$(dirname "$0")/ids.sh"

# pair NAME: the primary NAME-p with the databases da and db (idtypes in each) and its hot standby NAME-s
pair() {
	as_postgres "$bin/initdb" -D "$work/$1-p" -A trust -U postgres --no-sync >/dev/null || die "initdb"
	start "$1-p" || die "the primary does not start"
	sql "$1-p" -c 'CREATE DATABASE da' -c 'CREATE DATABASE db' && sql "$1-p" -d da -c 'CREATE EXTENSION idtypes' &&
		sql "$1-p" -d db -c 'CREATE EXTENSION idtypes' || die "the databases"
	make_standby "$work/$1-p" "$work/$1-s" "$work" "${port[$1-p]}" >/dev/null || die "a standby of the primary"
	start "$1-s" && ready "$1-s" || die "the standby does not start"
}
# promote NAME: the standby replays all, the primary is killed, the standby promoted
promote() {
	wait_replay "$1-p" "$1-s" || die "the standby did not replay the primary's WAL"
	failover "$1-p" "$1-s" && ok "$2: the primary killed, its standby ($how) promoted by pg_ctl, nothing of idtypes run" ||
		die "$2: promotion"
}

# Case A
label="case A ($mode): db under da's mark"
pair a
sql a-p -d db -c "$(every_generator a_db 1 tbsl)" -c '\c da' -c "$(every_generator a_da "$rows" tbsl)" || die "the old primary's IDs"
promote a "$label"
keep a-s db a_db a_old && keep a-s da a_da a_old || die "the replayed IDs"
first=$(first_issued a-s da a_da)
back=$(sql a-s -c "SELECT round(extract(epoch FROM clock_timestamp()) - $first, 1)")
generate_back a-s da a_2min "$rows" "$first" 120000 a_new "$label, da two minutes behind its first IDs"
generate_back a-s da a_land "$rows" "$first" 0 a_new "$label, da back onto its first IDs"
echo "     $label: da's clock set back $back s onto its first IDs, then two minutes further"
none_in_common a_old a_new "$label, after failover da generates with its clock behind"
stop a-s

# Case B
label="case B ($mode): db first after failover"
pair b
sql b-p -d da -c "$(every_generator b_da "$rows" tbsl)" || die "the old primary's IDs"
promote b "$label"
keep b-s da b_da b_old || die "the replayed IDs"
first=$(first_issued b-s da b_da)
back=$(sql b-s -c "SELECT round(extract(epoch FROM clock_timestamp()) - $first, 1)")
generate_back b-s db b_land "$rows" "$first" 0 b_new "$label, db back onto da's first IDs"
echo "     $label: db's clock set back $back s onto da's first IDs"
none_in_common b_old b_new "$label, after failover db generates first with its clock behind"
exit $status
