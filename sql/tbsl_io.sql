-- tbsl: text and binary I/O, casts, fields, base conversions, constructors and generation.

SELECT make_tbsl(1700000000, 123456, 7, 703710) AS t, make_tbsl(0, 0, 0, 0) AS zero,
       make_tbsl(9999999999, 999999, 99, 1048575) AS largest;
SELECT '25BF6196C8D6107ABCDE'::tbsl, 'DE0B6B3A763FFFFFFFFF'::tbsl;

-- rejections: exactly 20 of 0-9A-F, and a payload of at most 18 decimal digits
SELECT '25bf6196c8d6107abcde'::tbsl;
SELECT '25BF6196C8D6107ABCD'::tbsl;
SELECT '25BF6196C8D6107ABCDE0'::tbsl;
SELECT '25BF6196C8D6107ABCDG'::tbsl;
SELECT ' 5BF6196C8D6107ABCDE'::tbsl;
SELECT E'25BF6196C8D6107ABCD\n'::tbsl;
SELECT '0x25BF6196C8D6107ABC'::tbsl;
SELECT 'DE0B6B3A764000000000'::tbsl;
SELECT 'FFFFFFFFFFFFFFFFFFFF'::tbsl;
SELECT ''::tbsl;
DO $$ BEGIN PERFORM 'DE0B6B3A764000000000'::tbsl; EXCEPTION WHEN invalid_text_representation THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- fields and time
SELECT t, t::timestamptz AS created, tbsl_machine_id(t) AS machine, tbsl_suffix(t) AS suffix
FROM (VALUES (make_tbsl(1700000000, 123456, 7, 703710)), ('00000000000000000000'::tbsl), ('DE0B6B3A763FFFFFFFFF')) v(t);
SELECT make_tbsl(-1, 0, 0, 0);
SELECT make_tbsl(10000000000, 0, 0, 0);
SELECT make_tbsl(0, 1000000, 0, 0);
SELECT make_tbsl(0, 0, 100, 0);
SELECT make_tbsl(0, 0, -1, 0);
SELECT make_tbsl(0, 0, 0, 1048576);
SELECT tbsl_min('2023-11-14 22:13:20.123456+00'), tbsl_max('2023-11-14 22:13:20.123456+00');
SELECT tbsl_min('1970-01-01+00'), tbsl_max('2286-11-20 17:46:39.999999+00');
SELECT tbsl_min('2286-11-20 17:46:40+00');
SELECT tbsl_max('1969-12-31 23:59:59.999999+00');

