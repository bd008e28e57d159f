-- idtypes, SQL edition: 1.0 -> 1.1 (ALTER EXTENSION idtypes_sql UPDATE, pgtle.install_update_path, or psql -1 -f
-- with search_path set to the edition's schema alone). The Makefile writes the update script: installer.sql,
-- this file, every part of the sources marked [1.1] (functions made again with CREATE OR REPLACE), then
-- 90_bind.sql.
-- * The identity table holds a row only once the owner has set the identity (1.0 made it with a row of
--   NULLs, which a dump restored beside the source's row). A 1.0 restore's row of NULLs goes too.
-- * T_min and T_max are PL/pgSQL of COST 1, so that prefixes computed from them are read from an index.
-- * T_to_bytea(T): the native edition's bytes.
DELETE FROM idtypes_sql_installation WHERE timeid_clock_id IS NULL AND tbsl_machine_id IS NULL;
