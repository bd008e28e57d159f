-- Time partitions: idtypes_maintain_partitions creates range partitions by the ID's time ahead of now()
-- and drops those past retention; rows land in the partition of their time; ^@ and <@ prune partitions
-- at plan time (constants) and at executor start (now(), generic-plan parameters). For every type.
-- now() differs on every run, so what depends on it is printed as booleans, counts, or names relative to
-- today (UTC); the session's time zone (pg_regress: PST8PDT) must change nothing.
\set VERBOSITY terse
CREATE TABLE id_types (t text PRIMARY KEY, prefix_length int);
-- prefix_length: a prefix that selects well under a second of IDs (a 33 ms, 0.17 s, 0.16 s, 0.26 s block)
INSERT INTO id_types VALUES ('timeid', 8), ('tbsl', 9), ('uid11', 6), ('scru160', 8);

-- The partitions of a table: name, and the times of its bounds (NULL for MINVALUE / MAXVALUE).
CREATE FUNCTION partition_times(tbl regclass) RETURNS TABLE (name text, lo timestamptz, hi timestamptz)
LANGUAGE plpgsql AS $$
DECLARE typ text := (SELECT atttypid::regtype::text FROM pg_attribute WHERE attrelid = tbl AND attname = 'id');
BEGIN
	RETURN QUERY EXECUTE format($q$
		SELECT c.relname::text, %1$I(nullif(b[1], 'MINVALUE')::%2$s), %1$I(nullif(b[2], 'MAXVALUE')::%2$s)
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
		regexp_match(pg_get_expr(c.relpartbound, c.oid), $r$FROM \('?([^')]*)'?\) TO \('?([^')]*)'?\)$r$) b
		WHERE i.inhparent = $1 ORDER BY 2 NULLS FIRST$q$, typ || '_timestamp', typ) USING tbl;
END $$;

-- A partition name with its UTC day written relative to today: ev_timeid_p{today+1}.
CREATE FUNCTION relative_name(name text) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(m[1] || '_p{today' || CASE WHEN d = 0 THEN '' WHEN d > 0 THEN '+' || d ELSE d::text END || '}', name)
	FROM regexp_match(name, '^(.*)_p(\d{8})$') m,
	LATERAL (SELECT to_date(m[2], 'YYYYMMDD') - (now() AT TIME ZONE 'UTC')::date AS d) dd
	UNION ALL SELECT name WHERE name !~ '_p\d{8}$'
$$;

