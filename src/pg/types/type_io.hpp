// What every type's input functions share: an ID as a Datum, text input through the core's parse, and the
// one-line declaration of an SQL-callable function.
#pragma once

#include <array>
#include <cstring>
#include <new>

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// An ID value as a Datum: 64-bit IDs by value, byte-array IDs as a palloc'd copy.
inline Datum id_datum(std::uint64_t v) { return UInt64GetDatum(v); }
template <std::size_t N>
Datum id_datum(const std::array<std::uint8_t, N> &bytes)
{
	void *p = palloc(N);
	memcpy(p, bytes.data(), N);
	return PointerGetDatum(p);
}

// Where a type's input function has the core write an ID: a local for 64-bit IDs, the palloc'd datum
// itself for byte-array IDs (see the note on parse in core/text_status.hpp).
template <typename V>
struct IdOutput;
template <>
struct IdOutput<std::uint64_t> {
	std::uint64_t value;
	std::uint64_t &target() { return value; }
	Datum datum() const { return UInt64GetDatum(value); }
};
template <std::size_t N>
struct IdOutput<std::array<std::uint8_t, N>> {
	std::array<std::uint8_t, N> *value = new (palloc(N)) std::array<std::uint8_t, N>;
	std::array<std::uint8_t, N> &target() { return *value; }
	Datum datum() const { return PointerGetDatum(value); }
};

// A type's text input function: the core's parse(text, out), or 22P02 with its DETAIL (a soft error where
// the caller asks for one: PostgreSQL 16 and later).
template <typename V>
Datum text_in(FunctionCallInfo fcinfo, const char *type, TextStatus (*parse)(std::string_view, V &) noexcept,
              const TextRules &rules)
{
	const char *input = PG_GETARG_CSTRING(0);
	IdOutput<V> out;
	TextStatus status = parse(input, out.target());
	if (!status.ok()) {
		report_invalid_input(fcinfo->context, type, input, status, rules);
		return Datum(0);
	}
	return out.datum();
}

// A type's T_or_null(text): the ID the text is, by the same parse as its input function, or NULL where
// that input raises 22P02. It never raises, so it is IMMUTABLE and fits a generated column or an index
// expression on every version (PostgreSQL 15 has no soft input errors): for text columns that hold an
// ID only sometimes (atproto record keys such as `self`).
template <typename V>
Datum text_or_null(FunctionCallInfo fcinfo, TextStatus (*parse)(std::string_view, V &) noexcept)
{
	IdOutput<V> out;
	if (!parse(text_arg(fcinfo, 0), out.target()).ok())
		PG_RETURN_NULL();
	return out.datum();
}

} // namespace idtypes::pg

// Declares an SQL-callable C function whose body is one expression (inside extern "C").
#define IDTYPES_ENTRY(name, call)                                                                                      \
	PG_FUNCTION_INFO_V1(name);                                                                                         \
	Datum name(PG_FUNCTION_ARGS) { return call; }
