-- ULID text for uuid columns (issue 60): uuid_from_ulid(text) and uuid_to_ulid(uuid), Crockford's base32 as
-- the ULID spec writes it. The spec's example both ways, either case, the bounds, round trips of 10,000 uuids
-- against the definition (the 128-bit number in base 32, computed here in numeric), every error's DETAIL, the
-- labels, a time window through the index on ULIDs read from text, and a parallel plan.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS spec_example,
       uuid_to_ulid('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS back,
       uuid_from_ulid('01arz3ndektsv4rrffq69g5fav') = uuid_from_ulid('01ArZ3nDeKtSv4RrFfQ69g5FaV') AS either_case,
       uuid_v7_timestamp(uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS time;
SELECT uuid_to_ulid('00000000-0000-0000-0000-000000000000') AS zero,
       uuid_to_ulid('ffffffff-ffff-ffff-ffff-ffffffffffff') AS all_ones,
       uuid_from_ulid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS largest,
       uuid_from_ulid('00000000000000000000000000') AS smallest;

-- the definition: the uuid's 128 bits as one number, written in base 32 with 26 digits
CREATE FUNCTION pg_temp.ulid_by_definition(u uuid) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	n numeric := 0;
	h text := replace(u::text, '-', '');
	out text := '';
BEGIN
	FOR i IN 1 .. 32 LOOP
		n := n * 16 + ('x' || lpad(substr(h, i, 1), 8, '0'))::bit(32)::int;
	END LOOP;
	FOR i IN 1 .. 26 LOOP
		out := substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (mod(n, 32))::int + 1, 1) || out;
		n := div(n, 32);
	END LOOP;
	RETURN out;
END $$;
SELECT count(*) AS uuids,
       count(*) FILTER (WHERE uuid_to_ulid(u) = pg_temp.ulid_by_definition(u)) AS as_defined,
       count(*) FILTER (WHERE uuid_from_ulid(uuid_to_ulid(u)) = u) AS round_trips,
       count(*) FILTER (WHERE uuid_from_ulid(lower(uuid_to_ulid(u))) = u) AS lower_case,
       count(*) FILTER (WHERE uuid_to_ulid(u) ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS well_formed
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)
      UNION ALL SELECT uuid_v7_generate() FROM generate_series(1, 100)) s;
-- ULIDs sort as their uuids do (both are the same 128-bit number)
SELECT bool_and((a < b) = (uuid_to_ulid(a) COLLATE "C" < uuid_to_ulid(b) COLLATE "C")) AS same_order
FROM (SELECT gen_random_uuid() AS a, gen_random_uuid() AS b FROM generate_series(1, 2000)) s;

-- bad input: 22P02 with a DETAIL
\set VERBOSITY default
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FA');
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAVX');
SELECT uuid_from_ulid('');
SELECT uuid_from_ulid('80000000000000000000000000');
SELECT uuid_from_ulid('81ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAI');
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAL');
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAO');
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAU');
SELECT uuid_from_ulid('01ARZ3NDEK-SV4RRFFQ69G5FAV');
SELECT uuid_from_ulid(' 1ARZ3NDEKTSV4RRFFQ69G5FAV');
DO $$
BEGIN
	PERFORM uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FA!');
EXCEPTION WHEN invalid_text_representation THEN
	RAISE NOTICE 'sqlstate 22P02';
END $$;
SELECT uuid_from_ulid(NULL) IS NULL AND uuid_to_ulid(NULL) IS NULL AS strict;
SELECT p.oid::regprocedure AS function, provolatile, proparallel, proisstrict, prorettype::regtype
FROM pg_proc p WHERE p.oid IN ('uuid_from_ulid(text)'::regprocedure, 'uuid_to_ulid(uuid)'::regprocedure)
ORDER BY 1::text;

-- ULIDs kept as text elsewhere, loaded into a uuid column: time windows through its btree index
CREATE TABLE ulid_events (id uuid PRIMARY KEY, n int);
INSERT INTO ulid_events
SELECT uuid_from_ulid(uuid_to_ulid(uuid_v7_min(t))), n
FROM (SELECT n, timestamptz '2026-11-27 00:00' + n * interval '1 minute' AS t FROM generate_series(0, 1439) n) s;
ANALYZE ulid_events;
SELECT count(*) AS in_window FROM ulid_events
WHERE id <@ tstzrange('2026-11-27 10:00', '2026-11-27 11:00');
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ulid_events WHERE id <@ tstzrange('2026-11-27 10:00', '2026-11-27 11:00');
RESET enable_seqscan;

-- in a parallel plan (PARALLEL SAFE: run by the workers)
-- (debug_parallel_query from 16 on, force_parallel_mode on 15)
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, 'on', false) AS parallel;
SELECT count(*) AS round_trips FROM ulid_events WHERE uuid_from_ulid(uuid_to_ulid(id)) = id;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query'
                       ELSE 'force_parallel_mode' END, 'off', false) AS parallel;
DROP TABLE ulid_events;
