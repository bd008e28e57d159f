// SQL type scru160: text I/O (base32hex or hex in, base32hex out), fields, the generator, and its plug into
// the prefix/time-window mechanism. Ordering, hashing and binary I/O are the shared 20-byte fixed shape.
#include "core/scru160.hpp"
#include "pg/generate/generators.hpp"
#include "pg/types/bytes_type.hpp"

using namespace idtypes;
using namespace idtypes::pg;

namespace {

constexpr const char *type_name = scru160::descriptor.name;

} // namespace

const IdTypeTraits idtypes::pg::scru160_traits = {scru160::descriptor,          prefix_bounds<scru160::prefix_range>,
                                                  datum_at<scru160::min_at>,    datum_at<scru160::max_at>,
                                                  bytes_units<scru160::units>,  fixed_compare<scru160::size>,
                                                  fixed_position<scru160::size>};

extern "C" {

PG_FUNCTION_INFO_V1(scru160_in);
PG_FUNCTION_INFO_V1(scru160_or_null);
PG_FUNCTION_INFO_V1(scru160_out);
PG_FUNCTION_INFO_V1(scru160_to_hex);
PG_FUNCTION_INFO_V1(make_scru160);
PG_FUNCTION_INFO_V1(scru160_counter);
PG_FUNCTION_INFO_V1(scru160_random16);
PG_FUNCTION_INFO_V1(scru160_random80);
PG_FUNCTION_INFO_V1(scru160_generate);
PG_FUNCTION_INFO_V1(scru160_generate_at);

Datum scru160_in(PG_FUNCTION_ARGS) { return text_in(fcinfo, type_name, scru160::parse, scru160::rules); }
Datum scru160_or_null(PG_FUNCTION_ARGS) { return text_or_null(fcinfo, scru160::parse); }

Datum scru160_out(PG_FUNCTION_ARGS)
{
	char text[scru160::text_len];
	scru160::format(fixed_arg(fcinfo, 0), text);
	PG_RETURN_CSTRING(cstring_of(text, sizeof text));
}

Datum scru160_to_hex(PG_FUNCTION_ARGS)
{
	char text[scru160::hex_len];
	scru160::format_hex(fixed_arg(fcinfo, 0), text);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, sizeof text));
}

Datum make_scru160(PG_FUNCTION_ARGS)
{
	int64 unix_ms = PG_GETARG_INT64(0);
	int32 counter = PG_GETARG_INT32(1), random16 = PG_GETARG_INT32(2);
	bytea *random80 = PG_GETARG_BYTEA_PP(3);
	if (unix_ms < 0 || static_cast<std::uint64_t>(unix_ms) > scru160::max_timestamp)
		report_out_of_range("unix_ms", 0, static_cast<std::int64_t>(scru160::max_timestamp), unix_ms);
	if (counter < 0 || counter > 0xFFFF)
		report_out_of_range("counter", 0, 0xFFFF, counter);
	if (random16 < 0 || random16 > 0xFFFF)
		report_out_of_range("random16", 0, 0xFFFF, random16);
	std::size_t len = VARSIZE_ANY_EXHDR(random80);
	if (len != 10)
		ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
		                errmsg("random80 must be exactly 10 bytes, got %zu", len)));
	return id_datum(scru160::make(static_cast<std::uint64_t>(unix_ms), static_cast<std::uint32_t>(counter),
	                              static_cast<std::uint32_t>(random16),
	                              reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(random80))));
}

Datum scru160_counter(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(scru160::fields(fixed_arg(fcinfo, 0)).counter));
}

Datum scru160_random16(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(scru160::fields(fixed_arg(fcinfo, 0)).random16));
}

Datum scru160_random80(PG_FUNCTION_ARGS)
{
	bytea *out = static_cast<bytea *>(palloc(VARHDRSZ + 10));
	SET_VARSIZE(out, VARHDRSZ + 10);
	memcpy(VARDATA(out), fixed_arg(fcinfo, 0) + 10, 10);
	PG_RETURN_BYTEA_P(out);
}

Datum scru160_generate(PG_FUNCTION_ARGS)
{
	scru160::Randomness random;
	pooled_random(&random, sizeof random);
	scru160::Generated g = next_scru160(clock_now_us() / 1000, random);
	if (!g.ok)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is past the last millisecond a SCRU160 can hold")));
	return id_datum(g.value);
}

// A SCRU160 of a past time, for loading history: what the generator issues first in a millisecond (a 15-bit
// random counter, random16, random80), no server state. The spec's reserved timestamps 0 and 2^48-1 excluded.
Datum scru160_generate_at(PG_FUNCTION_ARGS)
{
	std::int64_t ms = generated_units_of_timestamptz(scru160::time_scale, PG_GETARG_TIMESTAMPTZ(0), type_name, 1,
	                                                 static_cast<std::int64_t>(scru160::max_timestamp) - 1);
	scru160::Randomness random;
	pooled_random(&random, sizeof random);
	return id_datum(scru160::make(static_cast<std::uint64_t>(ms),
	                              random.counter_seed & ((1u << scru160::counter_seed_bits) - 1), random.random16,
	                              random.random80));
}

IDTYPES_ENTRY(scru160_recv, fixed_recv<scru160::size>(fcinfo))
IDTYPES_ENTRY(scru160_from_bytea, fixed_from_bytea<scru160::size>(fcinfo))
// The names version 1.0's script binds these to, for databases not yet updated to 1.1.
IDTYPES_ENTRY(idtypes_fixed20_recv, fixed_recv<scru160::size>(fcinfo))
IDTYPES_ENTRY(idtypes_fixed20_from_bytea, fixed_from_bytea<scru160::size>(fcinfo))
IDTYPES_ID_FUNCTIONS(scru160, scru160_traits)

} // extern "C"