-- The relations a query scans and the partitions its Append removed at executor start.
CREATE FUNCTION scans(q text, run boolean DEFAULT false) RETURNS TABLE (scanned text, subplans_removed int)
LANGUAGE plpgsql AS $$
DECLARE plan jsonb;
BEGIN
	EXECUTE format('EXPLAIN (FORMAT JSON, COSTS OFF%s) %s',
	               CASE WHEN run THEN ', ANALYZE, TIMING OFF, SUMMARY OFF' ELSE '' END, q) INTO plan;
	RETURN QUERY SELECT
		(SELECT string_agg(DISTINCT relative_name(r #>> '{}'), ' ')
		 FROM jsonb_path_query(plan, 'strict $.**."Relation Name"') r),
		(SELECT sum((r #>> '{}')::int)::int FROM jsonb_path_query(plan, 'strict $.**."Subplans Removed"') r);
END $$;

-- For every type, events by the ID's time, with the generator as DEFAULT.
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		EXECUTE format('CREATE TABLE ev_%1$s (id %1$s NOT NULL DEFAULT %1$s_generate(), note text) PARTITION BY RANGE (id)', t);
		EXECUTE format('CREATE INDEX ON ev_%s (id)', t);
	END LOOP;
END $$;

-- A first run creates the partitions of today (UTC) and the 4 next days, named <table>_pYYYYMMDD; a second
-- run finds them (by their bounds) and does nothing. One transaction: now() is the same throughout.
BEGIN;
SELECT t, array_agg(r.action || ' ' || relative_name(r.partition) ORDER BY r.partition) AS first_run
FROM id_types, idtypes_maintain_partitions(('ev_' || t)::regclass, '1 day') r GROUP BY t ORDER BY t;
SELECT t, (SELECT count(*) FROM idtypes_maintain_partitions(('ev_' || t)::regclass, '1 day')) AS second_run FROM id_types ORDER BY t;
-- each partition is one UTC day, the first holds now(), no gap between them
SELECT t, count(*) AS partitions,
       bool_and(lo = date_trunc('day', lo AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AND hi - lo = interval '1 day'
                AND name = 'ev_' || t || to_char(lo AT TIME ZONE 'UTC', '"_p"YYYYMMDD')) AS days_named_by_date,
       min(lo) <= now() AND now() < min(hi) AS first_holds_now,
       count(*) FILTER (WHERE lo <> prev_hi) AS gaps
FROM id_types, LATERAL (SELECT *, lag(hi, 1, lo) OVER (ORDER BY lo) AS prev_hi FROM partition_times(('ev_' || t)::regclass)) p
GROUP BY t ORDER BY t;
COMMIT;

-- Rows land in the partition of their time: generated now (DEFAULT), and made for other times with T_min,
-- T_max and make_* (the first and last instant of a partition included).
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		EXECUTE format('INSERT INTO ev_%s (note) SELECT ''generated'' FROM generate_series(1, 10)', t);
		EXECUTE format($q$INSERT INTO ev_%1$s (id, note)
			SELECT %1$s_min(d + h), 'T_min' FROM generate_series(0, 4) k,
				LATERAL (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + k * interval '1 day' AS d) dd,
				unnest(ARRAY[interval '0', interval '13 hours 17 minutes']) h
			UNION ALL SELECT %1$s_max(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '5 days'
			                          - interval '1 millisecond'), 'T_max'$q$, t);
	END LOOP;
END $$;
INSERT INTO ev_timeid (id, note) SELECT make_timeid((extract(epoch FROM now() + k * interval '1 day') * 1e6)::bigint, 7), 'make'
FROM generate_series(0, 4) k;
INSERT INTO ev_tbsl (id, note) SELECT make_tbsl(floor(extract(epoch FROM now() + k * interval '1 day'))::bigint, 0, 7, 1), 'make'
FROM generate_series(0, 4) k;
INSERT INTO ev_uid11 (id, note) SELECT make_uid11_xid(floor(extract(epoch FROM now() + k * interval '1 day') * 1e3)::bigint, 7), 'make'
FROM generate_series(0, 4) k;
INSERT INTO ev_scru160 (id, note) SELECT make_scru160(floor(extract(epoch FROM now() + k * interval '1 day') * 1e3)::bigint, 0, 0, '\x00000000000000000000'), 'make'
FROM generate_series(0, 4) k;
SELECT 'timeid' AS t, note, count(*), bool_and(tableoid::regclass::text = 'ev_timeid' || to_char(id::timestamptz AT TIME ZONE 'UTC', '"_p"YYYYMMDD')) AS in_its_partition FROM ev_timeid GROUP BY note
UNION ALL SELECT 'tbsl', note, count(*), bool_and(tableoid::regclass::text = 'ev_tbsl' || to_char(id::timestamptz AT TIME ZONE 'UTC', '"_p"YYYYMMDD')) FROM ev_tbsl GROUP BY note
UNION ALL SELECT 'uid11', note, count(*), bool_and(tableoid::regclass::text = 'ev_uid11' || to_char(id::timestamptz AT TIME ZONE 'UTC', '"_p"YYYYMMDD')) FROM ev_uid11 GROUP BY note
UNION ALL SELECT 'scru160', note, count(*), bool_and(tableoid::regclass::text = 'ev_scru160' || to_char(id::timestamptz AT TIME ZONE 'UTC', '"_p"YYYYMMDD')) FROM ev_scru160 GROUP BY note
ORDER BY 1, 2;

-- An ID outside every partition: PostgreSQL's own error, until there is a DEFAULT partition, which takes it.
INSERT INTO ev_timeid (id) VALUES (timeid_min(now() + interval '8 days'));
INSERT INTO ev_tbsl (id) VALUES (tbsl_min(now() + interval '8 days'));
INSERT INTO ev_uid11 (id) VALUES (uid11_min(now() + interval '8 days'));
INSERT INTO ev_scru160 (id) VALUES (scru160_min(now() + interval '8 days'));
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		EXECUTE format('CREATE TABLE ev_%1$s_default PARTITION OF ev_%1$s DEFAULT', t);
		EXECUTE format('INSERT INTO ev_%1$s (id, note) VALUES (%1$s_min(now() + interval ''8 days''), ''outside''),
		                (%1$s_min(now() + interval ''30 days''), ''outside'')', t);
	END LOOP;
END $$;
SELECT 'timeid' AS t, tableoid::regclass, count(*) FROM ev_timeid WHERE note = 'outside' GROUP BY 2
UNION ALL SELECT 'tbsl', tableoid::regclass, count(*) FROM ev_tbsl WHERE note = 'outside' GROUP BY 2
UNION ALL SELECT 'uid11', tableoid::regclass, count(*) FROM ev_uid11 WHERE note = 'outside' GROUP BY 2
UNION ALL SELECT 'scru160', tableoid::regclass, count(*) FROM ev_scru160 WHERE note = 'outside' GROUP BY 2 ORDER BY 1;
-- Further ahead: the day whose rows are in the DEFAULT partition is reported, not created; the others are.
BEGIN;
SELECT t, r.action, count(*), string_agg(relative_name(r.partition), ' ' ORDER BY r.partition)
FROM id_types, idtypes_maintain_partitions(('ev_' || t)::regclass, '1 day', 9) r GROUP BY 1, 2 ORDER BY 1, 2;
COMMIT;

-- Retention. Old partitions made by hand, under names of the user's: three past days; everything before
-- them (from MINVALUE); a partitioned one (never dropped); the DEFAULT (never dropped). keep '1 day' drops
-- those whose upper bound is at or before now() - 1 day, oldest first.
DO $$
DECLARE
	t text;
	d timestamptz := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		FOR k IN 1..3 LOOP
			EXECUTE format('CREATE TABLE ev_%1$s_old%2$s PARTITION OF ev_%1$s FOR VALUES FROM (%1$s_min(%3$L)) TO (%1$s_min(%4$L))',
			               t, k, d - k * interval '1 day', d - (k - 1) * interval '1 day');
		END LOOP;
		EXECUTE format('CREATE TABLE ev_%1$s_sub PARTITION OF ev_%1$s FOR VALUES FROM (%1$s_min(%2$L)) TO (%1$s_min(%3$L)) PARTITION BY RANGE (id)',
		               t, d - interval '5 days', d - interval '3 days');
		EXECUTE format('CREATE TABLE ev_%1$s_sub_1 PARTITION OF ev_%1$s_sub FOR VALUES FROM (MINVALUE) TO (MAXVALUE)', t);
		EXECUTE format('CREATE TABLE ev_%1$s_ancient PARTITION OF ev_%1$s FOR VALUES FROM (MINVALUE) TO (%1$s_min(%2$L))',
		               t, d - interval '5 days');
	END LOOP;
END $$;
BEGIN;
SELECT t, r.action, relative_name(r.partition)
FROM id_types, idtypes_maintain_partitions(('ev_' || t)::regclass, '1 day', 9, '1 day') WITH ORDINALITY r(action, partition, n)
ORDER BY t, n;
SELECT t, (SELECT count(*) FROM idtypes_maintain_partitions(('ev_' || t)::regclass, '1 day', 9, '1 day') WHERE action = 'dropped') AS dropped_again,
       (SELECT string_agg(relative_name(name), ' ' ORDER BY lo NULLS FIRST) FROM partition_times(('ev_' || t)::regclass) WHERE lo IS NULL OR lo < now() - interval '1 day') AS old_kept
FROM id_types ORDER BY t;
COMMIT;
SELECT t, to_regclass('ev_' || t || '_default') IS NOT NULL AS default_partition_kept,
       to_regclass('ev_' || t || '_sub_1') IS NOT NULL AS sub_partition_kept
FROM id_types ORDER BY t;

-- A partition that would overlap an existing one is reported, not forced; nor is a name already taken.
CREATE TABLE ov (id timeid NOT NULL) PARTITION BY RANGE (id);
DO $$
DECLARE d timestamptz := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
BEGIN
	EXECUTE format('CREATE TABLE ov_hand PARTITION OF ov FOR VALUES FROM (timeid_min(%L)) TO (timeid_min(%L))',
	               d + interval '1 day 12 hours', d + interval '2 days 12 hours');
	EXECUTE format('CREATE TABLE %I (id timeid)', 'ov' || to_char((d + interval '4 days') AT TIME ZONE 'UTC', '"_p"YYYYMMDD'));
END $$;
BEGIN;
SELECT r.action, relative_name(r.partition) FROM idtypes_maintain_partitions('ov', '1 day', 4) r;
COMMIT;

-- Steps: aligned to UTC as documented (date_trunc of their unit; multiples of sub-hour or sub-day steps
-- from the hour / midnight), named with the time of day below a whole day. `first` is the step holding
-- now(), given in UTC as u.
CREATE FUNCTION check_step(step interval, ahead int, first text) RETURNS TABLE (partitions bigint, aligned boolean, named boolean, contiguous boolean)
LANGUAGE plpgsql AS $$
DECLARE
	start timestamp;
	fmt text := CASE WHEN step < interval '1 day' THEN '"st_p"YYYYMMDD"_"HH24MISS' ELSE '"st_p"YYYYMMDD' END;
BEGIN
	IF to_regclass('st') IS NOT NULL THEN
		DROP TABLE st;
	END IF;
	CREATE TABLE st (id uid11 NOT NULL) PARTITION BY RANGE (id);
	EXECUTE format('SELECT %s FROM (SELECT now() AT TIME ZONE ''UTC'' AS u) u', first) INTO start;
	PERFORM idtypes_maintain_partitions('st', step, ahead);
	RETURN QUERY SELECT count(*),
		bool_and(p.lo AT TIME ZONE 'UTC' = start + (p.n - 1) * step),
		bool_and(p.name = to_char(p.lo AT TIME ZONE 'UTC', fmt)),
		bool_and(p.hi AT TIME ZONE 'UTC' = start + p.n * step)
	FROM (SELECT *, row_number() OVER (ORDER BY lo) AS n FROM partition_times('st')) p;
END $$;
BEGIN;
SELECT step, c.* FROM (VALUES
	(interval '1 minute', 3, 'date_trunc(''minute'', u)'),
	('15 minutes', 3, 'date_trunc(''hour'', u) + floor(extract(minute FROM u) / 15) * interval ''15 minutes'''),
	('1 hour', 2, 'date_trunc(''hour'', u)'),
	('6 hours', 2, 'date_trunc(''day'', u) + floor(extract(hour FROM u) / 6) * interval ''6 hours'''),
	('1 day', 2, 'date_trunc(''day'', u)'),
	('24 hours', 0, 'date_trunc(''day'', u)'),
	('1 week', 2, 'date_trunc(''week'', u)'),
	('1 month', 2, 'date_trunc(''month'', u)'),
	('3 months', 2, 'date_trunc(''quarter'', u)'),
	('1 year', 1, 'date_trunc(''year'', u)')
) s(step, ahead, first), check_step(step, ahead, first) c;
COMMIT;

-- Arguments that cannot work.
SELECT * FROM idtypes_maintain_partitions(NULL, '1 day');
SELECT * FROM idtypes_maintain_partitions('id_types', '1 day');
CREATE TABLE by_hash (id timeid) PARTITION BY HASH (id);
SELECT * FROM idtypes_maintain_partitions('by_hash', '1 day');
CREATE TABLE by_text (id text) PARTITION BY RANGE (id);
SELECT * FROM idtypes_maintain_partitions('by_text', '1 day');
CREATE TABLE by_two (id timeid, n int) PARTITION BY RANGE (id, n);
SELECT * FROM idtypes_maintain_partitions('by_two', '1 day');
CREATE TABLE by_expression (id timeid) PARTITION BY RANGE ((timeid_timestamp(id)));
SELECT * FROM idtypes_maintain_partitions('by_expression', '1 day');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '59 seconds');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '90.5 seconds');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '366 days');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '13 months');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '1 month 1 day');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '1 month 1 hour');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '-1 day');
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '1 day', -1);
SELECT * FROM idtypes_maintain_partitions('ev_timeid', '1 day', 4, '-1 day');

