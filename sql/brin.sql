-- BRIN for every type: minmax (the default) and minmax_multi answer `^@` and `<@ tstzrange` on a
-- time-ordered table (IDs made with T_min at one per millisecond, plus some late, out-of-order rows).

CREATE FUNCTION brin_table(type_name text, opclass text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE brin_%s_%s (id %I)', type_name, opclass, type_name);
	EXECUTE format($q$INSERT INTO brin_%s_%s
		SELECT %I(timestamptz '2023-11-14 22:13:20+00' + g * interval '1 ms') FROM generate_series(1, 50000) g
		UNION ALL
		SELECT %I(timestamptz '2023-11-14 22:13:20+00' + g * interval '97 ms') FROM generate_series(1, 300) g$q$,
		type_name, opclass, type_name || '_min', type_name || '_max');
	EXECUTE format('CREATE INDEX ON brin_%s_%s USING brin (id %I) WITH (pages_per_range = 8)',
		type_name, opclass, type_name || '_' || opclass || '_ops');
	EXECUTE format('ANALYZE brin_%s_%s', type_name, opclass);
END $$;

-- the plan of a query with sequential scans off, one line per row
CREATE FUNCTION plan_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
	PERFORM set_config('enable_seqscan', 'on', true);
END $$;

-- the text of type_name's smallest ID at an instant
CREATE FUNCTION id_text_at(type_name text, at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE result text;
BEGIN
	EXECUTE format('SELECT %I($1)::text', type_name || '_min') INTO result USING at;
	RETURN result;
END $$;

SELECT brin_table(t, o) FROM unnest(ARRAY['timeid', 'uid11', 'tbsl', 'scru160']) t, unnest(ARRAY['minmax', 'minmax_multi']) o;

-- the index is used for both operators (the prefix: the first 7 characters of the ID at 22:13:30)
SELECT t, o, line
FROM unnest(ARRAY['timeid', 'uid11', 'tbsl', 'scru160']) t, unnest(ARRAY['minmax', 'minmax_multi']) o,
     LATERAL plan_of(format('SELECT count(*) FROM brin_%s_%s WHERE id <@ tstzrange(%L, %L)', t, o,
                            '2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00')) line
WHERE line LIKE '%Bitmap Index Scan%';
SELECT t, o, line
FROM unnest(ARRAY['timeid', 'uid11', 'tbsl', 'scru160']) t, unnest(ARRAY['minmax', 'minmax_multi']) o,
     LATERAL plan_of(format('SELECT count(*) FROM brin_%s_%s WHERE id ^@ %L', t, o,
                            left(id_text_at(t, '2023-11-14 22:13:30+00'), 7))) line
WHERE line LIKE '%Bitmap Index Scan%';

-- and its answers equal the definitions
SELECT t, o, window_mismatches(format('brin_%s_%s', t, o)::regclass, t, ARRAY[
	tstzrange('2023-11-14 22:13:30+00', '2023-11-14 22:13:31+00'),
	tstzrange('2023-11-14 22:13:20.5+00', '2023-11-14 22:13:20.6+00', '[]'),
	tstzrange('2023-11-14 22:13:55+00', NULL), 'empty']) AS window_mismatches,
	(SELECT sum(mismatches) FROM prefix_mismatches(format('brin_%s_%s', t, o)::regclass, 8, ARRAY[]::text[])) AS prefix_mismatches
FROM unnest(ARRAY['timeid', 'uid11', 'tbsl', 'scru160']) t, unnest(ARRAY['minmax', 'minmax_multi']) o;

-- minmax_multi is not the default
SELECT opcname, opcdefault FROM pg_opclass WHERE opcname LIKE '%minmax%' AND opcintype::regtype::text IN
	('timeid', 'uid11', 'tbsl', 'scru160') ORDER BY 1;
