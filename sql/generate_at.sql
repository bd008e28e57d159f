-- Backfill generators <type>_generate_at(timestamptz): an ID carrying the given time, truncated to the
-- format's precision, its other bits drawn at random as the format's generator draws them, without the
-- server's generator state. Rows sharing a time unit collide exactly as often as the format's random bits say
-- (the birthday bound, docs/time-queries.md "Backfill generators"): never for scru160 (1M rows over 4 milliseconds load
-- into a PRIMARY KEY), the expected number (within 6 standard deviations) for the others (200,000 rows each:
-- enough for that count, and a fifth of the run time).

SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- the time, truncated; the other bits vary (1000 draws: about 638 distinct clock ids of 1024, 985 counters of
-- 32768, 992 random16 of 65536, all but ~0.5 of 2^20 suffixes)
SELECT timeid_generate_at('2024-07-19 09:40:46.481123+00')::timestamptz AS timeid,
       tbsl_generate_at('2024-07-19 09:40:46.481123+00')::timestamptz AS tbsl,
       uid11_generate_at('2024-07-19 09:40:46.481123+00')::timestamptz AS uid11,
       scru160_generate_at('2024-07-19 09:40:46.481123+00')::timestamptz AS scru160;
SELECT count(DISTINCT timeid_clock_id(timeid_generate_at(t))) > 580 AS timeid_clock_ids,
       count(DISTINCT tbsl_suffix(tbsl_generate_at(t))) > 990 AS tbsl_suffixes,
       count(DISTINCT uid11_xid_random(uid11_generate_at(t))) > 990 AS uid11_random,
       count(DISTINCT scru160_counter(scru160_generate_at(t))) > 960 AS scru160_counters,
       max(scru160_counter(scru160_generate_at(t))) < 32768 AS scru160_counter_15_bits,
       count(DISTINCT scru160_random16(scru160_generate_at(t))) > 970 AS scru160_random16,
       count(DISTINCT scru160_random80(scru160_generate_at(t))) = 1000 AS scru160_random80
FROM generate_series(1, 1000), (VALUES ('2024-07-19 09:40:46.481123+00'::timestamptz)) v(t);

-- tbsl: the machine id from the argument, else the setting
SET idtypes.tbsl_machine_id = 42;
SELECT tbsl_machine_id(tbsl_generate_at(now())) AS setting, tbsl_machine_id(tbsl_generate_at(now(), 7)) AS argument,
       tbsl_machine_id(tbsl_generate_at(now(), NULL)) AS null_argument;
RESET idtypes.tbsl_machine_id;
SELECT tbsl_generate_at(now(), 100);
SELECT tbsl_generate_at(now(), -1);

-- each format's first and last instant, and just outside (22008); infinities; NULL gives NULL
SELECT timeid_generate_at('1970-01-01 00:00:00+00')::timestamptz AS timeid_first, timeid_generate_at('2255-06-05 23:47:34.740991+00')::timestamptz AS timeid_last,
       tbsl_generate_at('1970-01-01 00:00:00+00', 0)::timestamptz AS tbsl_first, tbsl_generate_at('2286-11-20 17:46:39.999999+00')::timestamptz AS tbsl_last;
SELECT uid11_generate_at('2011-11-11 11:11:11.111+00')::timestamptz AS uid11_first, uid11_generate_at('2151-03-25 18:46:22.214999+00')::timestamptz AS uid11_last,
       scru160_generate_at('1970-01-01 00:00:00.001+00')::timestamptz AS scru160_first, scru160_generate_at('10889-08-02 05:31:50.654999+00')::timestamptz AS scru160_last;
SELECT timeid_generate_at('1969-12-31 23:59:59.999999+00');
SELECT timeid_generate_at('2255-06-05 23:47:34.740992+00'); -- the timeid type holds more (top bit set), its generator does not
SELECT tbsl_generate_at('2286-11-20 17:46:40+00');
SELECT uid11_generate_at('2011-11-11 11:11:11.110999+00');
SELECT uid11_generate_at('2151-03-25 18:46:22.215+00');
SELECT scru160_generate_at('1970-01-01 00:00:00.000999+00'); -- timestamps 0 and 2^48-1 are reserved by the spec
SELECT scru160_generate_at('10889-08-02 05:31:50.655+00');
SELECT timeid_generate_at('infinity');
SELECT tbsl_generate_at('-infinity');
SELECT uid11_generate_at('infinity');
SELECT scru160_generate_at('-infinity');
SELECT timeid_generate_at('2024-07-19 25:00:00+00'); -- 22008 from PostgreSQL's own input
SELECT timeid_generate_at(NULL) IS NULL AND tbsl_generate_at(NULL) IS NULL AND tbsl_generate_at(NULL, 1) IS NULL
       AND uid11_generate_at(NULL) IS NULL AND scru160_generate_at(NULL) IS NULL AS nulls;

-- no server state: a time in the future does not move the generators, whose IDs stay at the clock's time
SELECT timeid_generate_at('2200-01-01+00') IS NOT NULL, tbsl_generate_at('2200-01-01+00') IS NOT NULL,
       uid11_generate_at('2150-01-01+00') IS NOT NULL, scru160_generate_at('2200-01-01+00') IS NOT NULL;
