-- What a restored database must answer as the original did (rows, index scans, defaults that continue above).
SET enable_seqscan = off;
SET enable_bitmapscan = off;
VACUUM (ANALYZE) events;
SET TimeZone = 'UTC';
SELECT count(*), md5(string_agg(id || t || u || s || n, ',' ORDER BY id)) FROM events;
SELECT count(*) FROM events WHERE id <@ tstzrange('2024-01-01 10:00+00', '2024-01-01 11:00+00');
SELECT count(*) FROM events WHERE id ^@ '3kh';
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id <@ tstzrange('2024-01-01 10:00+00', '2024-01-01 11:00+00');
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE s <@ tstzrange(now() - interval '1 hour', now());
-- the defaults still generate, above every ID issued before the dump
INSERT INTO events (n) VALUES (0) RETURNING id > (SELECT max(id) FROM events), s > (SELECT max(s) FROM events),
	u > (SELECT max(u) FROM events WHERE n > 0), t ^@ '2';
SELECT count(*) FROM events WHERE '3jzfcijpj2z2a'::timeid < id;
