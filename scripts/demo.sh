#!/usr/bin/env bash
# Installs what is missing, builds and installs idtypes, starts a throwaway cluster, runs the demo
# (scripts/demo.sql) and stops the cluster.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_packages
build_and_install
cluster_start
trap cluster_stop EXIT
log "running scripts/demo.sql"
psql -X -v ON_ERROR_STOP=1 -f "$ROOT/scripts/demo.sql"

log "generators: one state for the whole server, so sessions one after another never repeat an ID"
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE TABLE batch (id timeid DEFAULT timeid_generate(), n int)"
for session in 1 2 3; do
	psql -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO batch (n) SELECT g FROM generate_series(1, 100000) g"
done
psql -X -v ON_ERROR_STOP=1 -c "SELECT count(*) AS ids_from_3_sessions, count(DISTINCT id) AS distinct_ids,
	idtypes_generator_mode() AS generator_state FROM batch"
