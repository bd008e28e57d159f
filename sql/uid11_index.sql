-- uid11: ordering, indexes, and the prefix (spec §3.6, §4) and time-window operators.

SELECT a.u < b.u AS lt, a.u = b.u AS eq, a.u > b.u AS gt, uid11_cmp(a.u, b.u) AS cmp
FROM (VALUES ('113q8KFkAEs'::uid11)) a(u),
     (VALUES ('11111111111'::uid11), ('113q8KFkAEs'), ('113q8KFkAEt'), ('jpXCZedGfVQ')) b(u);

-- 120k IDs: 60k xids 1 ms apart, 60k spread over the whole 64-bit space
CREATE TABLE xevents (id uid11 PRIMARY KEY) WITH (autovacuum_enabled = off);
INSERT INTO xevents SELECT make_uid11_xid(1700000000000 + g, (hashint4(g) & 4194303)) FROM generate_series(1, 60000) g;
INSERT INTO xevents
SELECT DISTINCT substring(decode(md5('u' || g), 'hex') FROM 1 FOR 8)::uid11 FROM generate_series(1, 60000) g
ON CONFLICT DO NOTHING;
-- IDs at the ends of prefix ranges and of milliseconds, where an off-by-one would show
INSERT INTO xevents VALUES ('1zzzzzzzzzz'), ('21111111111'), ('3Szzzzzzzzz'), ('3T111111111'), ('4h1dczzzzzz'),
	('4h1dd111111'), ('11111111111'), ('jpXCZedGfVQ'),
	(make_uid11_xid(1700000000500, 4194303)), (make_uid11_xid(1700000000502, 0)) ON CONFLICT DO NOTHING;
-- the plans below depend on this script alone: autovacuum is off for the table (it would analyze it again with
-- the cluster's statistics target, or vacuum it); a statistics target that samples every row keeps the estimates
-- the same on every run; and with ANALYZE but no VACUUM the visibility map stays empty (what a VACUUM sets in it
-- depends on when the commit reached the WAL and on other sessions' snapshots; Index Only Scans are costed by it)
SET default_statistics_target = 1000;
ANALYZE xevents;
RESET default_statistics_target;
SELECT count(*) >= 119990 AS enough_rows FROM xevents;
SELECT bool_and(id::text > prev::text) AS text_order_equals_type_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM xevents) s WHERE prev IS NOT NULL;
SELECT min(id)::text = min(id::text) AND max(id)::text = max(id::text) AS aggregates_agree FROM xevents;
SELECT bool_and(uid11_hash(id)::bigint & 4294967295 = uid11_hash_extended(id, 0) & 4294967295) AS hash_convention
FROM xevents;

-- prefix ranges: value * 58^(11-N) .. + 58^(11-N) - 1, hi clamped to 2^64-1, empty above it
SELECT uid11_prefix_range('1'), uid11_prefix_range('3S'), uid11_prefix_range('113q8KFkAEs');
SELECT uid11_prefix_range('jpXCZedGfV') AS clamped, uid11_prefix_range('jpXCZedGfVR') AS above, uid11_prefix_range('k') AS above_too;
SELECT 'jpXCZedGfVQ'::uid11 ^@ 'jpXCZedGfV' AS yes, '113q8KFkAEs'::uid11 ^@ '113' AS yes_too,
       '113q8KFkAEs'::uid11 ^@ '114' AS no, 'jpXCZedGfVQ'::uid11 ^@ 'k' AS never;
SELECT uid11_prefix_range('');
SELECT uid11_prefix_range('10');
SELECT uid11_prefix_range('111111111111');

-- plans: constants, generic plans (parameters), BRIN
EXPLAIN (COSTS OFF) SELECT * FROM xevents WHERE id ^@ '3WVx';
EXPLAIN (COSTS OFF) SELECT * FROM xevents WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00');
SET plan_cache_mode = force_generic_plan;
PREPARE u_by_prefix(text) AS SELECT count(*) FROM xevents WHERE id ^@ $1;
PREPARE u_by_window(tstzrange) AS SELECT count(*) FROM xevents WHERE id <@ $1;
EXPLAIN (COSTS OFF) EXECUTE u_by_prefix('3WVx');
EXPLAIN (COSTS OFF) EXECUTE u_by_window(tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00'));
EXECUTE u_by_window(tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00'));
RESET plan_cache_mode;
SELECT p, n AS actual, estimated_rows(format('SELECT * FROM xevents WHERE id ^@ %L', p)) BETWEEN n / 3 - 120 AND n * 3 + 120 AS sane
FROM (VALUES ('4h'), ('4h1dc'), ('a')) v(p), LATERAL (SELECT count(*) FROM xevents WHERE id ^@ p) c(n);

-- index answers equal the definitions, for prefixes of every length 1..11 and windows at ms precision
SELECT prefix_length, prefixes >= 5 AS enough_prefixes, mismatches
FROM prefix_mismatches('xevents', 11, ARRAY['11111111111', 'jpXCZedGfVQ', 'jpXCZedGfVz', 'zzzzzzzzzzz', '1zzzzzzzzzz',
	'21111111111', '3Szzzzzzzzz', '3T111111111', '4h1dczzzzzz', '4h1dd111111']);
SELECT window_mismatches('xevents', 'uid11', ARRAY[
	tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00'),
	tstzrange('2023-11-14 22:13:20.5004+00', '2023-11-14 22:13:20.5016+00', '[]'),
	tstzrange('2023-11-14 22:13:20.500+00', '2023-11-14 22:13:20.502+00', '()'),
	tstzrange('2023-11-14 22:13:20.500+00', '2023-11-14 22:13:20.502+00', '[)'),
	tstzrange(NULL, '2011-11-11 11:11:11.111+00', '(]'), tstzrange('2151-03-25 18:46:22.214+00', NULL),
	tstzrange(NULL, '2000-01-01'), 'empty', tstzrange('2100-01-01', 'infinity')]);

CREATE TABLE xlog (id uid11);
INSERT INTO xlog SELECT make_uid11_xid(1700000000000 + g, 0) FROM generate_series(1, 30000) g;
CREATE INDEX xlog_brin ON xlog USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM xlog WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00');
SELECT count(*) FROM xlog WHERE id <@ tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:21+00');
RESET enable_seqscan;
