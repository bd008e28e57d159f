-- tbsl: ordering, indexes, hashing, and the prefix and time-window operators.

SELECT a.t < b.t AS lt, a.t = b.t AS eq, a.t > b.t AS gt, tbsl_cmp(a.t, b.t) AS cmp
FROM (VALUES ('25BF6196C8D6107ABCDE'::tbsl)) a(t),
     (VALUES ('00000000000000000000'::tbsl), ('25BF6196C8D6107ABCDE'), ('25BF6196C8D6107ABCDF'), ('DE0B6B3A763FFFFFFFFF')) b(t);

-- 120k IDs: 100k one per 997 µs over machines 0..99, 20k random valid ones, and range ends
CREATE TABLE tevents (id tbsl PRIMARY KEY) WITH (autovacuum_enabled = off);
INSERT INTO tevents
SELECT make_tbsl(1700000000 + (g::bigint * 997) / 1000000, ((g::bigint * 997) % 1000000)::int, g % 100, (hashint4(g) & 1048575))
FROM generate_series(1, 100000) g;
INSERT INTO tevents
SELECT make_tbsl((hashint8extended(g, 0) & 9223372036854775807) % 10000000000, abs(hashint4(g)) % 1000000, g % 100, abs(hashint4(-g)) % 1048576)
FROM generate_series(1, 20000) g ON CONFLICT DO NOTHING;
INSERT INTO tevents VALUES ('00000000000000000000'), ('DE0B6B3A763FFFFFFFFF'), ('25BF6196FFFFFFFFFFFF'),
	('25BF6197000000000000'), ('0FFFFFFFFFFFFFFFFFFF'), ('10000000000000000000') ON CONFLICT DO NOTHING;
-- the plans below depend on this script alone: autovacuum is off for the table (it would analyze it again with
-- the cluster's statistics target, or vacuum it); a statistics target that samples every row keeps the estimates
-- the same on every run; and with ANALYZE but no VACUUM the visibility map stays empty (what a VACUUM sets in it
-- depends on when the commit reached the WAL and on other sessions' snapshots; Index Only Scans are costed by it)
SET default_statistics_target = 1000;
ANALYZE tevents;
RESET default_statistics_target;
SELECT count(*) >= 119990 AS enough_rows FROM tevents;

-- sorting with abbreviated keys (external and in-memory), text order = type order, aggregates, hashing
SET work_mem = '64kB';
SELECT bool_and(id::text > prev::text) AS text_order_equals_type_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM tevents) s WHERE prev IS NOT NULL;
RESET work_mem;
SELECT bool_and(id::text < nxt::text) AS in_memory_sort_agrees
FROM (SELECT id, lead(id) OVER (ORDER BY id) AS nxt FROM tevents) s WHERE nxt IS NOT NULL;
SELECT min(id), max(id), min(id)::text = min(id::text) AND max(id)::text = max(id::text) AS aggregates_agree FROM tevents;
SELECT bool_and(tbsl_hash(id)::bigint & 4294967295 = tbsl_hash_extended(id, 0) & 4294967295) AS hash_convention,
       bool_and(tbsl_hash_extended(id, 0) <> tbsl_hash_extended(id, 1)) AS seeded FROM tevents;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- the subquery keeps PostgreSQL 18 from removing a self-join on the primary key
EXPLAIN (COSTS OFF) SELECT count(*) FROM tevents a JOIN (SELECT id FROM tevents OFFSET 0) b USING (id);
SELECT count(*) FROM tevents a JOIN (SELECT id FROM tevents OFFSET 0) b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
CREATE TABLE tparted (id tbsl) PARTITION BY HASH (id);
CREATE TABLE tparted_0 PARTITION OF tparted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE tparted_1 PARTITION OF tparted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO tparted SELECT id FROM tevents;
SELECT (SELECT count(*) FROM tparted_0) > 50000 AND (SELECT count(*) FROM tparted_1) > 50000 AS both_used;
CREATE INDEX tevents_hash ON tevents USING hash (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexscan = on;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tevents WHERE id = '25BF6196C8D6107ABCDE';
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexscan;
RESET enable_indexonlyscan;
DROP INDEX tevents_hash;

-- prefix ranges: hex, clamped to the largest valid TBSL, empty above it
SELECT tbsl_prefix_range('25BF'), tbsl_prefix_range('D'), tbsl_prefix_range('DE0B6B3A763FFFFFFFFF');
SELECT tbsl_prefix_range('E') AS above, tbsl_prefix_range('DE0B6B3A764') AS above_too;
SELECT tbsl_prefix_range('25bf');
SELECT tbsl_prefix_range('');
SELECT tbsl_prefix_range('000000000000000000000');
SELECT '25BF6196C8D6107ABCDE'::tbsl ^@ '25BF' AS yes, '25BF6196C8D6107ABCDE'::tbsl ^@ '25BE' AS no,
       'DE0B6B3A763FFFFFFFFF'::tbsl ^@ 'E' AS never;

-- plans with constants and parameters; estimates
EXPLAIN (COSTS OFF) SELECT * FROM tevents WHERE id ^@ '25BF619A';
EXPLAIN (COSTS OFF) SELECT * FROM tevents WHERE id <@ tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00');
SET plan_cache_mode = force_generic_plan;
PREPARE t_by_prefix(text) AS SELECT count(*) FROM tevents WHERE id ^@ $1;
PREPARE t_by_window(tstzrange) AS SELECT count(*) FROM tevents WHERE id <@ $1;
EXPLAIN (COSTS OFF) EXECUTE t_by_prefix('25BF619A');
EXPLAIN (COSTS OFF) EXECUTE t_by_window(tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00'));
EXECUTE t_by_window(tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00'));
RESET plan_cache_mode;
SELECT p, n AS actual, estimated_rows(format('SELECT * FROM tevents WHERE id ^@ %L', p)) BETWEEN n / 3 - 120 AND n * 3 + 120 AS sane
FROM (VALUES ('25BF'), ('25BF61A'), ('8')) v(p), LATERAL (SELECT count(*) FROM tevents WHERE id ^@ p) c(n);

-- index answers equal the definitions for prefixes of every length 1..20, and for windows
SELECT prefix_length, prefixes >= 5 AS enough_prefixes, mismatches
FROM prefix_mismatches('tevents', 20, ARRAY['00000000000000000000', 'DE0B6B3A763FFFFFFFFF', '25BF6196FFFFFFFFFFFF',
	'25BF6197000000000000', '0FFFFFFFFFFFFFFFFFFF', '10000000000000000000', 'FFFFFFFFFFFFFFFFFFFF']);
SELECT window_mismatches('tevents', 'tbsl', ARRAY[
	tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00'),
	tstzrange('2023-11-14 22:13:20.000997+00', '2023-11-14 22:13:20.001994+00', '[]'),
	tstzrange('2023-11-14 22:13:20.000997+00', '2023-11-14 22:13:20.001994+00', '()'),
	tstzrange(NULL, '1990-01-01'), tstzrange('2200-01-01', NULL), 'empty',
	tstzrange('2286-11-20 17:46:39.999999+00', 'infinity', '[]')]);

-- BRIN on a time-ordered table
CREATE TABLE tlog (id tbsl);
INSERT INTO tlog SELECT make_tbsl(1700000000 + g / 1000, (g % 1000) * 1000, 1, 0) FROM generate_series(1, 50000) g;
CREATE INDEX tlog_brin ON tlog USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tlog WHERE id <@ tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00');
SELECT count(*) FROM tlog WHERE id <@ tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00');
RESET enable_seqscan;
