-- idtypes 1.1 -> 1.2. Every SQL object that 1.2 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.2 one.
-- A catalog file that 1.2 adds whole is appended by the Makefile (ADDS_1.1--1.2), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.2'" to load this file. \quit

-- An identity argument other than the server's own needs SET on the identity's parameter (issue 28).
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: the current microsecond or the server''s last one + 1, whichever is greater; clock id 0..1023 from the argument (another than the server''s own needs SET on idtypes.timeid_clock_id), else idtypes.timeid_clock_id, else random';
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond); machine id NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter';
COMMENT ON FUNCTION tbsl_generate_at(timestamptz, integer) IS 'tbsl carrying the given time (to the microsecond), the machine id (NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter) and a random suffix, for loading history; a duplicate is likely among ~1200 rows sharing a microsecond and machine id';
