// The shape shared by fixed-length IDs passed by reference (tbsl: 10 bytes, scru160: 20): big-endian
// bytes ordered by memcmp, sent as they are. fixed_shape.cpp exports the SQL-callable functions per length
// (idtypes_fixed10_lt, ...); the SQL scripts bind them per type.
#pragma once

#include <array>
#include <cstring>

#include "pg/id_ranges.hpp"

namespace idtypes::pg {

template <std::size_t N>
int fixed_compare(Datum a, Datum b)
{
	return memcmp(DatumGetPointer(a), DatumGetPointer(b), N);
}

inline const std::uint8_t *fixed_arg(FunctionCallInfo fcinfo, int n)
{
	return reinterpret_cast<const std::uint8_t *>(PG_GETARG_POINTER(n));
}

// A format's check of bytes from binary input: nullptr when valid, else why not (the DETAIL).
using Validator = const char *(*)(const std::uint8_t *bytes);

// Binary receive: exactly N bytes, and valid for the format (22P03 otherwise).
template <std::size_t N>
Datum fixed_recv(FunctionCallInfo fcinfo, Validator validate = nullptr)
{
	StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
	const char *type = PG_NARGS() > 1 ? format_type_be(PG_GETARG_OID(1)) : "ID";
	int left = buf->len - buf->cursor;
	if (left != static_cast<int>(N))
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("incorrect binary data format for type %s", type),
		                errdetail("Expected %zu bytes, found %d.", N, left)));
	auto *out = static_cast<std::uint8_t *>(palloc(N));
	pq_copymsgbytes(buf, reinterpret_cast<char *>(out), N);
	const char *why = validate ? validate(out) : nullptr;
	if (why != nullptr)
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
		                errmsg("incorrect binary data format for type %s", type), errdetail("%s", why)));
	PG_RETURN_POINTER(out);
}

// bytea cast: exactly N bytes, and valid for the format (22P02 otherwise).
template <std::size_t N>
Datum fixed_from_bytea(FunctionCallInfo fcinfo, Validator validate = nullptr)
{
	bytea *in = PG_GETARG_BYTEA_PP(0);
	std::size_t len = VARSIZE_ANY_EXHDR(in);
	const char *type = format_type_be(get_fn_expr_rettype(fcinfo->flinfo));
	if (len != N)
		report_wrong_length(type, N, len);
	auto *out = static_cast<std::uint8_t *>(palloc(N));
	memcpy(out, VARDATA_ANY(in), N);
	const char *why = validate ? validate(out) : nullptr;
	if (why != nullptr)
		ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
		                errmsg("invalid input syntax for type %s: not a valid %s", type, type), errdetail("%s", why)));
	PG_RETURN_POINTER(out);
}

} // namespace idtypes::pg
