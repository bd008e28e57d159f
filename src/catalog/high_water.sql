
-- The generators' mark is the replication origin idtypes_high_water (src/pg/mark/origin.cpp), the
-- server's, not a database's: made, advanced and (after pg_upgrade) rebuilt only by the library, never by
-- this script.

-- What carries the mark across pg_upgrade (src/pg/mark/carrier.cpp), which carries no origin: a one-row
-- materialized view in a schema of the extension's own, outside the application's schemas, holding an upper
-- bound of every ID time issued in this database. Generators raise it in place (generic WAL) once its value
-- comes near their IDs; after pg_upgrade one launcher reads every database's carrier before any ID is issued
-- (src/pg/mark/rebuild.cpp). Its query, run when it is created or refreshed, gives the server's
-- mark plus a margin, never less than it holds (carrier_value), so a REFRESH cannot lower it; the event
-- trigger of carrier_populated.sql refuses a REFRESH ... WITH NO DATA, which would empty it. No DML, TRUNCATE or LOCK TABLE
-- applies to a materialized view, and no privilege on it but its owner's is left, whatever default
-- privileges gave it.
CREATE SCHEMA idtypes_internal;
COMMENT ON SCHEMA idtypes_internal IS 'idtypes'' own objects, kept out of the application''s schemas: the carrier of the high-water mark';
CREATE FUNCTION idtypes_internal.carrier_value() RETURNS bigint
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE AS 'MODULE_PATHNAME', 'idtypes_carrier_value';
REVOKE ALL ON FUNCTION idtypes_internal.carrier_value() FROM PUBLIC;
COMMENT ON FUNCTION idtypes_internal.carrier_value() IS 'the carrier''s query: the server''s mark plus a margin, never below what the carrier holds';
CREATE MATERIALIZED VIEW idtypes_internal.high_water AS
SELECT idtypes_internal.carrier_value() AS mark, 0::bigint AS writer;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'an upper bound of the IDs'' times issued in this database (Unix microseconds), carried across pg_upgrade; written only by the generators';
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT DISTINCT k.kind, a.grantee
		FROM (SELECT 'SCHEMA' AS kind, nspacl AS acl, nspowner AS owner FROM pg_catalog.pg_namespace
		      WHERE nspname OPERATOR(pg_catalog.=) 'idtypes_internal'::pg_catalog.name
		      UNION ALL
		      SELECT 'TABLE', relacl, relowner FROM pg_catalog.pg_class
		      WHERE oid OPERATOR(pg_catalog.=) 'idtypes_internal.high_water'::pg_catalog.regclass::pg_catalog.oid) AS k,
		     pg_catalog.aclexplode(k.acl) AS a
		WHERE a.grantee OPERATOR(pg_catalog.<>) k.owner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON %s %s FROM %s', g.kind,
		                          CASE g.kind WHEN 'SCHEMA' THEN 'idtypes_internal' ELSE 'idtypes_internal.high_water' END,
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
		                               ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END);
	END LOOP;
END
$$;
