-- Time questions on plain uuid columns holding UUIDv7 or ULIDs (first 48 bits: Unix milliseconds):
-- uuid_v7_timestamp, uuid_v7_min/_max, `uuid <@ tstzrange` and `uuid ^@ text`, answered from a btree index
-- on the uuid column exactly as their definitions say. On every version with RFC 9562's own UUIDv7 example, a
-- ULID, and uuids built here; on PostgreSQL 18 also with uuidv7() itself.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- RFC 9562 A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F is Tuesday 2022-02-22 19:22:22 UTC; the ULID spec's
-- 01ARZ3NDEKTSV4RRFFQ69G5FAV, stored as a uuid, is 2016-07-30 23:54:10.259 UTC
SELECT uuid_v7_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS rfc_9562,
       uuid_v7_timestamp('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS ulid,
       uuid_v7_timestamp('00000000-0000-0000-0000-000000000000') AS zero,
       uuid_v7_timestamp('ffffffff-ffff-ffff-ffff-ffffffffffff') AS all_ones;
-- any uuid: a random (version 4) uuid has a time too, a meaningless one
SELECT uuid_v7_timestamp(gen_random_uuid()) IS NOT NULL AS any_uuid;

-- the smallest and largest uuid of a millisecond: the other 80 bits all zero / all one (so neither is a
-- UUIDv7 itself, and together they bound every UUIDv7 and every ULID of that millisecond)
SELECT uuid_v7_min('2022-02-22 19:22:22.000999+00') AS min, uuid_v7_max('2022-02-22 19:22:22+00') AS max,
       '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid BETWEEN uuid_v7_min('2022-02-22 19:22:22+00') AND uuid_v7_max('2022-02-22 19:22:22+00') AS between,
       uuid_v7_max('2022-02-22 19:22:21.999+00') < uuid_v7_min('2022-02-22 19:22:22+00') AS adjacent;
SELECT uuid_v7_min('1970-01-01 00:00:00+00') AS first, uuid_v7_max('10889-08-02 05:31:50.655999+00') AS last,
       uuid_v7_timestamp(uuid_v7_max('10889-08-02 05:31:50.655+00')) AS last_time;
SELECT uuid_v7_min('1969-12-31 23:59:59.999999+00');
SELECT uuid_v7_max('10889-08-02 05:31:50.656+00');
SELECT uuid_v7_min('infinity');
SELECT uuid_v7_max('-infinity');
SELECT uuid_v7_min(NULL) IS NULL AND uuid_v7_max(NULL) IS NULL AND uuid_v7_timestamp(NULL) IS NULL AS nulls;
SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('uuid_v7_timestamp', 'uuid_v7_min', 'uuid_v7_max', 'uuid_in_window', 'uuid_starts_with') ORDER BY proname;

-- <@: the uuid's millisecond lies in the range (inclusive and exclusive ends, infinities, empty, NULL)
SELECT r, '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid <@ r AS rfc_example
FROM unnest(ARRAY[tstzrange('2022-02-22 19:22:22+00', '2022-02-22 19:22:23+00'),
                  tstzrange('2022-02-22 19:22:22+00', '2022-02-22 19:22:22+00', '[]'),
                  tstzrange('2022-02-22 19:22:22+00', '2022-02-22 19:22:22+00', '[)'),
                  tstzrange('2022-02-22 19:22:22+00', '2022-02-22 19:22:23+00', '()'),
                  tstzrange('2022-02-22 19:22:21.9995+00', '2022-02-22 19:22:22.0005+00', '()'),
                  tstzrange(NULL, '2022-02-22 19:22:22+00', '(]'),
                  tstzrange('2022-02-22 19:22:22.001+00', NULL),
                  tstzrange('-infinity', 'infinity'),
                  'empty']) r;
SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid <@ NULL::tstzrange AS null_range;

-- ^@: hex prefixes, with or without dashes, either case; the empty prefix matches every uuid
SELECT p, '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid ^@ p AS rfc_example
FROM unnest(ARRAY['', '0', '017f22e2', '017f22e2-', '017F22E2-79B0-7', '017f22e279b07cc3', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
                  '017f22e279b07cc398c4dc0c0c07398f', '017f-22e2', '017f22e3', '1']) p;
SELECT uuid_prefix_lo('017f22e2-79'), uuid_prefix_hi('017F22E279');
SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid ^@ '017g';
SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid ^@ '{017f22e2}';
SELECT uuid_prefix_lo('017f22e2-79b0-7cc3-98c4-dc0c0c07398f0');
SELECT uuid_prefix_hi(' 017f');

-- A column of uuids over a year, every 1576.8 s: UUIDv7s (version 7, variant 10, pseudo-random bits), ULIDs
-- (80 pseudo-random bits), each millisecond's smallest and largest uuid, and version-4-like uuids (all bits
-- pseudo-random: their "times" fall anywhere). Deterministic: md5 of the row number.
CREATE TABLE uuids (n int, at timestamptz, id uuid) WITH (autovacuum_enabled = off);
INSERT INTO uuids
SELECT g, at, CASE g % 5
	WHEN 0 THEN (ms || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid
	WHEN 1 THEN (ms || substr(h, 1, 20))::uuid
	WHEN 2 THEN uuid_v7_min(at)
	WHEN 3 THEN uuid_v7_max(at)
	ELSE h::uuid END
FROM generate_series(1, 20000) g,
     LATERAL (SELECT timestamptz '2023-11-14 22:13:20+00' + g * interval '1576.8 s' + (g % 1000) * interval '1 microsecond' AS at,
                     md5(g::text) AS h) a,
     LATERAL (SELECT lpad(to_hex((extract(epoch FROM date_trunc('milliseconds', at)) * 1000)::bigint), 12, '0') AS ms) m;
CREATE INDEX ON uuids (id);
ANALYZE uuids;
SELECT count(*) FILTER (WHERE uuid_v7_timestamp(id) = date_trunc('milliseconds', at)) AS timed, count(*) AS rows FROM uuids;

-- windows through the index equal the definition (uuid_v7_timestamp(id) <@ w, by a sequential scan)
SELECT count(*) AS windows, count(*) FILTER (WHERE by_index IS DISTINCT FROM by_definition) AS mismatches,
       sum(array_length(by_definition, 1)) AS rows_selected
FROM (SELECT ids_via(true, 'SELECT array_agg(id::text ORDER BY id) FROM uuids WHERE id <@ $1', w) AS by_index,
             ids_via(false, 'SELECT array_agg(id::text ORDER BY id) FROM uuids WHERE uuid_v7_timestamp(id) <@ $1', w) AS by_definition
      FROM (SELECT tstzrange(t, t + d, b) AS w
            FROM (SELECT at AS t FROM uuids WHERE n % 4001 = 1 UNION ALL SELECT date_trunc('milliseconds', at) FROM uuids WHERE n % 4001 = 2) s,
                 unnest(ARRAY[interval '0', interval '1 millisecond', interval '1 day', interval '10 days']) d,
                 unnest(ARRAY['[)', '[]', '()', '(]']) b
            UNION ALL SELECT unnest(ARRAY[tstzrange(NULL, '2024-01-01'), tstzrange('2024-11-01', NULL), tstzrange('-infinity', 'infinity'),
                                          'empty', tstzrange('1970-01-01', '1970-01-02'), tstzrange('9999-01-01', '10889-08-02 05:31:50.655+00', '[]'),
                                          tstzrange('10889-08-02 05:31:50.655+00', NULL, '()')])) windows) compared;

-- prefixes through the index equal the definition (the 32 hex digits start with the prefix's), for prefixes
-- of sampled and edge uuids of every length, as written (dashed), without dashes, and in upper case; on an
-- eighth of the rows (a sequential scan per prefix)
CREATE TABLE some_uuids AS SELECT id FROM uuids WHERE n % 8 = 0;
CREATE INDEX ON some_uuids (id);
ANALYZE some_uuids;
CREATE FUNCTION uuid_prefix_mismatches() RETURNS TABLE (prefixes int, mismatches int) LANGUAGE plpgsql AS $$
DECLARE p text;
BEGIN
	prefixes := 0;
	mismatches := 0;
	FOR p IN SELECT DISTINCT v FROM ((SELECT id::text AS t FROM some_uuids ORDER BY md5(id::text) LIMIT 5)
	                                 UNION ALL SELECT unnest(ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])) s,
	                                generate_series(0, 36) n, LATERAL (VALUES (left(t, n)), (replace(left(t, n), '-', '')), (upper(left(t, n)))) x(v)
	LOOP
		prefixes := prefixes + 1;
		IF ids_via(true, 'SELECT array_agg(id::text ORDER BY id) FROM some_uuids WHERE id ^@ $1', p)
		   IS DISTINCT FROM
		   ids_via(false, 'SELECT array_agg(id::text ORDER BY id) FROM some_uuids WHERE starts_with(replace(id::text, ''-'', ''''), lower(replace($1, ''-'', '''')))', p)
		THEN
			mismatches := mismatches + 1;
		END IF;
	END LOOP;
	RETURN NEXT;
END $$;
SELECT * FROM uuid_prefix_mismatches();

-- the planner: constant right-hand sides become constant bounds on uuid's own btree operators
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM uuids WHERE id <@ tstzrange('2024-02-01 10:00+00', '2024-02-01 11:00+00');
EXPLAIN (COSTS OFF) SELECT n FROM uuids WHERE id ^@ '018d6460-b';
EXPLAIN (COSTS OFF) SELECT n FROM uuids WHERE id <@ 'empty'::tstzrange;
-- parameters of generic plans, now(), a join's outer row: uuid_window_lo/_hi (uuid_prefix_lo/_hi) at run time
CREATE TABLE uuid_report_windows (r tstzrange);
INSERT INTO uuid_report_windows VALUES (tstzrange('2024-02-01 10:00+00', '2024-02-01 11:00+00'));
PREPARE by_window(tstzrange) AS SELECT n FROM uuids WHERE id <@ $1;
PREPARE by_prefix(text) AS SELECT n FROM uuids WHERE id ^@ $1;
SET plan_cache_mode = force_generic_plan;
SELECT reads_by_index_range('EXECUTE by_window(tstzrange(''2024-02-01 10:00+00'', ''2024-02-01 11:00+00''))', 'uuids') AS generic_window,
       reads_by_index_range('EXECUTE by_prefix(''018d6460-b'')', 'uuids') AS generic_prefix,
       reads_by_index_range('SELECT n FROM uuids WHERE id <@ tstzrange(now() - interval ''1 hour'', now())', 'uuids') AS now,
       reads_by_index_range('SELECT u.n FROM uuid_report_windows w JOIN uuids u ON u.id <@ w.r', 'uuids') AS join;
EXECUTE by_window(tstzrange('2024-02-01 10:00+00', '2024-02-01 11:00+00'));
EXECUTE by_prefix('018d64');
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- a volatile right-hand side stays a filter (it would be evaluated twice)
EXPLAIN (COSTS OFF) SELECT n FROM uuids WHERE id <@ tstzrange(clock_timestamp() - interval '1 hour', clock_timestamp());

-- Estimates: the rewritten range is estimated by PostgreSQL's own uuid operators, exactly as the same range
-- written by hand; wide windows are close (narrow ones fall inside one histogram bucket, which PostgreSQL
-- does not interpolate for uuid)
CREATE FUNCTION rows_of(q text, OUT estimated bigint, OUT actual bigint) LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, ANALYZE, COSTS, TIMING OFF) ' || q INTO plan;
	estimated := round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
	actual := round((plan -> 0 -> 'Plan' ->> 'Actual Rows')::numeric);
