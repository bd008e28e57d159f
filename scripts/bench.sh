#!/usr/bin/env bash
# Every benchmark, from one entry point: `scripts/bench.sh SUBJECT [options]` runs bench/SUBJECT.sh, which
# prints Markdown for BENCHMARKS.md (each script's opening comment says what it measures, and its options).
# Not part of ./scripts/test.sh. With no subject, or options only, the subject is `types`.
set -euo pipefail
bench=$(cd "$(dirname "$0")/../bench" && pwd)

subjects() {
	cat <<'LIST'
types        idtypes against uuid, bigint, gen_random_uuid(), nextval(); the planner; the core (default; --pg 18)
generators   cost per ID in each place the state lives, the generator checks at full size (types runs it)
planning     instructions to parse, plan and run <@ and ^@ against the same bounds by hand (types runs it)
scale        cost as tables grow to 100M rows (--sizes, --max-rows, --pg, --out ...)
public       the keyed public forms against gen_random_uuid() and pgcrypto
sql_edition  the SQL edition against the PL/pgSQL UUIDv7 of blogs and the native edition
mark         what the generators' mark costs sessions, this tree against BENCH_BEFORE
key_record   the first uid11_generate_random() of a new key and a call's cost, this tree against BENCH_BEFORE
upgrade      the first ID after pg_upgrade with 1, 200 and 1,000 databases
citus        ID columns on Citus against a timestamptz column (--rows, --runs, --types)
adopt        adoption's backfill beside pgbench, against pgbench alone (BENCH_ROWS, BENCH_RATE, BENCH_SECONDS)
LIST
}

subject=types
case ${1:-} in
"" | -*) ;;
help | --help | -h) echo "usage: $0 [SUBJECT] [options]; subjects:"; subjects; exit 0 ;;
*) subject=$1; shift ;;
esac
if [[ ! $subject =~ ^[a-z_]+$ ]] || [ ! -f "$bench/$subject.sh" ]; then
	echo "$0: no benchmark named \"$subject\"; subjects:" >&2
	subjects >&2
	exit 2
fi
exec "$bench/$subject.sh" "$@"
