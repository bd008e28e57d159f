-- uuid_v7_generate(): UUIDv7s for plain uuid columns, laid out as PostgreSQL 18's uuidv7() (48-bit Unix
-- milliseconds, version 7, a 12-bit fraction of the millisecond, variant 10, 62 random bits), each greater
-- than every one issued before in the server; uuid_v7_generate_at() for backfill. On 18 also against core's
-- uuidv7() and uuid_extract_timestamp(). (Order across sessions and restarts: test/concurrency/uuid_v7.sh.)
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- 20,000 values in one statement, in issue order, between clock readings taken before and after
CREATE TEMP TABLE made AS
SELECT clock_timestamp() AS before, n, uuid_v7_generate() AS id, clock_timestamp() AS after
FROM generate_series(1, 20000) n;
-- the version (7) and the variant (10) in every one; no two alike; strictly increasing in issue order
SELECT count(*) FILTER (WHERE substr(id::text, 15, 1) = '7') AS version_7,
       count(*) FILTER (WHERE substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_10,
       count(DISTINCT id) AS distinct_ids,
       count(DISTINCT substr(id::text, 20)) AS distinct_random_parts,
       count(*) AS rows
FROM made;
SELECT count(*) AS not_increasing FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM made) s WHERE id <= prev;
-- the time field is the clock's millisecond, never ahead of it (more values than a millisecond's 4096
-- fractions hold count on in the random bits, not in the time); the fraction is the clock's microsecond
-- scaled to 4096 steps, or counts on from the last value's: at or after the clock's. Fractions used: more
-- than 100 distinct (a slow server, ASan's, reads a new microsecond for each value, at most 1000 of them; a
-- fast one counts on within a microsecond)
CREATE FUNCTION uuid_fraction(id uuid) RETURNS int LANGUAGE sql IMMUTABLE
	RETURN ('x' || substr(id::text, 16, 3))::bit(12)::int;
-- a time in 1/4096 milliseconds: a uuid's first 60 bits (version bits left out), a clock reading's as uuidv7() scales it
CREATE FUNCTION steps_of(id uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
	RETURN (extract(epoch FROM uuid_v7_timestamp(id)) * 1000)::bigint * 4096 + uuid_fraction(id);
CREATE FUNCTION steps_of(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE
	RETURN (SELECT us / 1000 * 4096 + us % 1000 * 4096 / 1000 FROM (SELECT (extract(epoch FROM t) * 1000000)::bigint AS us) u);
SELECT count(*) FILTER (WHERE uuid_v7_timestamp(id) BETWEEN date_trunc('milliseconds', before) AND after) AS time_is_the_clocks,
       count(*) FILTER (WHERE steps_of(id) >= steps_of(before)) AS fraction_not_behind,
       count(DISTINCT uuid_fraction(id)) > 100 AS fractions_used
FROM made;

-- the fraction of a microsecond: (microsecond within the millisecond) * 4096 / 1000, as uuidv7() computes it
SELECT t, uuid_fraction(uuid_v7_generate_at(t)) AS fraction, uuid_v7_timestamp(uuid_v7_generate_at(t)) AS millisecond
FROM unnest(ARRAY['2024-07-19 09:40:46.481+00', '2024-07-19 09:40:46.481001+00', '2024-07-19 09:40:46.481123+00',
                  '2024-07-19 09:40:46.4815+00', '2024-07-19 09:40:46.481999+00']::timestamptz[]) t;

-- a clock set back 5 s: values stay above the last one, in the same millisecond (the fraction, then the
-- random bits count on), not 5 s back
SELECT uuid_v7_generate() AS last \gset
SET idtypes.test_clock_offset = '-5s';
CREATE TEMP TABLE behind AS SELECT n, uuid_v7_generate() AS id FROM generate_series(1, 10000) n;
RESET idtypes.test_clock_offset;
SELECT count(*) FILTER (WHERE id > :'last') AS above_the_last, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE uuid_v7_timestamp(id) BETWEEN uuid_v7_timestamp(:'last') AND uuid_v7_timestamp(:'last') + interval '3 ms') AS near_the_last,
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM behind) s WHERE id <= prev) AS not_increasing
FROM behind;
SELECT uuid_v7_generate() > (SELECT id FROM behind ORDER BY id DESC LIMIT 1) AS still_increasing;

