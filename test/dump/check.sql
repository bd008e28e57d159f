-- What must survive a dump and restore, as one line per check (compared between the two servers).
\pset format unaligned
\pset tuples_only on
SELECT 'events ' || count(*) || ' ' || md5(string_agg(t::text || b::text || u::text || s::text || n, ',' ORDER BY t)) FROM events;
SELECT 'spans ' || count(*) || ' ' || md5(string_agg(concat_ws(' ', id, tr, br, ur, sr), ',' ORDER BY id)) FROM spans;
SELECT 'parts ' || tableoid::regclass || ' ' || count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id))
FROM parts GROUP BY tableoid ORDER BY 1;
SELECT 'all parts ' || count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM parts;
-- the same answers from every index as from the table
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT 'btree t ' || count(*) FROM events WHERE t <@ tstzrange('2023-11-14 22:13:21+00', '2023-11-14 22:13:22+00');
SELECT 'btree b ' || count(*) FROM events WHERE b ^@ '25BF61';
SELECT 'hash u ' || count(*) FROM events WHERE u = make_uid11_xid(1700000000000 + 77, 77);
SET enable_bitmapscan = on;
SET enable_indexscan = off;
SELECT 'brin s ' || count(*) FROM events WHERE s <@ tstzrange('2023-11-14 22:13:20.001+00', '2023-11-14 22:13:20.500+00');
SELECT 'brin t ' || count(*) FROM events WHERE t ^@ left(make_timeid(1700000000500000, 0)::text, 8);
RESET ALL;
SELECT 'seq t ' || count(*) FROM events WHERE t <@ tstzrange('2023-11-14 22:13:21+00', '2023-11-14 22:13:22+00');
SELECT 'pruned parts ' || count(*) FROM parts WHERE id = make_tbsl(1700000000 + 5, 0, 1, 5);
-- the defaults still generate (unless run with -v read_only=1)
\if :{?read_only}
\else
INSERT INTO events (n) VALUES (-1);
INSERT INTO parts (n) VALUES (-1);
SELECT 'defaults ' || count(*) FROM events WHERE n = -1 AND t > make_timeid(1700000000000000, 0);
\endif
