# shellcheck shell=bash
# A hot standby of a running primary, shared by the checks that need one (copies.sh, failover.sh): source it,
# with `bin` (the bin directory of the PostgreSQL under test) and as_postgres defined. Sets `how` to the way
# the standby was made.

# make_standby PRIMARY_DIR STANDBY_DIR SOCKET_DIR PORT: pg_basebackup -R where the version has one (15 here);
# else (17 and 18 come without client tools here, and 15's pg_basebackup refuses newer servers) the same by
# the low-level backup API. The standby is then started like any cluster.
make_standby() {
	local primary=$1 standby=$2 socket=$3 port=$4
	if [ -x "$bin/pg_basebackup" ]; then
		how="pg_basebackup -R"
		as_postgres "$bin/pg_basebackup" -D "$standby" -R -X stream -c fast -h "$socket" -p "$port" -U postgres
		return
	fi
	how="pg_backup_start, a file copy, pg_backup_stop"
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -h "$socket" -p "$port" -U postgres \
		-d postgres >"$socket/backup_label" <<-EOS || return 1
		SELECT pg_backup_start('make_standby', true) IS NOT NULL \g /dev/null
		\! cp -a "$primary" "$standby"
		SELECT labelfile FROM pg_backup_stop(false)
	EOS
	rm -f "$standby"/postmaster.{pid,opts}
	mv "$socket/backup_label" "$standby/backup_label"
	touch "$standby/standby.signal"
	echo "primary_conninfo = 'host=$socket port=$port user=postgres'" >>"$standby/postgresql.auto.conf"
	chown -R postgres: "$standby"
}
