-- scru160: text and binary I/O, fields, constructors and generation.

-- the spec's examples, in both encodings and either case; output is upper-case base32hex
SELECT s::scru160 AS id, scru160_to_hex(s::scru160) AS hex
FROM (VALUES ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'), ('05ttup1hncpnib63r8in5v2l3vfgnfet'),
             ('017bdf6431bb33750751eb63beb3c3f8c5969d86'), ('017BDF6431BB337662412E6A5758890735C33C2B')) v(s);
-- their fields follow the layout: one millisecond, two pairs of consecutive counters
SELECT id::timestamptz AS created, scru160_counter(id) AS counter, scru160_random16(id) AS random16,
       scru160_random80(id) AS random80
FROM (VALUES ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160), ('05TTUP1HNCPNIB63R8IN5V2L3VFGNFET'),
             ('017bdf6431bb33750751eb63beb3c3f8c5969d86'), ('017bdf6431bb337662412e6a5758890735c33c2b')) v(id);
-- base32hex and hex spellings are the same value
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160 = scru160_to_hex('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4')::scru160 AS same;

-- rejections: other lengths, padding, separators, 0x, spaces, symbols outside the alphabet
SELECT ''::scru160;
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C'::scru160;
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4='::scru160;
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4CW'::scru160;
SELECT '05TTUP1H-NCPNH30VEK64KDQT9BSNU4C'::scru160;
SELECT '0x7bdf6431bb33750751eb63beb3c3f8c5969d86'::scru160;
SELECT '017bdf6431bb33750751eb63beb3c3f8c5969d8g'::scru160;
SELECT ' 05TTUP1HNCPNH30VEK64KDQT9BSNU4C'::scru160;
SELECT '017bdf6431bb33750751eb63beb3c3f8c5969d8'::scru160;

-- make_scru160 and its range checks
SELECT make_scru160(1631540490683, 12, 65535, '\x00112233445566778899') AS made,
       make_scru160(0, 0, 0, '\x00000000000000000000') AS zero,
       make_scru160(281474976710655, 65535, 65535, '\xffffffffffffffffffff') AS largest;
SELECT make_scru160(-1, 0, 0, '\x00000000000000000000');
SELECT make_scru160(281474976710656, 0, 0, '\x00000000000000000000');
SELECT make_scru160(0, 65536, 0, '\x00000000000000000000');
SELECT make_scru160(0, 0, -1, '\x00000000000000000000');
SELECT make_scru160(0, 0, 0, '\x000000000000000000');
SELECT scru160_min('2021-09-13 13:41:30.683999+00'), scru160_max('2021-09-13 13:41:30.683+00');
SELECT scru160_min('1969-12-31 23:59:59.999+00');

-- casts: bytea (20 bytes), text
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160::bytea;
SELECT '\x017bdf6431bb33750751eb63beb3c3f8c5969d86'::bytea::scru160;
SELECT '\x017bdf6431bb33750751eb63beb3c3f8c5969d'::bytea::scru160;
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160::text, '05ttup1hncpnh30vek64kdqt9bsnu4c4'::text::scru160;

-- binary COPY round trip and a wrong length
CREATE TEMP TABLE s_src (id scru160);
INSERT INTO s_src VALUES ('00000000000000000000000000000000'), ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'), ('VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV');
-- (psql's \copy through a client-side file in pg_regress's results directory: no fixed server-side path)
\copy s_src TO 'results/scru160.bin' (FORMAT binary)
CREATE TEMP TABLE s_dst (id scru160);
\copy s_dst FROM 'results/scru160.bin' (FORMAT binary)
SELECT id FROM s_dst ORDER BY id;
CREATE TEMP TABLE s_short (b bytea);
INSERT INTO s_short VALUES ('\x0102');
\copy s_short TO 'results/scru160_short.bin' (FORMAT binary)
\copy s_dst FROM 'results/scru160_short.bin' (FORMAT binary)

-- generation: strictly increasing per session, counters as the default usage says, random fields vary
CREATE TEMP TABLE sgen AS SELECT g, scru160_generate() AS id FROM generate_series(1, 20000) g;
SELECT count(DISTINCT id) = 20000 AS distinct_ids,
       bool_and(abs(extract(epoch FROM id::timestamptz - clock_timestamp())) < 60) AS near_now,
       count(DISTINCT scru160_random80(id)) = 20000 AS random80_varies,
       count(DISTINCT scru160_random16(id)) > 15000 AS random16_varies
FROM sgen;
SELECT bool_and(id > prev) AS strictly_increasing,
       bool_and(CASE WHEN id::timestamptz = prev::timestamptz THEN scru160_counter(id) = scru160_counter(prev) + 1
                     ELSE scru160_counter(id) < 32768 OR scru160_counter(prev) = 65535 END) AS default_counter_usage
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM sgen) s WHERE prev IS NOT NULL;
SELECT proname, provolatile, proparallel FROM pg_proc WHERE proname = 'scru160_generate';
