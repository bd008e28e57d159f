# shellcheck shell=bash
# Shared by test/partitions/cron.sh and cron_connect.sh: source it (after nothing else). Sets status, ok,
# fail and q (psql, quiet, unaligned), PG_CONFIG (default: the system's 15), and installs pg_cron (Debian's
# postgresql-15-cron, if missing) into the installation PG_CONFIG names, or exits after a FAIL line.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
status=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; status=1; }
q() { PGOPTIONS="-c client_min_messages=warning ${PGOPTIONS_EXTRA:-}" psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

: "${PG_CONFIG:=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}"
install_missing "postgresql-$PG_MAJOR-cron" || { fail "installing postgresql-$PG_MAJOR-cron"; exit 1; }
# A private copy of the installation (scripts/lib.sh private_install) predates the package: give it pg_cron.
cp -n "/usr/lib/postgresql/$PG_MAJOR/lib/pg_cron.so" "$("$PG_CONFIG" --pkglibdir)/" 2>/dev/null
cp -n /usr/share/postgresql/"$PG_MAJOR"/extension/pg_cron* "$("$PG_CONFIG" --sharedir)/extension/" 2>/dev/null