-- Pruning at plan time: constant windows and prefixes scan only the partitions they meet. Fixed days.
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		EXECUTE format('CREATE TABLE pr_%1$s (id %1$s NOT NULL) PARTITION BY RANGE (id)', t);
		FOR k IN 1..3 LOOP
			EXECUTE format('CREATE TABLE pr_%1$s_d%2$s PARTITION OF pr_%1$s FOR VALUES FROM (%1$s_min(%3$L)) TO (%1$s_min(%4$L))',
			               t, k, timestamptz '2025-01-01 00:00+00' + (k - 1) * interval '1 day',
			               timestamptz '2025-01-01 00:00+00' + k * interval '1 day');
		END LOOP;
	END LOOP;
END $$;
EXPLAIN (COSTS OFF) SELECT * FROM pr_timeid WHERE id <@ tstzrange('2025-01-02 10:00+00', '2025-01-02 10:01+00');
EXPLAIN (COSTS OFF) SELECT * FROM pr_timeid WHERE id <@ tstzrange('2025-01-01 23:30+00', '2025-01-02 00:30+00');
EXPLAIN (COSTS OFF) SELECT * FROM pr_timeid WHERE id ^@ left(timeid_min('2025-01-02 12:00+00')::text, 8);
EXPLAIN (COSTS OFF) SELECT * FROM pr_tbsl WHERE id <@ tstzrange('2025-01-02 10:00+00', '2025-01-02 10:01+00');
EXPLAIN (COSTS OFF) SELECT * FROM pr_tbsl WHERE id ^@ left(tbsl_min('2025-01-02 12:00+00')::text, 9);
EXPLAIN (COSTS OFF) SELECT * FROM pr_uid11 WHERE id <@ tstzrange('2025-01-02 10:00+00', '2025-01-02 10:01+00');
EXPLAIN (COSTS OFF) SELECT * FROM pr_uid11 WHERE id ^@ left(uid11_min('2025-01-02 12:00+00')::text, 6);
EXPLAIN (COSTS OFF) SELECT * FROM pr_scru160 WHERE id <@ tstzrange('2025-01-02 10:00+00', '2025-01-02 10:01+00');
EXPLAIN (COSTS OFF) SELECT * FROM pr_scru160 WHERE id ^@ left(scru160_min('2025-01-02 12:00+00')::text, 8);
-- every type, by the relations scanned
SELECT t, s.* FROM id_types, scans(format('SELECT * FROM pr_%s WHERE id <@ tstzrange(%L, %L)', t, '2025-01-03 10:00+00', '2025-01-03 11:00+00')) s ORDER BY t;