-- a shift moves the time by the interval's length as extract(epoch FROM shift) gives it (a day 24 h, a month
-- 30.4375 days); NULL or none is no shift; a time outside 1970 .. 10889 is an error (22008)
SELECT uuid_v7_generate() AS a \gset
SELECT uuid_v7_generate(NULL) AS b \gset
SELECT uuid_v7_generate(interval '0') AS c \gset
SELECT :'a'::uuid < :'b'::uuid AS null_is_no_shift, :'b'::uuid < :'c'::uuid AS zero_is_no_shift;
SELECT s, abs(extract(epoch FROM uuid_v7_timestamp(uuid_v7_generate(s)) - clock_timestamp()) - extract(epoch FROM s)) < 1 AS shifted,
       substr(uuid_v7_generate(s)::text, 15, 1) = '7' AS version_7
FROM unnest(ARRAY['-1 day', '1 hour', '-36 months', '2 ms', '-1 microsecond', '1000 years']::interval[]) s;
-- values of one shift keep the order (and never repeat)
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing, count(DISTINCT id) AS distinct_ids
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v7_generate(interval '-1 day 2.5 ms') AS id FROM generate_series(1, 10000) n) g) s;
-- One length whatever the value's time or the session's time zone, so values of one shift keep their order
-- where the calendar's sums invert: across a daylight saving change (Europe/Berlin's, on 2026-03-29) and at a
-- month's end. (The values' times cannot be put there: the order at those very instants is
-- test/core/uuid7_test.cpp's ShiftLengthIsFixed.)
SET TimeZone = 'Europe/Berlin';
SELECT '2026-03-28 02:30'::timestamptz + interval '1 day' > '2026-03-28 03:15'::timestamptz + interval '1 day' AS calendar_inverts_across_dst,
       '2026-01-30 23:00'::timestamptz + interval '1 month' > '2026-01-31 01:00'::timestamptz + interval '1 month' AS calendar_inverts_at_month_end;
SELECT s, round(extract(epoch FROM uuid_v7_timestamp(uuid_v7_generate(s)) - clock_timestamp())::numeric / 86400, 4) AS days
FROM unnest(ARRAY['1 day', '-1 day', '1 month', '-1 month', '1 year', '-1 month -1 day']::interval[]) s;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v7_generate(interval '1 month 1 day') AS id FROM generate_series(1, 10000) n) g) s;
SET TimeZone = 'UTC';
SELECT uuid_v7_generate('-100 years');
SELECT uuid_v7_generate('9000 years');
SELECT uuid_v7_generate('300000 years');

