-- timeid: ordering, indexes, hashing, partitioning, and the prefix and time-window operators.

-- operators and ORDER BY follow unsigned 64-bit order (= text order)
SELECT a.t < b.t AS lt, a.t <= b.t AS le, a.t = b.t AS eq, a.t <> b.t AS ne, a.t >= b.t AS ge, a.t > b.t AS gt,
       timeid_cmp(a.t, b.t) AS cmp
FROM (VALUES ('3kxmtyqiinc23'::timeid)) a(t),
     (VALUES ('2222222222222'::timeid), ('3kxmtyqiinc23'), ('3kxmtyqiinc24'), ('c222222222222')) b(t);
CREATE TABLE tids (id timeid) WITH (autovacuum_enabled = off);
INSERT INTO tids
SELECT substring(decode(md5(g::text), 'hex') FROM 1 FOR 8)::timeid FROM generate_series(1, 5000) g;
SELECT bool_and(id::text > prev::text) AS text_order_equals_type_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM tids) s WHERE prev IS NOT NULL;
SELECT min(id), max(id) FROM tids;
SELECT min(id::text) = min(id)::text AND max(id::text) = max(id)::text AS aggregates_agree FROM tids;

-- hash support: 32-bit hash equals the low half of the extended hash at seed 0; seeds change it
SELECT bool_and(timeid_hash(id)::bigint & 4294967295 = timeid_hash_extended(id, 0) & 4294967295) AS hash_convention,
       bool_and(timeid_hash_extended(id, 0) <> timeid_hash_extended(id, 1)) AS seeded
FROM tids;

-- btree (with deduplication) and hash indexes; a hash join; hash partitioning
CREATE INDEX tids_btree ON tids (id);
CREATE INDEX tids_hash ON tids USING hash (id);
SELECT opcname, amname FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'timeid'::regtype ORDER BY amname;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tids WHERE id = '3kxmtyqiinc23';
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
DROP INDEX tids_btree;
EXPLAIN (COSTS OFF) SELECT * FROM tids WHERE id = '3kxmtyqiinc23';
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tids a JOIN tids b USING (id);
SELECT count(*) FROM tids a JOIN tids b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
CREATE TABLE parted (id timeid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0) WITH (autovacuum_enabled = off);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1) WITH (autovacuum_enabled = off);
INSERT INTO parted SELECT id FROM tids;
SELECT (SELECT count(*) FROM parted_0) > 1000 AND (SELECT count(*) FROM parted_1) > 1000 AS both_used,
       (SELECT count(*) FROM parted) = 5000 AS all_rows;
EXPLAIN (COSTS OFF) SELECT * FROM parted WHERE id = '3kxmtyqiinc23';

-- prefix ranges: exact bounds, dashes ignored, a first symbol k..z matches nothing, bad prefixes rejected
SELECT timeid_prefix_range('3kxm'), timeid_prefix_range('3kxm-tyq'), timeid_prefix_range('3kxmtyqiinc23');
SELECT timeid_prefix_range('j'), timeid_prefix_range('k'), timeid_prefix_range('zz');
SELECT '3kxmtyqiinc23'::timeid ^@ '3kxm' AS yes, '3kxmtyqiinc23'::timeid ^@ '3kxm-tyq-iinc-23' AS dashed,
       '3kxmtyqiinc23'::timeid ^@ '3kxn' AS no, '3kxmtyqiinc23'::timeid ^@ 'k' AS never;
SELECT timeid_prefix_range('3KXM');
SELECT timeid_prefix_range('');
SELECT timeid_prefix_range('3kxmtyqiinc232');
SELECT '3kxmtyqiinc23'::timeid ^@ '3kx!';
SELECT timeid_prefix_lo('3kxm'), timeid_prefix_hi('3kxm'), timeid_prefix_lo('k'), timeid_prefix_hi('k');
-- the range type
SELECT '3kxmtyqiinc23'::timeid <@ timeid_prefix_range('3kxm') AS contained,
       timeidrange('2222222222222', '3kxmtyqiinc23', '[]') @> '3222222222222'::timeid AS contains;

