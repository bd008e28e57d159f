-- idtypes: sortable, time-based identifier types (TBSL, TID as timeid, uid11/xid, SCRU160).
-- Generated from src/catalog/*.sql by the Makefile; edit those files, not the generated script.
\echo Use "CREATE EXTENSION idtypes" to load this file. \quit

CREATE FUNCTION idtypes_generator_mode() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idtypes_generator_mode() IS 'where the server''s one generator state lives: shared (preloaded), shared (allocated at first use) or shared (named DSM segment)';
