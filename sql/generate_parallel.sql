-- Every generator in every plan (issue 55): under a Gather over a table big enough for one, in CREATE TABLE
-- AS, in INSERT ... SELECT, with debug_parallel_query (force_parallel_mode before 16) on and regress, and
-- through cursors. The generators with state are PARALLEL RESTRICTED (the leader runs them, in parallel mode
-- while the plan has a Gather); the _at ones are PARALLEL SAFE (workers run them). Each check counts the rows
-- against those planned and their distinct IDs.
CREATE TABLE gp_big AS SELECT g, md5(g::text) AS h FROM generate_series(1, 200000) g;
ANALYZE gp_big;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;

-- Whether a query's plan has a Gather (whatever else the version's EXPLAIN prints).
CREATE FUNCTION gp_gathers(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line LIKE '%Gather%' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;

-- The parallel labels: the generators with state PARALLEL RESTRICTED, the _at ones PARALLEL SAFE.
SELECT p.oid::regprocedure AS generator, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
WHERE p.proname ~ '_generate(_random|_at)?$'
ORDER BY 1::text;

-- A Gather (two workers planned) with every generator in the leader: the rows of the filter, all distinct.
SELECT gp_gathers($$SELECT timeid_generate(), g FROM gp_big WHERE h LIKE 'ab%'$$) AS gather;
CREATE TABLE gp_ids AS
SELECT g, timeid_generate() AS t, uid11_generate() AS x, uid11_generate_random() AS f, scru160_generate() AS s,
       uuid_v7_generate() AS v, tbsl_generate() AS b, tbsl_generate(NULL, true) AS q
FROM gp_big WHERE h LIKE 'ab%';
SELECT count(*) = (SELECT count(*) FROM gp_big WHERE h LIKE 'ab%') AS all_rows, count(*) > 500 AS enough,
       count(DISTINCT t) = count(*) AS t, count(DISTINCT x) = count(*) AS x, count(DISTINCT f) = count(*) AS f,
       count(DISTINCT s) = count(*) AS s, count(DISTINCT v) = count(*) AS v, count(DISTINCT b) = count(*) AS b,
       count(DISTINCT q) = count(*) AS q
FROM gp_ids;

-- The same as a plain SELECT (the leader in parallel mode while the workers scan), then INSERT ... SELECT.
SELECT count(*) = (SELECT count(*) FROM gp_big WHERE h LIKE 'cd%') AS all_rows,
       count(DISTINCT t) = count(*) AS t, count(DISTINCT v) = count(*) AS v, count(DISTINCT f) = count(*) AS f
FROM (SELECT timeid_generate() AS t, uuid_v7_generate() AS v, uid11_generate_random() AS f
      FROM gp_big WHERE h LIKE 'cd%') s;
INSERT INTO gp_ids
SELECT g, timeid_generate(), uid11_generate(), uid11_generate_random(), scru160_generate(), uuid_v7_generate(),
       tbsl_generate(), tbsl_generate(NULL, true)
FROM gp_big WHERE h LIKE 'ef%';
SELECT count(*) = (SELECT count(*) FROM gp_big WHERE h LIKE 'ab%' OR h LIKE 'ef%') AS all_rows,
       count(DISTINCT t) = count(*) AS t, count(DISTINCT x) = count(*) AS x, count(DISTINCT f) = count(*) AS f,
       count(DISTINCT s) = count(*) AS s, count(DISTINCT v) = count(*) AS v, count(DISTINCT b) = count(*) AS b,
       count(DISTINCT q) = count(*) AS q
FROM gp_ids;

-- The _at generators, PARALLEL SAFE, run in the workers.
SELECT gp_gathers($$SELECT count(timeid_generate_at(now())) FROM gp_big$$) AS gather;
SELECT count(timeid_generate_at(now())) = 200000 AS timeid, count(uid11_generate_at(now())) = 200000 AS uid11,
       count(scru160_generate_at(now())) = 200000 AS scru160, count(uuid_v7_generate_at(now())) = 200000 AS uuid,
       count(tbsl_generate_at(now())) = 200000 AS tbsl
FROM gp_big;

-- debug_parallel_query (force_parallel_mode before 16) on, then regress: every statement in parallel mode.
CREATE FUNCTION gp_force_parallel(mode text) RETURNS void LANGUAGE sql AS $$
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, mode, false) $$;
SELECT gp_force_parallel('on');
CREATE TABLE gp_forced AS
SELECT timeid_generate() AS t, uid11_generate() AS x, uid11_generate_random() AS f, scru160_generate() AS s,
       uuid_v7_generate() AS v, tbsl_generate() AS b, tbsl_generate(NULL, true) AS q
FROM generate_series(1, 3000);
SELECT gp_force_parallel('regress');
INSERT INTO gp_forced
SELECT timeid_generate(), uid11_generate(), uid11_generate_random(), scru160_generate(), uuid_v7_generate(),
       tbsl_generate(), tbsl_generate(NULL, true)
FROM generate_series(1, 3000);
SELECT count(*) = 3000 AS all_rows, count(DISTINCT t) = 3000 AS t, count(DISTINCT v) = 3000 AS v,
       count(DISTINCT f) = 3000 AS f
FROM (SELECT timeid_generate() AS t, uuid_v7_generate() AS v, uid11_generate_random() AS f
      FROM generate_series(1, 3000)) s;
SELECT gp_force_parallel('off');
SELECT count(*) = 6000 AS all_rows, count(DISTINCT t) = 6000 AS t, count(DISTINCT x) = 6000 AS x,
       count(DISTINCT f) = 6000 AS f, count(DISTINCT s) = 6000 AS s, count(DISTINCT v) = 6000 AS v,
       count(DISTINCT b) = 6000 AS b, count(DISTINCT q) = 6000 AS q
FROM gp_forced;

-- Cursors: a SQL cursor fetched in steps (its rows kept by a function that fetches), and PL/pgSQL's.
CREATE TABLE gp_fetched (t timeid, v uuid);
CREATE FUNCTION gp_fetch(c refcursor, n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE t timeid; v uuid; got int := 0;
BEGIN
	FOR i IN 1 .. n LOOP
		FETCH c INTO t, v;
		EXIT WHEN NOT FOUND;
		INSERT INTO gp_fetched VALUES (t, v);
		got := got + 1;
	END LOOP;
	RETURN got;
END $$;
BEGIN;
DECLARE gp_c CURSOR FOR SELECT timeid_generate(), uuid_v7_generate() FROM gp_big WHERE h LIKE 'a%';
SELECT gp_fetch('gp_c', 1000) AS fetched;
SELECT pg_sleep(0.2);
SELECT gp_fetch('gp_c', 1000000) = (SELECT count(*) - 1000 FROM gp_big WHERE h LIKE 'a%') AS fetched_rest;
COMMIT;
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT timeid_generate() AS t, uuid_v7_generate() AS v FROM generate_series(1, 5000) LOOP
		INSERT INTO gp_fetched VALUES (r.t, r.v);
	END LOOP;
END $$;
SELECT count(*) = (SELECT count(*) + 5000 FROM gp_big WHERE h LIKE 'a%') AS all_rows,
       count(DISTINCT t) = count(*) AS t, count(DISTINCT v) = count(*) AS v
FROM gp_fetched;

RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE gp_big, gp_ids, gp_forced, gp_fetched;
DROP FUNCTION gp_gathers(text), gp_force_parallel(text), gp_fetch(refcursor, int);
