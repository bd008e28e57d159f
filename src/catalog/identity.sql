-- The server's identity (src/pg/generate/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity; on a standby, also the identity its primary generates with (replicated), which
-- the standby refuses to generate with.
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz,
                                 OUT primary_timeid_clock_id integer, OUT primary_tbsl_machine_id integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), the high-water mark on disk (NULL before any), and on a standby its primary''s clock id and machine id (NULL elsewhere)';
