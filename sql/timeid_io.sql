-- timeid: text and binary I/O, casts, fields, constructors and generation.

-- the atproto examples of valid TIDs, and canonical output
SELECT '3jzfcijpj2z2a'::timeid, '7777777777777'::timeid, '3zzzzzzzzzzzz'::timeid, '2222222222222'::timeid;
-- top bit set (first character c..j): accepted, sorts after everything else
SELECT 'c222222222222'::timeid AS top_min, 'jzzzzzzzzzzzz'::timeid AS top_max,
       'c222222222222'::timeid > 'bzzzzzzzzzzzz'::timeid AS sorts_last;

-- the atproto examples of invalid TIDs, one per line, with the reason in the DETAIL
SELECT '3jzfcijpj2z21'::timeid;
SELECT '0000000000000'::timeid;
SELECT '3JZFCIJPJ2Z2A'::timeid;
SELECT '3jzfcijpj2z2aa'::timeid;
SELECT '3jzfcijpj2z2'::timeid;
SELECT '222'::timeid;
SELECT '3jzf-cij-pj2z-2a'::timeid;
SELECT 'zzzzzzzzzzzzz'::timeid;
SELECT 'kjzfcijpj2z2a'::timeid;
-- more edges: empty, whitespace, a trailing newline, a non-ASCII byte
SELECT ''::timeid;
SELECT ' 3jzfcijpj2z2a'::timeid;
SELECT E'3jzfcijpj2z2\n'::timeid;
SELECT '3jzfcijpj2zé'::timeid;
-- the SQLSTATE is 22P02
DO $$ BEGIN PERFORM '3JZF'::timeid; EXCEPTION WHEN invalid_text_representation THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- the draft's examples (the first one corrected: the draft's 3kxn-lhr-3gxq-23 is that time read in UTC-7)
SELECT make_timeid(1645557742000000, 0) AS draft_2022, make_timeid(1721382046481000, 1) AS draft_2024,
       timeid_to_dashed(make_timeid(1721382046481000, 1)) AS dashed;

-- fields and edges of make_timeid
SELECT t, timeid_micros(t), timeid_clock_id(t), timeid_to_dashed(t)
FROM (VALUES (make_timeid(0, 0)), (make_timeid(0, 1023)), (make_timeid(9007199254740991, 0)),
             (make_timeid(9007199254740991, 1023)), ('jzzzzzzzzzzzz'::timeid)) v(t);
SELECT make_timeid(-1, 0);
SELECT make_timeid(9007199254740992, 0);
SELECT make_timeid(0, -1);
SELECT make_timeid(0, 1024);
DO $$ BEGIN PERFORM make_timeid(0, 1024); EXCEPTION WHEN numeric_value_out_of_range THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- casts: bytea (raw big-endian bytes), bigint, timestamptz, text
SELECT '3iso34eqpw222'::timeid::bytea, '\x0000000000000001'::bytea::timeid, '\xffffffffffffffff'::bytea::timeid;
SELECT '\x00000000000001'::bytea::timeid;
SELECT '\x000000000000000001'::bytea::timeid;
SELECT '3iso34eqpw222'::timeid::bigint, 1685089616752640000::bigint::timeid, 0::bigint::timeid;
SELECT 'c222222222222'::timeid::bigint;
SELECT (-1)::bigint::timeid;
SELECT '3iso34eqpw222'::timeid::timestamptz AS draft_instant, timeid_timestamp('3kxmtyqiinc23');
SELECT 'jzzzzzzzzzzzz'::timeid::timestamptz AS latest_time;
SELECT '3iso34eqpw222'::timeid::text, '3iso34eqpw222'::text::timeid;

-- timeid_min / timeid_max at microsecond precision; outside 1970..2540: 22008
SELECT timeid_min('2022-02-22 19:22:22.000001+00'), timeid_max('2022-02-22 19:22:22.000001+00');
SELECT timeid_min('1970-01-01 00:00:00+00'), timeid_max('2540-11-07 23:35:09.481983+00');
SELECT timeid_min('1969-12-31 23:59:59.999999+00');
SELECT timeid_max('2540-11-07 23:35:09.481984+00');
SELECT timeid_min('infinity');
DO $$ BEGIN PERFORM timeid_min('1960-01-01'); EXCEPTION WHEN datetime_field_overflow THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- binary send/recv: a COPY round trip, and a value of the wrong length
CREATE TEMP TABLE bin_src (id timeid);
INSERT INTO bin_src VALUES ('2222222222222'), ('3kxmtyqiinc23'), ('jzzzzzzzzzzzz');
-- (psql's \copy through a client-side file in pg_regress's results directory: no fixed server-side path)
\copy bin_src TO 'results/timeid.bin' (FORMAT binary)
CREATE TEMP TABLE bin_dst (id timeid);
\copy bin_dst FROM 'results/timeid.bin' (FORMAT binary)
SELECT id FROM bin_dst ORDER BY id;
SELECT timeid_send('3kxmtyqiinc23');
CREATE TEMP TABLE bin_short (b bytea);
INSERT INTO bin_short VALUES ('\x01020304050607');
\copy bin_short TO 'results/timeid_short.bin' (FORMAT binary)
\copy bin_dst FROM 'results/timeid_short.bin' (FORMAT binary)
INSERT INTO bin_short VALUES ('\x010203040506070809');
DELETE FROM bin_short WHERE length(b) = 7;
\copy bin_short TO 'results/timeid_long.bin' (FORMAT binary)
\copy bin_dst FROM 'results/timeid_long.bin' (FORMAT binary)

-- generation: strictly increasing within a session, clock id from the argument or the setting
CREATE TEMP TABLE gen AS SELECT g, timeid_generate() AS id FROM generate_series(1, 10000) g;
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(id > prev) AS strictly_increasing,
       count(DISTINCT timeid_clock_id(id)) AS clock_ids_used
FROM (SELECT id, lag(id, 1, '2222222222222') OVER (ORDER BY g) AS prev FROM gen) s;
SELECT abs(extract(epoch FROM timeid_generate()::timestamptz - clock_timestamp())) < 5 AS near_now;
SELECT timeid_clock_id(timeid_generate(0)), timeid_clock_id(timeid_generate(1023)),
       timeid_clock_id(timeid_generate(NULL)) BETWEEN 0 AND 1023 AS random_clock;
SELECT timeid_generate(1024);
SELECT timeid_generate(-1);
SET idtypes.timeid_clock_id = 77;
SELECT timeid_clock_id(timeid_generate()), timeid_clock_id(timeid_generate(5));
RESET idtypes.timeid_clock_id;
SET idtypes.timeid_clock_id = 1024;
SET idtypes.no_such_setting = 1;
-- a column default gives every row its own value
CREATE TEMP TABLE posts (id timeid PRIMARY KEY DEFAULT timeid_generate(), body text);
INSERT INTO posts (body) SELECT 'post ' || g FROM generate_series(1, 1000) g;
SELECT count(*), count(DISTINCT id) FROM posts;

-- markings: everything but the generators, the estimators and in_range (stable, as for timestamptz) is
-- immutable, strict and parallel safe
SELECT proname, provolatile, proparallel, proisstrict
FROM pg_proc WHERE proname LIKE '%timeid%' AND (provolatile <> 'i' OR proparallel <> 's' OR NOT proisstrict)
ORDER BY proname;
