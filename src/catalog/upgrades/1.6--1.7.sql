-- idtypes 1.6 -> 1.7. Every SQL object that 1.7 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.7 one.
-- A catalog file that 1.7 adds whole is appended by the Makefile (ADDS_1.6--1.7), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.7'" to load this file. \quit

-- ==================================================================== issue 65: upgrades that no session feels
-- idtypes_keys() keeps 1.6's five columns (CREATE OR REPLACE: its grants, comment and dependent views stay) on
-- 1.7's C symbol, which the libraries of 1.5 and 1.6 lack: a session still on one of them gets "could not find
-- function" instead of reading rows in a shape its code did not fill. 1.7's library still exports the old
-- symbol, for catalogs at 1.5 (four columns) and 1.6 (five).
CREATE OR REPLACE FUNCTION @extschema@.idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text,
                                                    OUT stage text, OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'idtypes_keys_1_7' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 4;
-- ---- end of issue 65 ------------------------------------------------------------------------------------------
