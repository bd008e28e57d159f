#!/usr/bin/env bash
# The docs (README.md, docs/, docs/internals/): every ```sql block runs against the running cluster (PGHOST
# etc. set; idtypes installed there), each page where its **Examples:** line says (a new database, the SQL
# edition, or another page's database), and the outputs it shows are psql's; the facts README and docs/
# share match the server; every relative link and #anchor resolves; the README stays within 1,500 words
# and links every page. test/docs/check.py says how.
# Prints one line per check, `ok`, `FAIL` or `skip`. Run by scripts/test.sh on PostgreSQL 15.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$root/test/docs/check.py" "$root" "${1:-all}"
