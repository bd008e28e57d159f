# `make installcheck` against a cluster with PostgreSQL's default settings (autovacuum on, fsync and
# synchronous_commit on), twice in a row against the same cluster (the second time without the bulk-data
# suites): the tests must not depend on the throwaway clusters' settings (cluster_start turns autovacuum
# off), nor on anything left by a previous run, such as the generators' state.
# Source it after lib.sh (it needs ROOT and PG_CONFIG, and the extension installed); don't run it.
# installcheck_default_cluster [DIR]: runs `make -C DIR installcheck` (default: the repository) twice.
# Prints pg_regress's per-test lines and one `ok   ...` or `FAIL ...` line per run (the head of
# regression.diffs after a failing one); returns non-zero if anything failed.

installcheck_default_cluster() {
	local tree=${1:-$ROOT}
	# a subshell: the caller's PGHOST, PGPORT, CLUSTER_DIR, traps and options stay as they are
	(
		set -u
		bindir=$("$PG_CONFIG" --bindir) || exit 1
		dir=$(mktemp -d /tmp/idtypes-default.XXXXXX) || { echo "FAIL installcheck on a default-settings cluster: mktemp"; exit 1; }
		started=
		cleanup() {
			if [ -n "$started" ]; then
				as_postgres "$bindir/pg_ctl" -D "$dir/data" -m fast -s -w stop >/dev/null 2>&1 ||
					as_postgres "$bindir/pg_ctl" -D "$dir/data" -m immediate -s stop >/dev/null 2>&1
			fi
			rm -rf "$dir"
		}
		trap cleanup EXIT
		trap 'exit 130' INT TERM
		chown postgres: "$dir" && chmod 755 "$dir" || exit 1
		fail_setup() {
			echo "FAIL installcheck on a default-settings cluster: $1"
			[ -f "$dir/log" ] && tail -20 "$dir/log"
			exit 1
		}

		# initdb's defaults only; the server gets nothing but its own port and socket directory
		as_postgres "$bindir/initdb" -D "$dir/data" >"$dir/initdb.log" 2>&1 ||
			{ cat "$dir/initdb.log"; fail_setup "initdb failed"; }
		port=
		for _ in 1 2 3 4 5; do # a random port, again if it happens to be taken
			port=$((20000 + RANDOM % 20000))
			if as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -s \
				-o "-p $port -k $dir -c listen_addresses=" start; then
				started=1
				break
			fi
			port=
		done
		[ -n "$port" ] || fail_setup "the server did not start"

		export PGHOST=$dir PGPORT=$port PGUSER=postgres
		unset PGDATABASE PGOPTIONS PGSERVICE
		status=0
		for run in 1 2; do # the second run: the suites that are not bulk data (light_suites)
			tests=
			[ "$run" = 2 ] && tests=$(light_suites "$tree")
			# psql: 15's for 17 and 18, which have none (regress_psql_bindir, lib.sh)
			out=$(pg_make -C "$tree" -s installcheck EXTRA_REGRESS_OPTS="--bindir=$(regress_psql_bindir)" \
				${tests:+"REGRESS=$tests"} 2>&1)
			rc=$?
			# 15 prints `test x ... ok`; 16 and later print TAP (`ok 3 - x`), indented here so that a
			# caller counting lines that start with `ok ` counts only the line per run
			grep -E '^(ok|not ok|test) ' <<<"$out" | sed -E 's/^((not )?ok [0-9]+ )/  \1/'
			if [ "$rc" = 0 ] && ! grep -qE '\.\.\. FAILED|^not ok ' <<<"$out" &&
				grep -qE '\.\.\. ok|^ok [0-9]+ ' <<<"$out"; then
				echo "ok   installcheck on a default-settings cluster (run $run)"
			else
				echo "FAIL installcheck on a default-settings cluster (run $run)"
				if [ -f "$tree/regression.diffs" ]; then
					head -200 "$tree/regression.diffs"
				else
					printf '%s\n' "$out" | tail -30
				fi
				status=1
			fi
		done
		exit "$status"
	)
}
