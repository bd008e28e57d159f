-- How the planner sees ID columns at scale, run by scripts/bench.sh (or alone: psql -v rows=N -f ...):
-- :rows IDs of every type spread evenly over one year beside the same instants in a timestamptz column,
-- after a plain ANALYZE. Prints Markdown: estimate ratios for windows and prefixes, planning time of `<@`
-- and `^@` against the same bounds written by hand, and the scalar-subquery form against timestamptz.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE EXTENSION IF NOT EXISTS idtypes;
DROP TABLE IF EXISTS spread, report_windows;
CREATE TABLE spread AS
SELECT at, timeid_min(at) AS t, tbsl_min(at) AS b, uid11_min(at) AS u, scru160_min(at) AS s
FROM generate_series(1, :rows) g, LATERAL (SELECT timestamptz '2024-01-01 00:00+00' + g * (interval '1 year' / :rows) AS at) a;
CREATE INDEX ON spread (at);
CREATE INDEX ON spread (t);
CREATE INDEX ON spread (b);
CREATE INDEX ON spread (u);
CREATE INDEX ON spread (s);
VACUUM ANALYZE spread;

CREATE FUNCTION pg_temp.rows_of(q text, OUT estimated float8, OUT actual float8) LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, ANALYZE, TIMING OFF) ' || q INTO plan;
	estimated := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
	actual := (plan -> 0 -> 'Plan' ->> 'Actual Rows')::float8;
END $$;
CREATE FUNCTION pg_temp.ratio(q text) RETURNS text LANGUAGE sql AS $$
	SELECT format('%s / %s = %s', estimated, actual,
	              round((greatest(estimated, actual) / greatest(least(estimated, actual), 1))::numeric, 2))
	FROM pg_temp.rows_of(q) $$;

