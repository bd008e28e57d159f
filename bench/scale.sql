-- Functions of bench/scale.sh: tables of N rows in ID order (a timestamptz column ts carrying the
-- same instant, with its own btree index), loaded, indexed and queried; figures go to scale_build and
-- scale_latency. Rows are `density` per second from 2026-01-01 00:00 UTC, so that a query selects the same
-- number of rows at every size: what grows with the table is only the index the query descends.
CREATE TABLE scale_build (type text, rows bigint, layout text, what text, value float8, unit text);
CREATE TABLE scale_latency (type text, rows bigint, layout text, query text, subject text, ms float8);

-- The median over positions of the best of `reps` runs, in ms, of the ID query and of the ts query at each
-- position; the two alternate, so that the drift of a shared machine falls on both alike. EXECUTE plans each
-- query, as a client sending it would; one untimed round first (caches warm, as a server's are).
CREATE FUNCTION scale_median_ms(id_q text[], ts_q text[], reps int, OUT id_ms float8, OUT ts_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	t timestamptz;
	best_id float8[] := '{}';
	best_ts float8[] := '{}';
	b_id float8;
	b_ts float8;
BEGIN
	FOR i IN 1..cardinality(id_q) LOOP
		EXECUTE id_q[i];
		IF ts_q IS NOT NULL THEN
			EXECUTE ts_q[i];
		END IF;
	END LOOP;
	FOR i IN 1..cardinality(id_q) LOOP
		b_id := 'infinity';
		b_ts := 'infinity';
		FOR r IN 1..reps LOOP
			t := clock_timestamp();
			EXECUTE id_q[i];
			b_id := least(b_id, extract(epoch FROM clock_timestamp() - t)::float8 * 1000);
			IF ts_q IS NOT NULL THEN
				t := clock_timestamp();
				EXECUTE ts_q[i];
				b_ts := least(b_ts, extract(epoch FROM clock_timestamp() - t)::float8 * 1000);
			END IF;
		END LOOP;
		best_id := best_id || b_id;
		best_ts := best_ts || b_ts;
	END LOOP;
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO id_ms FROM unnest(best_id) x;
	IF ts_q IS NOT NULL THEN
		SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO ts_ms FROM unnest(best_ts) x;
	END IF;
END $$;

CREATE FUNCTION scale_table(typ text, n bigint, layout text) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$ SELECT format('scale_%s_%s_%s', typ, n, layout) $$;

-- Bytes of a table (with its indexes) or index, or of all its partitions.
CREATE FUNCTION scale_size(rel regclass) RETURNS float8 LANGUAGE sql AS $$
	SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(rel) WHERE isleaf),
	                pg_total_relation_size(rel))
$$;

