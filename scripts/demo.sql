-- idtypes demo, run by scripts/demo.sh once the tables orders (tbsl), posts (timeid), events (uid11) and
-- messages (scru160) hold 24 hours of imported rows and the rows 4 sessions inserted at once.
\pset footer off
SET timezone = 'UTC';
ANALYZE orders, posts, events, messages;

\echo
\echo '-- The sessions ran at once (their IDs'' times overlap) on the server''s one generator state, so no'
\echo '-- INSERT failed on a duplicate key: every ID is distinct.'
\set ECHO queries
SELECT coalesce(note, 'all') AS session, count(*) AS orders, count(DISTINCT id) AS distinct_ids,
       min(id)::timestamptz AS first_id_at, max(id)::timestamptz AS last_id_at
FROM orders WHERE note LIKE 'session %' GROUP BY ROLLUP (note) ORDER BY note;
SELECT idtypes_generator_mode();
\set ECHO none

\echo
\echo '-- Each ID carries its creation time: the newest of each table, as text and as timestamptz.'
\set ECHO queries
SELECT 'orders' AS "table", max(id)::text AS newest, max(id)::timestamptz AS created FROM orders UNION ALL
SELECT 'posts', max(id)::text, max(id)::timestamptz FROM posts UNION ALL
SELECT 'events', max(id)::text, max(id)::timestamptz FROM events UNION ALL
SELECT 'messages', max(id)::text, max(id)::timestamptz FROM messages;
\set ECHO none

\echo
\echo '-- Prefix query: the timeids of one 17.9-minute span share their first 5 symbols; the posts of the span'
\echo '-- of 3 hours ago. ^@ becomes a range of the primary key.'
SELECT left(id::text, 5) AS prefix FROM posts WHERE id >= timeid_min(now() - interval '3 hours') ORDER BY id LIMIT 1 \gset
\set ECHO queries
EXPLAIN (COSTS OFF) SELECT * FROM posts WHERE id ^@ :'prefix';
SELECT count(*) AS posts, min(id::timestamptz) AS first, max(id::timestamptz) AS last FROM posts WHERE id ^@ :'prefix';
\set ECHO none

\echo
\echo '-- Time-window query: the orders of a 10-minute window; <@ tstzrange becomes a range of the primary key too.'
SELECT date_trunc('minute', now() - interval '2 hours') AS t0, date_trunc('minute', now() - interval '1 hour 50 minutes') AS t1 \gset
\set ECHO queries
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id <@ tstzrange(:'t0', :'t1');
SELECT count(*) AS orders, min(id::timestamptz) AS first, max(id::timestamptz) AS last FROM orders WHERE id <@ tstzrange(:'t0', :'t1');
\set ECHO none

\echo
\echo '-- A report by the IDs'' time, no timestamp column needed: rows per hour over the last 6 hours.'
\set ECHO queries
SELECT date_trunc('hour', id::timestamptz) AS hour, count(*) AS orders
FROM orders WHERE id <@ tstzrange(date_trunc('hour', now()) - interval '5 hours', NULL)
GROUP BY 1 ORDER BY 1;
\set ECHO none
