-- scru160: ordering, indexes, hashing, and the prefix and time-window operators.

SELECT a.s < b.s AS lt, a.s = b.s AS eq, a.s > b.s AS gt, scru160_cmp(a.s, b.s) AS cmp
FROM (VALUES ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160)) a(s),
     (VALUES ('00000000000000000000000000000000'::scru160), ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
             ('05TTUP1HNCPNIB63R8IN5V2L3VFGNFET'), ('VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV')) b(s);

-- 120k IDs: 100k 3 per millisecond, 20k random, and range ends
CREATE TABLE sevents (id scru160 PRIMARY KEY) WITH (autovacuum_enabled = off);
INSERT INTO sevents
SELECT make_scru160(1700000000000 + g / 3, g % 3, hashint4(g) & 65535, substring(decode(md5(g::text), 'hex') FROM 1 FOR 10))
FROM generate_series(1, 100000) g;
INSERT INTO sevents SELECT decode(md5('s' || g) || substring(md5('t' || g) FROM 1 FOR 8), 'hex')::scru160
FROM generate_series(1, 20000) g ON CONFLICT DO NOTHING;
INSERT INTO sevents VALUES ('00000000000000000000000000000000'), ('VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV'),
	('05TTUP1HNCPNH30VVVVVVVVVVVVVVVVV'), ('05TTUP1HNCPNH3100000000000000000') ON CONFLICT DO NOTHING;
-- the plans below depend on this script alone: autovacuum is off for the table (it would analyze it again with
-- the cluster's statistics target, or vacuum it); a statistics target that samples every row keeps the estimates
-- the same on every run; and with ANALYZE but no VACUUM the visibility map stays empty (what a VACUUM sets in it
-- depends on when the commit reached the WAL and on other sessions' snapshots; Index Only Scans are costed by it)
SET default_statistics_target = 1000;
ANALYZE sevents;
RESET default_statistics_target;
SELECT count(*) >= 119990 AS enough_rows FROM sevents;

-- sorting with abbreviated keys, text order = type order, aggregates, hashing, joins, partitions
SET work_mem = '64kB';
SELECT bool_and(id::text > prev::text) AS text_order_equals_type_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM sevents) s WHERE prev IS NOT NULL;
RESET work_mem;
SELECT bool_and(scru160_to_hex(id) < scru160_to_hex(nxt)) AS hex_order_too
FROM (SELECT id, lead(id) OVER (ORDER BY id) AS nxt FROM sevents) s WHERE nxt IS NOT NULL;
SELECT min(id), max(id) FROM sevents;
SELECT bool_and(scru160_hash(id)::bigint & 4294967295 = scru160_hash_extended(id, 0) & 4294967295) AS hash_convention
FROM sevents;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- the subquery keeps PostgreSQL 18 from removing a self-join on the primary key
EXPLAIN (COSTS OFF) SELECT count(*) FROM sevents a JOIN (SELECT id FROM sevents OFFSET 0) b USING (id);
SELECT count(*) FROM sevents a JOIN (SELECT id FROM sevents OFFSET 0) b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
CREATE TABLE sparted (id scru160) PARTITION BY HASH (id);
CREATE TABLE sparted_0 PARTITION OF sparted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE sparted_1 PARTITION OF sparted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO sparted SELECT id FROM sevents;
SELECT (SELECT count(*) FROM sparted_0) > 50000 AND (SELECT count(*) FROM sparted_1) > 50000 AS both_used;

-- prefix ranges: base32hex, either case
SELECT scru160_prefix_range('05TTUP1'), scru160_prefix_range('05ttup1') = scru160_prefix_range('05TTUP1') AS any_case;
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160 ^@ '05ttup' AS yes, '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160 ^@ '05TV' AS no;
SELECT scru160_prefix_range('05TW');
SELECT scru160_prefix_range('');
SELECT scru160_prefix_range('000000000000000000000000000000000');

-- plans with constants and parameters; estimates
EXPLAIN (COSTS OFF) SELECT * FROM sevents WHERE id ^@ '065SVPB';
EXPLAIN (COSTS OFF) SELECT * FROM sevents WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:20.6+00');
SET plan_cache_mode = force_generic_plan;
PREPARE s_by_prefix(text) AS SELECT count(*) FROM sevents WHERE id ^@ $1;
PREPARE s_by_window(tstzrange) AS SELECT count(*) FROM sevents WHERE id <@ $1;
EXPLAIN (COSTS OFF) EXECUTE s_by_prefix('065SVPB');
EXPLAIN (COSTS OFF) EXECUTE s_by_window(tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:20.6+00'));
EXECUTE s_by_window(tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:20.6+00'));
RESET plan_cache_mode;
SELECT p, n AS actual, estimated_rows(format('SELECT * FROM sevents WHERE id ^@ %L', p)) BETWEEN n / 3 - 120 AND n * 3 + 120 AS sane
FROM (VALUES ('065S'), ('065SVPB'), ('K')) v(p), LATERAL (SELECT count(*) FROM sevents WHERE id ^@ p) c(n);

-- index answers equal the definitions for prefixes of every length 1..32, and for windows
SELECT prefix_length, prefixes >= 5 AS enough_prefixes, mismatches
FROM prefix_mismatches('sevents', 32, ARRAY['00000000000000000000000000000000', 'VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV',
	'05TTUP1HNCPNH30VVVVVVVVVVVVVVVVV', '05TTUP1HNCPNH3100000000000000000']);
SELECT window_mismatches('sevents', 'scru160', ARRAY[
	tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:20.6+00'),
	tstzrange('2023-11-14 22:13:20.5004+00', '2023-11-14 22:13:20.5016+00', '[]'),
	tstzrange('2023-11-14 22:13:20.500+00', '2023-11-14 22:13:20.502+00', '()'),
	tstzrange('2023-11-14 22:13:20.500+00', '2023-11-14 22:13:20.502+00', '[]'),
	tstzrange(NULL, '2000-01-01'), tstzrange('3000-01-01', NULL), 'empty']);

-- BRIN on a time-ordered table
CREATE TABLE slog (id scru160);
INSERT INTO slog SELECT make_scru160(1700000000000 + g, 0, 0, '\x00000000000000000000') FROM generate_series(1, 30000) g;
CREATE INDEX slog_brin ON slog USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM slog WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00');
SELECT count(*) FROM slog WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00');
RESET enable_seqscan;
