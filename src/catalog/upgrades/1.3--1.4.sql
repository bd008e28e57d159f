-- idtypes 1.3 -> 1.4. Every SQL object that 1.4 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.4 one.
-- A catalog file that 1.4 adds whole is appended by the Makefile (ADDS_1.3--1.4), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.4'" to load this file. \quit

-- 1.3's replicated mark, the table idtypes_high_water in the extension's schema, becomes the origin
-- idtypes_high_water (src/catalog/high_water.sql, appended below): the origin is created here first and
-- advanced to the table's mark when that is ahead (pg_replication_origin_advance also goes back), unless
-- the row is implausibly far ahead of the clock (1.3's table could be written with ordinary grants: such a
-- mark is not followed). Then the table goes. Every operator is qualified and every call exact: this runs as
-- a superuser with the extension's schema, which another role may own, on the search_path.
SELECT pg_catalog.pg_replication_origin_create(o)
FROM pg_catalog.unnest(ARRAY['idtypes_high_water', 'idtypes_identity']) AS o
WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_replication_origin WHERE roname OPERATOR(pg_catalog.=) o);
SELECT pg_catalog.pg_replication_origin_advance('idtypes_high_water',
                                                '0/0'::pg_catalog.pg_lsn OPERATOR(pg_catalog.+) t.mark::numeric)
FROM (SELECT pg_catalog.max(mark) AS mark FROM idtypes_high_water) AS t
WHERE t.mark::numeric OPERATOR(pg_catalog.>) COALESCE((pg_catalog.pg_replication_origin_progress('idtypes_high_water', false)
                         OPERATOR(pg_catalog.-) '0/0'::pg_catalog.pg_lsn), 0::numeric)
  AND t.mark OPERATOR(pg_catalog.<=) ((pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())
                                       OPERATOR(pg_catalog.*) 1000000::float8)::bigint OPERATOR(pg_catalog.+) 86400000000::bigint);
DROP TABLE idtypes_high_water;

-- idtypes_identity() gains the primary's identity as seen by a standby (src/catalog/identity.sql, appended
-- below): its OUT columns change, so it is made again.
DROP FUNCTION idtypes_identity();
