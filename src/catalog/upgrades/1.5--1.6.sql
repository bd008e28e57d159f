-- idtypes 1.5 -> 1.6. Every SQL object that 1.6 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.6 one.
-- A catalog file that 1.6 adds whole is appended by the Makefile (ADDS_1.5--1.6), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.6'" to load this file. \quit

-- ==================================================================================== issue 55: parallel labels
-- uuid_v7_generate may write the mark (WAL, and waits for the synchronous standbys), like every generator
-- with state: PARALLEL RESTRICTED, so the leader of a parallel plan runs it.
ALTER FUNCTION @extschema@.uuid_v7_generate(interval) PARALLEL RESTRICTED;