\pset format unaligned
\pset tuples_only on
\echo
\echo ## Planner: estimated / actual rows (ratio: the larger over the smaller), :rows rows over one year
\echo
\echo | window | timestamptz | timeid | tbsl | uid11 | scru160 |
\echo |---|---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s | %s |', w,
	pg_temp.ratio(format('SELECT * FROM spread WHERE at >= %1$L AND at < %1$L::timestamptz + %2$L::interval', t0, w)),
	pg_temp.ratio(format('SELECT * FROM spread WHERE t <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)),
	pg_temp.ratio(format('SELECT * FROM spread WHERE b <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)),
	pg_temp.ratio(format('SELECT * FROM spread WHERE u <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)),
	pg_temp.ratio(format('SELECT * FROM spread WHERE s <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)))
FROM (VALUES ('2024-07-19 09:41:00+00')) v(t0), unnest(ARRAY['10 minutes', '1 hour', '3 hours', '1 day', '30 days']) w;
\echo
\echo | prefix (of the ID at 2024-07-19 09:41) | timeid | tbsl | uid11 | scru160 |
\echo |---|---|---|---|---|
SELECT format('| %s symbols | %s | %s | %s | %s |', n,
	pg_temp.ratio(format('SELECT * FROM spread WHERE t ^@ %L', left(timeid_min(at)::text, n))),
	pg_temp.ratio(format('SELECT * FROM spread WHERE b ^@ %L', left(tbsl_min(at)::text, n))),
	pg_temp.ratio(format('SELECT * FROM spread WHERE u ^@ %L', left(uid11_min(at)::text, n))),
	pg_temp.ratio(format('SELECT * FROM spread WHERE s ^@ %L', left(scru160_min(at)::text, n))))
FROM (VALUES (timestamptz '2024-07-19 09:41:00+00')) v(at), generate_series(3, 6) n;

-- planning (and running) one-minute windows and 9-symbol prefixes, against the same bounds written by hand:
-- 5 rounds of 600 queries each, the two forms alternating round by round; the median round is reported
CREATE FUNCTION pg_temp.timed(q text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp(); c bigint;
BEGIN
	FOR i IN 1..n LOOP
		EXECUTE format(q, timestamptz '2024-07-19 09:41:00+00' + i * interval '1 minute') INTO c;
	END LOOP;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
CREATE FUNCTION pg_temp.median_of_alternating(a text, b text, OUT ms_a float8, OUT ms_b float8) LANGUAGE plpgsql AS $$
DECLARE xs float8[] := '{}'; ys float8[] := '{}';
BEGIN
	FOR r IN 1..5 LOOP
		xs := xs || pg_temp.timed(a, 600);
		ys := ys || pg_temp.timed(b, 600);
	END LOOP;
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO ms_a FROM unnest(xs) x;
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY y) INTO ms_b FROM unnest(ys) y;
END $$;
\echo
\echo | 600 queries, each parsed, planned and run (median of 5 alternating rounds) | ms | same bounds by hand, ms | ratio |
\echo |---|---|---|---|
SELECT format('| %s %s | %s | %s | %s |', t, op, round(m.ms_a::numeric, 1), round(m.ms_b::numeric, 1), round((m.ms_a / m.ms_b)::numeric, 2))
FROM (VALUES ('timeid', 't'), ('tbsl', 'b'), ('uid11', 'u'), ('scru160', 's')) v(t, col),
     unnest(ARRAY['<@', '^@']) op,
     LATERAL pg_temp.median_of_alternating(
	CASE op WHEN '<@' THEN format('SELECT count(*) FROM spread WHERE %s <@ tstzrange(%%1$L, %%1$L::timestamptz + interval ''1 minute'')', col)
	        ELSE format('SELECT count(*) FROM spread WHERE %s ^@ left(%s_min(%%1$L)::text, 9)', col, t) END,
	CASE op WHEN '<@' THEN format('SELECT count(*) FROM spread WHERE %1$s >= %2$s_min(%%1$L) AND %1$s <= %2$s_max(%%1$L::timestamptz + interval ''1 minute'' - interval ''1 microsecond'')', col, t)
	        ELSE format('SELECT count(*) FROM spread WHERE %1$s >= %2$s_prefix_lo(left(%2$s_min(%%1$L)::text, 9)) AND %1$s <= %2$s_prefix_hi(left(%2$s_min(%%1$L)::text, 9))', col, t) END) m;

-- a window from a scalar subquery, against the timestamptz column
CREATE TABLE report_windows (name text, r tstzrange);
INSERT INTO report_windows VALUES ('w5', tstzrange('2024-07-19 09:00+00', '2024-07-19 10:00+00'));
ANALYZE report_windows;
\echo
\echo | window from a scalar subquery, 200 runs | ms |
\echo |---|---|
SELECT format('| %s | %s |', subject, round(pg_temp.timed(q, 200)::numeric, 1))
FROM (VALUES ('timestamptz column', 'SELECT count(*) FROM spread WHERE at <@ (SELECT r FROM report_windows WHERE name = ''w5'')'),
             ('timeid <@ (SELECT ...)', 'SELECT count(*) FROM spread WHERE t <@ (SELECT r FROM report_windows WHERE name = ''w5'')'),
             ('scru160 <@ (SELECT ...)', 'SELECT count(*) FROM spread WHERE s <@ (SELECT r FROM report_windows WHERE name = ''w5'')')) v(subject, q);
DROP TABLE spread, report_windows;

-- Past the last ANALYZE: :rows rows over 30 days ending 3 hours ago, ANALYZE, then rows for the last 3 hours
-- (2.16 % more: one every 0.5 s at 1M rows, as between two autovacuum runs; and 30 % more), the same instants
-- in a timestamptz column and in a uuid column holding UUIDv7 (estimated by uuid's own operators).
-- The load, ANALYZE and the newer rows are separate statements: a backend reports its counts to the
-- cumulative statistics when idle (pg_stat_force_next_flush: now rather than within a second), and a load
-- reported after the ANALYZE that followed it would count as written since.
CREATE PROCEDURE pg_temp.stale_load() LANGUAGE plpgsql AS $$
DECLARE
	n bigint := current_setting('idtypes_bench.rows')::bigint;
BEGIN
	DROP TABLE IF EXISTS stale;
	CREATE TABLE stale (uid int, at timestamptz, t timeid, b tbsl, u uid11, s scru160, v uuid) WITH (autovacuum_enabled = off);
	EXECUTE format('INSERT INTO stale SELECT %s FROM generate_series(1, %s) g,
		LATERAL (SELECT now() - interval ''3 hours'' - (%2$s - g) * (interval ''30 days'' / %2$s) AS at) a',
		current_setting('idtypes_bench.columns'), n);
	CREATE INDEX ON stale (at); CREATE INDEX ON stale (t); CREATE INDEX ON stale (b); CREATE INDEX ON stale (u);
	CREATE INDEX ON stale (s); CREATE INDEX ON stale (v);
END $$;
CREATE PROCEDURE pg_temp.stale_newer(newer float8) LANGUAGE plpgsql AS $$
DECLARE
	n bigint := current_setting('idtypes_bench.rows')::bigint;
BEGIN
	EXECUTE format('INSERT INTO stale SELECT %s FROM generate_series(1, %s) g,
		LATERAL (SELECT now() - interval ''3 hours'' + g * (interval ''3 hours'' / %2$s) AS at) a',
		current_setting('idtypes_bench.columns'), round(n * newer));
END $$;
SET idtypes_bench.columns = 'g % 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at), uuid_v7_min(at)';
CREATE FUNCTION pg_temp.estimate(q text) RETURNS text LANGUAGE sql AS $$
	SELECT format('%s (%sx)', estimated, round((greatest(estimated, actual) / greatest(least(estimated, actual), 1))::numeric, 1))
	FROM pg_temp.rows_of(q) $$;
-- the join's plan and its time (median of 3 runs, planning included)
CREATE FUNCTION pg_temp.join_run(col text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	q text := format('SELECT count(*) FROM stale a JOIN stale b ON a.uid = b.uid WHERE %s', CASE col
		WHEN 'at' THEN 'a.at >= now() - interval ''1 hour'' AND b.at >= now() - interval ''1 hour'''
		ELSE format('a.%1$I <@ tstzrange(now() - interval ''1 hour'', NULL) AND b.%1$I <@ tstzrange(now() - interval ''1 hour'', NULL)', col) END);
	line text; method text; times float8[] := '{}'; t0 timestamptz; c bigint;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		method := coalesce(method, substring(line FROM '(Hash Join|Merge Join|Nested Loop)'));
	END LOOP;
	FOR r IN 1..3 LOOP
		t0 := clock_timestamp();
		EXECUTE q INTO c;
		times := times || extract(epoch FROM clock_timestamp() - t0) * 1000;
	END LOOP;
	RETURN format('%s, %s ms', method, round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(times) x)::numeric, 1));
END $$;
-- one table row a window ending now (and the T_min bound): actual rows, then each column's estimate
CREATE FUNCTION pg_temp.stale_rows(newer text) RETURNS SETOF text LANGUAGE sql AS $$
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s |', newer, name, (pg_temp.rows_of(format('SELECT * FROM stale WHERE at >= %s', since))).actual,
	pg_temp.estimate(format('SELECT * FROM stale WHERE at >= %s', since)),
	pg_temp.estimate(format(id_query, 't', since, 'timeid')), pg_temp.estimate(format(id_query, 'b', since, 'tbsl')),
	pg_temp.estimate(format(id_query, 'u', since, 'uid11')), pg_temp.estimate(format(id_query, 's', since, 'scru160')),
	pg_temp.estimate(format(id_query, 'v', since, 'uuid_v7')))
FROM (SELECT w, format('now() - %L::interval', w), 'SELECT * FROM stale WHERE %I <@ tstzrange(%s, NULL)'
      FROM unnest(ARRAY['10 minutes', '1 hour', '1 day']) w
      UNION ALL SELECT '>= T_min(now() - 30 minutes)', 'now() - interval ''30 minutes''', 'SELECT * FROM stale WHERE %I >= %3$s_min(%2$s)') q(name, since, id_query) $$;
SET idtypes_bench.rows = :rows;
-- the rows of one table state, kept to print before and after the VACUUM side by side
CREATE TEMP TABLE stale_figures (state text, newer text, line text, n serial);
-- (the self-join is timed where the last hour holds at most ~100,000 rows a side: at 10M rows and 30 % newer
-- it would return some 10^9 rows)
SET check_function_bodies = off; -- the table comes later
CREATE FUNCTION pg_temp.figures(state text, newer text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO stale_figures (state, newer, line) SELECT state, newer, r FROM pg_temp.stale_rows(newer) r;
	INSERT INTO stale_figures (state, newer, line) SELECT state, newer || ' join', format('| plan, time | %s | %s | %s | %s | %s | %s |',
		pg_temp.join_run('at'), pg_temp.join_run('t'), pg_temp.join_run('b'), pg_temp.join_run('u'), pg_temp.join_run('s'), pg_temp.join_run('v'))
	WHERE (SELECT count(*) FROM stale WHERE at >= now() - interval '1 hour') <= 100000 $$;
RESET check_function_bodies;
\echo
\echo ## Planner past the last ANALYZE: estimated rows (and the factor off the actual), :rows rows analyzed over 30 days, then the last 3 hours
-- each table state: the statements one by one (\gexec), so that the backend goes idle and reports between them
\o /dev/null
SELECT statement FROM (VALUES (0.0216, '2.16 %'), (0.30, '30 %')) v(newer, label),
	unnest(ARRAY['CALL pg_temp.stale_load()', 'SELECT pg_stat_force_next_flush()', 'ANALYZE stale',
		format('CALL pg_temp.stale_newer(%s)', newer), 'SELECT pg_stat_force_next_flush()',
		format('SELECT pg_temp.figures(''after ANALYZE'', %L)', label), 'VACUUM stale',
		format('SELECT pg_temp.figures(''after VACUUM'', %L)', label)]) WITH ORDINALITY s(statement, i)
ORDER BY newer, i \gexec
\o
SELECT format(E'\n### %s newer rows, %s\n\n%s\n%s\n', CASE WHEN newer LIKE '%join' THEN 'last-hour self-join, ' ELSE '' END
	|| replace(newer, ' join', ''), state,
	CASE WHEN newer LIKE '%join' THEN '| last-hour self-join | timestamptz | timeid | tbsl | uid11 | scru160 | uuid (UUIDv7) |'
	     ELSE '| newer rows | query | actual | timestamptz | timeid | tbsl | uid11 | scru160 | uuid (UUIDv7) |' END,
	CASE WHEN newer LIKE '%join' THEN '|---|---|---|---|---|---|---|' ELSE '|---|---|---|---|---|---|---|---|---|' END)
	|| string_agg(line, E'\n' ORDER BY n)
FROM stale_figures GROUP BY newer, state ORDER BY min(n);
DROP TABLE stale;
