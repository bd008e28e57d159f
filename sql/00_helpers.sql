-- Helpers the type suites share (pg_regress runs the files in name order in one database).
-- Every table they look at has its IDs in a column named id.

-- The planner's row estimate for a query.
CREATE FUNCTION estimated_rows(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END $$;

-- The text array a query selects (its IDs in ID order, or counts), with index scans forced or forbidden.
CREATE FUNCTION ids_via(use_index boolean, q text, arg anyelement) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE ids text[];
BEGIN
	PERFORM set_config('enable_seqscan', (NOT use_index)::text, true);
	PERFORM set_config('enable_indexscan', use_index::text, true);
	PERFORM set_config('enable_indexonlyscan', use_index::text, true);
	PERFORM set_config('enable_bitmapscan', use_index::text, true);
	EXECUTE q INTO ids USING arg;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	PERFORM set_config('enable_indexonlyscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	RETURN ids;
END $$;

-- For each prefix length 1..max_length: prefixes of 25 stored IDs and of the given edge IDs; counts the
-- prefixes for which `id ^@ p` through the index selects other rows than the definition (the canonical text
-- starts with p): the index must return every row whose text starts with p, each once, and no other row.
-- The definition's counts come from one pass over the stored texts per length, not a scan per prefix.
CREATE FUNCTION prefix_mismatches(tbl regclass, max_length int, edges text[])
RETURNS TABLE (prefix_length int, prefixes int, mismatches int) LANGUAGE plpgsql AS $$
DECLARE
	sample text[];
	p text;
	expected bigint;
BEGIN
	EXECUTE format('CREATE TEMP TABLE stored_texts AS SELECT id::text AS t FROM %s', tbl);
	SELECT array_agg(t) INTO sample FROM (SELECT t FROM stored_texts ORDER BY md5(t) LIMIT 25) s;
	FOR n IN 1..max_length LOOP
		prefix_length := n;
		prefixes := 0;
		mismatches := 0;
		FOR p, expected IN
			SELECT q.p, count(s.t)
			FROM (SELECT left(e, n) AS p FROM unnest(sample || edges) e GROUP BY 1) q
			LEFT JOIN stored_texts s ON left(s.t, n) = q.p
			GROUP BY q.p
		LOOP
			prefixes := prefixes + 1;
			-- through the index: the rows, the distinct rows, the rows whose text does not start with p
			IF ids_via(true, format('SELECT ARRAY[count(*), count(DISTINCT id),
			                                      count(*) FILTER (WHERE NOT starts_with(id::text, $1))]::text[]
			                         FROM %s WHERE id ^@ $1', tbl), p)
			   IS DISTINCT FROM ARRAY[expected, expected, 0]::text[]
			THEN
				mismatches := mismatches + 1;
			END IF;
		END LOOP;
		RETURN NEXT;
	END LOOP;
	DROP TABLE stored_texts;
END $$;

-- Counts the windows for which `id <@ w` through the index differs from the definition (the ID's
-- timestamp lies in w) evaluated by a sequential scan.
CREATE FUNCTION window_mismatches(tbl regclass, type_name text, windows tstzrange[]) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	w tstzrange;
	bad int := 0;
BEGIN
	FOREACH w IN ARRAY windows LOOP
		IF ids_via(true, format('SELECT array_agg(id::text ORDER BY id) FROM %s WHERE id <@ $1', tbl), w)
		   IS DISTINCT FROM
		   ids_via(false, format('SELECT array_agg(id::text ORDER BY id) FROM %s WHERE %I(id) <@ $1', tbl,
		                         type_name || '_timestamp'), w)
		THEN
			RAISE NOTICE 'mismatch for %', w;
			bad := bad + 1;
		END IF;
	END LOOP;
	RETURN bad;
END $$;

-- Whether a query reads table tbl through one of its indexes with an Index Cond whose bounds are computed at
-- run time (<T>_window_lo / <T>_prefix_lo of a parameter, initplan or outer row), and never by a sequential
-- scan. Plans are checked, not printed: newer PostgreSQL versions word initplans differently.
CREATE FUNCTION reads_by_index_range(q text, tbl text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || line || E'\n';
	END LOOP;
	RETURN plan ~ ('Index (Only )?Scan using ' || tbl || '_\w+ on ' || tbl)
	       AND plan ~ 'Index Cond: \(\(\w+ >= \w+_(window|prefix)_lo\('
	       AND plan !~ ('Seq Scan on ' || tbl);
END $$;

-- The planner's estimated rows of a query and the rows it returns.
CREATE FUNCTION plan_rows(q text, OUT estimated bigint, OUT actual bigint) LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON, ANALYZE, COSTS, TIMING OFF) ' || q INTO plan;
	estimated := round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
	actual := round((plan -> 0 -> 'Plan' ->> 'Actual Rows')::numeric); -- 18 prints fractions
END $$;

-- The join method of a query's plan (the first join node): Hash Join, Merge Join, Nested Loop, or none.
CREATE FUNCTION join_method(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line ~ '(Hash Join|Merge Join|Nested Loop)' THEN
			RETURN substring(line FROM '(Hash Join|Merge Join|Nested Loop)');
		END IF;
	END LOOP;
	RETURN 'none';
END $$;

-- 'ok' when the larger of estimated/actual and actual/estimated is at most `factor`, else both figures.
CREATE FUNCTION estimate_within(q text, factor float8) RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN greatest(estimated, actual)::float8 / greatest(least(estimated, actual), 1) <= factor
	            THEN 'ok' ELSE format('off: %s estimated, %s actual', estimated, actual) END
	FROM plan_rows(q) $$;
