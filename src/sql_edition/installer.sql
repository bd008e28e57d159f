-- idtypes, SQL edition (idtypes_sql): who installs it. The first statement of the full script and of every
-- update script. The objects go into the first schema of search_path, which must be its installing role's
-- (a schema's owner may drop or rename anything in it, and make a new schema of its name, so every name the
-- bodies qualify would then be the owner's, called by the edition's functions with their callers' rights,
-- and by its SECURITY DEFINER ones with the installer's). A superuser installing into a schema of another
-- role (pg_restore of a database whose edition that role installed, through pg_tle or psql -f: the dump
-- creates the schema with its owner, then the extension) runs the rest of the script as that role
-- (SET LOCAL ROLE: until the script, or psql -1's transaction, ends), so that role owns every object, as
-- when it installed it, and no superuser's code or object is left in a schema another role controls.
-- 90_bind.sql checks again at the end (a psql -f without -1 loses the SET LOCAL: it is refused there).
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	owner pg_catalog.oid;
BEGIN
	IF schema_name IS NULL THEN
		RAISE EXCEPTION USING ERRCODE = '3F000', MESSAGE = 'the SQL edition needs a schema: the first schema of search_path does not exist';
	END IF;
	IF schema_name OPERATOR(pg_catalog.~) '[''$\\]' THEN
		RAISE EXCEPTION USING ERRCODE = '42602', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s', schema_name),
			DETAIL = 'Its name would be written into the bodies of its functions; a quote, a dollar sign or a backslash is not allowed.';
	END IF;
	-- the schema's owner; for pg_database_owner (public), the database's owner
	SELECT CASE WHEN n.nspowner OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.regrole::pg_catalog.oid
			THEN (SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
			ELSE n.nspowner END INTO owner
		FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) schema_name;
	-- who must own the edition's objects, for 90_bind.sql to check (its own session's setting)
	IF owner OPERATOR(pg_catalog.=) current_user::pg_catalog.regrole::pg_catalog.oid
			OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) owner) THEN
		PERFORM pg_catalog.set_config('idtypes_sql.installer', current_user, false);
		RETURN;
	END IF;
	IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
		PERFORM pg_catalog.set_config('idtypes_sql.installer', r.rolname, false), pg_catalog.set_config('role', r.rolname, true)
			FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) owner;
		RETURN;
	END IF;
	RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s, which %s owns',
			schema_name, owner::pg_catalog.regrole),
		DETAIL = 'The owner of a schema can drop or rename what is in it, and put its own functions in their place for the edition''s functions to call with other roles'' rights.',
		HINT = pg_catalog.format('Install it as the schema''s owner, or into a schema of the installing role (CREATE SCHEMA ... AUTHORIZATION %I).', current_user);
END $$;

