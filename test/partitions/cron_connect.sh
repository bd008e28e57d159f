#!/usr/bin/env bash
# docs/partitioning.md's "How the job connects" and "When a run fails" (issue 60), in a throwaway cluster of
# its own with shared_preload_libraries = 'pg_cron,idtypes' (Debian's postgresql-15-cron, installed if
# missing), jobs run over connections (pg_cron's default, cron.use_background_workers off):
#  - the server without TCP (listen_addresses = '', as the throwaway clusters are) and cron.host left at its
#    default, localhost: the table owner's job fails, and the page's query on cron.job_run_details shows it,
#    `failed` with `connection failed`;
#  - cron.host set to the server's socket directory (with pg_hba's local trust line, as the page says): the
#    job scheduled before keeps its old connection and fails again; scheduled again, as the table's owner
#    (not a superuser), it succeeds and makes the partitions.
# A job is run at once by an '@reboot' schedule and a restart (Debian 12's pg_cron 1.4 has no seconds
# schedules). Needs PG_CONFIG (15, idtypes installed) and root. Prints `ok` / `FAIL` lines.
source "$(dirname "$0")/pg_cron.sh"

# the page's query for failed runs: the first plpgsql block after "When a run fails"
failed_runs=$(awk '/^\*\*When a run fails\*\*/ { f = 1 } f && /^```plpgsql/ { b = 1; next } b && /^```/ { exit } b' \
	"$ROOT/docs/partitioning.md")
[ -n "$failed_runs" ] || { fail "docs/partitioning.md has no query for failed runs after **When a run fails**"; exit 1; }

cluster_start shared_preload_libraries=pg_cron,idtypes cron.database_name=postgres ||
	{ fail "starting a cluster with pg_cron and idtypes preloaded"; exit 1; }
trap cluster_stop EXIT
q -c "CREATE EXTENSION pg_cron" -c "CREATE EXTENSION idtypes" -c "CREATE ROLE events_owner LOGIN" \
	-c "GRANT USAGE ON SCHEMA cron TO events_owner" -c "GRANT CREATE ON SCHEMA public TO events_owner" ||
	{ fail "pg_cron, idtypes and the table's owner"; exit 1; }
q -U events_owner -c "CREATE TABLE events (id timeid NOT NULL DEFAULT timeid_generate(), body text) PARTITION BY RANGE (id)" \
	-c "SELECT cron.schedule('partitions', '@reboot', \$\$SELECT idtypes_maintain_partitions('events', '1 day', 7, '90 days')\$\$)" >/dev/null ||
	{ fail "the owner's table and job"; exit 1; }

# restart; wait for the job's run to end; prints its status
run_at_restart() {
	runuser -u postgres -- "$("$PG_CONFIG" --bindir)/pg_ctl" -D "$CLUSTER_DIR/data" -w -s -m fast restart >/dev/null || return 1
	local before=$1 state=
	for _ in $(seq 1 60); do
		state=$(q -c "SELECT status FROM cron.job_run_details WHERE runid > $before ORDER BY runid DESC LIMIT 1" 2>/dev/null)
		case $state in succeeded | failed) break ;; esac
		sleep 0.5
	done
	echo "$state"
}
partitions() { q -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass"; }

state=$(run_at_restart 0)
shown=$(q -F'|' <<<"$failed_runs")
if [ "$state" = failed ] && [[ "$shown" == "partitions|failed|connection failed|"* ]] && [ "$(partitions)" = 0 ]; then
	ok "cron.host = localhost on a server without TCP: the job fails, and the page's query shows 'failed | connection failed'"
else
	fail "without TCP: status '$state', the page's query gave '$shown', $(partitions) partitions"
fi

# cron.host changed: the job scheduled before keeps its connection (it fails again), the job scheduled
# again takes the new one
last=$(q -c "SELECT coalesce(max(runid), 0) FROM cron.job_run_details")
q -c "ALTER SYSTEM SET cron.host = '$CLUSTER_DIR'" || fail "ALTER SYSTEM SET cron.host"
state=$(run_at_restart "$last")
[ "$state" = failed ] && ok "cron.host changed: the job scheduled before keeps its old connection, and fails again" ||
	fail "cron.host changed, the job scheduled before: status '$state' (the page says it keeps its old connection)"
q -U events_owner -c "SELECT cron.unschedule('partitions')" \
	-c "SELECT cron.schedule('partitions', '@reboot', \$\$SELECT idtypes_maintain_partitions('events', '1 day', 7, '90 days')\$\$)" >/dev/null ||
	fail "scheduling the job again"
last=$(q -c "SELECT coalesce(max(runid), 0) FROM cron.job_run_details")
state=$(run_at_restart "$last")
if [ "$state" = succeeded ] && [ "$(partitions)" = 8 ] && [ "$(q -c 'SHOW cron.host')" = "$CLUSTER_DIR" ]; then
	ok "cron.host = the socket directory (a local trust line): the owner's job succeeds, today's partition and 7 ahead made"
else
	fail "with cron.host at the socket directory: status '$state', $(partitions) partitions; $(q -c "SELECT return_message FROM cron.job_run_details ORDER BY runid DESC LIMIT 1")"
fi
exit $status
