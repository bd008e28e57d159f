#!/usr/bin/env bash
# Time partitions kept by a scheduler, and by sessions at once. In a throwaway cluster of its own with
# shared_preload_libraries = 'pg_cron,idtypes' (Debian's postgresql-15-cron, installed if missing):
#  - pg_cron accepts docs/partitioning.md's job, and a scheduled idtypes_maintain_partitions run creates the
#    partitions and drops the old ones. Debian 12's pg_cron is 1.4, whose shortest schedule is a minute
#    (seconds schedules came with 1.5), so the run checked here is an '@reboot' job and a restart: the same
#    scheduler, background worker and command as a cron-timed job, in seconds rather than up to a minute.
#  - four sessions maintaining the same table at once create each partition exactly once, without error;
#  - a run is neither blocked by a reader's open transaction nor blocks readers and writers (lock_timeout).
# Needs PG_CONFIG (the PostgreSQL 15 with idtypes installed; pg_cron is copied into it if it is a private
# copy) and root. Prints one line per check, `ok` or `FAIL`.
source "$(dirname "$0")/pg_cron.sh"

# Jobs run in background workers: no connection settings (cron.host) needed for a socket-only cluster.
cluster_start shared_preload_libraries=pg_cron,idtypes cron.database_name=postgres cron.use_background_workers=on ||
	{ fail "starting a cluster with pg_cron and idtypes preloaded"; exit 1; }
trap cluster_stop EXIT

# docs/partitioning.md's job, and an @reboot job running the same maintenance, on a table with a partition 100 days
# old that the job must drop (keep '90 days').
q -c "CREATE EXTENSION pg_cron" -c "CREATE EXTENSION idtypes" \
	-c "CREATE TABLE events (id timeid NOT NULL DEFAULT timeid_generate(), body text) PARTITION BY RANGE (id)" \
	-c "CREATE TABLE events_old PARTITION OF events FOR VALUES FROM (timeid_min(now() - interval '101 days'))
		TO (timeid_min(now() - interval '100 days'))" ||
	{ fail "pg_cron and idtypes in one database"; exit 1; }
job=$(q -c "SELECT cron.schedule('partitions', '*/10 * * * *', \$\$SELECT idtypes_maintain_partitions('events', '1 day', 7, '90 days')\$\$)") &&
	[ "$(q -c "SELECT schedule || ' ' || command FROM cron.job WHERE jobid = $job")" = \
		"*/10 * * * * SELECT idtypes_maintain_partitions('events', '1 day', 7, '90 days')" ] &&
	ok "pg_cron $(q -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_cron'") accepts the README's job (every 10 minutes)" ||
	fail "pg_cron did not take the README's job"
q -c "SELECT cron.schedule('partitions-now', '@reboot', \$\$SELECT idtypes_maintain_partitions('events', '1 day', 7, '90 days')\$\$)" >/dev/null

start=$(date +%s)
runuser -u postgres -- "$("$PG_CONFIG" --bindir)/pg_ctl" -D "$CLUSTER_DIR/data" -w -s -m fast restart >/dev/null ||
	{ fail "restarting the cluster"; exit 1; }
state=
for _ in $(seq 1 40); do
	state=$(q -c "SELECT d.status FROM cron.job_run_details d JOIN cron.job j USING (jobid)
		WHERE j.jobname = 'partitions-now' ORDER BY d.runid DESC LIMIT 1" 2>/dev/null)
	case $state in succeeded | failed) break ;; esac
	sleep 0.5
done
partitions=$(q -c "SELECT count(*) FILTER (WHERE c.relname ~ '^events_p\d{8}$'), count(*) FILTER (WHERE c.relname = 'events_old')
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass")
today=$(q -c "SELECT 'events' || to_char(now() AT TIME ZONE 'UTC', '\"_p\"YYYYMMDD')")
if [ "$state" = succeeded ] && [ "$partitions" = "8|0" ] && [ -n "$(q -c "SELECT to_regclass('$today')")" ]; then
	ok "a scheduled run (pg_cron @reboot job, background worker) created today's partition and 7 ahead, dropped the one 100 days old ($(($(date +%s) - start)) s)"
else
	fail "the scheduled run: status '$state', partitions (new|old) '$partitions'; $(q -c "SELECT return_message FROM cron.job_run_details ORDER BY runid DESC LIMIT 1")"
fi
q -c "SELECT cron.unschedule(jobid) FROM cron.job" >/dev/null

# Four sessions at once, three rounds, each on a fresh table with 1-minute steps: every partition created
# exactly once (the lock on the parent serialises the runs), no session fails.
rounds_ok=0
for round in 1 2 3; do
	q -c "DROP TABLE IF EXISTS cc" -c "CREATE TABLE cc (id uid11 NOT NULL DEFAULT uid11_generate()) PARTITION BY RANGE (id)"
	out=$(mktemp)
	for _ in 1 2 3 4; do
		q -c "SELECT count(*) FROM idtypes_maintain_partitions('cc', '1 minute', 30) WHERE action = 'created'" >>"$out" 2>&1 &
	done
	wait
	created=$(awk '{ s += $1 } END { print s }' "$out")
	existing=$(q -c "SELECT count(*) FROM pg_inherits WHERE inhparent = 'cc'::regclass")
	if [ "$(grep -c '^[0-9]*$' "$out")" = 4 ] && [ "$created" = "$existing" ] && [ "$existing" -ge 31 ]; then
		rounds_ok=$((rounds_ok + 1))
	else
		fail "round $round of 4 sessions at once: $(tr '\n' ' ' <"$out" | cut -c1-300); $existing partitions"
	fi
	rm -f "$out"
done
[ $rounds_ok = 3 ] && ok "4 sessions maintaining one table at once, 3 rounds: every partition created once, no session failed"

# Locks: a reader's open transaction does not hold a run back, and a run's open transaction holds back
# neither readers nor writers (each side with lock_timeout = 1s).
q -c "DROP TABLE cc" -c "CREATE TABLE cc (id uid11 NOT NULL DEFAULT uid11_generate()) PARTITION BY RANGE (id)" \
	-c "SELECT FROM idtypes_maintain_partitions('cc', '1 hour', 0)"
q -c "BEGIN" -c "SELECT count(*) FROM cc" -c "SELECT pg_sleep(3)" -c "COMMIT" >/dev/null &
sleep 0.5
n=$(PGOPTIONS_EXTRA="-c lock_timeout=1s" q -c "SELECT count(*) FROM idtypes_maintain_partitions('cc', '1 hour', 3) WHERE action = 'created'" 2>&1)
[ "$n" = 3 ] && ok "a run creates partitions while a reader's transaction is open on the table" ||
	fail "a run next to a reader's open transaction: $n"
wait
q -c "BEGIN" -c "SELECT count(*) FROM idtypes_maintain_partitions('cc', '1 hour', 6)" -c "SELECT pg_sleep(3)" -c "COMMIT" >/dev/null &
sleep 0.5
rw=$(PGOPTIONS_EXTRA="-c lock_timeout=1s" q -c "INSERT INTO cc DEFAULT VALUES" -c "SELECT count(*) FROM cc" 2>&1)
[ "$rw" = 1 ] && ok "readers and writers go on while a run's transaction is open" ||
	fail "a reader and writer next to a run's open transaction: $rw"
wait
exit $status
