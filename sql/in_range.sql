-- Window frames by time (btree support function 3, in_range, with an interval offset): for every type, a
-- frame over ORDER BY id equals the same frame over ORDER BY id::timestamptz, row by row, for IDs sharing a
-- time unit, across a daylight-saving change, at the format's first and last instants, in both directions;
-- and gives the same error where that frame does (a negative offset, a time + offset outside timestamptz).
SET TimeZone = 'America/New_York'; -- days are added in the session's time zone: 2024-03-10 has 23 hours

-- a pseudo-random fraction for each integer, the same on every PostgreSQL version
CREATE FUNCTION fraction(i int) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$ SELECT abs(hashint4(i)) / 2147483648.0 $$;

-- Times around the DST change (some equal, some 1 microsecond or 1 millisecond apart).
CREATE TEMP TABLE frame_times AS
SELECT '2024-03-08 12:00:00+00'::timestamptz + fraction(i) * interval '4 days' AS t FROM generate_series(1, 120) i
UNION ALL SELECT t + interval '1 microsecond' FROM (SELECT '2024-03-10 06:59:59.999+00'::timestamptz AS t) a
UNION ALL SELECT t + d * interval '1 millisecond' FROM (SELECT '2024-03-09 07:00:00+00'::timestamptz AS t) a, generate_series(0, 3) d
UNION ALL SELECT '2024-03-11 06:00:00.0005+00'::timestamptz FROM generate_series(1, 2);

-- <type>_frames: each time's smallest and largest ID (two IDs sharing a time unit), the type's smallest and
-- largest ID, and IDs within 3 hours of them; x is a weight per ID, so that a frame's sum tells its rows (from
-- the md5 of its text: the same on every architecture, where hashtext()'s value depends on byte order).
CREATE FUNCTION make_frames(type_name text, lowest text, highest text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		CREATE TEMP TABLE %1$s_frames AS
		SELECT id, ('x' || left(md5(id::text), 7))::bit(28)::int %% 1000 AS x FROM (
			SELECT %1$s_min(t) AS id FROM frame_times UNION SELECT %1$s_max(t) FROM frame_times
			UNION SELECT %2$L::%1$s UNION SELECT %3$L::%1$s
			UNION SELECT %1$s_max(%2$L::%1$s::timestamptz + fraction(i) * interval '3 hours') FROM generate_series(1, 10) i
			UNION SELECT %1$s_min(%3$L::%1$s::timestamptz - fraction(-i) * interval '3 hours') FROM generate_series(1, 10) i) ids$q$,
		type_name, lowest, highest);
END $$;
SELECT make_frames('timeid', '2222222222222', 'jzzzzzzzzzzzz'),
       make_frames('tbsl', '00000000000000000000', 'DE0B6B3A763FFFFFFFFF'),
       make_frames('uid11', '11111111111', 'jpXCZedGfVQ'),
       make_frames('scru160', '00000000000000000000000000000000', 'VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV');
SELECT (SELECT count(*) FROM timeid_frames) AS timeid, (SELECT count(*) FROM tbsl_frames) AS tbsl,
       (SELECT count(*) FROM uid11_frames) AS uid11, (SELECT count(*) FROM scru160_frames) AS scru160;