-- Pruning at executor start (Subplans Removed): windows computed from now(), and generic plans'
-- parameters, on the partitions made above (past days by hand, today .. today+9 but +8, the DEFAULT one).
-- The windows are anchored to today's UTC midnight so that they meet the same partitions at any hour.
CREATE FUNCTION today_at(i interval) RETURNS timestamptz LANGUAGE sql STABLE AS
	$$ SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + i $$;
CREATE FUNCTION prefix_at(t text, i interval) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE id text;
BEGIN
	EXECUTE format('SELECT %I($1)::text', t || '_min') INTO id USING today_at(i);
	RETURN left(id, (SELECT prefix_length FROM id_types WHERE id_types.t = prefix_at.t));
END $$;
SET enable_partition_pruning = on;
SELECT t, s.* FROM id_types,
	scans(format('SELECT count(*) FROM ev_%s WHERE id <@ tstzrange(today_at(%L), today_at(%L))', t, '1 hour', '1 hour 1 minute'), true) s
ORDER BY t;
SET plan_cache_mode = force_generic_plan;
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT id_types.t FROM id_types LOOP
		EXECUTE format('PREPARE by_window_%1$s(tstzrange) AS SELECT count(*) FROM ev_%1$s WHERE id <@ $1', t);
		EXECUTE format('PREPARE by_prefix_%1$s(text) AS SELECT count(*) FROM ev_%1$s WHERE id ^@ $1', t);
	END LOOP;
