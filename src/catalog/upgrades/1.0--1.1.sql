-- idtypes 1.0 -> 1.1. Every SQL object that 1.1 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.1 one.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.1'" to load this file. \quit

-- scru160's binary input and bytea cast have entry points of their own, like tbsl's (the fixed-length
-- shape no longer exports unvalidated ones; the library keeps 1.0's names for databases not yet updated).
CREATE OR REPLACE FUNCTION scru160_recv(internal, oid, integer) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bytea_to_scru160(bytea) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- idtypes_maintain_partitions (time partitions): src/catalog/partitions.sql, which the Makefile appends to
-- this script (ADDS_1.0--1.1) as it does to the full script, so that both carry the same text.
