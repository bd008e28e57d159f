-- uid11: text and binary I/O, casts, xid fields, constructors and generation.

-- the spec's test vectors (§8.6) and the extremes
SELECT '11111111111'::uid11, make_uid11_xid(1321009871111, 0) AS zero, make_uid11_xid(1321009871112, 0) AS plus_1ms,
       make_uid11_xid(1321009871111 + 86400000, 0) AS plus_1day;
SELECT '113q8KFkAEs'::uid11::bytea AS plus_1day_hex, 'jpXCZedGfVQ'::uid11::numeric AS max_value;

-- rejections: length, alphabet (0 O I l), overflow past 2^64-1, anything else
SELECT ''::uid11;
SELECT '1111111111'::uid11;
SELECT '111111111111'::uid11;
SELECT '0111111111a'::uid11;
SELECT '1O111111111'::uid11;
SELECT '11I11111111'::uid11;
SELECT '111l1111111'::uid11;
SELECT 'jpXCZedGfVR'::uid11;
SELECT 'zzzzzzzzzzz'::uid11;
SELECT ' 1111111111'::uid11;
SELECT E'1111111111\n'::uid11;
DO $$ BEGIN PERFORM 'jpXCZedGfVR'::uid11; EXCEPTION WHEN invalid_text_representation THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- xid fields: timestamps at millisecond precision, the random part
SELECT u, u::timestamptz AS created, uid11_xid_random(u) AS random
FROM (VALUES ('11111111111'::uid11), ('1111111NVpb'), ('113q8KFkAEs'), (make_uid11_xid(1721382046481, 4194303)),
             ('jpXCZedGfVQ')) v(u);
SELECT make_uid11_xid(1321009871110, 0);
SELECT make_uid11_xid(5719056382215, 0);
SELECT make_uid11_xid(1721382046481, 4194304);
SELECT make_uid11_xid(1721382046481, -1);
SELECT uid11_min('2024-07-19 09:40:46.481999+00'), uid11_max('2024-07-19 09:40:46.481+00');
SELECT uid11_min('2011-11-11 11:11:11.111+00'), uid11_max('2151-03-25 18:46:22.214+00');
SELECT uid11_min('2011-11-11 11:11:11.110999+00');
SELECT uid11_max('2151-03-25 18:46:22.215+00');

-- casts: bytea, numeric (whole numbers 0..2^64-1), text
SELECT '\x0000000000400000'::bytea::uid11, '1111111NVpb'::uid11::bytea;
SELECT '\x00000000004000'::bytea::uid11;
SELECT 0::numeric::uid11, 18446744073709551615::numeric::uid11, 4194304.000::numeric::uid11;
SELECT 18446744073709551616::numeric::uid11;
SELECT (-1)::numeric::uid11;
SELECT 1.5::numeric::uid11;
SELECT 'NaN'::numeric::uid11;
DO $$ BEGIN PERFORM (-1)::numeric::uid11; EXCEPTION WHEN numeric_value_out_of_range THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;
SELECT '113q8KFkAEs'::uid11::text, '113q8KFkAEs'::text::uid11;

-- binary COPY round trip and a wrong length
CREATE TEMP TABLE u_src (id uid11);
INSERT INTO u_src VALUES ('11111111111'), ('113q8KFkAEs'), ('jpXCZedGfVQ');
-- (psql's \copy through a client-side file in pg_regress's results directory: no fixed server-side path)
\copy u_src TO 'results/uid11.bin' (FORMAT binary)
CREATE TEMP TABLE u_dst (id uid11);
\copy u_dst FROM 'results/uid11.bin' (FORMAT binary)
SELECT id FROM u_dst ORDER BY id;
CREATE TEMP TABLE u_short (b bytea);
INSERT INTO u_short VALUES ('\x010203');
\copy u_short TO 'results/uid11_short.bin' (FORMAT binary)
\copy u_dst FROM 'results/uid11_short.bin' (FORMAT binary)

-- generation: xid from the clock, a random field for each new millisecond, then increasing within it (so
-- unlike plain random fields, spec §8.5, no collisions); fullrand with 64 random bits
CREATE TEMP TABLE xids AS SELECT g, uid11_generate() AS id FROM generate_series(1, 20000) g;
SELECT count(DISTINCT id) = 20000 AS distinct_ids,
       count(DISTINCT uid11_xid_random(id)) > 5000 AS random_bits_vary,
       bool_and(abs(extract(epoch FROM id::timestamptz - clock_timestamp())) < 60) AS near_now
FROM xids;
SELECT bool_and(id > prev) AS strictly_increasing FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM xids) s
WHERE prev IS NOT NULL;
CREATE TEMP TABLE fullrand AS SELECT uid11_generate_random() AS id FROM generate_series(1, 20000);
SELECT count(DISTINCT id) = 20000 AS distinct_ids,
       count(DISTINCT left(id::text, 1)) > 30 AS spread_over_the_space
FROM fullrand;
SELECT proname, provolatile, proparallel FROM pg_proc WHERE proname LIKE 'uid11_generate%' ORDER BY 1;
