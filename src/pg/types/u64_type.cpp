// The shape shared by every 8-byte ID (timeid, uid11): passed as PostgreSQL passes int8 (by value where a
// Datum has 8 bytes, FLOAT8PASSBYVAL; by reference on 32-bit servers: the Makefile declares the types so,
// and DatumGetUInt64 / UInt64GetDatum follow), ordered as unsigned 64-bit integers, sent as 8 big-endian bytes. Each C function here serves all such types; the SQL scripts
// bind them per type (`CREATE FUNCTION timeid_lt(...) AS 'MODULE_PATHNAME', 'idtypes_u64_lt'`).
#include "pg/types/u64_type.hpp"

using namespace idtypes::pg;

namespace {

// Folds the 64 bits into 32 (high ^ low; hashint8 does the same below 2^63 and complements the high half
// above), so that the extended hash with seed 0 agrees with the 32-bit hash.
inline uint32 fold(std::uint64_t v) { return static_cast<uint32>(v) ^ static_cast<uint32>(v >> 32); }

int compare_values(Datum a, Datum b, SortSupport) { return u64_compare(a, b); }

} // namespace

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_u64_eq);
PG_FUNCTION_INFO_V1(idtypes_u64_ne);
PG_FUNCTION_INFO_V1(idtypes_u64_lt);
PG_FUNCTION_INFO_V1(idtypes_u64_le);
PG_FUNCTION_INFO_V1(idtypes_u64_gt);
PG_FUNCTION_INFO_V1(idtypes_u64_ge);
PG_FUNCTION_INFO_V1(idtypes_u64_cmp);
PG_FUNCTION_INFO_V1(idtypes_u64_smaller);
PG_FUNCTION_INFO_V1(idtypes_u64_larger);
PG_FUNCTION_INFO_V1(idtypes_u64_sortsupport);
PG_FUNCTION_INFO_V1(idtypes_u64_hash);
PG_FUNCTION_INFO_V1(idtypes_u64_hash_extended);
PG_FUNCTION_INFO_V1(idtypes_u64_diff);
PG_FUNCTION_INFO_V1(idtypes_u64_brin_distance);
PG_FUNCTION_INFO_V1(idtypes_u64_send);
PG_FUNCTION_INFO_V1(idtypes_u64_recv);
PG_FUNCTION_INFO_V1(idtypes_u64_to_bytea);
PG_FUNCTION_INFO_V1(idtypes_u64_from_bytea);

Datum idtypes_u64_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) == u64_arg(fcinfo, 1)); }
Datum idtypes_u64_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) != u64_arg(fcinfo, 1)); }
Datum idtypes_u64_lt(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) < u64_arg(fcinfo, 1)); }
Datum idtypes_u64_le(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) <= u64_arg(fcinfo, 1)); }
Datum idtypes_u64_gt(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) > u64_arg(fcinfo, 1)); }
Datum idtypes_u64_ge(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(u64_arg(fcinfo, 0) >= u64_arg(fcinfo, 1)); }
Datum idtypes_u64_cmp(PG_FUNCTION_ARGS) { PG_RETURN_INT32(u64_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1))); }

Datum idtypes_u64_smaller(PG_FUNCTION_ARGS)
{
	return u64_arg(fcinfo, 0) <= u64_arg(fcinfo, 1) ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

Datum idtypes_u64_larger(PG_FUNCTION_ARGS)
{
	return u64_arg(fcinfo, 0) >= u64_arg(fcinfo, 1) ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

// Passed by value, the Datum is the whole key, so no abbreviation: PostgreSQL's own unsigned comparator lets
// tuplesort pick its specialized radix-free quicksort (it checks for this exact function pointer). Passed by
// reference (32-bit servers), that comparator would order the pointers: the values are compared, as int8's are.
Datum idtypes_u64_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
	ssup->comparator = FLOAT8PASSBYVAL ? ssup_datum_unsigned_cmp : compare_values;
	PG_RETURN_VOID();
}

Datum idtypes_u64_hash(PG_FUNCTION_ARGS) { return hash_uint32(fold(u64_arg(fcinfo, 0))); }

Datum idtypes_u64_hash_extended(PG_FUNCTION_ARGS)
{
	return hash_uint32_extended(fold(u64_arg(fcinfo, 0)), PG_GETARG_INT64(1));
}

// subtype_diff for the range types: a - b as a double, for GiST penalties and range selectivity.
Datum idtypes_u64_diff(PG_FUNCTION_ARGS)
{
	std::uint64_t a = u64_arg(fcinfo, 0), b = u64_arg(fcinfo, 1);
	PG_RETURN_FLOAT8(a >= b ? static_cast<double>(a - b) : -static_cast<double>(b - a));
}

// BRIN minmax-multi distance between two values (the lower one first): the gap as a double.
Datum idtypes_u64_brin_distance(PG_FUNCTION_ARGS)
{
	std::uint64_t a = u64_arg(fcinfo, 0), b = u64_arg(fcinfo, 1);
	PG_RETURN_FLOAT8(b >= a ? static_cast<double>(b - a) : static_cast<double>(a - b));
}

Datum idtypes_u64_send(PG_FUNCTION_ARGS)
{
	StringInfoData buf;
	pq_begintypsend(&buf);
	pq_sendint64(&buf, static_cast<int64>(u64_arg(fcinfo, 0)));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum idtypes_u64_recv(PG_FUNCTION_ARGS)
{
	StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
	int left = buf->len - buf->cursor;
	if (left != 8)
		report_bad_binary(received_type_name(fcinfo), psprintf("Expected 8 bytes, found %d.", left));
	PG_RETURN_DATUM(UInt64GetDatum(static_cast<std::uint64_t>(pq_getmsgint64(buf))));
}

Datum idtypes_u64_to_bytea(PG_FUNCTION_ARGS)
{
	std::uint64_t v = u64_arg(fcinfo, 0);
	bytea *out = static_cast<bytea *>(palloc(VARHDRSZ + 8));
	SET_VARSIZE(out, VARHDRSZ + 8);
	std::uint64_t be = pg_hton64(v);
	memcpy(VARDATA(out), &be, 8);
	PG_RETURN_BYTEA_P(out);
}

Datum idtypes_u64_from_bytea(PG_FUNCTION_ARGS)
{
	bytea *in = PG_GETARG_BYTEA_PP(0);
	std::size_t len = VARSIZE_ANY_EXHDR(in);
	if (len != 8)
		report_wrong_length(result_type_name(fcinfo), 8, len);
	std::uint64_t be;
	memcpy(&be, VARDATA_ANY(in), 8);
	PG_RETURN_DATUM(UInt64GetDatum(pg_ntoh64(be)));
}

} // extern "C"
