-- idtypes 1.4 -> 1.5. Every SQL object that 1.5 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.5 one.
-- A catalog file that 1.5 adds whole is appended by the Makefile (ADDS_1.4--1.5), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.5'" to load this file. \quit

-- idtypes_maintain_partitions takes `since` (a backfill) and runs only as the table's owner: the 4-argument
-- form goes, and src/catalog/partitions.sql is taken whole (ADDS_1.4--1.5); every call of 1.4 still works.
DROP FUNCTION idtypes_maintain_partitions(regclass, interval, integer, interval);

-- The carrier of pg_upgrade (src/pg/replicate/upgrade_carrier.cpp): its query no longer reads the origin
-- (missing after pg_upgrade, when a REFRESH then emptied the carried mark) but carrier_value(), never below
-- what it holds; a materialized view's query cannot be replaced, so the new one is made beside it (its
-- query reads the old one's value), and takes its name. carrier_populated.sql (added whole) refuses
-- REFRESH ... WITH NO DATA.
CREATE FUNCTION idtypes_internal.carrier_value() RETURNS bigint
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE AS 'MODULE_PATHNAME', 'idtypes_carrier_value';
REVOKE ALL ON FUNCTION idtypes_internal.carrier_value() FROM PUBLIC;
COMMENT ON FUNCTION idtypes_internal.carrier_value() IS 'the carrier''s query: the server''s mark plus a margin, never below what the carrier holds';
CREATE MATERIALIZED VIEW idtypes_internal.high_water_1_5 AS
SELECT idtypes_internal.carrier_value() AS mark, 0::bigint AS writer;
DROP MATERIALIZED VIEW idtypes_internal.high_water;
ALTER MATERIALIZED VIEW idtypes_internal.high_water_1_5 RENAME TO high_water;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'an upper bound of the IDs'' times issued in this database (Unix microseconds), carried across pg_upgrade; written only by the generators';
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT DISTINCT a.grantee
		FROM pg_catalog.pg_class AS c, pg_catalog.aclexplode(c.relacl) AS a
		WHERE c.oid OPERATOR(pg_catalog.=) 'idtypes_internal.high_water'::pg_catalog.regclass::pg_catalog.oid
		  AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON TABLE idtypes_internal.high_water FROM %s',
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
		                               ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END);
	END LOOP;
END
$$;

-- The identity origin is gone: a standby generates nothing that uses an identity (standby_rule.cpp), so
-- nothing reads it. Dropped where it exists (the origin is the server's: the first database updated drops it).
SELECT pg_catalog.pg_replication_origin_drop(o.roname)
FROM pg_catalog.pg_replication_origin AS o
WHERE o.roname OPERATOR(pg_catalog.=) 'idtypes_identity'::pg_catalog.text;

-- idtypes_identity() loses its primary's identity columns: made again by identity.sql (ADDS_1.4--1.5).
DROP FUNCTION @extschema@.idtypes_identity();

-- uid11_generate_random may write WAL (the mark) and a file (its key).
ALTER FUNCTION @extschema@.uid11_generate_random() PARALLEL RESTRICTED;
