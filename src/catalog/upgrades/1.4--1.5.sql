-- idtypes 1.4 -> 1.5. Every SQL object that 1.5 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.5 one.
-- A catalog file that 1.5 adds whole is appended by the Makefile (ADDS_1.4--1.5), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.5'" to load this file. \quit

-- The identity origin is gone: a standby generates nothing that uses an identity (standby_rule.cpp), so
-- nothing reads it. Dropped where it exists (the origin is the server's: the first database updated drops it).
SELECT pg_catalog.pg_replication_origin_drop(o.roname)
FROM pg_catalog.pg_replication_origin AS o
WHERE o.roname OPERATOR(pg_catalog.=) 'idtypes_identity'::pg_catalog.text;

-- idtypes_identity() loses its primary's identity columns: made again by identity.sql (ADDS_1.4--1.5).
DROP FUNCTION @extschema@.idtypes_identity();

-- uid11_generate_random may write WAL (the mark) and a file (its key).
ALTER FUNCTION @extschema@.uid11_generate_random() PARALLEL RESTRICTED;
