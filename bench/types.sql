-- idtypes benchmarks against PostgreSQL's own types, run by scripts/bench.sh in a throwaway cluster.
-- Every figure is the median of :runs runs, timed on the server (clock_timestamp around EXECUTE); the runs of
-- a section's subjects alternate (see run_jobs).
-- Results go to the table `results`; types.sh adds the pgbench figures and prints the report.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION idtypes;
-- PostgreSQL 18 and later have uuidv7(): its uuids are one more subject (`uuidv7`, of type uuid)
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset

CREATE TABLE results (section text, subject text, unit text, value float8);

-- milliseconds one statement takes
CREATE FUNCTION timed(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;

-- Statements to time: `before` runs untimed ahead of each run of `q`. run_jobs(runs) runs every queued job
-- `runs` times, round robin (one run of each job, then the next round), so that slow drifts of a shared
-- machine fall on every subject alike, each run in a transaction of its own (as a user would load or index,
-- and so that what one run leaves, such as a truncated table's old files, weighs on no other); it records
-- each job's median and empties the queue.
CREATE TABLE jobs (n serial, section text, subject text, q text, before text);
CREATE TABLE samples (n int, ms float8);
CREATE PROCEDURE run_jobs(runs int) LANGUAGE plpgsql AS $$
DECLARE job record;
BEGIN
	FOR i IN 1..runs LOOP
		FOR job IN SELECT * FROM jobs ORDER BY n LOOP
			IF job.before IS NOT NULL THEN
				EXECUTE job.before;
				COMMIT;
			END IF;
			INSERT INTO samples VALUES (job.n, timed(job.q));
			COMMIT;
		END LOOP;
	END LOOP;
	INSERT INTO results
	SELECT j.section, j.subject, 'ms', percentile_cont(0.5) WITHIN GROUP (ORDER BY s.ms)
	FROM jobs j JOIN samples s USING (n) GROUP BY j.n, j.section, j.subject;
	DELETE FROM samples;
	DELETE FROM jobs;
END $$;

SET work_mem = '1GB';
SET maintenance_work_mem = '1GB';
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;
SET jit = off;

-- 1. generation: 2M calls
CREATE SEQUENCE bench_seq;
INSERT INTO jobs (section, subject, q)
SELECT '1 generation (2M calls)', g || '()', format('SELECT count(%s()) FROM generate_series(1, 2000000)', g)
FROM unnest(ARRAY['timeid_generate', 'tbsl_generate', 'uid11_generate', 'scru160_generate', 'uuid_v7_generate',
                  'gen_random_uuid', 'clock_timestamp'] || CASE WHEN :'has_uuidv7'::boolean THEN ARRAY['uuidv7'] ELSE '{}' END) g;
INSERT INTO jobs (section, subject, q)
VALUES ('1 generation (2M calls)', 'nextval()', $q$SELECT count(nextval('bench_seq')) FROM generate_series(1, 2000000)$q$);
CALL run_jobs(:runs);

-- 2M values of every type, in random order; bigint values are random 64-bit numbers (text of ~19 digits)
CREATE TABLE data_timeid AS SELECT timeid_generate() AS id FROM generate_series(1, 2000000) ORDER BY random();
CREATE TABLE data_tbsl AS SELECT tbsl_generate() AS id FROM generate_series(1, 2000000) ORDER BY random();
CREATE TABLE data_uid11 AS SELECT uid11_generate() AS id FROM generate_series(1, 2000000) ORDER BY random();
CREATE TABLE data_scru160 AS SELECT scru160_generate() AS id FROM generate_series(1, 2000000) ORDER BY random();
CREATE TABLE data_uuid AS SELECT gen_random_uuid() AS id FROM generate_series(1, 2000000);
CREATE TABLE data_bigint AS SELECT hashint8extended(g, 42) AS id FROM generate_series(1, 2000000) g;
-- every subject: its name (tables data_<t>, ...) and its SQL type
CREATE TEMP TABLE types AS SELECT * FROM (VALUES ('timeid', 'timeid'), ('tbsl', 'tbsl'), ('uid11', 'uid11'),
	('scru160', 'scru160'), ('uuid', 'uuid'), ('bigint', 'bigint')) v(t, typ);
\if :has_uuidv7
CREATE TABLE data_uuidv7 AS SELECT uuidv7() AS id FROM generate_series(1, 2000000) ORDER BY random();
INSERT INTO types VALUES ('uuidv7', 'uuid');
\endif
SELECT format('CREATE TABLE text_%1$s AS SELECT id::text AS t FROM data_%1$s', t) FROM types \gexec
SELECT format('CREATE TABLE load_%1$s (id %2$s)', t, typ) FROM types \gexec
VACUUM ANALYZE;

-- 2. text input and output
INSERT INTO jobs (section, subject, q)
SELECT '2 text output: COPY 2M TO file', t, format($q$COPY data_%1$s TO '/tmp/idtypes_bench_%1$s.txt'$q$, t) FROM types;
CALL run_jobs(:runs);
INSERT INTO jobs (section, subject, q, before)
SELECT '2 text input: COPY 2M FROM file', t, format($q$COPY load_%1$s FROM '/tmp/idtypes_bench_%1$s.txt'$q$, t),
       format('TRUNCATE load_%s', t)
FROM types;
CALL run_jobs(:runs);
INSERT INTO jobs (section, subject, q)
SELECT '2 text input: 2M casts from text', t, format('SELECT count(t::%2$s) FROM text_%1$s', t, typ) FROM types
UNION ALL
SELECT '2 text output: 2M casts to text', t, format('SELECT count(id::text) FROM data_%1$s', t) FROM types;
CALL run_jobs(:runs);

-- 3. sorting 2M rows in memory
INSERT INTO jobs (section, subject, q)
SELECT '3 sort 2M rows in memory', t, format('SELECT id FROM data_%s ORDER BY id OFFSET 1999999', t) FROM types;
CALL run_jobs(:runs);

-- 4. CREATE INDEX, and sizes per row
INSERT INTO jobs (section, subject, q, before)
SELECT '4 CREATE INDEX on 2M rows', t, format('CREATE INDEX idx_%1$s ON data_%1$s (id)', t),
       format('DROP INDEX IF EXISTS idx_%s', t)
FROM types;
CALL run_jobs(:runs);
INSERT INTO results SELECT '4 btree index bytes per row', t, 'bytes', pg_relation_size(format('idx_%s', t)) / 2000000.0 FROM types;
INSERT INTO results SELECT '4 table bytes per row', t, 'bytes', pg_relation_size(format('data_%s', t)) / 2000000.0 FROM types;

-- 6. prefix and time-window queries through the index, against the same range written by hand
-- (2M time-ordered IDs, one per 10 µs; 2000 queries of ~100 rows each, planned every time)
CREATE TABLE ordered_timeid AS SELECT make_timeid(1700000000000000 + g * 10, 1) AS id FROM generate_series(1, 2000000) g;
CREATE TABLE ordered_tbsl AS SELECT make_tbsl(1700000000 + g / 100000, (g % 100000) * 10, 1, 0) AS id FROM generate_series(1, 2000000) g;
CREATE TABLE ordered_uid11 AS SELECT make_uid11_xid(1700000000000 + g / 100, g % 100) AS id FROM generate_series(1, 2000000) g;
CREATE TABLE ordered_scru160 AS SELECT make_scru160(1700000000000 + g / 100, g % 100, 0, '\x00000000000000000000') AS id FROM generate_series(1, 2000000) g;
SELECT format('CREATE INDEX ON ordered_%s (id)', t) FROM unnest(ARRAY['timeid', 'tbsl', 'uid11', 'scru160']) t \gexec
VACUUM ANALYZE;

-- 2000 selections per type and operator, each planned and run: the operator against the same range
-- written by hand as constants (computed beforehand). Windows are 1 ms long, every 10 ms; prefixes are
-- those of stored IDs, long enough to select tens to hundreds of rows.
CREATE TABLE selections (t text, op text, arg text, lo text, hi text);
SELECT format($q$INSERT INTO selections
	SELECT %1$L, '<@', w::text, %1$s_window_lo(w)::text, %1$s_window_hi(w)::text
	FROM (SELECT tstzrange(at, at + interval '1 ms') AS w
	      FROM generate_series(0, 1999) i, LATERAL (SELECT timestamptz '2023-11-14 22:13:20+00' + i * interval '10 ms' AS at) a) s;
	INSERT INTO selections
	SELECT %1$L, '^@', p, %1$s_prefix_lo(p)::text, %1$s_prefix_hi(p)::text
	FROM (SELECT DISTINCT left(id::text, %2$s) AS p FROM ordered_%1$s) s ORDER BY p LIMIT 2000$q$, t, len)
FROM (VALUES ('timeid', 9), ('tbsl', 11), ('uid11', 7), ('scru160', 9)) v(t, len) \gexec

CREATE FUNCTION run_selections(type_name text, op text, by_hand boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r record;
	n bigint;
BEGIN
	FOR r IN SELECT * FROM selections s WHERE s.t = type_name AND s.op = run_selections.op LOOP
		IF by_hand THEN
			EXECUTE format('SELECT count(*) FROM ordered_%1$s WHERE id >= %2$L::%1$s AND id <= %3$L::%1$s', type_name, r.lo, r.hi) INTO n;
		ELSE
			EXECUTE format('SELECT count(*) FROM ordered_%1$s WHERE id %2$s %3$L', type_name, op, r.arg) INTO n;
		END IF;
	END LOOP;
END $$;
INSERT INTO jobs (section, subject, q)
SELECT '6 ' || CASE op WHEN '^@' THEN 'prefix' ELSE 'time window' END || ': 2000 indexed queries',
       t || ' ' || op || CASE WHEN by_hand THEN ' by hand' ELSE '' END,
       format('SELECT run_selections(%L, %L, %L)', t, op, by_hand)
FROM unnest(ARRAY['timeid', 'tbsl', 'uid11', 'scru160']) t, unnest(ARRAY['^@', '<@']) op, unnest(ARRAY[false, true]) by_hand;
CALL run_jobs(:runs);
