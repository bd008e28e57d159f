#!/usr/bin/env bash
# src/core/ff1 against @noble/ciphers' FF1 at the public forms' widths (63, 64, 80, 122, 160 bits) on random
# keys, tweaks and inputs: the vectors come from node (ff1_vectors.mjs), the core checks them
# (test/core/ff1_vectors.cpp, whose path is the argument). Run by CTest; prints `ok` or `FAIL` lines, or `skip`
# and exit status 77, which CTest reports as skipped (SKIP_RETURN_CODE), where node is missing.
set -uo pipefail
checker=$1
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "skip FF1 against @noble/ciphers: node or npm is missing"
	exit 77
fi
npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund || { echo "FAIL npm ci"; exit 1; }
vectors=$(node ff1_vectors.mjs "${IDTYPES_FF1_VECTORS:-200}") || { echo "FAIL node ff1_vectors.mjs"; exit 1; }
"$checker" <<<"$vectors"
