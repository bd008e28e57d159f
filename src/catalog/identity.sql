-- The server's identity (src/pg/generate/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity. (A standby generates nothing that uses an identity: standby_rule.cpp.)
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), and the generators'' mark (NULL before any)';
