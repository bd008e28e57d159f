-- REFRESH MATERIALIZED VIEW idtypes_internal.high_water WITH NO DATA would empty the carrier of pg_upgrade
-- (high_water.sql): its owner, or on 17 and later a member of pg_maintain, could do it. An event trigger of
-- the extension (a superuser's: no other role can alter, disable or drop it; ENABLE ALWAYS, so
-- session_replication_role does not skip it) refuses any REFRESH that leaves it unpopulated.
CREATE FUNCTION idtypes_internal.keep_carrier_populated() RETURNS event_trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF EXISTS (SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
	           WHERE n.nspname OPERATOR(pg_catalog.=) 'idtypes_internal'::pg_catalog.name
	             AND c.relname OPERATOR(pg_catalog.=) 'high_water'::pg_catalog.name AND NOT c.relispopulated) THEN
		RAISE EXCEPTION USING ERRCODE = '55000',
			MESSAGE = 'idtypes_internal.high_water must stay populated',
			DETAIL = 'It carries the upper bound of this database''s IDs across pg_upgrade: empty, the IDs issued here could be issued again after an upgrade.',
			HINT = 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water (WITH DATA) keeps it.';
	END IF;
END
$$;
REVOKE ALL ON FUNCTION idtypes_internal.keep_carrier_populated() FROM PUBLIC;
CREATE EVENT TRIGGER idtypes_keep_carrier_populated ON ddl_command_end WHEN TAG IN ('REFRESH MATERIALIZED VIEW')
EXECUTE FUNCTION idtypes_internal.keep_carrier_populated();
ALTER EVENT TRIGGER idtypes_keep_carrier_populated ENABLE ALWAYS;
COMMENT ON FUNCTION idtypes_internal.keep_carrier_populated() IS 'refuses a REFRESH that leaves idtypes_internal.high_water unpopulated';
COMMENT ON EVENT TRIGGER idtypes_keep_carrier_populated IS 'keeps the carrier of pg_upgrade (idtypes_internal.high_water) populated';