-- uuid_v7_generate_at: the time (to the microsecond, as the fraction), 62 random bits; no server state
SELECT uuid_v7_generate_at('2022-02-22 19:22:22.000001+00')::text LIKE '017f22e2-79b0-7004-%' AS rfc_9562_millisecond;
SELECT count(DISTINCT id) AS distinct_ids, count(*) FILTER (WHERE substr(id::text, 1, 19) = '018cc251-f5f4-7000-') AS same_time,
       count(*) FILTER (WHERE substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_10
FROM (SELECT uuid_v7_generate_at('2024-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)) g;
SELECT left(uuid_v7_generate_at('1970-01-01 00:00:00+00')::text, 19) AS first, uuid_v7_generate_at('10889-08-02 05:31:50.655999+00') < uuid_v7_max('10889-08-02 05:31:50.655+00') AS last;
SELECT uuid_v7_generate_at('1969-12-31 23:59:59.999999+00');
SELECT uuid_v7_generate_at('10889-08-02 05:31:50.656+00');
SELECT uuid_v7_generate_at('infinity');
SELECT uuid_v7_generate_at(NULL) IS NULL AS null_gives_null;
SELECT uuid_v7_generate_at('2200-01-01+00') IS NOT NULL AS future, uuid_v7_generate() < uuid_v7_min('2100-01-01') AS generator_unmoved;

-- markings: VOLATILE (a DEFAULT draws a new one per row); PARALLEL RESTRICTED as every generator with state (issue 55)
SELECT proname, pg_get_function_arguments(oid) AS arguments, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('uuid_v7_generate', 'uuid_v7_generate_at') ORDER BY proname;

-- A uuid primary key filled by the generator as a DEFAULT: `<@` windows and `^@` prefixes answered from its
-- index, selecting what their definitions select
CREATE TABLE generated_uuids (id uuid PRIMARY KEY DEFAULT uuid_v7_generate(), n int) WITH (autovacuum_enabled = off);
INSERT INTO generated_uuids (n) SELECT g FROM generate_series(1, 5000) g;
INSERT INTO generated_uuids (id, n) SELECT uuid_v7_generate(-g * interval '1 minute'), -g FROM generate_series(1, 5000) g;
ANALYZE generated_uuids;
SELECT count(*) AS rows, count(*) FILTER (WHERE id <@ tstzrange(now() - interval '1 hour', NULL)) AS last_hour
FROM generated_uuids WHERE n > 0;
SELECT window_mismatches('generated_uuids', 'uuid_v7',
       ARRAY[tstzrange(now() - interval '1 hour', NULL), tstzrange(now() - interval '2 days', now() - interval '1 day'),
             tstzrange(now() - interval '30 minutes', now() - interval '29 minutes', '[]'), tstzrange(NULL, now() - interval '2 hours')]) AS window_mismatches;
SELECT (SELECT count(*) FROM generated_uuids WHERE id ^@ p) = (SELECT count(*) FROM generated_uuids WHERE starts_with(id::text, p)) AS prefix_as_defined
FROM (SELECT left(id::text, k) AS p FROM (SELECT id FROM generated_uuids ORDER BY id DESC LIMIT 1) l, generate_series(6, 12, 3) k) s;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM generated_uuids WHERE id <@ tstzrange('2024-02-01 10:00+00', '2024-02-01 11:00+00');
EXPLAIN (COSTS OFF) SELECT n FROM generated_uuids WHERE id ^@ '018d6460-b';
PREPARE recent(tstzrange) AS SELECT n FROM generated_uuids WHERE id <@ $1;
PREPARE by_prefix(text) AS SELECT n FROM generated_uuids WHERE id ^@ $1;
SET plan_cache_mode = force_generic_plan;
SELECT reads_by_index_range('EXECUTE recent(tstzrange(now() - interval ''1 hour'', NULL))', 'generated_uuids') AS generic_window,
       reads_by_index_range('EXECUTE by_prefix(''018d6460-b'')', 'generated_uuids') AS generic_prefix,
       reads_by_index_range('SELECT n FROM generated_uuids WHERE id <@ tstzrange(now() - interval ''1 hour'', now())', 'generated_uuids') AS now;
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_bitmapscan;
DEALLOCATE recent;
DEALLOCATE by_prefix;

-- PostgreSQL 18: core's uuid_extract_timestamp and uuid_extract_version read ours; ours and uuidv7(shift)
-- carry the same shifted time for shifts of days (in UTC: no daylight saving), hours and less; a month is
-- 30.4375 days in ours, the calendar's in core's
SELECT current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
\if :has_uuidv7
SELECT count(*) FILTER (WHERE uuid_extract_timestamp(id) = uuid_v7_timestamp(id)) AS uuid_extract_timestamp_agrees,
       count(*) FILTER (WHERE uuid_extract_version(id) = 7) AS uuid_extract_version_7, count(*) AS rows
FROM made;
SELECT s, abs(extract(epoch FROM uuid_extract_timestamp(uuid_v7_generate(s)) - uuid_extract_timestamp(uuidv7(s)))) < 1 AS as_core
FROM unnest(ARRAY['-1 day', '1 hour', '2 ms', '-1 microsecond']::interval[]) s;
SELECT s, abs(extract(epoch FROM uuid_extract_timestamp(uuid_v7_generate(s)) - uuid_extract_timestamp(uuidv7(s)))) < 10 * 86400 AS within_10_days_of_core
FROM unnest(ARRAY['-36 months', '1000 years']::interval[]) s;
\endif

DROP FUNCTION uuid_fraction(uuid), steps_of(uuid), steps_of(timestamptz);
DROP TABLE made, behind, generated_uuids;