-- The query's one-line result, or its error.
CREATE FUNCTION result_or_error(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $$;

-- Every row's frame (its row count and weight) over ORDER BY id `frame` and over ORDER BY id::timestamptz
-- `frame`: `same (N)` when they are equal for every row (N: the rows of all frames together), `same error`
-- when both raise it, else `DIFFERENT` with both answers.
CREATE FUNCTION compare_frames(tbl regclass, frame text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	q text := 'SELECT string_agg(c || ''/'' || s, '','' ORDER BY id) || '' '' || sum(c)
	           FROM (SELECT id, count(*) OVER w AS c, sum(x) OVER w AS s FROM %s WINDOW w AS (ORDER BY %s %s)) f';
	by_id text := result_or_error(format(q, tbl, 'id', frame));
	by_time text := result_or_error(format(q, tbl, 'id::timestamptz', frame));
BEGIN
	IF by_id IS DISTINCT FROM by_time THEN
		RETURN format('DIFFERENT: %s / %s', by_id, by_time);
	ELSIF by_id LIKE 'ERROR %' THEN
		RETURN 'same error: ' || by_id;
	END IF;
	RETURN format('same (%s)', split_part(by_id, ' ', 2));
END $$;

CREATE TEMP TABLE frames (frame text, n serial);
INSERT INTO frames (frame) VALUES
	('RANGE BETWEEN ''1 hour'' PRECEDING AND ''0'' FOLLOWING'),
	('RANGE BETWEEN ''90 minutes'' PRECEDING AND ''30 minutes'' FOLLOWING'),
	('RANGE BETWEEN ''0'' PRECEDING AND ''0'' FOLLOWING'),
	('RANGE BETWEEN ''1 millisecond'' PRECEDING AND ''1 microsecond'' FOLLOWING'),
	('RANGE BETWEEN ''1 day'' PRECEDING AND ''1 second'' PRECEDING'),
	('RANGE BETWEEN ''1 day'' FOLLOWING AND ''1 day 2 hours'' FOLLOWING'),
	('RANGE BETWEEN UNBOUNDED PRECEDING AND ''1 hour'' PRECEDING'),
	('RANGE BETWEEN ''2 hours'' FOLLOWING AND UNBOUNDED FOLLOWING'),
	('RANGE BETWEEN ''1 mon'' PRECEDING AND ''1 year'' FOLLOWING'),
	('DESC RANGE BETWEEN ''1 hour'' PRECEDING AND ''15 minutes'' FOLLOWING'),
	('DESC RANGE BETWEEN ''1 day'' FOLLOWING AND UNBOUNDED FOLLOWING'),
	('RANGE BETWEEN ''1 hour'' PRECEDING AND ''0'' FOLLOWING EXCLUDE CURRENT ROW'),
	-- past the formats' last instants and before their first, within timestamptz's range
	('RANGE BETWEEN ''5000 years'' PRECEDING AND ''200000 years'' FOLLOWING'),
	-- outside timestamptz's range: PostgreSQL's error, from both
	('RANGE BETWEEN ''300000 years'' PRECEDING AND ''0'' FOLLOWING'),
	('RANGE BETWEEN ''0'' PRECEDING AND ''300000 years'' FOLLOWING'),
	('RANGE BETWEEN ''-1 hour'' PRECEDING AND ''0'' FOLLOWING'),
	('RANGE BETWEEN ''0'' PRECEDING AND ''1 day -25 hours'' FOLLOWING');
SELECT f.n, t.type_name, compare_frames((t.type_name || '_frames')::regclass, f.frame)
FROM frames f, unnest(ARRAY['timeid', 'tbsl', 'uid11', 'scru160']) t(type_name) ORDER BY f.n, t.type_name;
SELECT n, frame FROM frames ORDER BY n;

-- CURRENT ROW ends a frame at the current ID and its peers, equal IDs (as it does over id::timestamptz at
-- the current time and its peers): `'1 hour' PRECEDING AND CURRENT ROW` is every ID at most 1 hour older
-- and not greater than the current one.
SELECT t.type_name, result_or_error(format($q$
	SELECT count(*) FILTER (WHERE w.c <> d.c) || ' rows differ of ' || count(*)
	FROM (SELECT id, count(*) OVER (ORDER BY id RANGE BETWEEN '1 hour' PRECEDING AND CURRENT ROW) AS c FROM %1$s) w
	JOIN LATERAL (SELECT count(*) AS c FROM %1$s o
	              WHERE o.id <= w.id AND o.id::timestamptz >= w.id::timestamptz - interval '1 hour') d ON true$q$,
	t.type_name || '_frames')) AS current_row
FROM unnest(ARRAY['timeid', 'tbsl', 'uid11', 'scru160']) t(type_name);

-- the issue's example, and the support function in the btree family
SELECT id, sum(x) OVER (ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW)
FROM timeid_frames WHERE id <@ tstzrange('2024-03-09 07:00:00+00', '2024-03-09 07:00:00.004+00') ORDER BY id;
SELECT opf.opfname, p.amprocnum, p.amproclefttype::regtype, p.amprocrighttype::regtype, p.amproc::regproc, f.provolatile
FROM pg_amproc p JOIN pg_opfamily opf ON opf.oid = p.amprocfamily JOIN pg_proc f ON f.oid = p.amproc
WHERE p.amprocnum = 3 AND opf.opfname IN ('timeid_ops', 'tbsl_ops', 'uid11_ops', 'scru160_ops')
ORDER BY opf.opfname;
-- an offset that is no interval
SELECT sum(x) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM uid11_frames;

-- infinite offsets (PostgreSQL 17 and later have infinite intervals): as over timestamptz
SELECT current_setting('server_version_num')::int >= 170000 AS has_infinite_intervals \gset
\if :has_infinite_intervals
SELECT t.type_name, compare_frames((t.type_name || '_frames')::regclass, f.frame)
FROM (VALUES ('RANGE BETWEEN ''infinity'' PRECEDING AND ''1 hour'' PRECEDING'),
             ('RANGE BETWEEN ''1 hour'' FOLLOWING AND ''infinity'' FOLLOWING'),
             ('RANGE BETWEEN ''-infinity'' PRECEDING AND CURRENT ROW')) f(frame),
     unnest(ARRAY['timeid', 'tbsl', 'uid11', 'scru160']) t(type_name) ORDER BY f.frame, t.type_name;
\endif

RESET TimeZone;
DROP FUNCTION make_frames(text, text, text), compare_frames(regclass, text), result_or_error(text), fraction(int);