SELECT timeid_generate()::timestamptz < '2100-01-01' AS timeid, tbsl_generate()::timestamptz < '2100-01-01' AS tbsl,
       uid11_generate()::timestamptz < '2100-01-01' AS uid11, scru160_generate()::timestamptz < '2100-01-01' AS scru160;
SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc WHERE proname LIKE '%\_generate\_at' ORDER BY proname;

-- Loads: `rows` rows, `per_unit` of them sharing each time unit (the times of one unit differ below the
-- format's precision), into <type>_loaded. Every ID's time must be its row's time truncated, and the
-- duplicates (rows minus distinct IDs) must be what `random_bits` random bits per unit give: per unit,
-- E = C(n,2)/N - C(n,3)/N^2 + C(n,4)/N^3 with N = 2^random_bits (the terms after are below 1e-7 here),
-- and the total within 6 standard deviations (sqrt(E): the count is close to Poisson).
CREATE FUNCTION backfill(type_name text, rows int, per_unit int, unit interval, random_bits int, arg text DEFAULT '')
RETURNS TABLE (type text, loaded bigint, time_units bigint, expected_duplicates numeric, duplicates_as_expected boolean,
               times_truncated boolean) LANGUAGE plpgsql AS $$
DECLARE
	n float8 := per_unit;
	big_n float8 := 2.0 ^ random_bits;
	expected float8;
	duplicates bigint;
	wrong_times bigint;
BEGIN
	EXECUTE format($q$
		CREATE TEMP TABLE %1$s_loaded AS
		SELECT %1$s_generate_at(t %5$s) AS id, t FROM generate_series(0, %2$s - 1) i,
		LATERAL (SELECT '2020-02-29 23:59:59.123+00'::timestamptz + (i / %3$s) * %4$L::interval
		                + (i %% 1000) * (%4$L::interval / 1000) * (%4$L::interval >= interval '1 millisecond')::int AS t) v$q$,
		type_name, rows, per_unit, unit, arg);
	EXECUTE format('SELECT count(*) FILTER (WHERE id::timestamptz IS DISTINCT FROM date_trunc(%L, t)) FROM %s_loaded',
	               CASE WHEN unit = interval '1 millisecond' THEN 'milliseconds' ELSE 'microseconds' END, type_name)
	INTO wrong_times;
	expected := (rows / per_unit) * (n * (n - 1) / 2 / big_n - n * (n - 1) * (n - 2) / 6 / big_n ^ 2
	                                 + n * (n - 1) * (n - 2) * (n - 3) / 24 / big_n ^ 3);
	IF expected < 1e-9 THEN -- no duplicate: the rows load into a PRIMARY KEY (else: unique violation)
		EXECUTE format('ALTER TABLE %s_loaded ADD PRIMARY KEY (id)', type_name);
		duplicates := 0;
	ELSE
		EXECUTE format('SELECT count(*) - count(DISTINCT id) FROM %s_loaded', type_name) INTO duplicates;
	END IF;
	type := type_name;
	loaded := rows;
	time_units := rows / per_unit;
	expected_duplicates := round(expected::numeric, 1);
	duplicates_as_expected := abs(duplicates - expected) <= 6 * sqrt(expected);
	times_truncated := wrong_times = 0;
	IF NOT duplicates_as_expected THEN
		RAISE NOTICE '% duplicates, % expected', duplicates, expected;
	END IF;
	RETURN NEXT;
END $$;
SELECT * FROM backfill('scru160', 1000000, 250000, '1 millisecond', 15 + 16 + 80)
UNION ALL SELECT * FROM backfill('tbsl', 200000, 1000, '1 microsecond', 20, ', 5')
UNION ALL SELECT * FROM backfill('uid11', 200000, 2000, '1 millisecond', 22)
UNION ALL SELECT * FROM backfill('timeid', 200000, 20, '1 microsecond', 10);
-- scru160's million rows over 4 milliseconds loaded into a PRIMARY KEY
SELECT count(*) AS scru160_rows, count(DISTINCT date_trunc('milliseconds', t)) AS milliseconds,
       (SELECT indisprimary AND indisunique FROM pg_index WHERE indrelid = 'scru160_loaded'::regclass) AS primary_key
FROM scru160_loaded;
SELECT count(*) FILTER (WHERE tbsl_machine_id(id) <> 5) AS tbsl_other_machine FROM tbsl_loaded;

-- docs/time-queries.md's recipe for timeid rows sharing a microsecond: number them into the clock id (up to 1024 a
-- microsecond), so none collide.
SELECT count(DISTINCT id) AS distinct_ids, count(*) AS rows
FROM (SELECT make_timeid(timeid_micros(timeid_min(t)), (row_number() OVER (PARTITION BY t) - 1)::int) AS id
      FROM generate_series(1, 3000) i, LATERAL (SELECT '2024-07-19 09:40:46.481123+00'::timestamptz + (i % 3) * interval '1 microsecond' AS t) v) r;

DROP FUNCTION backfill(text, int, int, interval, int, text);
DROP TABLE scru160_loaded, tbsl_loaded, uid11_loaded, timeid_loaded;
