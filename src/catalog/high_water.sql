
-- The generators' mark is the replication origin idtypes_high_water (src/pg/replicate/origins.cpp), the
-- server's, not a database's: made, advanced and (after pg_upgrade) rebuilt only by the library, never by
-- this script.

-- What carries the mark across pg_upgrade (src/pg/replicate/upgrade_carrier.cpp), which carries no origin: a one-row
-- materialized view in a schema of the extension's own, outside the application's schemas. Generators
-- write the server's mark into it in place (generic WAL); after pg_upgrade the origin is rebuilt from
-- every database's carrier before any ID is issued. Its query gives the server's mark when it is created
-- or refreshed. No DML, TRUNCATE or LOCK TABLE applies to a materialized view, and no privilege on it but
-- its owner's is left, whatever default privileges gave it.
CREATE SCHEMA idtypes_internal;
COMMENT ON SCHEMA idtypes_internal IS 'idtypes'' own objects, kept out of the application''s schemas: the carrier of the high-water mark';
CREATE MATERIALIZED VIEW idtypes_internal.high_water AS
SELECT 0::bigint AS mark, 0::bigint AS writer;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'the generators'' high-water mark (Unix microseconds), carried across pg_upgrade; written only by the generators';
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