-- base conversions (Infocyph\UID's transport encodings): the 80-bit number, unpadded
SELECT b, tbsl_to_base(t, b) AS encoded, tbsl_from_base(tbsl_to_base(t, b), b) = t AS round_trip
FROM (VALUES (make_tbsl(1700000000, 123456, 7, 703710))) v(t), (VALUES (16), (32), (36), (58), (62)) w(b);
SELECT b, tbsl_to_base('00000000000000000000', b) AS zero, tbsl_to_base('00000000000000000001', b) AS one,
       tbsl_to_base('DE0B6B3A763FFFFFFFFF', b) AS largest
FROM (VALUES (16), (32), (36), (58), (62)) w(b);
SELECT tbsl_from_base('25BF6196C8D6107ABCDE', 16) AS upper_case, tbsl_from_base('0000025bf6196c8d6107abcde', 16) AS leading_zeros,
       tbsl_from_base('1', 58) AS base58_zero, tbsl_from_base('0', 62) AS base62_zero;
SELECT tbsl_from_base('', 16);
SELECT tbsl_from_base('xyz', 16);
SELECT tbsl_from_base('100000000000000000000', 16);
SELECT tbsl_from_base('ffffffffffffffffffff', 16);
SELECT tbsl_from_base('0', 58);
SELECT tbsl_from_base('10', 10);
SELECT tbsl_to_base('00000000000000000001', 64);
DO $$ BEGIN PERFORM tbsl_to_base('00000000000000000001', 2); EXCEPTION WHEN invalid_parameter_value THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;

-- casts: bytea (10 bytes), numeric (the 80-bit value), text
SELECT '25BF6196C8D6107ABCDE'::tbsl::bytea, '\x25bf6196c8d6107abcde'::bytea::tbsl;
SELECT '\x25bf6196c8d6107abc'::bytea::tbsl;
SELECT '\xffffffffffffffffffff'::bytea::tbsl;
SELECT '25BF6196C8D6107ABCDE'::tbsl::numeric, 178257920012945307909342::numeric::tbsl, 0::numeric::tbsl;
SELECT 1208925819614629174706175::numeric::tbsl;
SELECT 1208925819614629174706176::numeric::tbsl;
SELECT (-1)::numeric::tbsl;
SELECT '25BF6196C8D6107ABCDE'::tbsl::text, '25BF6196C8D6107ABCDE'::text::tbsl;

-- binary COPY round trip and a wrong length
CREATE TEMP TABLE tb_src (id tbsl);
INSERT INTO tb_src VALUES ('00000000000000000000'), ('25BF6196C8D6107ABCDE'), ('DE0B6B3A763FFFFFFFFF');
-- (psql's \copy through a client-side file in pg_regress's results directory: no fixed server-side path)
\copy tb_src TO 'results/tbsl.bin' (FORMAT binary)
CREATE TEMP TABLE tb_dst (id tbsl);
\copy tb_dst FROM 'results/tbsl.bin' (FORMAT binary)
SELECT id FROM tb_dst ORDER BY id;
CREATE TEMP TABLE tb_short (b bytea);
INSERT INTO tb_short VALUES ('\x0102030405060708090a0b');
\copy tb_short TO 'results/tbsl_long.bin' (FORMAT binary)
\copy tb_dst FROM 'results/tbsl_long.bin' (FORMAT binary)
-- ten bytes, but a payload of 19 digits: binary input checks it like text input
DELETE FROM tb_short;
INSERT INTO tb_short VALUES ('\xffffffffffffffffffff');
\copy tb_short TO 'results/tbsl_payload.bin' (FORMAT binary)
\copy tb_dst FROM 'results/tbsl_payload.bin' (FORMAT binary)

-- generation: the microsecond clock, machine id from the argument or the setting, random or sequenced;
-- within a microsecond and machine, suffixes only grow (random mode: by 1..16)
CREATE TEMP TABLE tgen AS SELECT g, tbsl_generate() AS id FROM generate_series(1, 10000) g;
SELECT count(DISTINCT id) = 10000 AS distinct_ids, bool_and(tbsl_machine_id(id) = 0) AS machine_0,
       bool_and(abs(extract(epoch FROM id::timestamptz - clock_timestamp())) < 60) AS near_now,
       count(DISTINCT tbsl_suffix(id)) > 4000 AS random_suffixes,
       bool_and(id::timestamptz >= prev::timestamptz) AS time_never_goes_back
FROM (SELECT id, lag(id, 1, '00000000000000000000') OVER (ORDER BY g) AS prev FROM tgen) s;
CREATE TEMP TABLE tseq AS SELECT g, tbsl_generate(42, true) AS id FROM generate_series(1, 10000) g;
SELECT count(DISTINCT id) = 10000 AS distinct_ids FROM tseq;
SELECT bool_and(tbsl_machine_id(id) = 42) AS machine_42,
       bool_and(id > prev) AS strictly_increasing,
       bool_and(tbsl_suffix(id) = CASE WHEN id::timestamptz = prev::timestamptz THEN tbsl_suffix(prev) + 1
                                      ELSE first_suffix END) AS counts_up_per_microsecond
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev,
             -- each microsecond starts at 0 with shared state; without it, at this backend's slot of the suffixes
             CASE idtypes_generator_mode() WHEN 'shared' THEN 0 ELSE min(tbsl_suffix(id)) OVER () END AS first_suffix
      FROM tseq) s WHERE prev IS NOT NULL;
SET idtypes.tbsl_machine_id = 17;
SELECT tbsl_machine_id(tbsl_generate()), tbsl_machine_id(tbsl_generate(NULL, true)), tbsl_machine_id(tbsl_generate(3));
RESET idtypes.tbsl_machine_id;
SELECT tbsl_generate(100);
SELECT tbsl_generate(-1, true);
SET idtypes.tbsl_machine_id = 100;
SET idtypes.clock_backward = 'sometimes';
SHOW idtypes.clock_backward;
SHOW idtypes.clock_backward_max_wait;
CREATE TEMP TABLE tposts (id tbsl PRIMARY KEY DEFAULT tbsl_generate(), body text);
INSERT INTO tposts (body) SELECT 'post ' || g FROM generate_series(1, 1000) g;
SELECT count(*), count(DISTINCT id) FROM tposts;
