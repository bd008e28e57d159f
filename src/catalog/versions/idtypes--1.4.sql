-- idtypes: sortable, time-based identifier types (TBSL, TID as timeid, uid11/xid, SCRU160).
-- Generated from src/catalog/*.sql by the Makefile; edit those files, not the generated script.
\echo Use "CREATE EXTENSION idtypes" to load this file. \quit

CREATE FUNCTION idtypes_generator_mode() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idtypes_generator_mode() IS 'where the server''s one generator state lives: shared (preloaded), shared (allocated at first use) or shared (named DSM segment)';

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
COMMENT ON FUNCTION timeid_recv(internal, oid, integer) IS 'binary input of timeid: its 8 raw big-endian bytes; another length, or a value its text input refuses: error 22P03';
COMMENT ON FUNCTION timeid_send(timeid) IS 'binary output of timeid: its 8 raw big-endian bytes';

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
COMMENT ON FUNCTION timeid_eq(timeid, timeid) IS 'implementation of the timeid = operator';
COMMENT ON FUNCTION timeid_ne(timeid, timeid) IS 'implementation of the timeid <> operator';
COMMENT ON FUNCTION timeid_lt(timeid, timeid) IS 'implementation of the timeid < operator';
COMMENT ON FUNCTION timeid_le(timeid, timeid) IS 'implementation of the timeid <= operator';
COMMENT ON FUNCTION timeid_gt(timeid, timeid) IS 'implementation of the timeid > operator';
COMMENT ON FUNCTION timeid_ge(timeid, timeid) IS 'implementation of the timeid >= operator';
COMMENT ON FUNCTION timeid_cmp(timeid, timeid) IS '-1, 0 or 1 as the first timeid sorts before, equal to or after the second (order of the canonical text)';
COMMENT ON FUNCTION timeid_sortsupport(internal) IS 'btree sort support of timeid: the comparator used by sorts and index builds';
COMMENT ON FUNCTION timeid_hash(timeid) IS '32-bit hash of the timeid, for hash indexes, hash joins and hash aggregation';
COMMENT ON FUNCTION timeid_hash_extended(timeid, bigint) IS '64-bit hash of the timeid with the given seed, for PARTITION BY HASH';
COMMENT ON FUNCTION timeid_smaller(timeid, timeid) IS 'the smaller of two timeid values (transition function of min(timeid))';
COMMENT ON FUNCTION timeid_larger(timeid, timeid) IS 'the larger of two timeid values (transition function of max(timeid))';
COMMENT ON FUNCTION timeid_diff(timeid, timeid) IS 'first minus second, both read as unsigned big-endian numbers, as double precision (subtype_diff of timeidrange, for GiST)';

CREATE OPERATOR = (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
-- Estimates for <, <=, >, >=: interpolated inside histogram buckets, and bounds on one column paired into
-- one range (PostgreSQL's scalarltsel and friends can do neither for types they do not know).
CREATE FUNCTION timeid_comparison_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = timeid_comparison_sel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = timeid_comparison_sel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = timeid_comparison_sel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = timeid_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = timeid_comparison_sel, JOIN = scalargejoinsel);
COMMENT ON FUNCTION timeid_comparison_sel(internal, oid, internal, integer) IS 'restriction selectivity of timeid <, <=, >, >=: histogram buckets interpolated by the IDs'' time, bounds on one column paired into one range';
COMMENT ON OPERATOR = (timeid, timeid) IS 'equal: the same timeid';
COMMENT ON OPERATOR <> (timeid, timeid) IS 'not equal';
COMMENT ON OPERATOR < (timeid, timeid) IS 'less than: sorts before, by time first (the order of the canonical text)';
COMMENT ON OPERATOR <= (timeid, timeid) IS 'less than or equal: sorts before or equals, by time first (the order of the canonical text)';
COMMENT ON OPERATOR > (timeid, timeid) IS 'greater than: sorts after, by time first (the order of the canonical text)';
COMMENT ON OPERATOR >= (timeid, timeid) IS 'greater than or equal: sorts after or equals, by time first (the order of the canonical text)';

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS timeid_ops DEFAULT FOR TYPE timeid USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 timeid_cmp(timeid, timeid),
	FUNCTION 2 timeid_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS timeid_ops USING btree IS 'default btree operator class of timeid: sort support, deduplication (btequalimage); also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY timeid_ops USING btree IS 'btree operator family of timeid (operator class timeid_ops)';

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS timeid_ops DEFAULT FOR TYPE timeid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 timeid_hash(timeid),
	FUNCTION 2 timeid_hash_extended(timeid, bigint);
COMMENT ON OPERATOR CLASS timeid_ops USING hash IS 'default hash operator class of timeid: hash indexes, hash joins, PARTITION BY HASH (seeded 64-bit hash)';
COMMENT ON OPERATOR FAMILY timeid_ops USING hash IS 'hash operator family of timeid (operator class timeid_ops)';

CREATE OPERATOR CLASS timeid_minmax_ops DEFAULT FOR TYPE timeid USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS timeid_minmax_ops USING brin IS 'default BRIN operator class of timeid: min and max per page range, for tables filled in ID order; also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY timeid_minmax_ops USING brin IS 'BRIN minmax operator family of timeid (operator class timeid_minmax_ops)';

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
COMMENT ON FUNCTION timeid_brin_distance(internal, internal) IS 'distance between two timeid values for BRIN minmax-multi: their difference as unsigned numbers, as double precision';
COMMENT ON OPERATOR CLASS timeid_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator class of timeid: several intervals per page range, for IDs mostly but not strictly in order';
COMMENT ON OPERATOR FAMILY timeid_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator family of timeid (operator class timeid_minmax_multi_ops)';

CREATE AGGREGATE min(timeid) (SFUNC = timeid_smaller, STYPE = timeid, COMBINEFUNC = timeid_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(timeid) (SFUNC = timeid_larger, STYPE = timeid, COMBINEFUNC = timeid_larger, SORTOP = >,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE min(timeid) IS 'smallest timeid (the earliest); NULL when there are no non-NULL values; read from a btree index when there is one';
COMMENT ON AGGREGATE max(timeid) IS 'largest timeid (the latest); NULL when there are no non-NULL values; read from a btree index when there is one';

CREATE TYPE timeidrange AS RANGE (SUBTYPE = timeid, SUBTYPE_OPCLASS = timeid_ops, SUBTYPE_DIFF = timeid_diff);
COMMENT ON TYPE timeidrange IS 'range of timeid values (what timeid_prefix_range returns); GiST-indexable';
COMMENT ON TYPE timeidmultirange IS 'set of disjoint timeidrange values';
COMMENT ON FUNCTION timeidrange(timeid, timeid) IS 'timeidrange [lower, upper); a NULL bound is unbounded';
COMMENT ON FUNCTION timeidrange(timeid, timeid, text) IS 'timeidrange with the given bounds: ''[]'', ''[)'', ''(]'' or ''()''; a NULL bound is unbounded';
COMMENT ON FUNCTION timeidmultirange() IS 'the empty timeidmultirange';
COMMENT ON FUNCTION timeidmultirange(timeidrange) IS 'timeidmultirange of one timeidrange';
COMMENT ON FUNCTION timeidmultirange(timeidrange[]) IS 'timeidmultirange of the given timeidrange values, overlapping ones merged';
COMMENT ON CAST (timeidrange AS timeidmultirange) IS 'the timeidmultirange of that one timeidrange';

-- ---------------------------------------------------------------------------------- timeid casts

CREATE FUNCTION timeid_to_bytea(timeid) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_timeid(bytea) RETURNS timeid
	AS 'MODULE_PATHNAME', 'idtypes_u64_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS bytea) WITH FUNCTION timeid_to_bytea(timeid);
CREATE CAST (bytea AS timeid) WITH FUNCTION bytea_to_timeid(bytea);
COMMENT ON FUNCTION timeid_to_bytea(timeid) IS 'the 8 raw big-endian bytes of the timeid (the cast timeid::bytea)';
COMMENT ON FUNCTION bytea_to_timeid(bytea) IS 'timeid from its 8 raw big-endian bytes (the cast bytea::timeid); another length, or a value its text input refuses: error 22P02';
COMMENT ON CAST (timeid AS bytea) IS 'the 8 raw big-endian bytes of the timeid';
COMMENT ON CAST (bytea AS timeid) IS 'timeid from its 8 raw big-endian bytes; another length, or a value its text input refuses: error 22P02';

-- ---------------------------------------------------------------------------------- timeid time

CREATE FUNCTION timeid_timestamp(timeid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS timestamptz) WITH FUNCTION timeid_timestamp(timeid);
CREATE FUNCTION timeid_min(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_max(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_timestamp(timeid) IS 'creation time of the timeid, to the microsecond (the cast timeid::timestamptz)';
COMMENT ON CAST (timeid AS timestamptz) IS 'creation time of the timeid, to the microsecond';
COMMENT ON FUNCTION timeid_min(timestamptz) IS 'smallest timeid whose time is the instant truncated to the microsecond; outside the timeid time range: error 22008';
COMMENT ON FUNCTION timeid_max(timestamptz) IS 'largest timeid whose time is the instant truncated to the microsecond; outside the timeid time range: error 22008';

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
COMMENT ON FUNCTION timeid_prefix_lo(text) IS 'smallest timeid whose canonical text starts with the prefix; if no timeid has it: the largest timeid (above timeid_prefix_hi); invalid prefix: error 22P02';
COMMENT ON FUNCTION timeid_prefix_hi(text) IS 'largest timeid whose canonical text starts with the prefix; if no timeid has it: the smallest timeid (below timeid_prefix_lo); invalid prefix: error 22P02';
COMMENT ON FUNCTION timeid_prefix_range(text) IS 'the timeid values whose canonical text starts with the prefix, as an inclusive range; empty if no timeid has it; every timeid for ''''';
COMMENT ON FUNCTION timeid_prefix_support(internal) IS 'planner support of timeid ^@ text: rewrites id ^@ p into id >= timeid_prefix_lo(p) AND id <= timeid_prefix_hi(p)';
COMMENT ON FUNCTION timeid_prefix_sel(internal, oid, internal, integer) IS 'restriction selectivity of timeid ^@ text: the rows between the prefix''s bounds, from the column''s histogram';
COMMENT ON FUNCTION timeid_starts_with(timeid, text) IS 'implementation of the timeid ^@ text operator';
COMMENT ON OPERATOR ^@ (timeid, text) IS 'canonical text of the timeid starts with the prefix ('''' matches all; invalid prefix: error 22P02); uses a btree index on the timeid';

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
COMMENT ON FUNCTION timeid_window_lo(tstzrange) IS 'smallest timeid whose time lies in the range; if none (empty range, or outside the timeid time range): the largest timeid (above timeid_window_hi)';
COMMENT ON FUNCTION timeid_window_hi(tstzrange) IS 'largest timeid whose time lies in the range; if none (empty range, or outside the timeid time range): the smallest timeid (below timeid_window_lo)';
COMMENT ON FUNCTION timeid_window_support(internal) IS 'planner support of timeid <@ tstzrange: rewrites id <@ r into id >= timeid_window_lo(r) AND id <= timeid_window_hi(r)';
COMMENT ON FUNCTION timeid_window_sel(internal, oid, internal, integer) IS 'restriction selectivity of timeid <@ tstzrange: the rows between the window''s bounds, from the column''s histogram';
COMMENT ON FUNCTION timeid_in_window(timeid, tstzrange) IS 'implementation of the timeid <@ tstzrange operator';
COMMENT ON OPERATOR <@ (timeid, tstzrange) IS 'time of the timeid lies in the range (bounds and infinities respected; empty range: false); uses a btree index on the timeid';


-- ---------------------------------------------------------------------------------- timeid window frames by time
-- btree support function 3: `ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND ...` compares the IDs'
-- times as the same frame over id::timestamptz does. STABLE like timestamptz's in_range: days and months are
-- added in the session's time zone.
CREATE FUNCTION timeid_in_range(timeid, timeid, interval, boolean, boolean) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY timeid_ops USING btree ADD FUNCTION 3 (timeid, interval) timeid_in_range(timeid, timeid, interval, boolean, boolean);
COMMENT ON FUNCTION timeid_in_range(timeid, timeid, interval, boolean, boolean) IS 'window frames by time over ORDER BY timeid: in_range(val, base, offset, sub, less) of the IDs'' times, as for timestamptz';

-- ---------------------------------------------------------------------------------- timeid specifics

COMMENT ON TYPE timeid IS 'TID (atproto timestamp identifier): 53-bit Unix microseconds and a 10-bit clock id in 8 bytes; text: 13 base32-sortable symbols';
COMMENT ON FUNCTION timeid_in(cstring) IS 'text input of timeid: exactly 13 symbols of 234567abcdefghijklmnopqrstuvwxyz, the first one 2..j; else error 22P02';
COMMENT ON FUNCTION timeid_out(timeid) IS 'text output of timeid: its 13 base32-sortable symbols';

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
COMMENT ON FUNCTION timeid_to_bigint(timeid) IS 'the 64-bit value of the timeid (the cast timeid::bigint); top bit set (first symbol c..j): error 22003';
COMMENT ON FUNCTION bigint_to_timeid(bigint) IS 'timeid with that 64-bit value (the cast bigint::timeid); negative: error 22003';
COMMENT ON CAST (timeid AS bigint) IS 'the 64-bit value of the timeid; top bit set (first symbol c..j): error 22003';
COMMENT ON CAST (bigint AS timeid) IS 'timeid with that 64-bit value; negative: error 22003';

-- The server's one generator state (the last microsecond issued; src/pg/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released, so workers never run it.
CREATE FUNCTION timeid_generate(clock_id integer DEFAULT NULL) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: the current microsecond or the server''s last one + 1, whichever is greater; clock id 0..1023 from the argument (another than the server''s own needs SET on idtypes.timeid_clock_id), else idtypes.timeid_clock_id, else random';


-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond are told
-- apart only by the 10 random bits of their clock id (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION timeid_generate_at(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_generate_at(timestamptz) IS 'timeid carrying the given time (to the microsecond) and a random clock id, for loading history; a duplicate is likely among ~38 rows sharing a microsecond';

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
COMMENT ON FUNCTION uid11_recv(internal, oid, integer) IS 'binary input of uid11: its 8 raw big-endian bytes; another length, or a value its text input refuses: error 22P03';
COMMENT ON FUNCTION uid11_send(uid11) IS 'binary output of uid11: its 8 raw big-endian bytes';

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
COMMENT ON FUNCTION uid11_eq(uid11, uid11) IS 'implementation of the uid11 = operator';
COMMENT ON FUNCTION uid11_ne(uid11, uid11) IS 'implementation of the uid11 <> operator';
COMMENT ON FUNCTION uid11_lt(uid11, uid11) IS 'implementation of the uid11 < operator';
COMMENT ON FUNCTION uid11_le(uid11, uid11) IS 'implementation of the uid11 <= operator';
COMMENT ON FUNCTION uid11_gt(uid11, uid11) IS 'implementation of the uid11 > operator';
COMMENT ON FUNCTION uid11_ge(uid11, uid11) IS 'implementation of the uid11 >= operator';
COMMENT ON FUNCTION uid11_cmp(uid11, uid11) IS '-1, 0 or 1 as the first uid11 sorts before, equal to or after the second (order of the canonical text)';
COMMENT ON FUNCTION uid11_sortsupport(internal) IS 'btree sort support of uid11: the comparator used by sorts and index builds';
COMMENT ON FUNCTION uid11_hash(uid11) IS '32-bit hash of the uid11, for hash indexes, hash joins and hash aggregation';
COMMENT ON FUNCTION uid11_hash_extended(uid11, bigint) IS '64-bit hash of the uid11 with the given seed, for PARTITION BY HASH';
COMMENT ON FUNCTION uid11_smaller(uid11, uid11) IS 'the smaller of two uid11 values (transition function of min(uid11))';
COMMENT ON FUNCTION uid11_larger(uid11, uid11) IS 'the larger of two uid11 values (transition function of max(uid11))';
COMMENT ON FUNCTION uid11_diff(uid11, uid11) IS 'first minus second, both read as unsigned big-endian numbers, as double precision (subtype_diff of uid11range, for GiST)';

CREATE OPERATOR = (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
-- Estimates for <, <=, >, >=: interpolated inside histogram buckets, and bounds on one column paired into
-- one range (PostgreSQL's scalarltsel and friends can do neither for types they do not know).
CREATE FUNCTION uid11_comparison_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = uid11_comparison_sel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = uid11_comparison_sel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = uid11_comparison_sel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = uid11, RIGHTARG = uid11, FUNCTION = uid11_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = uid11_comparison_sel, JOIN = scalargejoinsel);
COMMENT ON FUNCTION uid11_comparison_sel(internal, oid, internal, integer) IS 'restriction selectivity of uid11 <, <=, >, >=: histogram buckets interpolated by the IDs'' time, bounds on one column paired into one range';
COMMENT ON OPERATOR = (uid11, uid11) IS 'equal: the same uid11';
COMMENT ON OPERATOR <> (uid11, uid11) IS 'not equal';
COMMENT ON OPERATOR < (uid11, uid11) IS 'less than: sorts before, by time first (the order of the canonical text)';
COMMENT ON OPERATOR <= (uid11, uid11) IS 'less than or equal: sorts before or equals, by time first (the order of the canonical text)';
COMMENT ON OPERATOR > (uid11, uid11) IS 'greater than: sorts after, by time first (the order of the canonical text)';
COMMENT ON OPERATOR >= (uid11, uid11) IS 'greater than or equal: sorts after or equals, by time first (the order of the canonical text)';

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS uid11_ops DEFAULT FOR TYPE uid11 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 uid11_cmp(uid11, uid11),
	FUNCTION 2 uid11_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS uid11_ops USING btree IS 'default btree operator class of uid11: sort support, deduplication (btequalimage); also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY uid11_ops USING btree IS 'btree operator family of uid11 (operator class uid11_ops)';

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS uid11_ops DEFAULT FOR TYPE uid11 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 uid11_hash(uid11),
	FUNCTION 2 uid11_hash_extended(uid11, bigint);
COMMENT ON OPERATOR CLASS uid11_ops USING hash IS 'default hash operator class of uid11: hash indexes, hash joins, PARTITION BY HASH (seeded 64-bit hash)';
COMMENT ON OPERATOR FAMILY uid11_ops USING hash IS 'hash operator family of uid11 (operator class uid11_ops)';

CREATE OPERATOR CLASS uid11_minmax_ops DEFAULT FOR TYPE uid11 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS uid11_minmax_ops USING brin IS 'default BRIN operator class of uid11: min and max per page range, for tables filled in ID order; also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY uid11_minmax_ops USING brin IS 'BRIN minmax operator family of uid11 (operator class uid11_minmax_ops)';

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
COMMENT ON FUNCTION uid11_brin_distance(internal, internal) IS 'distance between two uid11 values for BRIN minmax-multi: their difference as unsigned numbers, as double precision';
COMMENT ON OPERATOR CLASS uid11_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator class of uid11: several intervals per page range, for IDs mostly but not strictly in order';
COMMENT ON OPERATOR FAMILY uid11_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator family of uid11 (operator class uid11_minmax_multi_ops)';

CREATE AGGREGATE min(uid11) (SFUNC = uid11_smaller, STYPE = uid11, COMBINEFUNC = uid11_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(uid11) (SFUNC = uid11_larger, STYPE = uid11, COMBINEFUNC = uid11_larger, SORTOP = >,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE min(uid11) IS 'smallest uid11 (the earliest); NULL when there are no non-NULL values; read from a btree index when there is one';
COMMENT ON AGGREGATE max(uid11) IS 'largest uid11 (the latest); NULL when there are no non-NULL values; read from a btree index when there is one';

CREATE TYPE uid11range AS RANGE (SUBTYPE = uid11, SUBTYPE_OPCLASS = uid11_ops, SUBTYPE_DIFF = uid11_diff);
COMMENT ON TYPE uid11range IS 'range of uid11 values (what uid11_prefix_range returns); GiST-indexable';
COMMENT ON TYPE uid11multirange IS 'set of disjoint uid11range values';
COMMENT ON FUNCTION uid11range(uid11, uid11) IS 'uid11range [lower, upper); a NULL bound is unbounded';
COMMENT ON FUNCTION uid11range(uid11, uid11, text) IS 'uid11range with the given bounds: ''[]'', ''[)'', ''(]'' or ''()''; a NULL bound is unbounded';
COMMENT ON FUNCTION uid11multirange() IS 'the empty uid11multirange';
COMMENT ON FUNCTION uid11multirange(uid11range) IS 'uid11multirange of one uid11range';
COMMENT ON FUNCTION uid11multirange(uid11range[]) IS 'uid11multirange of the given uid11range values, overlapping ones merged';
COMMENT ON CAST (uid11range AS uid11multirange) IS 'the uid11multirange of that one uid11range';

-- ---------------------------------------------------------------------------------- uid11 casts

CREATE FUNCTION uid11_to_bytea(uid11) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_u64_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_uid11(bytea) RETURNS uid11
	AS 'MODULE_PATHNAME', 'idtypes_u64_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS bytea) WITH FUNCTION uid11_to_bytea(uid11);
CREATE CAST (bytea AS uid11) WITH FUNCTION bytea_to_uid11(bytea);
COMMENT ON FUNCTION uid11_to_bytea(uid11) IS 'the 8 raw big-endian bytes of the uid11 (the cast uid11::bytea)';
COMMENT ON FUNCTION bytea_to_uid11(bytea) IS 'uid11 from its 8 raw big-endian bytes (the cast bytea::uid11); another length, or a value its text input refuses: error 22P02';
COMMENT ON CAST (uid11 AS bytea) IS 'the 8 raw big-endian bytes of the uid11';
COMMENT ON CAST (bytea AS uid11) IS 'uid11 from its 8 raw big-endian bytes; another length, or a value its text input refuses: error 22P02';

-- ---------------------------------------------------------------------------------- uid11 time

CREATE FUNCTION uid11_timestamp(uid11) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS timestamptz) WITH FUNCTION uid11_timestamp(uid11);
CREATE FUNCTION uid11_min(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_max(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_timestamp(uid11) IS 'creation time of the uid11, to the millisecond (the cast uid11::timestamptz)';
COMMENT ON CAST (uid11 AS timestamptz) IS 'creation time of the uid11, to the millisecond';
COMMENT ON FUNCTION uid11_min(timestamptz) IS 'smallest uid11 whose time is the instant truncated to the millisecond; outside the uid11 time range: error 22008';
COMMENT ON FUNCTION uid11_max(timestamptz) IS 'largest uid11 whose time is the instant truncated to the millisecond; outside the uid11 time range: error 22008';

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
COMMENT ON FUNCTION uid11_prefix_lo(text) IS 'smallest uid11 whose canonical text starts with the prefix; if no uid11 has it: the largest uid11 (above uid11_prefix_hi); invalid prefix: error 22P02';
COMMENT ON FUNCTION uid11_prefix_hi(text) IS 'largest uid11 whose canonical text starts with the prefix; if no uid11 has it: the smallest uid11 (below uid11_prefix_lo); invalid prefix: error 22P02';
COMMENT ON FUNCTION uid11_prefix_range(text) IS 'the uid11 values whose canonical text starts with the prefix, as an inclusive range; empty if no uid11 has it; every uid11 for ''''';
COMMENT ON FUNCTION uid11_prefix_support(internal) IS 'planner support of uid11 ^@ text: rewrites id ^@ p into id >= uid11_prefix_lo(p) AND id <= uid11_prefix_hi(p)';
COMMENT ON FUNCTION uid11_prefix_sel(internal, oid, internal, integer) IS 'restriction selectivity of uid11 ^@ text: the rows between the prefix''s bounds, from the column''s histogram';
COMMENT ON FUNCTION uid11_starts_with(uid11, text) IS 'implementation of the uid11 ^@ text operator';
COMMENT ON OPERATOR ^@ (uid11, text) IS 'canonical text of the uid11 starts with the prefix ('''' matches all; invalid prefix: error 22P02); uses a btree index on the uid11';

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
COMMENT ON FUNCTION uid11_window_lo(tstzrange) IS 'smallest uid11 whose time lies in the range; if none (empty range, or outside the uid11 time range): the largest uid11 (above uid11_window_hi)';
COMMENT ON FUNCTION uid11_window_hi(tstzrange) IS 'largest uid11 whose time lies in the range; if none (empty range, or outside the uid11 time range): the smallest uid11 (below uid11_window_lo)';
COMMENT ON FUNCTION uid11_window_support(internal) IS 'planner support of uid11 <@ tstzrange: rewrites id <@ r into id >= uid11_window_lo(r) AND id <= uid11_window_hi(r)';
COMMENT ON FUNCTION uid11_window_sel(internal, oid, internal, integer) IS 'restriction selectivity of uid11 <@ tstzrange: the rows between the window''s bounds, from the column''s histogram';
COMMENT ON FUNCTION uid11_in_window(uid11, tstzrange) IS 'implementation of the uid11 <@ tstzrange operator';
COMMENT ON OPERATOR <@ (uid11, tstzrange) IS 'time of the uid11 lies in the range (bounds and infinities respected; empty range: false); uses a btree index on the uid11';


-- ---------------------------------------------------------------------------------- uid11 window frames by time
-- btree support function 3: `ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND ...` compares the IDs'
-- times as the same frame over id::timestamptz does. STABLE like timestamptz's in_range: days and months are
-- added in the session's time zone.
CREATE FUNCTION uid11_in_range(uid11, uid11, interval, boolean, boolean) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY uid11_ops USING btree ADD FUNCTION 3 (uid11, interval) uid11_in_range(uid11, uid11, interval, boolean, boolean);
COMMENT ON FUNCTION uid11_in_range(uid11, uid11, interval, boolean, boolean) IS 'window frames by time over ORDER BY uid11: in_range(val, base, offset, sub, less) of the IDs'' times, as for timestamptz';

-- ---------------------------------------------------------------------------------- uid11 specifics

COMMENT ON TYPE uid11 IS 'uid11: 64 bits, whose time is read as the xid profile (42 bits of milliseconds since 2011-11-11T11:11:11.111Z, 22 random bits); text: 11 Base58 symbols';
COMMENT ON FUNCTION uid11_in(cstring) IS 'text input of uid11: exactly 11 Base58 (Bitcoin alphabet) symbols of value at most 2^64-1; else error 22P02';
COMMENT ON FUNCTION uid11_out(uid11) IS 'text output of uid11: 11 Base58 symbols, left-padded with 1';

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
COMMENT ON FUNCTION uid11_to_numeric(uid11) IS 'the 64-bit unsigned value of the uid11 (the cast uid11::numeric)';
COMMENT ON FUNCTION numeric_to_uid11(numeric) IS 'uid11 with that 64-bit unsigned value (the cast numeric::uid11); a fraction, negative or above 2^64-1: error 22003';
COMMENT ON CAST (uid11 AS numeric) IS 'the 64-bit unsigned value of the uid11';
COMMENT ON CAST (numeric AS uid11) IS 'uid11 with that 64-bit unsigned value; a fraction, negative or above 2^64-1: error 22003';

-- uid11_generate keeps the last xid in the server's one generator state (src/pg/generators.cpp), shared by every
-- session: PARALLEL RESTRICTED as released.
-- uid11_generate_random keeps only server-wide state (its tickets, in shared memory), nothing per session: PARALLEL SAFE.
CREATE FUNCTION uid11_generate() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION uid11_generate_random() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uid11_generate() IS 'new uid11, xid profile: milliseconds since 2011-11-11T11:11:11.111Z and 22 random bits (increasing within a millisecond)';
COMMENT ON FUNCTION uid11_generate_random() IS 'new uid11, fullrand profile: 64 bits that look random (a keyed permutation of a server-wide counter), never repeated inside one server';

-- For loading history: no generator state (the times are past ones), so IDs sharing a millisecond are
-- told apart only by their 22 random bits (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION uid11_generate_at(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_generate_at(timestamptz) IS 'xid-profile uid11 carrying the given time (to the millisecond) and 22 random bits, for loading history; a duplicate is likely among ~2400 rows sharing a millisecond';

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
COMMENT ON FUNCTION tbsl_recv(internal, oid, integer) IS 'binary input of tbsl: its 10 raw big-endian bytes; another length, or a value its text input refuses: error 22P03';
COMMENT ON FUNCTION tbsl_send(tbsl) IS 'binary output of tbsl: its 10 raw big-endian bytes';

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
COMMENT ON FUNCTION tbsl_eq(tbsl, tbsl) IS 'implementation of the tbsl = operator';
COMMENT ON FUNCTION tbsl_ne(tbsl, tbsl) IS 'implementation of the tbsl <> operator';
COMMENT ON FUNCTION tbsl_lt(tbsl, tbsl) IS 'implementation of the tbsl < operator';
COMMENT ON FUNCTION tbsl_le(tbsl, tbsl) IS 'implementation of the tbsl <= operator';
COMMENT ON FUNCTION tbsl_gt(tbsl, tbsl) IS 'implementation of the tbsl > operator';
COMMENT ON FUNCTION tbsl_ge(tbsl, tbsl) IS 'implementation of the tbsl >= operator';
COMMENT ON FUNCTION tbsl_cmp(tbsl, tbsl) IS '-1, 0 or 1 as the first tbsl sorts before, equal to or after the second (order of the canonical text)';
COMMENT ON FUNCTION tbsl_sortsupport(internal) IS 'btree sort support of tbsl: the comparator used by sorts and index builds';
COMMENT ON FUNCTION tbsl_hash(tbsl) IS '32-bit hash of the tbsl, for hash indexes, hash joins and hash aggregation';
COMMENT ON FUNCTION tbsl_hash_extended(tbsl, bigint) IS '64-bit hash of the tbsl with the given seed, for PARTITION BY HASH';
COMMENT ON FUNCTION tbsl_smaller(tbsl, tbsl) IS 'the smaller of two tbsl values (transition function of min(tbsl))';
COMMENT ON FUNCTION tbsl_larger(tbsl, tbsl) IS 'the larger of two tbsl values (transition function of max(tbsl))';
COMMENT ON FUNCTION tbsl_diff(tbsl, tbsl) IS 'first minus second, both read as unsigned big-endian numbers, as double precision (subtype_diff of tbslrange, for GiST)';

CREATE OPERATOR = (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
-- Estimates for <, <=, >, >=: interpolated inside histogram buckets, and bounds on one column paired into
-- one range (PostgreSQL's scalarltsel and friends can do neither for types they do not know).
CREATE FUNCTION tbsl_comparison_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = tbsl_comparison_sel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = tbsl_comparison_sel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = tbsl_comparison_sel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = tbsl, RIGHTARG = tbsl, FUNCTION = tbsl_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = tbsl_comparison_sel, JOIN = scalargejoinsel);
COMMENT ON FUNCTION tbsl_comparison_sel(internal, oid, internal, integer) IS 'restriction selectivity of tbsl <, <=, >, >=: histogram buckets interpolated by the IDs'' time, bounds on one column paired into one range';
COMMENT ON OPERATOR = (tbsl, tbsl) IS 'equal: the same tbsl';
COMMENT ON OPERATOR <> (tbsl, tbsl) IS 'not equal';
COMMENT ON OPERATOR < (tbsl, tbsl) IS 'less than: sorts before, by time first (the order of the canonical text)';
COMMENT ON OPERATOR <= (tbsl, tbsl) IS 'less than or equal: sorts before or equals, by time first (the order of the canonical text)';
COMMENT ON OPERATOR > (tbsl, tbsl) IS 'greater than: sorts after, by time first (the order of the canonical text)';
COMMENT ON OPERATOR >= (tbsl, tbsl) IS 'greater than or equal: sorts after or equals, by time first (the order of the canonical text)';

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS tbsl_ops DEFAULT FOR TYPE tbsl USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 tbsl_cmp(tbsl, tbsl),
	FUNCTION 2 tbsl_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS tbsl_ops USING btree IS 'default btree operator class of tbsl: sort support, deduplication (btequalimage); also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY tbsl_ops USING btree IS 'btree operator family of tbsl (operator class tbsl_ops)';

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS tbsl_ops DEFAULT FOR TYPE tbsl USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 tbsl_hash(tbsl),
	FUNCTION 2 tbsl_hash_extended(tbsl, bigint);
COMMENT ON OPERATOR CLASS tbsl_ops USING hash IS 'default hash operator class of tbsl: hash indexes, hash joins, PARTITION BY HASH (seeded 64-bit hash)';
COMMENT ON OPERATOR FAMILY tbsl_ops USING hash IS 'hash operator family of tbsl (operator class tbsl_ops)';

CREATE OPERATOR CLASS tbsl_minmax_ops DEFAULT FOR TYPE tbsl USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS tbsl_minmax_ops USING brin IS 'default BRIN operator class of tbsl: min and max per page range, for tables filled in ID order; also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY tbsl_minmax_ops USING brin IS 'BRIN minmax operator family of tbsl (operator class tbsl_minmax_ops)';

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
COMMENT ON FUNCTION tbsl_brin_distance(internal, internal) IS 'distance between two tbsl values for BRIN minmax-multi: their difference as unsigned numbers, as double precision';
COMMENT ON OPERATOR CLASS tbsl_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator class of tbsl: several intervals per page range, for IDs mostly but not strictly in order';
COMMENT ON OPERATOR FAMILY tbsl_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator family of tbsl (operator class tbsl_minmax_multi_ops)';

CREATE AGGREGATE min(tbsl) (SFUNC = tbsl_smaller, STYPE = tbsl, COMBINEFUNC = tbsl_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(tbsl) (SFUNC = tbsl_larger, STYPE = tbsl, COMBINEFUNC = tbsl_larger, SORTOP = >,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE min(tbsl) IS 'smallest tbsl (the earliest); NULL when there are no non-NULL values; read from a btree index when there is one';
COMMENT ON AGGREGATE max(tbsl) IS 'largest tbsl (the latest); NULL when there are no non-NULL values; read from a btree index when there is one';

CREATE TYPE tbslrange AS RANGE (SUBTYPE = tbsl, SUBTYPE_OPCLASS = tbsl_ops, SUBTYPE_DIFF = tbsl_diff);
COMMENT ON TYPE tbslrange IS 'range of tbsl values (what tbsl_prefix_range returns); GiST-indexable';
COMMENT ON TYPE tbslmultirange IS 'set of disjoint tbslrange values';
COMMENT ON FUNCTION tbslrange(tbsl, tbsl) IS 'tbslrange [lower, upper); a NULL bound is unbounded';
COMMENT ON FUNCTION tbslrange(tbsl, tbsl, text) IS 'tbslrange with the given bounds: ''[]'', ''[)'', ''(]'' or ''()''; a NULL bound is unbounded';
COMMENT ON FUNCTION tbslmultirange() IS 'the empty tbslmultirange';
COMMENT ON FUNCTION tbslmultirange(tbslrange) IS 'tbslmultirange of one tbslrange';
COMMENT ON FUNCTION tbslmultirange(tbslrange[]) IS 'tbslmultirange of the given tbslrange values, overlapping ones merged';
COMMENT ON CAST (tbslrange AS tbslmultirange) IS 'the tbslmultirange of that one tbslrange';

-- ---------------------------------------------------------------------------------- tbsl casts

CREATE FUNCTION tbsl_to_bytea(tbsl) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed10_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_tbsl(bytea) RETURNS tbsl
	AS 'MODULE_PATHNAME', 'tbsl_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS bytea) WITH FUNCTION tbsl_to_bytea(tbsl);
CREATE CAST (bytea AS tbsl) WITH FUNCTION bytea_to_tbsl(bytea);
COMMENT ON FUNCTION tbsl_to_bytea(tbsl) IS 'the 10 raw big-endian bytes of the tbsl (the cast tbsl::bytea)';
COMMENT ON FUNCTION bytea_to_tbsl(bytea) IS 'tbsl from its 10 raw big-endian bytes (the cast bytea::tbsl); another length, or a value its text input refuses: error 22P02';
COMMENT ON CAST (tbsl AS bytea) IS 'the 10 raw big-endian bytes of the tbsl';
COMMENT ON CAST (bytea AS tbsl) IS 'tbsl from its 10 raw big-endian bytes; another length, or a value its text input refuses: error 22P02';

-- ---------------------------------------------------------------------------------- tbsl time

CREATE FUNCTION tbsl_timestamp(tbsl) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS timestamptz) WITH FUNCTION tbsl_timestamp(tbsl);
CREATE FUNCTION tbsl_min(timestamptz) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_max(timestamptz) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_timestamp(tbsl) IS 'creation time of the tbsl, to the microsecond (the cast tbsl::timestamptz)';
COMMENT ON CAST (tbsl AS timestamptz) IS 'creation time of the tbsl, to the microsecond';
COMMENT ON FUNCTION tbsl_min(timestamptz) IS 'smallest tbsl whose time is the instant truncated to the microsecond; outside the tbsl time range: error 22008';
COMMENT ON FUNCTION tbsl_max(timestamptz) IS 'largest tbsl whose time is the instant truncated to the microsecond; outside the tbsl time range: error 22008';

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
COMMENT ON FUNCTION tbsl_prefix_lo(text) IS 'smallest tbsl whose canonical text starts with the prefix; if no tbsl has it: the largest tbsl (above tbsl_prefix_hi); invalid prefix: error 22P02';
COMMENT ON FUNCTION tbsl_prefix_hi(text) IS 'largest tbsl whose canonical text starts with the prefix; if no tbsl has it: the smallest tbsl (below tbsl_prefix_lo); invalid prefix: error 22P02';
COMMENT ON FUNCTION tbsl_prefix_range(text) IS 'the tbsl values whose canonical text starts with the prefix, as an inclusive range; empty if no tbsl has it; every tbsl for ''''';
COMMENT ON FUNCTION tbsl_prefix_support(internal) IS 'planner support of tbsl ^@ text: rewrites id ^@ p into id >= tbsl_prefix_lo(p) AND id <= tbsl_prefix_hi(p)';
COMMENT ON FUNCTION tbsl_prefix_sel(internal, oid, internal, integer) IS 'restriction selectivity of tbsl ^@ text: the rows between the prefix''s bounds, from the column''s histogram';
COMMENT ON FUNCTION tbsl_starts_with(tbsl, text) IS 'implementation of the tbsl ^@ text operator';
COMMENT ON OPERATOR ^@ (tbsl, text) IS 'canonical text of the tbsl starts with the prefix ('''' matches all; invalid prefix: error 22P02); uses a btree index on the tbsl';

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
COMMENT ON FUNCTION tbsl_window_lo(tstzrange) IS 'smallest tbsl whose time lies in the range; if none (empty range, or outside the tbsl time range): the largest tbsl (above tbsl_window_hi)';
COMMENT ON FUNCTION tbsl_window_hi(tstzrange) IS 'largest tbsl whose time lies in the range; if none (empty range, or outside the tbsl time range): the smallest tbsl (below tbsl_window_lo)';
COMMENT ON FUNCTION tbsl_window_support(internal) IS 'planner support of tbsl <@ tstzrange: rewrites id <@ r into id >= tbsl_window_lo(r) AND id <= tbsl_window_hi(r)';
COMMENT ON FUNCTION tbsl_window_sel(internal, oid, internal, integer) IS 'restriction selectivity of tbsl <@ tstzrange: the rows between the window''s bounds, from the column''s histogram';
COMMENT ON FUNCTION tbsl_in_window(tbsl, tstzrange) IS 'implementation of the tbsl <@ tstzrange operator';
COMMENT ON OPERATOR <@ (tbsl, tstzrange) IS 'time of the tbsl lies in the range (bounds and infinities respected; empty range: false); uses a btree index on the tbsl';


-- ---------------------------------------------------------------------------------- tbsl window frames by time
-- btree support function 3: `ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND ...` compares the IDs'
-- times as the same frame over id::timestamptz does. STABLE like timestamptz's in_range: days and months are
-- added in the session's time zone.
CREATE FUNCTION tbsl_in_range(tbsl, tbsl, interval, boolean, boolean) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY tbsl_ops USING btree ADD FUNCTION 3 (tbsl, interval) tbsl_in_range(tbsl, tbsl, interval, boolean, boolean);
COMMENT ON FUNCTION tbsl_in_range(tbsl, tbsl, interval, boolean, boolean) IS 'window frames by time over ORDER BY tbsl: in_range(val, base, offset, sub, less) of the IDs'' times, as for timestamptz';

-- ---------------------------------------------------------------------------------- tbsl specifics

COMMENT ON TYPE tbsl IS 'TBSL (Infocyph\UID): Unix seconds, microseconds, machine id 00..99 and a 20-bit suffix in 10 bytes; text: 20 uppercase hex';
COMMENT ON FUNCTION tbsl_in(cstring) IS 'text input of tbsl: exactly 20 uppercase hex digits whose first 15 are at most 999999999999999999; else error 22P02';
COMMENT ON FUNCTION tbsl_out(tbsl) IS 'text output of tbsl: its 20 uppercase hex digits';

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
COMMENT ON FUNCTION tbsl_to_numeric(tbsl) IS 'the 80-bit unsigned value of the tbsl (the cast tbsl::numeric)';
COMMENT ON FUNCTION numeric_to_tbsl(numeric) IS 'tbsl with that 80-bit unsigned value (the cast numeric::tbsl); a fraction, negative, 2^80 or more, or an invalid payload: error 22003';
COMMENT ON CAST (tbsl AS numeric) IS 'the 80-bit unsigned value of the tbsl';
COMMENT ON CAST (numeric AS tbsl) IS 'tbsl with that 80-bit unsigned value; a fraction, negative, 2^80 or more, or an invalid payload: error 22003';

-- The server's one generator state (last time issued, sequences; src/pg/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released (a change of marking is a catalog change).
CREATE FUNCTION tbsl_generate(machine_id integer DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond); machine id NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter';


-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond and a
-- machine id are told apart only by their 20-bit random suffix (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION tbsl_generate_at(timestamptz, machine_id integer DEFAULT NULL) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_generate_at(timestamptz, integer) IS 'tbsl carrying the given time (to the microsecond), the machine id (NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter) and a random suffix, for loading history; a duplicate is likely among ~1200 rows sharing a microsecond and machine id';

-- ============================================================================================= scru160
-- What every idtypes type has. The Makefile instantiates this template per type: scru160 is the type,
-- idtypes_fixed20 the C functions of its storage shape (ordering, hashing, binary I/O), INTERNALLENGTH = 20, ALIGNMENT = char, STORAGE = plain its layout,
-- scru160 the prefix of its binary-input functions (the shape's, or the type's own where bytes need checking).

CREATE TYPE scru160;

CREATE FUNCTION scru160_in(cstring) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_out(scru160) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_recv(internal, oid, integer) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_send(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE scru160 (
	INPUT = scru160_in, OUTPUT = scru160_out, RECEIVE = scru160_recv, SEND = scru160_send,
	INTERNALLENGTH = 20, ALIGNMENT = char, STORAGE = plain
);
COMMENT ON FUNCTION scru160_recv(internal, oid, integer) IS 'binary input of scru160: its 20 raw big-endian bytes; another length, or a value its text input refuses: error 22P03';
COMMENT ON FUNCTION scru160_send(scru160) IS 'binary output of scru160: its 20 raw big-endian bytes';

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
COMMENT ON FUNCTION scru160_eq(scru160, scru160) IS 'implementation of the scru160 = operator';
COMMENT ON FUNCTION scru160_ne(scru160, scru160) IS 'implementation of the scru160 <> operator';
COMMENT ON FUNCTION scru160_lt(scru160, scru160) IS 'implementation of the scru160 < operator';
COMMENT ON FUNCTION scru160_le(scru160, scru160) IS 'implementation of the scru160 <= operator';
COMMENT ON FUNCTION scru160_gt(scru160, scru160) IS 'implementation of the scru160 > operator';
COMMENT ON FUNCTION scru160_ge(scru160, scru160) IS 'implementation of the scru160 >= operator';
COMMENT ON FUNCTION scru160_cmp(scru160, scru160) IS '-1, 0 or 1 as the first scru160 sorts before, equal to or after the second (order of the canonical text)';
COMMENT ON FUNCTION scru160_sortsupport(internal) IS 'btree sort support of scru160: the comparator used by sorts and index builds';
COMMENT ON FUNCTION scru160_hash(scru160) IS '32-bit hash of the scru160, for hash indexes, hash joins and hash aggregation';
COMMENT ON FUNCTION scru160_hash_extended(scru160, bigint) IS '64-bit hash of the scru160 with the given seed, for PARTITION BY HASH';
COMMENT ON FUNCTION scru160_smaller(scru160, scru160) IS 'the smaller of two scru160 values (transition function of min(scru160))';
COMMENT ON FUNCTION scru160_larger(scru160, scru160) IS 'the larger of two scru160 values (transition function of max(scru160))';
COMMENT ON FUNCTION scru160_diff(scru160, scru160) IS 'first minus second, both read as unsigned big-endian numbers, as double precision (subtype_diff of scru160range, for GiST)';

CREATE OPERATOR = (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_eq, COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ne, COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel);
-- Estimates for <, <=, >, >=: interpolated inside histogram buckets, and bounds on one column paired into
-- one range (PostgreSQL's scalarltsel and friends can do neither for types they do not know).
CREATE FUNCTION scru160_comparison_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OPERATOR < (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_lt, COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scru160_comparison_sel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_le, COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scru160_comparison_sel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_gt, COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scru160_comparison_sel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ge, COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scru160_comparison_sel, JOIN = scalargejoinsel);
COMMENT ON FUNCTION scru160_comparison_sel(internal, oid, internal, integer) IS 'restriction selectivity of scru160 <, <=, >, >=: histogram buckets interpolated by the IDs'' time, bounds on one column paired into one range';
COMMENT ON OPERATOR = (scru160, scru160) IS 'equal: the same scru160';
COMMENT ON OPERATOR <> (scru160, scru160) IS 'not equal';
COMMENT ON OPERATOR < (scru160, scru160) IS 'less than: sorts before, by time first (the order of the canonical text)';
COMMENT ON OPERATOR <= (scru160, scru160) IS 'less than or equal: sorts before or equals, by time first (the order of the canonical text)';
COMMENT ON OPERATOR > (scru160, scru160) IS 'greater than: sorts after, by time first (the order of the canonical text)';
COMMENT ON OPERATOR >= (scru160, scru160) IS 'greater than or equal: sorts after or equals, by time first (the order of the canonical text)';

-- btequalimage: equality is bytewise, so btree deduplication is safe
CREATE OPERATOR CLASS scru160_ops DEFAULT FOR TYPE scru160 USING btree AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 scru160_cmp(scru160, scru160),
	FUNCTION 2 scru160_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS scru160_ops USING btree IS 'default btree operator class of scru160: sort support, deduplication (btequalimage); also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY scru160_ops USING btree IS 'btree operator family of scru160 (operator class scru160_ops)';

-- support 2 (the seeded hash) makes PARTITION BY HASH possible
CREATE OPERATOR CLASS scru160_ops DEFAULT FOR TYPE scru160 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 scru160_hash(scru160),
	FUNCTION 2 scru160_hash_extended(scru160, bigint);
COMMENT ON OPERATOR CLASS scru160_ops USING hash IS 'default hash operator class of scru160: hash indexes, hash joins, PARTITION BY HASH (seeded 64-bit hash)';
COMMENT ON OPERATOR FAMILY scru160_ops USING hash IS 'hash operator family of scru160 (operator class scru160_ops)';

CREATE OPERATOR CLASS scru160_minmax_ops DEFAULT FOR TYPE scru160 USING brin AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS scru160_minmax_ops USING brin IS 'default BRIN operator class of scru160: min and max per page range, for tables filled in ID order; also answers ^@ and <@';
COMMENT ON OPERATOR FAMILY scru160_minmax_ops USING brin IS 'BRIN minmax operator family of scru160 (operator class scru160_minmax_ops)';

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
COMMENT ON FUNCTION scru160_brin_distance(internal, internal) IS 'distance between two scru160 values for BRIN minmax-multi: their difference as unsigned numbers, as double precision';
COMMENT ON OPERATOR CLASS scru160_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator class of scru160: several intervals per page range, for IDs mostly but not strictly in order';
COMMENT ON OPERATOR FAMILY scru160_minmax_multi_ops USING brin IS 'BRIN minmax-multi operator family of scru160 (operator class scru160_minmax_multi_ops)';

CREATE AGGREGATE min(scru160) (SFUNC = scru160_smaller, STYPE = scru160, COMBINEFUNC = scru160_smaller, SORTOP = <,
	PARALLEL = SAFE);
CREATE AGGREGATE max(scru160) (SFUNC = scru160_larger, STYPE = scru160, COMBINEFUNC = scru160_larger, SORTOP = >,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE min(scru160) IS 'smallest scru160 (the earliest); NULL when there are no non-NULL values; read from a btree index when there is one';
COMMENT ON AGGREGATE max(scru160) IS 'largest scru160 (the latest); NULL when there are no non-NULL values; read from a btree index when there is one';

CREATE TYPE scru160range AS RANGE (SUBTYPE = scru160, SUBTYPE_OPCLASS = scru160_ops, SUBTYPE_DIFF = scru160_diff);
COMMENT ON TYPE scru160range IS 'range of scru160 values (what scru160_prefix_range returns); GiST-indexable';
COMMENT ON TYPE scru160multirange IS 'set of disjoint scru160range values';
COMMENT ON FUNCTION scru160range(scru160, scru160) IS 'scru160range [lower, upper); a NULL bound is unbounded';
COMMENT ON FUNCTION scru160range(scru160, scru160, text) IS 'scru160range with the given bounds: ''[]'', ''[)'', ''(]'' or ''()''; a NULL bound is unbounded';
COMMENT ON FUNCTION scru160multirange() IS 'the empty scru160multirange';
COMMENT ON FUNCTION scru160multirange(scru160range) IS 'scru160multirange of one scru160range';
COMMENT ON FUNCTION scru160multirange(scru160range[]) IS 'scru160multirange of the given scru160range values, overlapping ones merged';
COMMENT ON CAST (scru160range AS scru160multirange) IS 'the scru160multirange of that one scru160range';

-- ---------------------------------------------------------------------------------- scru160 casts

CREATE FUNCTION scru160_to_bytea(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME', 'idtypes_fixed20_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_scru160(bytea) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (scru160 AS bytea) WITH FUNCTION scru160_to_bytea(scru160);
CREATE CAST (bytea AS scru160) WITH FUNCTION bytea_to_scru160(bytea);
COMMENT ON FUNCTION scru160_to_bytea(scru160) IS 'the 20 raw big-endian bytes of the scru160 (the cast scru160::bytea)';
COMMENT ON FUNCTION bytea_to_scru160(bytea) IS 'scru160 from its 20 raw big-endian bytes (the cast bytea::scru160); another length, or a value its text input refuses: error 22P02';
COMMENT ON CAST (scru160 AS bytea) IS 'the 20 raw big-endian bytes of the scru160';
COMMENT ON CAST (bytea AS scru160) IS 'scru160 from its 20 raw big-endian bytes; another length, or a value its text input refuses: error 22P02';

-- ---------------------------------------------------------------------------------- scru160 time

CREATE FUNCTION scru160_timestamp(scru160) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (scru160 AS timestamptz) WITH FUNCTION scru160_timestamp(scru160);
CREATE FUNCTION scru160_min(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_max(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_timestamp(scru160) IS 'creation time of the scru160, to the millisecond (the cast scru160::timestamptz)';
COMMENT ON CAST (scru160 AS timestamptz) IS 'creation time of the scru160, to the millisecond';
COMMENT ON FUNCTION scru160_min(timestamptz) IS 'smallest scru160 whose time is the instant truncated to the millisecond; outside the scru160 time range: error 22008';
COMMENT ON FUNCTION scru160_max(timestamptz) IS 'largest scru160 whose time is the instant truncated to the millisecond; outside the scru160 time range: error 22008';

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
COMMENT ON FUNCTION scru160_prefix_lo(text) IS 'smallest scru160 whose canonical text starts with the prefix; if no scru160 has it: the largest scru160 (above scru160_prefix_hi); invalid prefix: error 22P02';
COMMENT ON FUNCTION scru160_prefix_hi(text) IS 'largest scru160 whose canonical text starts with the prefix; if no scru160 has it: the smallest scru160 (below scru160_prefix_lo); invalid prefix: error 22P02';
COMMENT ON FUNCTION scru160_prefix_range(text) IS 'the scru160 values whose canonical text starts with the prefix, as an inclusive range; empty if no scru160 has it; every scru160 for ''''';
COMMENT ON FUNCTION scru160_prefix_support(internal) IS 'planner support of scru160 ^@ text: rewrites id ^@ p into id >= scru160_prefix_lo(p) AND id <= scru160_prefix_hi(p)';
COMMENT ON FUNCTION scru160_prefix_sel(internal, oid, internal, integer) IS 'restriction selectivity of scru160 ^@ text: the rows between the prefix''s bounds, from the column''s histogram';
COMMENT ON FUNCTION scru160_starts_with(scru160, text) IS 'implementation of the scru160 ^@ text operator';
COMMENT ON OPERATOR ^@ (scru160, text) IS 'canonical text of the scru160 starts with the prefix ('''' matches all; invalid prefix: error 22P02); uses a btree index on the scru160';

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
COMMENT ON FUNCTION scru160_window_lo(tstzrange) IS 'smallest scru160 whose time lies in the range; if none (empty range, or outside the scru160 time range): the largest scru160 (above scru160_window_hi)';
COMMENT ON FUNCTION scru160_window_hi(tstzrange) IS 'largest scru160 whose time lies in the range; if none (empty range, or outside the scru160 time range): the smallest scru160 (below scru160_window_lo)';
COMMENT ON FUNCTION scru160_window_support(internal) IS 'planner support of scru160 <@ tstzrange: rewrites id <@ r into id >= scru160_window_lo(r) AND id <= scru160_window_hi(r)';
COMMENT ON FUNCTION scru160_window_sel(internal, oid, internal, integer) IS 'restriction selectivity of scru160 <@ tstzrange: the rows between the window''s bounds, from the column''s histogram';
COMMENT ON FUNCTION scru160_in_window(scru160, tstzrange) IS 'implementation of the scru160 <@ tstzrange operator';
COMMENT ON OPERATOR <@ (scru160, tstzrange) IS 'time of the scru160 lies in the range (bounds and infinities respected; empty range: false); uses a btree index on the scru160';


-- ---------------------------------------------------------------------------------- scru160 window frames by time
-- btree support function 3: `ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND ...` compares the IDs'
-- times as the same frame over id::timestamptz does. STABLE like timestamptz's in_range: days and months are
-- added in the session's time zone.
CREATE FUNCTION scru160_in_range(scru160, scru160, interval, boolean, boolean) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY scru160_ops USING btree ADD FUNCTION 3 (scru160, interval) scru160_in_range(scru160, scru160, interval, boolean, boolean);
COMMENT ON FUNCTION scru160_in_range(scru160, scru160, interval, boolean, boolean) IS 'window frames by time over ORDER BY scru160: in_range(val, base, offset, sub, less) of the IDs'' times, as for timestamptz';

-- ---------------------------------------------------------------------------------- scru160 specifics

COMMENT ON TYPE scru160 IS 'SCRU160 v0.1.0: 48-bit Unix milliseconds, a 16-bit counter and 96 random bits in 20 bytes; text: 32 base32hex';
COMMENT ON FUNCTION scru160_in(cstring) IS 'text input of scru160: 32 base32hex or 40 hex digits, either case; else error 22P02';
COMMENT ON FUNCTION scru160_out(scru160) IS 'text output of scru160: 32 uppercase base32hex digits (scru160_to_hex gives hex)';

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

-- The server's one generator state (last millisecond and counter; src/pg/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released.
CREATE FUNCTION scru160_generate() RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION scru160_generate() IS 'new scru160: default counter usage, strong random fields, monotonic';

-- For loading history: no generator state (the times are past ones); IDs sharing a millisecond are told
-- apart by 111 random bits (counter seed, random16, random80), as the first ID of a millisecond is.
CREATE FUNCTION scru160_generate_at(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_generate_at(timestamptz) IS 'scru160 carrying the given time (to the millisecond), a 15-bit random counter and random16/random80, for loading history';

-- ============================================================================================= uuid
-- Time questions on plain uuid columns holding UUIDv7 (PostgreSQL 18's uuidv7(), pg_uuidv7, clients) or
-- ULIDs stored as uuid: both begin with 48 bits of Unix milliseconds, so the uuids of a time window or of a
-- hex prefix form one range of uuid's own order. As for the extension's types, the operators' support
-- functions rewrite `id <@ r` and `id ^@ p` into `id >= lo AND id <= hi` with uuid's btree operators, so a
-- plain btree index on the column answers them; the _lo/_hi helpers compute the bounds at run time when the
-- argument is not a constant.

CREATE FUNCTION uuid_v7_timestamp(uuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_v7_min(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_v7_max(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_timestamp(uuid) IS 'the first 48 bits of the uuid as Unix milliseconds: the creation time of a UUIDv7 or a ULID';
COMMENT ON FUNCTION uuid_v7_min(timestamptz) IS 'smallest uuid whose first 48 bits are the instant''s millisecond (the other 80 bits zero)';
COMMENT ON FUNCTION uuid_v7_max(timestamptz) IS 'largest uuid whose first 48 bits are the instant''s millisecond (the other 80 bits one)';

CREATE FUNCTION uuid_prefix_lo(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_lo' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_hi(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_hi' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_starts_with(uuid, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'uuid_v7_starts_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uuid_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = uuid, RIGHTARG = text, FUNCTION = uuid_starts_with, RESTRICT = uuid_prefix_sel);
COMMENT ON FUNCTION uuid_prefix_lo(text) IS 'smallest uuid whose hex digits start with the prefix (dashes ignored)';
COMMENT ON FUNCTION uuid_prefix_hi(text) IS 'largest uuid whose hex digits start with the prefix (dashes ignored)';
COMMENT ON FUNCTION uuid_prefix_support(internal) IS 'planner support of uuid ^@ text: rewrites it into an index range';
COMMENT ON FUNCTION uuid_prefix_sel(internal, oid, internal, integer) IS 'row estimate of uuid ^@ text';
COMMENT ON FUNCTION uuid_starts_with(uuid, text) IS 'the uuid''s 32 hex digits start with the prefix (either case, dashes ignored)';
COMMENT ON OPERATOR ^@ (uuid, text) IS 'the uuid''s 32 hex digits start with the prefix (either case, dashes ignored)';

CREATE FUNCTION uuid_window_lo(tstzrange) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_window_lo' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_hi(tstzrange) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_window_hi' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'uuid_v7_window_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'uuid_v7_window_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_in_window(uuid, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME', 'uuid_v7_in_window' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uuid_window_support;
CREATE OPERATOR <@ (LEFTARG = uuid, RIGHTARG = tstzrange, FUNCTION = uuid_in_window, RESTRICT = uuid_window_sel);
COMMENT ON FUNCTION uuid_window_lo(tstzrange) IS 'smallest uuid whose millisecond (first 48 bits) lies in the range';
COMMENT ON FUNCTION uuid_window_hi(tstzrange) IS 'largest uuid whose millisecond (first 48 bits) lies in the range';
COMMENT ON FUNCTION uuid_window_support(internal) IS 'planner support of uuid <@ tstzrange: rewrites it into an index range';
COMMENT ON FUNCTION uuid_window_sel(internal, oid, internal, integer) IS 'row estimate of uuid <@ tstzrange';
COMMENT ON FUNCTION uuid_in_window(uuid, tstzrange) IS 'the uuid''s time (uuid_v7_timestamp) lies in the range';
COMMENT ON OPERATOR <@ (uuid, tstzrange) IS 'the uuid''s time (its first 48 bits as Unix milliseconds) lies in the range';
-- ---------------------------------------------------------------------------------- time partitions
-- idtypes_maintain_partitions: range partitions of a table partitioned by an idtypes column, one per step
-- of time, bounded by T_min of the step boundaries; created ahead of time, dropped past retention.
-- Step boundaries are in UTC (an ID's time has no time zone), and are a pure function of the step, so
-- every run, in any session time zone, computes the same ones:
--   steps of months (1..12): the first day of the months counted from 1970-01 in multiples of the step
--     (1 month: every month; 3: quarters; 6: halves; 12: years);
--   fixed steps (days, hours, minutes, seconds; 1 minute to 365 days, a day being 24 hours): multiples of
--     the step from Monday 1970-01-05 00:00 UTC (1 day: midnights; 7 days: Mondays; 15 minutes: :00, :15,
--     :30, :45 of every hour).
-- Partitions are named <parent>_pYYYYMMDD for steps of whole days or months, <parent>_pYYYYMMDD_HH24MISS
-- otherwise (the parent's name is shortened so that the name fits in 63 bytes), in the parent's schema.
-- Written in PL/pgSQL: a handful of catalog statements per run, nothing that needs C. The extension's schema
-- is the installer's choice, so its functions are found from the partition key's type (they live in its schema), and
-- search_path is pinned so that no object of the caller's can stand in for a built-in one.
CREATE FUNCTION idtypes_maintain_partitions(parent regclass, step interval, ahead integer DEFAULT 4,
	keep interval DEFAULT NULL)
RETURNS TABLE (action text, partition text)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parent_nsp name;
	parent_name name;
	tablespace text;       -- the parent's, as PARTITION OF would use it
	key_type regtype;
	type_nsp name;         -- the schema of the key's type: the extension's
	min_fn text;           -- the qualified name of T_min
	step_months integer;
	step_seconds numeric;  -- when step_months = 0
	time_part interval;
	with_time boolean;     -- partition names carry the time of day
	now_utc timestamp := now() AT TIME ZONE 'UTC';
	first bigint;          -- index of the step holding now(): in months, or in steps of step_seconds
	bound_lo timestamp;
	bound_hi timestamp;
	lo text;
	hi text;
	cutoff text;
	child_name text;
	suffix text;
	child record;
	found_overlap text;
	kids_name text[];      -- the existing partitions other than DEFAULT: name, bounds (NULL: MINVALUE /
	kids_lo text[];        -- MAXVALUE), relkind
	kids_hi text[];
	kids_kind "char"[];
BEGIN
	IF parent IS NULL OR step IS NULL OR ahead IS NULL THEN
		RAISE EXCEPTION 'idtypes_maintain_partitions: parent, step and ahead must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;

	-- The parent: partitioned by RANGE on one column of an idtypes type.
	SELECT n.nspname, c.relname, coalesce(' TABLESPACE ' || quote_ident(s.spcname), '')
	INTO parent_nsp, parent_name, tablespace
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_tablespace s ON s.oid = c.reltablespace
	WHERE c.oid = parent;
	SELECT CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END INTO key_type
	FROM pg_partitioned_table p
	JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	JOIN pg_type t ON t.oid = a.atttypid
	WHERE p.partrelid = parent AND p.partstrat = 'r' AND p.partnatts = 1;
	SELECT n.nspname, format('%I.%I', n.nspname, t.typname || '_min') INTO type_nsp, min_fn
	FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
	JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
		AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
	WHERE t.oid = key_type AND t.typtype = 'b';
	IF min_fn IS NULL OR to_regprocedure(min_fn || '(timestamptz)') IS NULL THEN
		RAISE EXCEPTION 'table % is not partitioned by RANGE on one column of an idtypes type', parent
			USING ERRCODE = 'wrong_object_type',
			HINT = 'Create it with PARTITION BY RANGE (id), id being a column of type timeid, tbsl, uid11 or scru160.';
	END IF;

	-- The step: months, or a fixed length; never both.
	step_months := extract(year FROM step)::integer * 12 + extract(month FROM step)::integer;
	time_part := step - date_trunc('day', step);
	IF step_months <> 0 AND (extract(day FROM step) <> 0 OR time_part <> interval '0') THEN
		RAISE EXCEPTION 'step % mixes months with days or time', step
			USING ERRCODE = 'invalid_parameter_value',
			HINT = 'Use a whole number of months (1 to 12), or a fixed step from 1 minute to 365 days.';
	END IF;
	IF step_months <> 0 THEN
		IF step_months NOT BETWEEN 1 AND 12 THEN
			RAISE EXCEPTION 'step % is outside 1 minute .. 1 year', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		with_time := false;
		first := floor(((extract(year FROM now_utc) - 1970) * 12 + extract(month FROM now_utc) - 1) / step_months)
			* step_months;
	ELSE
		step_seconds := extract(day FROM step) * 86400 + extract(epoch FROM time_part);
		IF step_seconds NOT BETWEEN 60 AND 365 * 86400 THEN
			RAISE EXCEPTION 'step % is outside 1 minute .. 1 year', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF step_seconds <> trunc(step_seconds) THEN
			RAISE EXCEPTION 'step % is not a whole number of seconds', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		with_time := step_seconds % 86400 <> 0;
		first := floor(extract(epoch FROM now_utc - timestamp '1970-01-05') / step_seconds);
	END IF;
	IF ahead NOT BETWEEN 0 AND 10000 THEN
		RAISE EXCEPTION 'ahead must be between 0 and 10000, not %', ahead USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF keep < interval '0' THEN
		RAISE EXCEPTION 'keep must not be negative (%)', keep USING ERRCODE = 'invalid_parameter_value';
	END IF;

	-- One run at a time per parent: SHARE UPDATE EXCLUSIVE conflicts with itself (and with VACUUM, ANALYZE,
	-- CREATE INDEX CONCURRENTLY on the parent), not with reads or writes. A second run waits here, then
	-- sees the partitions the first one made.
	EXECUTE format('LOCK TABLE %I.%I IN SHARE UPDATE EXCLUSIVE MODE', parent_nsp, parent_name);

	-- The existing partitions and their bounds (identified by bounds, whatever their names).
	SELECT array_agg(k.relname ORDER BY k.relname), array_agg(b[1] ORDER BY k.relname),
	       array_agg(b[2] ORDER BY k.relname), array_agg(k.relkind ORDER BY k.relname)
	INTO kids_name, kids_lo, kids_hi, kids_kind
	FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid,
	LATERAL (SELECT ARRAY(SELECT CASE WHEN v IN ('MINVALUE', 'MAXVALUE') THEN NULL
	                                  ELSE replace(substr(v, 2, length(v) - 2), '''''', '''') END
	                      FROM unnest(regexp_match(pg_get_expr(k.relpartbound, k.oid),
	                                               '^FOR VALUES FROM \((.*)\) TO \((.*)\)$')) v) AS b) bb
	WHERE i.inhparent = parent AND pg_get_expr(k.relpartbound, k.oid) <> 'DEFAULT';

	-- Create: the step holding now() and `ahead` steps after it.
	FOR i IN 0..ahead LOOP
		IF step_months <> 0 THEN
			bound_lo := timestamp '1970-01-01' + make_interval(months => (first + i * step_months)::integer);
			bound_hi := bound_lo + make_interval(months => step_months);
		ELSE
			bound_lo := timestamp '1970-01-05' + make_interval(secs => (first + i) * step_seconds);
			bound_hi := bound_lo + make_interval(secs => step_seconds);
		END IF;
		EXECUTE format('SELECT %s($1)::text, %s($2)::text', min_fn, min_fn)
			INTO lo, hi USING bound_lo AT TIME ZONE 'UTC', bound_hi AT TIME ZONE 'UTC';
		suffix := to_char(bound_lo, CASE WHEN with_time THEN '"_p"YYYYMMDD"_"HH24MISS' ELSE '"_p"YYYYMMDD' END);
		child_name := parent_name;
		WHILE octet_length(child_name || suffix) > 63 LOOP
			child_name := left(child_name, -1);
		END LOOP;
		child_name := child_name || suffix;
		partition := format('%I.%I', parent_nsp, child_name);

		IF EXISTS (SELECT FROM unnest(kids_lo, kids_hi) k(l, h) WHERE l = lo AND h = hi) THEN
			CONTINUE; -- already there, under this name or another
		END IF;
		EXECUTE format('SELECT n FROM unnest($1, $2, $3) k(n, l, h) WHERE (l IS NULL OR l::%1$s OPERATOR(%2$I.<) $5::%1$s)
		                AND (h IS NULL OR h::%1$s OPERATOR(%2$I.>) $4::%1$s) LIMIT 1', key_type, type_nsp)
			INTO found_overlap USING kids_name, kids_lo, kids_hi, lo, hi;
		IF found_overlap IS NOT NULL THEN
			action := format('skipped (overlaps %I.%I)', parent_nsp, found_overlap);
			RETURN NEXT;
			CONTINUE;
		END IF;
		IF to_regclass(partition) IS NOT NULL THEN
			action := 'skipped (name in use)';
			RETURN NEXT;
			CONTINUE;
		END IF;
		-- A table like the parent, then attached (as pg_partman does): ATTACH PARTITION takes SHARE UPDATE
		-- EXCLUSIVE on the parent where CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE, which
		-- waits for every running query on the table and blocks every new one meanwhile. ATTACH adds the
		-- parent's indexes, foreign keys and triggers, and takes over the CHECK constraints LIKE copied
		-- (inherited from then on, as PARTITION OF makes them); identity stays the parent's.
		BEGIN
			EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING ALL EXCLUDING INDEXES EXCLUDING IDENTITY)%s',
			               parent_nsp, child_name, parent_nsp, parent_name, tablespace);
			EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)',
			               parent_nsp, parent_name, parent_nsp, child_name, lo, hi);
			action := 'created';
		EXCEPTION
			WHEN check_violation THEN -- moving the rows out is the DBA's call
				action := 'skipped (DEFAULT partition has rows in its range)';
			WHEN lock_not_available THEN -- lock_timeout: try again next run
				action := 'skipped (lock not available)';
		END;
		RETURN NEXT;
	END LOOP;

	IF keep IS NULL THEN
		RETURN;
	END IF;
	-- Drop: partitions whose every ID is older than now() - keep (upper bound at or before it). Never the
	-- DEFAULT partition (it has no bounds), nor a partitioned or foreign one (dropping those would not
	-- remove the rows, or would remove more than one range).
	EXECUTE format('SELECT %s($1)::text', min_fn) INTO cutoff USING (now_utc - keep) AT TIME ZONE 'UTC';
	FOR child IN EXECUTE format('SELECT n, kind FROM unnest($1, $2, $3, $4) k(n, l, h, kind)
	                             WHERE h::%1$s OPERATOR(%2$I.<=) $5::%1$s ORDER BY h::%1$s', key_type, type_nsp)
		USING kids_name, kids_lo, kids_hi, kids_kind, cutoff
	LOOP
		partition := format('%I.%I', parent_nsp, child.n);
		IF child.kind <> 'r' THEN
			action := CASE child.kind WHEN 'p' THEN 'skipped (partitioned)' ELSE 'skipped (foreign table)' END;
		ELSE
			BEGIN
				EXECUTE format('DROP TABLE %I.%I', parent_nsp, child.n);
				action := 'dropped';
			EXCEPTION
				WHEN dependent_objects_still_exist THEN
					action := 'skipped (other objects depend on it)';
				WHEN lock_not_available THEN
					action := 'skipped (lock not available)';
			END;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$function$;
COMMENT ON FUNCTION idtypes_maintain_partitions(regclass, interval, integer, interval) IS
	'creates the range partitions of a table partitioned by an idtypes column for the step holding now() and ahead steps after it (bounds T_min of UTC step boundaries); with keep, drops those wholly older than now() - keep';
-- The server's identity (src/pg/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity; on a standby, also the identity its primary generates with (replicated), which
-- the standby refuses to generate with.
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz,
                                 OUT primary_timeid_clock_id integer, OUT primary_tbsl_machine_id integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), the high-water mark on disk (NULL before any), and on a standby its primary''s clock id and machine id (NULL elsewhere)';

-- ==================================================================================== uuid generator
-- UUIDv7s for plain uuid columns on every version (PostgreSQL 18's uuidv7() is monotonic only inside one
-- backend): laid out as uuidv7() lays them out (48-bit Unix milliseconds, a 12-bit fraction of the
-- millisecond, 62 random bits), so they sort by time exactly as core's do and uuid_v7_timestamp,
-- uuid_extract_timestamp (18), <@ and ^@ read them. Never named uuidv7: no clash with core's function.
-- The state is server-wide only (shared memory and the high-water mark), nothing per session: PARALLEL SAFE.
CREATE FUNCTION uuid_v7_generate(shift interval DEFAULT NULL) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_generate(interval) IS 'new UUIDv7 (PostgreSQL 18''s layout), greater than every one issued before in the server, across restarts; its time shifted by the interval, if given';

-- For loading history: no generator state, so uuids sharing a microsecond are told apart by their 62 random
-- bits only (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION uuid_v7_generate_at(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_generate_at(timestamptz) IS 'UUIDv7 carrying the given time (to the microsecond, as a 1/4096 fraction of its millisecond) and 62 random bits, for loading history';

-- The replicated high-water mark (src/pg/origins.cpp): the progress of the replication origin
-- idtypes_high_water (Unix µs), one for the server, which every write of the mark advances by a WAL
-- record that core replays on every standby; a promoted standby, a restored server starts past it. Beside
-- it the origin idtypes_identity: the identity the primary generates with, which its standbys refuse to
-- share (src/pg/identity.cpp). Origins are the server's, not a database's: created here when missing,
-- left by DROP EXTENSION (other databases use them); only superusers can change or drop one.
SELECT pg_catalog.pg_replication_origin_create(o)
FROM pg_catalog.unnest(ARRAY['idtypes_high_water', 'idtypes_identity']) AS o
WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_replication_origin WHERE roname OPERATOR(pg_catalog.=) o);

-- What carries the mark across pg_upgrade (src/pg/carrier.cpp), which carries no origin: a one-row
-- materialized view in a schema of the extension's own, outside the application's schemas. Generators
-- write the server's mark into it in place (generic WAL); after pg_upgrade the origin is rebuilt from
-- every database's carrier before any ID is issued. Its query gives the server's mark when it is created
-- or refreshed. No DML, TRUNCATE or LOCK TABLE applies to a materialized view, and no privilege on it but
-- its owner's is left, whatever default privileges gave it.
CREATE SCHEMA idtypes_internal;
COMMENT ON SCHEMA idtypes_internal IS 'idtypes'' own objects, kept out of the application''s schemas: the carrier of the high-water mark';
CREATE MATERIALIZED VIEW idtypes_internal.high_water AS
SELECT COALESCE((pg_catalog.pg_replication_origin_progress('idtypes_high_water', false)
                 OPERATOR(pg_catalog.-) '0/0'::pg_catalog.pg_lsn)::bigint, 0) AS mark,
       0::bigint AS writer;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'the generators'' high-water mark (Unix microseconds), carried across pg_upgrade; written only by the generators';
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT DISTINCT k.kind, a.grantee
		FROM (SELECT 'SCHEMA' AS kind, nspacl AS acl, nspowner AS owner FROM pg_catalog.pg_namespace
		      WHERE nspname OPERATOR(pg_catalog.=) 'idtypes_internal'::pg_catalog.name
		      UNION ALL
		      SELECT 'TABLE', relacl, relowner FROM pg_catalog.pg_class
		      WHERE oid OPERATOR(pg_catalog.=) 'idtypes_internal.high_water'::pg_catalog.regclass::pg_catalog.oid) AS k,
		     pg_catalog.aclexplode(k.acl) AS a
		WHERE a.grantee OPERATOR(pg_catalog.<>) k.owner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON %s %s FROM %s', g.kind,
		                          CASE g.kind WHEN 'SCHEMA' THEN 'idtypes_internal' ELSE 'idtypes_internal.high_water' END,
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
		                               ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END);
	END LOOP;
END
$$;

-- ==================================================================================== text or NULL
-- (instantiated for every format: timeid is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION timeid_or_null(text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_or_null(text) IS 'the timeid the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: uid11 is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION uid11_or_null(text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_or_null(text) IS 'the uid11 the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: tbsl is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION tbsl_or_null(text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_or_null(text) IS 'the tbsl the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: scru160 is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION scru160_or_null(text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_or_null(text) IS 'the scru160 the text is (as its input function reads it), or NULL if it is not one; never raises';
