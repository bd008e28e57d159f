-- idtypes 1.0 exactly as released (frozen: CREATE EXTENSION idtypes VERSION '1.0' installs it, and
-- idtypes--1.0--1.1.sql updates it). Never edit; the current version is generated from src/catalog/.
-- idtypes: sortable, time-based identifier types (TBSL, TID as timeid, uid11/xid, SCRU160).
-- Generated from src/sql/*.sql by the Makefile; edit those files, not the generated script.
\echo Use "CREATE EXTENSION idtypes" to load this file. \quit

CREATE FUNCTION idtypes_generator_mode() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idtypes_generator_mode() IS 'shared: generator state is server-wide (idtypes is in shared_preload_libraries); backend: per session';

-- ============================================================================================= timeid
-- What every idtypes type has. The Makefile instantiates this template per type: timeid is the type,
-- idtypes_u64 the C functions of its storage shape (ordering, hashing, binary I/O), INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain its layout,
-- idtypes_u64 the prefix of its binary-input functions (the shape's, or the type's own where bytes need checking).

CREATE TYPE timeid;

CREATE FUNCTION timeid_in(cstring) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_out(timeid) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_recv(internal, oid, integer) RETURNS timeid
	AS 'MODULE_PATHNAME', 'idtypes_u64_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_send(timeid) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE timeid (
	INPUT = timeid_in, OUTPUT = timeid_out, RECEIVE = timeid_recv, SEND = timeid_send,
	INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain
);

-- ---------------------------------------------------------------------------------- timeid ordering

CREATE FUNCTION timeid_eq(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_ne(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_lt(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_le(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_gt(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_ge(timeid, timeid) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_cmp(timeid, timeid) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_u64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'idtypes_u64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_hash(timeid) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_u64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_hash_extended(timeid, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'idtypes_u64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION timeid_smaller(timeid, timeid) RETURNS timeid
	AS 'MODULE_PATHNAME', 'idtypes_u64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_larger(timeid, timeid) RETURNS timeid
	AS 'MODULE_PATHNAME', 'idtypes_u64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_diff(timeid, timeid) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_u64_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS timeid_ops DEFAULT FOR TYPE timeid USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 timeid_cmp(timeid, timeid),
	FUNCTION 2 timeid_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS timeid_ops DEFAULT FOR TYPE timeid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 timeid_hash(timeid),
	FUNCTION 2 timeid_hash_extended(timeid, bigint);

CREATE OPERATOR CLASS timeid_minmax_ops DEFAULT FOR TYPE timeid USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- minmax-multi keeps several intervals per range of pages: for tables where IDs are mostly, but not
-- strictly, in time order (late inserts, several writers with skewed clocks)
CREATE FUNCTION timeid_brin_distance(internal, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_u64_brin_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS timeid_minmax_multi_ops FOR TYPE timeid USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_multi_opcinfo(internal),
	FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
	FUNCTION 5 brin_minmax_multi_options(internal),
	FUNCTION 11 timeid_brin_distance(internal, internal);

CREATE AGGREGATE min(timeid) (SFUNC = timeid_smaller, STYPE = timeid, COMBINEFUNC = timeid_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(timeid) (SFUNC = timeid_larger, STYPE = timeid, COMBINEFUNC = timeid_larger, SORTOP = >,
	PARALLEL = SAFE);

CREATE TYPE timeidrange AS RANGE (SUBTYPE = timeid, SUBTYPE_OPCLASS = timeid_ops, SUBTYPE_DIFF = timeid_diff);

-- ---------------------------------------------------------------------------------- timeid casts

CREATE FUNCTION timeid_to_bytea(timeid) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_timeid(bytea) RETURNS timeid
	AS 'MODULE_PATHNAME', 'idtypes_u64_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS bytea) WITH FUNCTION timeid_to_bytea(timeid);
CREATE CAST (bytea AS timeid) WITH FUNCTION bytea_to_timeid(bytea);

-- ---------------------------------------------------------------------------------- timeid time

CREATE FUNCTION timeid_timestamp(timeid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS timestamptz) WITH FUNCTION timeid_timestamp(timeid);
CREATE FUNCTION timeid_min(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_max(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_timestamp(timeid) IS 'creation time of the timeid (also the cast to timestamptz)';
COMMENT ON FUNCTION timeid_min(timestamptz) IS 'smallest timeid whose time is the given instant';
COMMENT ON FUNCTION timeid_max(timestamptz) IS 'largest timeid whose time is the given instant';

-- ---------------------------------------------------------------------------------- timeid prefix and time window
-- Both operators select one contiguous range of IDs; their support functions rewrite them into
-- `id >= lo AND id <= hi` so that indexes, partition pruning and estimates apply. The _lo/_hi helpers
-- compute the bounds at run time when the argument is not a constant (generic plans, joins).

CREATE FUNCTION timeid_prefix_lo(text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_prefix_hi(text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_prefix_range(text) RETURNS timeidrange
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_starts_with(timeid, text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT timeid_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = timeid, RIGHTARG = text, FUNCTION = timeid_starts_with, RESTRICT = timeid_prefix_sel);
COMMENT ON FUNCTION timeid_prefix_range(text) IS 'the timeid values whose canonical text starts with the prefix';
COMMENT ON OPERATOR ^@ (timeid, text) IS 'canonical text of the timeid starts with the prefix';

CREATE FUNCTION timeid_window_lo(tstzrange) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_window_hi(tstzrange) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_in_window(timeid, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT timeid_window_support;
CREATE OPERATOR <@ (LEFTARG = timeid, RIGHTARG = tstzrange, FUNCTION = timeid_in_window, RESTRICT = timeid_window_sel);
COMMENT ON OPERATOR <@ (timeid, tstzrange) IS 'time of the timeid lies in the range';

-- ---------------------------------------------------------------------------------- timeid specifics

CREATE FUNCTION make_timeid(micros bigint, clock_id integer) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_micros(timeid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_clock_id(timeid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_to_dashed(timeid) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_timeid(bigint, integer) IS 'timeid from Unix microseconds (0..2^53-1) and a clock id (0..1023)';
COMMENT ON FUNCTION timeid_micros(timeid) IS 'Unix microseconds of the timeid (its value shifted right by 10)';
COMMENT ON FUNCTION timeid_clock_id(timeid) IS 'clock id of the timeid (its low 10 bits)';
COMMENT ON FUNCTION timeid_to_dashed(timeid) IS 'the draft''s display form STTT-TTT-TTTT-CC';

CREATE FUNCTION timeid_to_bigint(timeid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bigint_to_timeid(bigint) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS bigint) WITH FUNCTION timeid_to_bigint(timeid);
CREATE CAST (bigint AS timeid) WITH FUNCTION bigint_to_timeid(bigint);

-- Per-backend state (the last microsecond issued): PARALLEL RESTRICTED, so workers never run it.
CREATE FUNCTION timeid_generate(clock_id integer DEFAULT NULL) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: current microsecond or last + 1, clock id from the argument or idtypes.timeid_clock_id';

-- ============================================================================================= uid11
-- What every idtypes type has. The Makefile instantiates this template per type: uid11 is the type,
-- idtypes_u64 the C functions of its storage shape (ordering, hashing, binary I/O), INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain its layout,
-- idtypes_u64 the prefix of its binary-input functions (the shape's, or the type's own where bytes need checking).

CREATE TYPE uid11;

CREATE FUNCTION uid11_in(cstring) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_out(uid11) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_recv(internal, oid, integer) RETURNS uid11
	AS 'MODULE_PATHNAME', 'idtypes_u64_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_send(uid11) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE uid11 (
	INPUT = uid11_in, OUTPUT = uid11_out, RECEIVE = uid11_recv, SEND = uid11_send,
	INTERNALLENGTH = 8, PASSEDBYVALUE, ALIGNMENT = double, STORAGE = plain
);

-- ---------------------------------------------------------------------------------- uid11 ordering

CREATE FUNCTION uid11_eq(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_ne(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_lt(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_le(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_gt(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_ge(uid11, uid11) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_u64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_cmp(uid11, uid11) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_u64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'idtypes_u64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_hash(uid11) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_u64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_hash_extended(uid11, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'idtypes_u64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid11_smaller(uid11, uid11) RETURNS uid11
	AS 'MODULE_PATHNAME', 'idtypes_u64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_larger(uid11, uid11) RETURNS uid11
	AS 'MODULE_PATHNAME', 'idtypes_u64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_diff(uid11, uid11) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_u64_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS uid11_ops DEFAULT FOR TYPE uid11 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 uid11_cmp(uid11, uid11),
	FUNCTION 2 uid11_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS uid11_ops DEFAULT FOR TYPE uid11 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 uid11_hash(uid11),
	FUNCTION 2 uid11_hash_extended(uid11, bigint);

CREATE OPERATOR CLASS uid11_minmax_ops DEFAULT FOR TYPE uid11 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- minmax-multi keeps several intervals per range of pages: for tables where IDs are mostly, but not
-- strictly, in time order (late inserts, several writers with skewed clocks)
CREATE FUNCTION uid11_brin_distance(internal, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_u64_brin_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS uid11_minmax_multi_ops FOR TYPE uid11 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_multi_opcinfo(internal),
	FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
	FUNCTION 5 brin_minmax_multi_options(internal),
	FUNCTION 11 uid11_brin_distance(internal, internal);

CREATE AGGREGATE min(uid11) (SFUNC = uid11_smaller, STYPE = uid11, COMBINEFUNC = uid11_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(uid11) (SFUNC = uid11_larger, STYPE = uid11, COMBINEFUNC = uid11_larger, SORTOP = >,
	PARALLEL = SAFE);

CREATE TYPE uid11range AS RANGE (SUBTYPE = uid11, SUBTYPE_OPCLASS = uid11_ops, SUBTYPE_DIFF = uid11_diff);

-- ---------------------------------------------------------------------------------- uid11 casts

CREATE FUNCTION uid11_to_bytea(uid11) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_uid11(bytea) RETURNS uid11
	AS 'MODULE_PATHNAME', 'idtypes_u64_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS bytea) WITH FUNCTION uid11_to_bytea(uid11);
CREATE CAST (bytea AS uid11) WITH FUNCTION bytea_to_uid11(bytea);

-- ---------------------------------------------------------------------------------- uid11 time

CREATE FUNCTION uid11_timestamp(uid11) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS timestamptz) WITH FUNCTION uid11_timestamp(uid11);
CREATE FUNCTION uid11_min(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_max(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_timestamp(uid11) IS 'creation time of the uid11 (also the cast to timestamptz)';
COMMENT ON FUNCTION uid11_min(timestamptz) IS 'smallest uid11 whose time is the given instant';
COMMENT ON FUNCTION uid11_max(timestamptz) IS 'largest uid11 whose time is the given instant';

-- ---------------------------------------------------------------------------------- uid11 prefix and time window
-- Both operators select one contiguous range of IDs; their support functions rewrite them into
-- `id >= lo AND id <= hi` so that indexes, partition pruning and estimates apply. The _lo/_hi helpers
-- compute the bounds at run time when the argument is not a constant (generic plans, joins).

CREATE FUNCTION uid11_prefix_lo(text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_prefix_hi(text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_prefix_range(text) RETURNS uid11range
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_starts_with(uid11, text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uid11_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = uid11, RIGHTARG = text, FUNCTION = uid11_starts_with, RESTRICT = uid11_prefix_sel);
COMMENT ON FUNCTION uid11_prefix_range(text) IS 'the uid11 values whose canonical text starts with the prefix';
COMMENT ON OPERATOR ^@ (uid11, text) IS 'canonical text of the uid11 starts with the prefix';

CREATE FUNCTION uid11_window_lo(tstzrange) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_window_hi(tstzrange) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_in_window(uid11, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uid11_window_support;
CREATE OPERATOR <@ (LEFTARG = uid11, RIGHTARG = tstzrange, FUNCTION = uid11_in_window, RESTRICT = uid11_window_sel);
COMMENT ON OPERATOR <@ (uid11, tstzrange) IS 'time of the uid11 lies in the range';

-- ---------------------------------------------------------------------------------- uid11 specifics

CREATE FUNCTION make_uid11_xid(unix_ms bigint, random integer) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_xid_random(uid11) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_uid11_xid(bigint, integer) IS 'xid-profile uid11 from Unix milliseconds (2011-11-11T11:11:11.111Z + 0..2^42-1) and 22 random bits';
COMMENT ON FUNCTION uid11_xid_random(uid11) IS 'the 22 random bits of an xid-profile uid11';

CREATE FUNCTION uid11_to_numeric(uid11) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_uid11(numeric) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS numeric) WITH FUNCTION uid11_to_numeric(uid11);
CREATE CAST (numeric AS uid11) WITH FUNCTION numeric_to_uid11(numeric);

-- uid11_generate keeps the last xid (per backend, or server-wide when preloaded): PARALLEL RESTRICTED.
-- uid11_generate_random has no state (its randomness comes from a per-process pool): PARALLEL SAFE.
CREATE FUNCTION uid11_generate() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION uid11_generate_random() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uid11_generate() IS 'new uid11, xid profile: milliseconds since 2011-11-11T11:11:11.111Z and 22 random bits (increasing within a millisecond)';
COMMENT ON FUNCTION uid11_generate_random() IS 'new uid11, fullrand profile: 64 random bits';

-- ============================================================================================= tbsl
-- What every idtypes type has. The Makefile instantiates this template per type: tbsl is the type,
-- idtypes_fixed10 the C functions of its storage shape (ordering, hashing, binary I/O), INTERNALLENGTH = 10, ALIGNMENT = char, STORAGE = plain its layout,
-- tbsl the prefix of its binary-input functions (the shape's, or the type's own where bytes need checking).

CREATE TYPE tbsl;

CREATE FUNCTION tbsl_in(cstring) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_out(tbsl) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_recv(internal, oid, integer) RETURNS tbsl
	AS 'MODULE_PATHNAME', 'tbsl_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_send(tbsl) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE tbsl (
	INPUT = tbsl_in, OUTPUT = tbsl_out, RECEIVE = tbsl_recv, SEND = tbsl_send,
	INTERNALLENGTH = 10, ALIGNMENT = char, STORAGE = plain
);

-- ---------------------------------------------------------------------------------- tbsl ordering

CREATE FUNCTION tbsl_eq(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_ne(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_lt(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_le(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_gt(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_ge(tbsl, tbsl) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_cmp(tbsl, tbsl) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_hash(tbsl) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_hash_extended(tbsl, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tbsl_smaller(tbsl, tbsl) RETURNS tbsl
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_larger(tbsl, tbsl) RETURNS tbsl
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_diff(tbsl, tbsl) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS tbsl_ops DEFAULT FOR TYPE tbsl USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 tbsl_cmp(tbsl, tbsl),
	FUNCTION 2 tbsl_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS tbsl_ops DEFAULT FOR TYPE tbsl USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 tbsl_hash(tbsl),
	FUNCTION 2 tbsl_hash_extended(tbsl, bigint);

CREATE OPERATOR CLASS tbsl_minmax_ops DEFAULT FOR TYPE tbsl USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- minmax-multi keeps several intervals per range of pages: for tables where IDs are mostly, but not
-- strictly, in time order (late inserts, several writers with skewed clocks)
CREATE FUNCTION tbsl_brin_distance(internal, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_brin_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS tbsl_minmax_multi_ops FOR TYPE tbsl USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_multi_opcinfo(internal),
	FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
	FUNCTION 5 brin_minmax_multi_options(internal),
	FUNCTION 11 tbsl_brin_distance(internal, internal);

CREATE AGGREGATE min(tbsl) (SFUNC = tbsl_smaller, STYPE = tbsl, COMBINEFUNC = tbsl_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(tbsl) (SFUNC = tbsl_larger, STYPE = tbsl, COMBINEFUNC = tbsl_larger, SORTOP = >,
	PARALLEL = SAFE);

CREATE TYPE tbslrange AS RANGE (SUBTYPE = tbsl, SUBTYPE_OPCLASS = tbsl_ops, SUBTYPE_DIFF = tbsl_diff);

-- ---------------------------------------------------------------------------------- tbsl casts

CREATE FUNCTION tbsl_to_bytea(tbsl) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_tbsl(bytea) RETURNS tbsl
	AS 'MODULE_PATHNAME', 'tbsl_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS bytea) WITH FUNCTION tbsl_to_bytea(tbsl);
CREATE CAST (bytea AS tbsl) WITH FUNCTION bytea_to_tbsl(bytea);

-- ---------------------------------------------------------------------------------- tbsl time

CREATE FUNCTION tbsl_timestamp(tbsl) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS timestamptz) WITH FUNCTION tbsl_timestamp(tbsl);
CREATE FUNCTION tbsl_min(timestamptz) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_max(timestamptz) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_timestamp(tbsl) IS 'creation time of the tbsl (also the cast to timestamptz)';
COMMENT ON FUNCTION tbsl_min(timestamptz) IS 'smallest tbsl whose time is the given instant';
COMMENT ON FUNCTION tbsl_max(timestamptz) IS 'largest tbsl whose time is the given instant';

-- ---------------------------------------------------------------------------------- tbsl prefix and time window
-- Both operators select one contiguous range of IDs; their support functions rewrite them into
-- `id >= lo AND id <= hi` so that indexes, partition pruning and estimates apply. The _lo/_hi helpers
-- compute the bounds at run time when the argument is not a constant (generic plans, joins).

CREATE FUNCTION tbsl_prefix_lo(text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_prefix_hi(text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_prefix_range(text) RETURNS tbslrange
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_starts_with(tbsl, text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT tbsl_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = tbsl, RIGHTARG = text, FUNCTION = tbsl_starts_with, RESTRICT = tbsl_prefix_sel);
COMMENT ON FUNCTION tbsl_prefix_range(text) IS 'the tbsl values whose canonical text starts with the prefix';
COMMENT ON OPERATOR ^@ (tbsl, text) IS 'canonical text of the tbsl starts with the prefix';

CREATE FUNCTION tbsl_window_lo(tstzrange) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_window_hi(tstzrange) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_in_window(tbsl, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT tbsl_window_support;
CREATE OPERATOR <@ (LEFTARG = tbsl, RIGHTARG = tstzrange, FUNCTION = tbsl_in_window, RESTRICT = tbsl_window_sel);
COMMENT ON OPERATOR <@ (tbsl, tstzrange) IS 'time of the tbsl lies in the range';

-- ---------------------------------------------------------------------------------- tbsl specifics

CREATE FUNCTION make_tbsl(unix_seconds bigint, microseconds integer, machine_id integer, suffix integer) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_machine_id(tbsl) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_suffix(tbsl) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_tbsl(bigint, integer, integer, integer) IS 'tbsl from Unix seconds (0..9999999999), microseconds (0..999999), machine id (0..99) and suffix (0..0xFFFFF)';
COMMENT ON FUNCTION tbsl_machine_id(tbsl) IS 'machine id of the tbsl (its last two payload digits)';
COMMENT ON FUNCTION tbsl_suffix(tbsl) IS 'the 20-bit random or sequence suffix of the tbsl';

CREATE FUNCTION tbsl_to_base(tbsl, base integer) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_from_base(text, base integer) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_to_base(tbsl, integer) IS 'the 10 bytes as one number in base 16, 32, 36, 58 or 62, unpadded (Infocyph\UID transport encodings)';
COMMENT ON FUNCTION tbsl_from_base(text, integer) IS 'inverse of tbsl_to_base; bases 16, 32 and 36 ignore case';

CREATE FUNCTION tbsl_to_numeric(tbsl) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_tbsl(numeric) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS numeric) WITH FUNCTION tbsl_to_numeric(tbsl);
CREATE CAST (numeric AS tbsl) WITH FUNCTION numeric_to_tbsl(numeric);

-- Per-backend state (last time issued, sequences): PARALLEL RESTRICTED.
CREATE FUNCTION tbsl_generate(machine_id integer DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond)';

-- ============================================================================================= scru160
-- What every idtypes type has. The Makefile instantiates this template per type: scru160 is the type,
-- idtypes_fixed20 the C functions of its storage shape (ordering, hashing, binary I/O), INTERNALLENGTH = 20, ALIGNMENT = char, STORAGE = plain its layout,
-- idtypes_fixed20 the prefix of its binary-input functions (the shape's, or the type's own where bytes need checking).

CREATE TYPE scru160;

CREATE FUNCTION scru160_in(cstring) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_out(scru160) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_recv(internal, oid, integer) RETURNS scru160
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_send(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE scru160 (
	INPUT = scru160_in, OUTPUT = scru160_out, RECEIVE = scru160_recv, SEND = scru160_send,
	INTERNALLENGTH = 20, ALIGNMENT = char, STORAGE = plain
);

-- ---------------------------------------------------------------------------------- scru160 ordering

CREATE FUNCTION scru160_eq(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_ne(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_lt(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_le(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_gt(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_ge(scru160, scru160) RETURNS boolean
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_cmp(scru160, scru160) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_hash(scru160) RETURNS integer
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_hash_extended(scru160, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_smaller(scru160, scru160) RETURNS scru160
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_larger(scru160, scru160) RETURNS scru160
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_diff(scru160, scru160) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_diff' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR = (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS scru160_ops DEFAULT FOR TYPE scru160 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 scru160_cmp(scru160, scru160),
	FUNCTION 2 scru160_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS scru160_ops DEFAULT FOR TYPE scru160 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 scru160_hash(scru160),
	FUNCTION 2 scru160_hash_extended(scru160, bigint);

CREATE OPERATOR CLASS scru160_minmax_ops DEFAULT FOR TYPE scru160 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- minmax-multi keeps several intervals per range of pages: for tables where IDs are mostly, but not
-- strictly, in time order (late inserts, several writers with skewed clocks)
CREATE FUNCTION scru160_brin_distance(internal, internal) RETURNS double precision
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_brin_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS scru160_minmax_multi_ops FOR TYPE scru160 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_multi_opcinfo(internal),
	FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
	FUNCTION 5 brin_minmax_multi_options(internal),
	FUNCTION 11 scru160_brin_distance(internal, internal);

CREATE AGGREGATE min(scru160) (SFUNC = scru160_smaller, STYPE = scru160, COMBINEFUNC = scru160_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(scru160) (SFUNC = scru160_larger, STYPE = scru160, COMBINEFUNC = scru160_larger, SORTOP = >,
	PARALLEL = SAFE);

CREATE TYPE scru160range AS RANGE (SUBTYPE = scru160, SUBTYPE_OPCLASS = scru160_ops, SUBTYPE_DIFF = scru160_diff);

-- ---------------------------------------------------------------------------------- scru160 casts

CREATE FUNCTION scru160_to_bytea(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_scru160(bytea) RETURNS scru160
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (scru160 AS bytea) WITH FUNCTION scru160_to_bytea(scru160);
CREATE CAST (bytea AS scru160) WITH FUNCTION bytea_to_scru160(bytea);

-- ---------------------------------------------------------------------------------- scru160 time

CREATE FUNCTION scru160_timestamp(scru160) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (scru160 AS timestamptz) WITH FUNCTION scru160_timestamp(scru160);
CREATE FUNCTION scru160_min(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_max(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_timestamp(scru160) IS 'creation time of the scru160 (also the cast to timestamptz)';
COMMENT ON FUNCTION scru160_min(timestamptz) IS 'smallest scru160 whose time is the given instant';
COMMENT ON FUNCTION scru160_max(timestamptz) IS 'largest scru160 whose time is the given instant';

-- ---------------------------------------------------------------------------------- scru160 prefix and time window
-- Both operators select one contiguous range of IDs; their support functions rewrite them into
-- `id >= lo AND id <= hi` so that indexes, partition pruning and estimates apply. The _lo/_hi helpers
-- compute the bounds at run time when the argument is not a constant (generic plans, joins).

CREATE FUNCTION scru160_prefix_lo(text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_prefix_hi(text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_prefix_range(text) RETURNS scru160range
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_starts_with(scru160, text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT scru160_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = scru160, RIGHTARG = text, FUNCTION = scru160_starts_with, RESTRICT = scru160_prefix_sel);
COMMENT ON FUNCTION scru160_prefix_range(text) IS 'the scru160 values whose canonical text starts with the prefix';
COMMENT ON OPERATOR ^@ (scru160, text) IS 'canonical text of the scru160 starts with the prefix';

CREATE FUNCTION scru160_window_lo(tstzrange) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_window_hi(tstzrange) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_in_window(scru160, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT scru160_window_support;
CREATE OPERATOR <@ (LEFTARG = scru160, RIGHTARG = tstzrange, FUNCTION = scru160_in_window, RESTRICT = scru160_window_sel);
COMMENT ON OPERATOR <@ (scru160, tstzrange) IS 'time of the scru160 lies in the range';

-- ---------------------------------------------------------------------------------- scru160 specifics

CREATE FUNCTION scru160_to_hex(scru160) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_scru160(unix_ms bigint, counter integer, random16 integer, random80 bytea) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_counter(scru160) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random16(scru160) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random80(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_to_hex(scru160) IS 'the 40-character lower-case hex form';
COMMENT ON FUNCTION make_scru160(bigint, integer, integer, bytea) IS 'scru160 from Unix milliseconds (0..2^48-1), counter and random16 (0..65535) and 10 bytes of random80';
COMMENT ON FUNCTION scru160_counter(scru160) IS 'the 16-bit counter field';
COMMENT ON FUNCTION scru160_random16(scru160) IS 'the 16-bit random16 field';
COMMENT ON FUNCTION scru160_random80(scru160) IS 'the 80-bit random80 field, as 10 bytes';

-- Per-backend state (last millisecond and counter): PARALLEL RESTRICTED.
CREATE FUNCTION scru160_generate() RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION scru160_generate() IS 'new scru160: default counter usage, strong random fields, monotonic';