END $$;
SELECT w, estimated_rows(format('SELECT * FROM uuids WHERE id <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w))
          = estimated_rows(format('SELECT * FROM uuids WHERE id >= uuid_v7_min(%1$L) AND id <= uuid_v7_max(%1$L::timestamptz + %2$L::interval - interval ''1 ms'')', t0, w)) AS as_by_hand,
       (SELECT greatest(estimated, actual)::float8 / greatest(least(estimated, actual), 1) <= 1.5
        FROM rows_of(format('SELECT * FROM uuids WHERE id <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w))) AS within_1_5
FROM (VALUES ('2024-02-01 10:07:00+00')) v(t0), unnest(ARRAY['30 days', '90 days']) w;
-- the operators' own estimators (where no rewrite happens): the range's share of the histogram, interpolated
SELECT s.oprname, s.oprrest FROM pg_operator s WHERE s.oprleft = 'uuid'::regtype AND s.oprright IN ('tstzrange'::regtype, 'text'::regtype) ORDER BY 1;

-- PostgreSQL 18: uuidv7() itself
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
\if :has_uuidv7
CREATE TABLE made (id uuid, made_at timestamptz);
INSERT INTO made SELECT uuidv7(), clock_timestamp() FROM generate_series(1, 2000);
INSERT INTO made SELECT uuidv7(interval '-1 day'), clock_timestamp() - interval '1 day' FROM generate_series(1, 2000);
CREATE INDEX ON made (id);
ANALYZE made;
SELECT count(*) FILTER (WHERE uuid_v7_timestamp(id) = uuid_extract_timestamp(id)) AS same_as_uuid_extract_timestamp,
       count(*) FILTER (WHERE id BETWEEN uuid_v7_min(uuid_v7_timestamp(id)) AND uuid_v7_max(uuid_v7_timestamp(id))) AS within_own_millisecond,
       count(*) FILTER (WHERE abs(extract(epoch FROM made_at - uuid_v7_timestamp(id))) < 60) AS near_clock,
       count(*) AS rows
FROM made;
SET enable_seqscan = off;
SELECT count(*) AS last_hour FROM made WHERE id <@ tstzrange(now() - interval '1 hour', NULL);
SELECT count(*) AS yesterday FROM made WHERE id <@ tstzrange(now() - interval '25 hours', now() - interval '23 hours');
SET enable_bitmapscan = off;
SELECT (SELECT count(*) FROM made WHERE id ^@ p) = (SELECT count(*) FROM made WHERE starts_with(id::text, p)) AS prefix_as_defined
FROM (SELECT left(id::text, n) AS p FROM (SELECT id FROM made ORDER BY id DESC LIMIT 1) l, generate_series(4, 10) n) s;
SELECT reads_by_index_range('SELECT count(*) FROM made WHERE id <@ tstzrange(now() - interval ''1 hour'', NULL)', 'made') AS now_by_index;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE made;
\endif

DROP FUNCTION uuid_prefix_mismatches(), rows_of(text);
DROP TABLE uuids, some_uuids, uuid_report_windows;
