-- idtypes 1.4 -> 1.5. Every SQL object that 1.5 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.5 one.
-- A catalog file that 1.5 adds whole is appended by the Makefile (ADDS_1.4--1.5), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.5'" to load this file. \quit

-- idtypes_maintain_partitions takes `since` (a backfill) and runs only as the table's owner: the 4-argument
-- form goes, and src/catalog/partitions.sql is taken whole (ADDS_1.4--1.5); every call of 1.4 still works.
DROP FUNCTION idtypes_maintain_partitions(regclass, interval, integer, interval);
