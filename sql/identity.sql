-- A server's identity is the DBA's: idtypes.timeid_clock_id and idtypes.tbsl_machine_id are set only by a
-- superuser or a role granted SET on them, and so is an identity argument other than the server's own.
-- (Values set before the library is loaded, ALTER ROLE ... SET seen from a new session, idtypes.require_identity
-- across a reload and idtypes_identity() before any ID: test/concurrency/identity.sh.)

LOAD 'idtypes'; -- the settings exist once the library is loaded
-- the real ranges, superuser context; require_identity is off unless the configuration says otherwise (a value
-- out of range set before the library was loaded: generation refuses, naming it, test/concurrency/settings.sh)
SELECT name, context, min_val, max_val, boot_val, vartype FROM pg_settings
WHERE name IN ('idtypes.timeid_clock_id', 'idtypes.tbsl_machine_id', 'idtypes.require_identity')
ORDER BY name;
-- PostgreSQL itself refuses an out-of-range value when it is set
SET idtypes.tbsl_machine_id = 100;
SET idtypes.timeid_clock_id = -2;

-- the identities this session generates with, set by a superuser for the whole test: clock id 7, machine id 8
SET idtypes.timeid_clock_id = 7;
SET idtypes.tbsl_machine_id = 8;
SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source,
       generator_state = idtypes_generator_mode() AS generator_state_is_mode
FROM idtypes_identity();

CREATE ROLE idtypes_app;
SET ROLE idtypes_app;
-- a role without privileges cannot change an identity, nor store one for itself
SET idtypes.timeid_clock_id = 5;
SET idtypes.tbsl_machine_id = 5;
ALTER ROLE idtypes_app SET idtypes.tbsl_machine_id = 5;
RESET idtypes.timeid_clock_id;
SHOW idtypes.timeid_clock_id;
-- nor borrow another identity through an argument, whatever the generator
SELECT timeid_generate(5);
SELECT tbsl_generate(5);
SELECT tbsl_generate(5, true);
SELECT tbsl_generate_at(now(), 5);
-- the server's own identity, passed or not, always works
SELECT timeid_clock_id(timeid_generate(7)) AS own_clock, timeid_clock_id(timeid_generate()) AS setting_clock,
       tbsl_machine_id(tbsl_generate(8)) AS own_machine, tbsl_machine_id(tbsl_generate(8, true)) AS own_sequenced,
       tbsl_machine_id(tbsl_generate_at(now(), 8)) AS own_at, tbsl_machine_id(tbsl_generate()) AS setting_machine;
-- an argument out of range is still 22003, before any privilege question
SELECT timeid_generate(1024);
SELECT tbsl_generate(100);
-- what the role sees of the identity
SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity();
RESET ROLE;

-- granted SET on one parameter: that identity may be set and borrowed, the other still not
GRANT SET ON PARAMETER idtypes.timeid_clock_id TO idtypes_app;
SET ROLE idtypes_app;
SET idtypes.timeid_clock_id = 5;
SELECT timeid_clock_id(timeid_generate()) AS set_clock, timeid_clock_id(timeid_generate(6)) AS borrowed_clock;
SELECT tbsl_generate(5);
RESET ROLE;
GRANT SET ON PARAMETER idtypes.tbsl_machine_id TO idtypes_app;
SET ROLE idtypes_app;
SET idtypes.tbsl_machine_id = 5;
SELECT tbsl_machine_id(tbsl_generate()) AS set_machine, tbsl_machine_id(tbsl_generate(6)) AS borrowed_machine,
       tbsl_machine_id(tbsl_generate_at(now(), 6)) AS borrowed_at;
SELECT timeid_clock_id, timeid_clock_id_source, tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity();
RESET ROLE;
-- ALTER ROLE ... SET: a superuser may store an identity for a role (PostgreSQL's rule for such settings)
ALTER ROLE idtypes_app SET idtypes.tbsl_machine_id = 9;
SELECT unnest(setconfig) AS stored FROM pg_db_role_setting WHERE setrole = 'idtypes_app'::regrole;
ALTER ROLE idtypes_app RESET ALL;
REVOKE SET ON PARAMETER idtypes.timeid_clock_id FROM idtypes_app;
REVOKE SET ON PARAMETER idtypes.tbsl_machine_id FROM idtypes_app;
RESET idtypes.timeid_clock_id;
RESET idtypes.tbsl_machine_id;
-- the source follows the value in use: a SET LOCAL's while it lasts, the one before after the transaction
BEGIN;
SET LOCAL idtypes.tbsl_machine_id = 4;
SELECT tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity();
ROLLBACK;
SELECT tbsl_machine_id, tbsl_machine_id_source FROM idtypes_identity();

-- -1: the server's clock id, drawn at random once; idtypes_identity() shows it once drawn, and the mark on
-- disk, past every ID issued
SELECT timeid_generate() AS t \gset
SELECT timeid_clock_id = timeid_clock_id(:'t') AS shows_drawn, timeid_clock_id_source, tbsl_machine_id,
       tbsl_machine_id_source, high_water_mark >= :'t'::timeid::timestamptz AS mark_past_ids
FROM idtypes_identity();
-- the drawn clock id is the server's own: a role without privileges may pass it, not another one
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
SET ROLE idtypes_app;
SELECT sqlstate_of(format('SELECT timeid_generate(%s)', timeid_clock_id(:'t'))) AS own_drawn,
       sqlstate_of(format('SELECT timeid_generate(%s)', (timeid_clock_id(:'t') + 1) % 1024)) AS another;
RESET ROLE;
DROP FUNCTION sqlstate_of(text);
DROP ROLE idtypes_app;

-- markings
SELECT proname, provolatile, proparallel, pg_get_function_arguments(oid) AS columns FROM pg_proc WHERE proname = 'idtypes_identity';