-- A function of the type's time interface by its role (min, timestamp, prefix_lo, prefix_hi): T_<role> for
-- the extension's types; for uuid, those of src/catalog/uuid.sql (uuid_v7_min, uuid_v7_timestamp,
-- uuid_prefix_lo/_hi).
CREATE FUNCTION scale_fn(typ text, role text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN typ = 'uuid' AND role IN ('min', 'timestamp') THEN 'uuid_v7_' || role ELSE typ || '_' || role END
$$;

-- The ID of row i, whose time is t0us + i * step_us microseconds: other bits vary as a generator's would.
-- uuid (PostgreSQL 18): uuidv7() itself, shifted by the row's time minus the clock (both volatile, so read
-- per row), so that the IDs are real UUIDv7s (version, variant, sub-millisecond and random bits). uuidv7
-- reads its own clock a little after clock_timestamp() and applies its per-backend monotonic step (245 ns)
-- to that clock, before the shift; so an ID carries the row's time plus that delay. Measured on 18.4 (1M
-- rows, from the sub-millisecond bits): a median of 0.5 us, at most 140 us; so the ID's millisecond, all that
-- uuid_extract_timestamp, uuid_v7_timestamp and the queries read, is the row's (ts's). Only when the backend
-- is descheduled in between is it a few ms later (on a busy 2-core machine 10 and 21 rows of 10M, at most
-- 8 ms): still within the row's 100 ms step and in ID order. scale_load counts them ('ids off ts'). The
-- difference of two timestamptz holds days, which adding in a zone with DST would shift: scale_load runs in UTC.
CREATE FUNCTION scale_id_expr(typ text, step_us bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE typ
		WHEN 'timeid' THEN format('make_timeid(1767225600000000 + i * %s, (i %% 1024)::int)', step_us)
		WHEN 'tbsl' THEN format('make_tbsl(1767225600 + (i * %1$s) / 1000000, ((i * %1$s) %% 1000000)::int, 0, ((i * 7919) %% 1048576)::int)', step_us)
		WHEN 'uuid' THEN format('uuidv7(to_timestamp(1767225600) + i * interval ''%s microseconds'' - clock_timestamp())', step_us)
	END
$$;

-- Creates and loads the table (without indexes; daily partitions made beforehand for 'partitioned').
CREATE FUNCTION scale_load(typ text, n bigint, density int, layout text) RETURNS void LANGUAGE plpgsql
SET timezone = 'UTC' AS $$
DECLARE
	tbl text := scale_table(typ, n, layout);
	step_us bigint := 1000000 / density;
	t0 timestamptz := '2026-01-01 00:00+00';
	started timestamptz;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I', tbl);
	EXECUTE format('CREATE TABLE %I (id %s NOT NULL, ts timestamptz NOT NULL, payload int NOT NULL)%s', tbl, typ,
	               CASE WHEN layout = 'partitioned' THEN ' PARTITION BY RANGE (id)' ELSE '' END);
	IF layout = 'partitioned' THEN
		FOR d IN 0..ceil(n::numeric * step_us / 86400e6)::int - 1 LOOP
			EXECUTE format('CREATE TABLE %1$I PARTITION OF %2$I FOR VALUES FROM (%3$s(%4$L)) TO (%3$s(%5$L))',
			               tbl || to_char(t0 AT TIME ZONE 'UTC' + d * interval '1 day', '"_p"YYYYMMDD'), tbl, scale_fn(typ, 'min'),
			               t0 + d * interval '1 day', t0 + (d + 1) * interval '1 day');
		END LOOP;
	END IF;
	started := clock_timestamp();
	EXECUTE format('INSERT INTO %I SELECT %s, %L::timestamptz + i * %L::interval, i FROM generate_series(0::bigint, %s) i',
	               tbl, scale_id_expr(typ, step_us), t0, step_us * interval '1 microsecond', n - 1);
	INSERT INTO scale_build VALUES (typ, n, layout, 'load', n / extract(epoch FROM clock_timestamp() - started)::float8, 'rows/s');
	INSERT INTO scale_build VALUES (typ, n, layout, 'table', scale_size(tbl::regclass), 'bytes');
	-- Rows whose ID's millisecond is not ts's, and the largest gap (by construction none but for uuid; see
	-- scale_id_expr).
	EXECUTE format('INSERT INTO scale_build SELECT %1$L, %2$s, %3$L, w, v, u FROM
	                    (SELECT count(*) AS c, coalesce(extract(epoch FROM greatest(max(d), -min(d))) * 1000, 0) AS most
	                     FROM (SELECT date_trunc(''milliseconds'', %5$s(id)) - date_trunc(''milliseconds'', ts) AS d FROM %4$I) x
	                     WHERE d <> ''0'') s, LATERAL (VALUES (''ids off ts'', c, ''rows''), (''ids off ts: most'', most, ''ms'')) r(w, v, u)',
	               typ, n, layout, tbl, scale_fn(typ, 'timestamp'));
END $$;

-- Builds an index (name: what it is), recording its build time and size (all partitions' for a partitioned table).
CREATE FUNCTION scale_index(typ text, n bigint, layout text, col text, method text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	tbl text := scale_table(typ, n, layout);
	idx text := format('%s_%s_%s', tbl, col, method);
	started timestamptz := clock_timestamp();
BEGIN
	EXECUTE format('CREATE INDEX %I ON %I USING %s (%I)', idx, tbl, method, col);
	INSERT INTO scale_build VALUES (typ, n, layout, format('%s(%s) build', method, col),
	                                extract(epoch FROM clock_timestamp() - started), 's');
	INSERT INTO scale_build VALUES (typ, n, layout, format('%s(%s)', method, col), scale_size(idx::regclass), 'bytes');
END $$;

-- The queries, on the ID column and on ts, each run at `runs` positions spread over the table's time span:
-- a 1-minute window; a prefix (timeid 6 symbols: 34 s; tbsl 7: 43 s; uuid 8 hex digits: 65.5 s, where 9
-- would be 4 s) against the same instants on ts;
-- the latest 20 rows; a keyset page (the 20 rows before a position). `queries` limits which.
CREATE FUNCTION scale_queries(typ text, n bigint, density int, layout text, runs int, reps int, with_ts boolean,
	queries text[] DEFAULT '{window,prefix,latest,keyset}') RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	tbl text := scale_table(typ, n, layout);
	t0 timestamptz := '2026-01-01 00:00+00';
	span interval := (n * (1000000 / density)) * interval '1 microsecond';
	prefix_length int := CASE typ WHEN 'timeid' THEN 6 WHEN 'tbsl' THEN 7 ELSE 8 END;
	at timestamptz[];
	prefixes text[];
	lo timestamptz[];
	hi timestamptz[];
	q text;
	id_q text[];
	ts_q text[];
	id_ms float8;
	ts_ms float8;
BEGIN
	at := ARRAY(SELECT t0 + span * ((r + 0.5) / runs) FROM generate_series(0, runs - 1) r);
	EXECUTE format('SELECT array_agg(p ORDER BY r), array_agg(%1$s(%2$s(p)) ORDER BY r), array_agg(%1$s(%3$s(p)) ORDER BY r)
	                FROM unnest($1) WITH ORDINALITY a(t, r), LATERAL (SELECT left(%4$s(t)::text, $2) AS p) pp',
	               scale_fn(typ, 'timestamp'), scale_fn(typ, 'prefix_lo'), scale_fn(typ, 'prefix_hi'), scale_fn(typ, 'min'))
		INTO prefixes, lo, hi USING at, prefix_length;
	FOREACH q IN ARRAY queries LOOP
		CASE q
		WHEN 'window' THEN
			id_q := ARRAY(SELECT format('SELECT sum(payload) FROM %I WHERE id <@ tstzrange(%L, %L)', tbl, a, a + interval '1 minute') FROM unnest(at) a);
			ts_q := ARRAY(SELECT format('SELECT sum(payload) FROM %I WHERE ts >= %L AND ts < %L', tbl, a, a + interval '1 minute') FROM unnest(at) a);
		WHEN 'prefix' THEN
			id_q := ARRAY(SELECT format('SELECT sum(payload) FROM %I WHERE id ^@ %L', tbl, p) FROM unnest(prefixes) p);
			ts_q := ARRAY(SELECT format('SELECT sum(payload) FROM %I WHERE ts BETWEEN %L AND %L', tbl, l, h) FROM unnest(lo, hi) x(l, h));
		WHEN 'latest' THEN
			id_q := array_fill(format('SELECT sum(payload) FROM (SELECT payload FROM %I ORDER BY id DESC LIMIT 20) s', tbl), ARRAY[runs]);
			ts_q := array_fill(format('SELECT sum(payload) FROM (SELECT payload FROM %I ORDER BY ts DESC LIMIT 20) s', tbl), ARRAY[runs]);
		WHEN 'keyset' THEN
			EXECUTE format('SELECT ARRAY(SELECT format(''SELECT sum(payload) FROM (SELECT payload FROM %%I WHERE id < %%L ORDER BY id DESC LIMIT 20) s'', $1, %s(a)) FROM unnest($2) a)', scale_fn(typ, 'min'))
				INTO id_q USING tbl, at;
			ts_q := ARRAY(SELECT format('SELECT sum(payload) FROM (SELECT payload FROM %I WHERE ts < %L ORDER BY ts DESC LIMIT 20) s', tbl, a) FROM unnest(at) a);
		END CASE;
		SELECT * INTO id_ms, ts_ms FROM scale_median_ms(id_q, CASE WHEN with_ts THEN ts_q END, reps);
		INSERT INTO scale_latency VALUES (typ, n, layout, q, typ, id_ms);
		IF with_ts THEN
			INSERT INTO scale_latency VALUES (typ, n, layout, q, 'timestamptz', ts_ms);
		END IF;
	END LOOP;
END $$;
