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
