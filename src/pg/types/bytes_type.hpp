// The shape shared by fixed-length IDs passed by reference (tbsl: 10 bytes, scru160: 20): big-endian
// bytes ordered by memcmp, sent as they are. bytes_type.cpp exports the SQL-callable functions per length
// (idtypes_fixed10_lt, ...); the SQL scripts bind them per type. Binary input and the bytea cast are the
// type's own (they may need the format's check).
#pragma once

#include <array>
#include <cstring>

#include "core/bytes.hpp"
#include "pg/types/id_operators.hpp"

namespace idtypes::pg {

template <std::size_t N>
int fixed_compare(Datum a, Datum b)
{
	return memcmp(DatumGetPointer(a), DatumGetPointer(b), N);
}

// The first 8 bytes as a big-endian number (the time, then what follows it) for interpolating statistics.
template <std::size_t N>
double fixed_position(Datum id)
{
	return static_cast<double>(load_be64(reinterpret_cast<const std::uint8_t *>(DatumGetPointer(id))));
}

inline const std::uint8_t *fixed_arg(FunctionCallInfo fcinfo, int n)
{
	return reinterpret_cast<const std::uint8_t *>(PG_GETARG_POINTER(n));
}

// IdTypeTraits::units_of from the core's F::units.
template <std::int64_t (*Units)(const std::uint8_t *)>
std::int64_t bytes_units(Datum id)
{
	return Units(reinterpret_cast<const std::uint8_t *>(DatumGetPointer(id)));
}

// A format's check of bytes from binary input: nullptr when valid, else why not (the DETAIL).
using Validator = const char *(*)(const std::uint8_t *bytes);

// Binary receive: exactly N bytes, and valid for the format (22P03 otherwise). Each fixed-length type
// exports its own (<type>_recv), so that no entry point skips its format's check.
template <std::size_t N>
Datum fixed_recv(FunctionCallInfo fcinfo, Validator validate = nullptr)
{
	StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
	int left = buf->len - buf->cursor;
	if (left != static_cast<int>(N))
		report_bad_binary(received_type_name(fcinfo), psprintf("Expected %zu bytes, found %d.", N, left));
	auto *out = static_cast<std::uint8_t *>(palloc(N));
	pq_copymsgbytes(buf, reinterpret_cast<char *>(out), N);
	if (const char *why = validate ? validate(out) : nullptr)
		report_bad_binary(received_type_name(fcinfo), why);
	PG_RETURN_POINTER(out);
}

// bytea cast: exactly N bytes, and valid for the format (22P02 otherwise). Exported per type like fixed_recv.
template <std::size_t N>
Datum fixed_from_bytea(FunctionCallInfo fcinfo, Validator validate = nullptr)
{
	bytea *in = PG_GETARG_BYTEA_PP(0);
	std::size_t len = VARSIZE_ANY_EXHDR(in);
	if (len != N)
		report_wrong_length(result_type_name(fcinfo), N, len);
	auto *out = static_cast<std::uint8_t *>(palloc(N));
	memcpy(out, VARDATA_ANY(in), N);
	if (const char *why = validate ? validate(out) : nullptr)
		ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
		                errmsg("invalid bytea value for type %s", result_type_name(fcinfo)), errdetail("%s", why)));
	PG_RETURN_POINTER(out);
}

} // namespace idtypes::pg
