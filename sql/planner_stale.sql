-- The planner on tables written to since their last ANALYZE: the newest rows lie past the histogram's last
-- bound, where statistics alone say 1 row. The estimators read the column's actual end from its index and
-- spread the rows the planner counts beyond pg_class.reltuples over [last bound, actual end]. Each table
-- has 50,000 rows over 30 days ending 3 hours ago when ANALYZE reads it whole (fewer rows than it samples at
-- this statistics target), then 1 % or 30 % more rows over the last 3 hours; autovacuum is off for them.
SET default_statistics_target = 400;
SET max_parallel_workers_per_gather = 0;
CREATE PROCEDURE stale_table(name text, newer int) LANGUAGE plpgsql AS $$
DECLARE
	columns text := 'g % 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)';
BEGIN
	EXECUTE format('CREATE TABLE %I (uid int, at timestamptz, t timeid, b tbsl, u uid11, s scru160) WITH (autovacuum_enabled = off)', name);
	EXECUTE format('INSERT INTO %I SELECT %s FROM generate_series(1, 50000) g,
		LATERAL (SELECT now() - interval ''3 hours'' - (50000 - g) * (interval ''30 days'' / 50000) AS at) a', name, columns);
	EXECUTE format('CREATE INDEX ON %I (at); CREATE INDEX ON %1$I (t); CREATE INDEX ON %1$I (b);
		CREATE INDEX ON %1$I (u); CREATE INDEX ON %1$I (s); ANALYZE %1$I', name);
	EXECUTE format('INSERT INTO %I SELECT %s FROM generate_series(1, %s) g,
		LATERAL (SELECT now() - interval ''3 hours'' + g * (interval ''3 hours'' / %3$s) AS at) a', name, columns, newer);
END $$;
CALL stale_table('stale_few', 500);
CALL stale_table('stale_many', 15000);
-- 'ok' when an estimate is within 2x of the actual rows
CREATE FUNCTION within_2x(q text) RETURNS text LANGUAGE sql AS $$ SELECT estimate_within(q, 2) $$;

-- windows ending now, every type, beside the same window on the timestamptz column (`at` is past the
-- histogram for PostgreSQL's estimator too, which reads the actual end but cannot interpolate past it)
SELECT tbl, w,
       within_2x(format('SELECT * FROM %I WHERE at >= now() - %L::interval', tbl, w)) = 'ok' AS timestamptz_within_2x,
       within_2x(format('SELECT * FROM %I WHERE t <@ tstzrange(now() - %L::interval, NULL)', tbl, w)) AS timeid,
       within_2x(format('SELECT * FROM %I WHERE b <@ tstzrange(now() - %L::interval, now())', tbl, w)) AS tbsl,
       within_2x(format('SELECT * FROM %I WHERE u <@ tstzrange(now() - %L::interval, NULL)', tbl, w)) AS uid11,
       within_2x(format('SELECT * FROM %I WHERE s <@ tstzrange(now() - %L::interval, NULL)', tbl, w)) AS scru160
FROM unnest(ARRAY['stale_few', 'stale_many']) tbl, unnest(ARRAY['10 minutes', '1 hour', '1 day']) w ORDER BY 1, 2;
-- one-sided bounds from T_min, and a window that ends before the newest rows
SELECT tbl,
       within_2x(format('SELECT * FROM %I WHERE t >= timeid_min(now() - interval ''30 minutes'')', tbl)) AS timeid,
       within_2x(format('SELECT * FROM %I WHERE b > tbsl_min(now() - interval ''30 minutes'')', tbl)) AS tbsl,
       within_2x(format('SELECT * FROM %I WHERE uid11_min(now() - interval ''30 minutes'') <= u', tbl)) AS uid11_commuted,
       within_2x(format('SELECT * FROM %I WHERE s >= scru160_min(now() - interval ''30 minutes'')', tbl)) AS scru160,
       within_2x(format('SELECT * FROM %I WHERE t ^@ left(timeid_min(now() - interval ''1 hour'')::text, 5)', tbl)) AS timeid_prefix,
       within_2x(format('SELECT * FROM %I WHERE t <@ tstzrange(now() - interval ''2 hours'', now() - interval ''1 hour'')', tbl)) AS timeid_past_hour,
       within_2x(format('SELECT * FROM %I WHERE s < scru160_min(now() - interval ''1 hour'')', tbl)) AS scru160_before
FROM unnest(ARRAY['stale_few', 'stale_many']) tbl ORDER BY 1;

-- the two-sided last-hour self-join: a hash or merge join, as on the timestamptz column (a nested loop
-- would scan the inner window once per outer row)
CREATE FUNCTION join_method(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line ~ '(Hash Join|Merge Join|Nested Loop)' THEN
			RETURN substring(line FROM '(Hash Join|Merge Join|Nested Loop)');
		END IF;
	END LOOP;
	RETURN 'none';
END $$;
SELECT tbl, join_method(format('SELECT count(*) FROM %I a JOIN %1$I b ON a.uid = b.uid
		WHERE a.at >= now() - interval ''1 hour'' AND b.at >= now() - interval ''1 hour''', tbl)) ~ '^(Hash|Merge) Join$' AS timestamptz,
       join_method(format('SELECT count(*) FROM %I a JOIN %1$I b ON a.uid = b.uid
		WHERE a.%2$I <@ tstzrange(now() - interval ''1 hour'', NULL) AND b.%2$I <@ tstzrange(now() - interval ''1 hour'', NULL)', tbl, c)) ~ '^(Hash|Merge) Join$' AS id_hash_or_merge,
       c
FROM unnest(ARRAY['stale_few', 'stale_many']) tbl, unnest(ARRAY['t', 'b', 'u', 's']) c ORDER BY 1, 4;

-- rows removed by retention (then vacuumed) below the histogram's first bound: a window reaching back
-- before it counts only what lies past the actual start
DELETE FROM stale_few WHERE at < now() - interval '20 days';
VACUUM stale_few;
SELECT within_2x('SELECT * FROM stale_few WHERE t <@ tstzrange(now() - interval ''40 days'', now() - interval ''15 days'')') AS timeid,
       within_2x('SELECT * FROM stale_few WHERE s BETWEEN scru160_min(now() - interval ''40 days'') AND scru160_max(now() - interval ''15 days'')') AS scru160_between;

DROP TABLE stale_few, stale_many;
DROP FUNCTION within_2x(text), join_method(text);
DROP PROCEDURE stale_table(text, int);
RESET max_parallel_workers_per_gather;
RESET default_statistics_target;
