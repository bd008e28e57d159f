-- The planner on tables written to since their last ANALYZE: the newest rows lie past the histogram's last
-- bound, where statistics alone say 1 row. The estimators read the column's actual end from its index and
-- spread the rows written since ANALYZE over [last bound, actual end]: counted beyond pg_class.reltuples
-- until a VACUUM, by the cumulative statistics (n_mod_since_analyze) after it, at the histogram's own pace
-- when those were reset. Each table has 50,000 rows over 30 days ending 3 hours ago when ANALYZE reads it
-- whole (fewer rows than it samples at this statistics target), then 1 % or 30 % more rows over the last
-- 3 hours (and a table whose last 3 hours come at the pace of the 30 days); autovacuum is off for them.
SET default_statistics_target = 400;
SET max_parallel_workers_per_gather = 0;
CREATE PROCEDURE stale_table(name text) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE %I (uid int, at timestamptz, t timeid, b tbsl, u uid11, s scru160) WITH (autovacuum_enabled = off)', name);
	EXECUTE format('INSERT INTO %I SELECT g %% 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)
		FROM generate_series(1, 50000) g,
		LATERAL (SELECT now() - interval ''3 hours'' - (50000 - g) * (interval ''30 days'' / 50000) AS at) a', name);
	EXECUTE format('CREATE INDEX ON %I (at); CREATE INDEX ON %1$I (t); CREATE INDEX ON %1$I (b);
		CREATE INDEX ON %1$I (u); CREATE INDEX ON %1$I (s)', name);
END $$;
CREATE PROCEDURE add_newer(name text, newer int) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO %I SELECT g %% 1000, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)
		FROM generate_series(1, %s) g,
		LATERAL (SELECT now() - interval ''3 hours'' + g * (interval ''3 hours'' / %2$s) AS at) a', name, newer);
END $$;
CALL stale_table('stale_few');
CALL stale_table('stale_many');
CALL stale_table('stale_steady');
-- a backend reports its counts to the cumulative statistics when idle, at most once a second: make the
-- load's and the newer rows' counts reach them now, as they would in seconds
SELECT pg_stat_force_next_flush();
ANALYZE stale_few, stale_many, stale_steady;
CALL add_newer('stale_few', 500);
CALL add_newer('stale_many', 15000);
CALL add_newer('stale_steady', 208); -- 50,000 rows in 30 days: 208 in 3 hours
SELECT pg_stat_force_next_flush();

-- 'ok' when an estimate is within 2x of the actual rows
CREATE FUNCTION within_2x(q text) RETURNS text LANGUAGE sql AS $$ SELECT estimate_within(q, 2) $$;
-- every form of window past the last bound, every type (t timeid, b tbsl, u uid11, s scru160): now()-relative
-- windows open or closed, T_min / T_max bounds (one, commuted, BETWEEN, three bounds), a window ending
-- before the newest rows, a parameter in a custom plan, and a now()-relative window in a generic plan
CREATE FUNCTION stale_checks(tbl text) RETURNS TABLE (form text, timeid text, tbsl text, uid11 text, scru160 text)
LANGUAGE plpgsql AS $$
DECLARE
	forms text[][] := ARRAY[
		['open, last 10 minutes', '%1$s <@ tstzrange(now() - interval ''10 minutes'', NULL)'],
		['open, last hour', '%1$s <@ tstzrange(now() - interval ''1 hour'', NULL)'],
		['open, last day', '%1$s <@ tstzrange(now() - interval ''1 day'', NULL)'],
		['closed, last hour', '%1$s <@ tstzrange(now() - interval ''1 hour'', now())'],
		['the hour before', '%1$s <@ tstzrange(now() - interval ''2 hours'', now() - interval ''1 hour'')'],
		['T_min', '%1$s >= %2$s_min(now() - interval ''30 minutes'')'],
		['T_min commuted', '%2$s_min(now() - interval ''30 minutes'') < %1$s'],
		['BETWEEN T_min AND T_max', '%1$s BETWEEN %2$s_min(now() - interval ''2 hours'') AND %2$s_max(now() - interval ''1 hour'')'],
		['three bounds', '%1$s >= %2$s_min(now() - interval ''1 hour'') AND %1$s < %2$s_min(now()) AND %1$s <= %2$s_max(now() + interval ''1 day'')'],
		['before the last hour', '%1$s < %2$s_min(now() - interval ''1 hour'')'],
		['custom plan, parameter', 'EXECUTE'],
		['generic plan, now()', 'EXECUTE']];
	columns text[] := ARRAY['t', 'b', 'u', 's'];
	types text[] := ARRAY['timeid', 'tbsl', 'uid11', 'scru160'];
	results text[];
BEGIN
	FOR f IN 1..array_length(forms, 1) LOOP
		form := forms[f][1];
		results := '{}';
		FOR c IN 1..4 LOOP
			IF form = 'custom plan, parameter' THEN
				EXECUTE format('PREPARE stale_q(timestamptz) AS SELECT * FROM %I WHERE %s <@ tstzrange($1, NULL)', tbl, columns[c]);
				PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
				results := results || within_2x(format('EXECUTE stale_q(%L)', now() - interval '1 hour'));
			ELSIF form = 'generic plan, now()' THEN
				EXECUTE format('PREPARE stale_q AS SELECT * FROM %I WHERE %s >= %s_min(now() - interval ''1 hour'')', tbl, columns[c], types[c]);
				PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
				results := results || within_2x('EXECUTE stale_q');
			ELSE
				results := results || within_2x(format('SELECT * FROM %I WHERE ', tbl) || format(forms[f][2], columns[c], types[c]));
			END IF;
			IF form LIKE '%plan%' THEN
				DEALLOCATE stale_q;
				PERFORM set_config('plan_cache_mode', 'auto', true);
			END IF;
		END LOOP;
		timeid := results[1];
		tbsl := results[2];
		uid11 := results[3];
		scru160 := results[4];
		RETURN NEXT;
	END LOOP;
END $$;
-- the two-sided last-hour self-join: a hash or merge join, as on the timestamptz column (a nested loop
-- would scan the inner window once per outer row)
CREATE FUNCTION join_shapes(tables text[]) RETURNS TABLE (tbl text, timestamptz boolean, timeid boolean, tbsl boolean,
	uid11 boolean, scru160 boolean) LANGUAGE sql AS $$
	SELECT tbl, bool_and(join_method(format('SELECT count(*) FROM %I a JOIN %1$I b ON a.uid = b.uid
			WHERE a.at >= now() - interval ''1 hour'' AND b.at >= now() - interval ''1 hour''', tbl)) ~ '^(Hash|Merge) Join$'),
		bool_and(shape) FILTER (WHERE c = 't'), bool_and(shape) FILTER (WHERE c = 'b'),
		bool_and(shape) FILTER (WHERE c = 'u'), bool_and(shape) FILTER (WHERE c = 's')
	FROM unnest(tables) tbl, unnest(ARRAY['t', 'b', 'u', 's']) c,
		LATERAL (SELECT join_method(format('SELECT count(*) FROM %I a JOIN %1$I b ON a.uid = b.uid
			WHERE a.%2$I <@ tstzrange(now() - interval ''1 hour'', NULL) AND b.%2$I <@ tstzrange(now() - interval ''1 hour'', NULL)',
			tbl, c)) ~ '^(Hash|Merge) Join$' AS shape) j
	GROUP BY tbl ORDER BY tbl $$;

-- after ANALYZE, before any VACUUM
SELECT * FROM stale_checks('stale_few');
SELECT * FROM stale_checks('stale_many');
SELECT * FROM join_shapes(ARRAY['stale_few', 'stale_many']);

-- after a VACUUM without ANALYZE, the histogram still ends before the newer rows. What the VACUUM leaves in
-- pg_class is PostgreSQL's, and differs by version and settings, so each state a server can be in is set here
-- explicitly and checked: the same estimates and plans in both.
-- 1. a VACUUM that reads the pages holding the newer rows (15 to 18 read every page that is not yet
--    all-visible; DISABLE_PAGE_SKIPPING makes every version read them all): reltuples counts the newer rows
VACUUM (DISABLE_PAGE_SKIPPING) stale_few, stale_many, stale_steady;
SELECT relname, reltuples > 50000 AS reltuples_counts_newer, n_mod_since_analyze > 0 AS changed_since_analyze
FROM pg_class JOIN pg_stat_user_tables USING (relname) WHERE relname LIKE 'stale%' ORDER BY 1;
SELECT * FROM stale_checks('stale_few');
SELECT * FROM stale_checks('stale_many');
SELECT * FROM join_shapes(ARRAY['stale_few', 'stale_many']);
SELECT within_2x('SELECT * FROM stale_few WHERE t ^@ left(timeid_min(now() - interval ''1 hour'')::text, 5)') AS timeid_prefix;
-- 2. 19's: a read marks the pages all-visible (when their hint bits can be set: at once with
--    synchronous_commit = on, initdb's default), so the VACUUM that follows reads almost none and keeps
--    reltuples as ANALYZE set it, relpages counting the pages the newer rows added. Set here as it leaves it.
UPDATE pg_class SET reltuples = 50000 WHERE relname IN ('stale_few', 'stale_many');
SELECT relname, reltuples = 50000 AS reltuples_of_analyze, relpages = pg_relation_size(relname::regclass) / current_setting('block_size')::int AS relpages_current,
	last_vacuum > last_analyze AS vacuumed_since_analyze
FROM pg_class JOIN pg_stat_user_tables USING (relname) WHERE relname IN ('stale_few', 'stale_many') ORDER BY 1;
SELECT * FROM stale_checks('stale_few');
SELECT * FROM stale_checks('stale_many');
SELECT * FROM join_shapes(ARRAY['stale_few', 'stale_many']);
SELECT within_2x('SELECT * FROM stale_few WHERE t ^@ left(timeid_min(now() - interval ''1 hour'')::text, 5)') AS timeid_prefix;

-- the cumulative statistics lost (as after a crash or an immediate shutdown): the histogram's pace carries
-- the rows past its last bound
SELECT pg_stat_reset_single_table_counters('stale_steady'::regclass);
SELECT n_mod_since_analyze, last_analyze IS NULL AS analyze_forgotten FROM pg_stat_user_tables WHERE relname = 'stale_steady';
SELECT * FROM stale_checks('stale_steady');

-- rows removed by retention (then vacuumed) below the histogram's first bound: a window reaching back
-- before it counts only what lies past the actual start
DELETE FROM stale_few WHERE at < now() - interval '20 days';
SELECT pg_stat_force_next_flush();
VACUUM stale_few;
SELECT within_2x('SELECT * FROM stale_few WHERE t <@ tstzrange(now() - interval ''40 days'', now() - interval ''15 days'')') AS timeid,
       within_2x('SELECT * FROM stale_few WHERE s BETWEEN scru160_min(now() - interval ''40 days'') AND scru160_max(now() - interval ''15 days'')') AS scru160_between;

DROP TABLE stale_few, stale_many, stale_steady;
DROP FUNCTION within_2x(text), stale_checks(text), join_shapes(text[]);
DROP PROCEDURE stale_table(text), add_newer(text, int);
RESET max_parallel_workers_per_gather;
RESET default_statistics_target;
