# shellcheck shell=bash
# shellcheck disable=SC2034 # here, status and work are the sourcing check's
# Shared by the checks of test/upgrade/ that run against a running cluster (PGHOST etc. set: run.sh,
# shapes.sh, attached.sh): source it first. Sets `here` (test/upgrade/), `work` (a temporary directory, removed
# at exit) and `status`; psql_q runs psql quietly, one value a line; ok and fail print a check's line.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
status=0
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