END $$;
SELECT t, w.scanned AS window_scanned, w.subplans_removed AS window_removed,
       p.scanned AS prefix_scanned, p.subplans_removed AS prefix_removed
FROM id_types,
	scans(format('EXECUTE by_window_%s(tstzrange(%L, %L))', t, today_at('2 days 1 hour'), today_at('2 days 1 hour 1 minute')), true) w,
	scans(format('EXECUTE by_prefix_%s(%L)', t, prefix_at(t, '3 days 12 hours')), true) p
ORDER BY t;
RESET plan_cache_mode;
RESET enable_partition_pruning;

-- Backfill: with since, the steps from the one holding it up to now() are made too (then ahead after
-- it); rows of those times land in them; a second run finds them; a since after now() changes nothing.
-- (Hours, not days, back from now(): the session's time zone keeps summer time, a day of which is not 24 hours.)
CREATE TABLE bf (id tbsl NOT NULL) PARTITION BY RANGE (id);
BEGIN;
SELECT r.action, relative_name(r.partition) FROM idtypes_maintain_partitions('bf', '1 day', 1, NULL, now() - interval '72 hours') r;
SELECT count(*) AS second_run FROM idtypes_maintain_partitions('bf', '1 day', 1, NULL, now() - interval '72 hours');
SELECT count(*) AS since_later FROM idtypes_maintain_partitions('bf', '1 day', 3, NULL, now() + interval '100 hours') WHERE action = 'created';
INSERT INTO bf VALUES (tbsl_min(now() - interval '72 hours')), (tbsl_min(now() - interval '48 hours')) RETURNING relative_name(tableoid::regclass::text);
COMMIT;
-- months: from the month holding since (UTC), each a month
CREATE TABLE bf_months (id uid11 NOT NULL) PARTITION BY RANGE (id);
BEGIN;
SELECT count(*) FILTER (WHERE action = 'created') AS created,
	count(*) = (SELECT (extract(year FROM u) * 12 + extract(month FROM u)) - (extract(year FROM s) * 12 + extract(month FROM s)) + 1
		FROM (SELECT now() AT TIME ZONE 'UTC' AS u, (now() - interval '5 months') AT TIME ZONE 'UTC' AS s) x) AS one_per_month
FROM idtypes_maintain_partitions('bf_months', '1 month', 0, NULL, now() - interval '5 months');
SELECT min(lo) AT TIME ZONE 'UTC' = date_trunc('month', (now() - interval '5 months') AT TIME ZONE 'UTC') AS from_since_month,
	bool_and(hi AT TIME ZONE 'UTC' = (lo AT TIME ZONE 'UTC') + interval '1 month') AS months
FROM partition_times('bf_months');
COMMIT;
-- refused: partitions the same run would drop, too many steps, an infinite time
SELECT * FROM idtypes_maintain_partitions('bf', '1 day', 1, '48 hours', now() - interval '72 hours');
SELECT * FROM idtypes_maintain_partitions('bf', '1 minute', 0, NULL, now() - interval '200 hours');
SELECT * FROM idtypes_maintain_partitions('bf', '1 day', 1, NULL, '-infinity');

-- Another role's table: making partitions runs code of its owner, here a CHECK of a domain over the key's
-- type that calls the owner's function, which tries to make the owner superuser. A superuser running it is
-- refused, as itself and after SET ROLE to the owner (the owner's code could SET ROLE back), before any of
-- that code runs; the owner, logged in as itself, maintains its table, its code running with its rights.
SELECT current_user AS superuser \gset
CREATE ROLE regress_partitions_owner LOGIN;
GRANT CREATE ON SCHEMA public TO regress_partitions_owner;
SET ROLE regress_partitions_owner;
CREATE TABLE ran_as (who text);
CREATE FUNCTION escalate(v timeid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO public.ran_as VALUES (current_user);
	BEGIN
		ALTER ROLE regress_partitions_owner SUPERUSER;
	EXCEPTION WHEN insufficient_privilege THEN
		NULL;
	END;
	RETURN true;
END $$;
CREATE DOMAIN owned_id AS timeid CHECK (public.escalate(VALUE));
CREATE TABLE owned (id owned_id NOT NULL) PARTITION BY RANGE (id);
RESET ROLE;
SELECT * FROM idtypes_maintain_partitions('owned', '1 day', 1);
SET ROLE regress_partitions_owner;
SELECT * FROM idtypes_maintain_partitions('owned', '1 day', 1);
RESET ROLE;
SELECT (SELECT count(*) FROM ran_as) AS owner_code_ran, rolsuper FROM pg_roles WHERE rolname = 'regress_partitions_owner';
\c - regress_partitions_owner
SELECT count(*) AS created FROM idtypes_maintain_partitions('owned', '1 day', 1) WHERE action = 'created';
SELECT who, count(*) > 0 AS ran FROM ran_as GROUP BY who;
\c - :superuser
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_partitions_owner';
DROP OWNED BY regress_partitions_owner;
DROP ROLE regress_partitions_owner;
