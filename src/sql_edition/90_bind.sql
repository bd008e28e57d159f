-- The PL/pgSQL functions that call the edition's own functions or name its sequences find them through a
-- search_path bound here, at installation, to pg_catalog, the schema the edition went into, and pg_temp
-- (last, so that no temporary object can stand in for one of the edition's). pg_dump writes the setting
-- with the function, so a restored database keeps it.
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN SELECT p.oid FROM pg_catalog.pg_proc p
		WHERE p.pronamespace = pg_catalog.current_schema()::regnamespace
		AND p.proconfig = ARRAY['search_path=pg_catalog, pg_temp'] AND p.prolang = (SELECT oid FROM pg_catalog.pg_language WHERE lanname = 'plpgsql')
		AND p.proname NOT LIKE 'idtypes\_sql\_%'
	LOOP
		EXECUTE pg_catalog.format('ALTER FUNCTION %s SET search_path = pg_catalog, %I, pg_temp', f, pg_catalog.current_schema());
	END LOOP;
END $$;