-- the window operator: microsecond precision, bound inclusivity, infinities, empty ranges
SELECT make_timeid(1000000, 5) <@ tstzrange('1970-01-01 00:00:01+00', '1970-01-01 00:00:02+00') AS lower_inclusive,
       make_timeid(1000000, 5) <@ tstzrange('1970-01-01 00:00:01+00', '1970-01-01 00:00:02+00', '()') AS lower_exclusive,
       make_timeid(2000000, 5) <@ tstzrange('1970-01-01 00:00:01+00', '1970-01-01 00:00:02+00') AS upper_exclusive,
       make_timeid(2000000, 5) <@ tstzrange('1970-01-01 00:00:01+00', '1970-01-01 00:00:02+00', '[]') AS upper_inclusive,
       make_timeid(2000000, 5) <@ tstzrange(NULL, NULL) AS unbounded,
       make_timeid(2000000, 5) <@ 'empty'::tstzrange AS empty,
       make_timeid(2000000, 5) <@ tstzrange('-infinity', 'infinity') AS infinities,
       make_timeid(2000000, 5) <@ tstzrange('infinity', NULL) AS from_infinity;
SELECT timeid_window_lo(tstzrange('2024-01-01', '2024-01-02')), timeid_window_hi(tstzrange('2024-01-01', '2024-01-02')),
       timeid_window_lo('empty'), timeid_window_hi('empty');

-- a time-ordered table of 120k IDs: 60k clustered in time (long prefixes match many rows) and 60k
-- spread over the whole 64-bit space (every first character, top-bit values included)
CREATE TABLE events (id timeid PRIMARY KEY) WITH (autovacuum_enabled = off);
INSERT INTO events SELECT make_timeid(1700000000000000 + g * 997, g % 1024) FROM generate_series(1, 60000) g;
INSERT INTO events
SELECT DISTINCT substring(decode(md5('x' || g), 'hex') FROM 1 FOR 8)::timeid FROM generate_series(1, 60000) g
ON CONFLICT DO NOTHING;
-- IDs at the ends of prefix ranges and of microseconds, where an off-by-one would show
INSERT INTO events VALUES ('2222222222222'), ('22222222222zz'), ('3kezzzzzzzzzz'), ('3kf2222222222'),
	('3ke6kgzzzzzzz'), ('3ke6kh2222222'), ('bzzzzzzzzzzzz'), ('c222222222222'), ('jzzzzzzzzzzzz'),
	(make_timeid(1700000000000997, 1023)), (make_timeid(1700000000001994, 0)) ON CONFLICT DO NOTHING;
-- the plans below depend on this script alone: autovacuum is off for the table (it would analyze it again with
-- the cluster's statistics target, or vacuum it); a statistics target that samples every row keeps the estimates
-- the same on every run; and with ANALYZE but no VACUUM the visibility map stays empty (what a VACUUM sets in it
-- depends on when the commit reached the WAL and on other sessions' snapshots; Index Only Scans are costed by it)
SET default_statistics_target = 1000;
ANALYZE events;
RESET default_statistics_target;
SELECT count(*) >= 119990 AS enough_rows FROM events;

-- plans: constant prefixes and windows become index conditions
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ '3ke';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ '3ke-6kg';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ 'k';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id <@ tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00');
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id <@ tstzrange(now() - interval '1 hour', now());
-- and with parameters in generic plans, through the _lo/_hi helpers as runtime index keys
SET plan_cache_mode = force_generic_plan;
PREPARE by_prefix(text) AS SELECT count(*) FROM events WHERE id ^@ $1;
PREPARE by_window(tstzrange) AS SELECT count(*) FROM events WHERE id <@ $1;
EXPLAIN (COSTS OFF) EXECUTE by_prefix('3ke');
EXPLAIN (COSTS OFF) EXECUTE by_window(tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00'));
EXECUTE by_prefix('3ke6kg');
EXECUTE by_window(tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00'));
EXECUTE by_prefix('3KE');
RESET plan_cache_mode;
-- a volatile argument is left alone (rewriting would evaluate it twice)
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ (CASE WHEN random() < 2 THEN '3ke' END);
-- an invalid constant prefix is not rewritten: the operator raises the error at run time
SELECT count(*) FROM events WHERE id ^@ '3k!';

-- row estimates (within 3x, or 0.1% of the table): the rewritten ranges use the column statistics; the operator's RESTRICT function
-- estimates the cases that are not rewritten the same way
SELECT p, n AS actual, estimated_rows(format('SELECT * FROM events WHERE id ^@ %L', p)) BETWEEN n / 3 - 120 AND n * 3 + 120 AS sane
FROM (VALUES ('3ke'), ('3ke6'), ('3kf'), ('7')) v(p), LATERAL (SELECT count(*) FROM events WHERE id ^@ p) c(n);
SELECT estimated_rows($q$SELECT * FROM events WHERE (id::text)::timeid ^@ '3ke6'$q$) < 12000 AS restrict_estimate,
       estimated_rows($q$SELECT * FROM events WHERE (id::text)::timeid <@ tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00')$q$) < 50000 AS window_estimate;
SELECT timeid_prefix_sel IS NOT NULL FROM (SELECT oprrest::text AS timeid_prefix_sel FROM pg_operator
WHERE oprname = '^@' AND oprleft = 'timeid'::regtype) s;

-- the index answers equal a sequential scan's, for prefixes of every length 1..13: prefixes of stored
-- IDs, their neighbours and absent ones, compared with the definition (the canonical text starts with it)
SELECT prefix_length, prefixes >= 5 AS enough_prefixes, mismatches
FROM prefix_mismatches('events', 13, ARRAY['3ke6kg3wk2222', 'bzzzzzzzzzzzz', '2222222222222', 'jzzzzzzzzzzzz',
	'22222222222zz', '3kezzzzzzzzzz', '3kf2222222222', '3ke6kgzzzzzzz', '3ke6kh2222222', 'c222222222222']);
-- and the same query really is answered from the index
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT array_agg(id ORDER BY id) FROM events WHERE id ^@ '3ke6kg3wk2222';
RESET enable_seqscan;

-- the time window through the index equals the definition (the ID's timestamp lies in the range)
SELECT window_mismatches('events', 'timeid', ARRAY[
	tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00'),
	tstzrange('2023-11-14 22:13:20.000997+00', '2023-11-14 22:13:20.001994+00', '[]'),
	tstzrange('2023-11-14 22:13:20.000997+00', '2023-11-14 22:13:20.001994+00', '()'),
	tstzrange('2023-11-14 22:13:20.000997+00', '2023-11-14 22:13:20.001994+00', '(]'),
	tstzrange(NULL, '1990-01-01'), tstzrange('2300-01-01', NULL), tstzrange('2023-11-14', '2023-11-15'),
	'empty', tstzrange('-infinity', '2000-01-01'), tstzrange('2500-01-01', 'infinity')]);

-- IDs as timestamps in a report
SELECT date_trunc('hour', id::timestamptz) AS hour, count(*)
FROM events WHERE id <@ tstzrange('2023-11-14 22:00+00', '2023-11-15 00:00+00') GROUP BY 1 ORDER BY 1;

-- BRIN minmax on a time-ordered table answers the same operators
CREATE TABLE events_log (id timeid);
INSERT INTO events_log SELECT make_timeid(1700000000000000 + g * 997, g % 1024) FROM generate_series(1, 60000) g;
CREATE INDEX events_log_brin ON events_log USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events_log WHERE id ^@ '3ke6kg';
EXPLAIN (COSTS OFF) SELECT count(*) FROM events_log WHERE id <@ tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00');
SELECT count(*) FROM events_log WHERE id <@ tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00');
RESET enable_seqscan;
SELECT count(*) FROM events_log WHERE timeid_timestamp(id) <@ tstzrange('2023-11-14 22:13:20+00', '2023-11-14 22:14:00+00');

-- partition pruning by time on a range-partitioned table
CREATE TABLE monthly (id timeid) PARTITION BY RANGE (id);
CREATE TABLE monthly_2023_11 PARTITION OF monthly FOR VALUES FROM (timeid_min('2023-11-01+00')) TO (timeid_min('2023-12-01+00'));
CREATE TABLE monthly_2023_12 PARTITION OF monthly FOR VALUES FROM (timeid_min('2023-12-01+00')) TO (timeid_min('2024-01-01+00'));
EXPLAIN (COSTS OFF) SELECT * FROM monthly WHERE id <@ tstzrange('2023-12-05', '2023-12-06');
