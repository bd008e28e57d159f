// SQL type timeid (TID): text I/O, conversions, field access, the generator, and its plug into the
// prefix/time-window mechanism. Ordering, hashing and binary I/O are the shared 8-byte shape.
#include "core/timeid.hpp"
#include "pg/generate/generators.hpp"
#include "pg/generate/identity.hpp"
#include "pg/generate/standby_rule.hpp"
#include "pg/types/u64_type.hpp"

namespace tid = idtypes::timeid;
using namespace idtypes::pg;

namespace {

constexpr const char *type_name = tid::descriptor.name;

} // namespace

const IdTypeTraits idtypes::pg::timeid_traits = {tid::descriptor,       prefix_bounds<tid::prefix_range>,
                                                 datum_at<tid::min_at>, datum_at<tid::max_at>,
                                                 u64_units<tid::units>, u64_compare,
                                                 u64_position};

extern "C" {

PG_FUNCTION_INFO_V1(timeid_in);
PG_FUNCTION_INFO_V1(timeid_or_null);
PG_FUNCTION_INFO_V1(timeid_out);
PG_FUNCTION_INFO_V1(timeid_to_bigint);
PG_FUNCTION_INFO_V1(bigint_to_timeid);
PG_FUNCTION_INFO_V1(make_timeid);
PG_FUNCTION_INFO_V1(timeid_micros);
PG_FUNCTION_INFO_V1(timeid_clock_id);
PG_FUNCTION_INFO_V1(timeid_to_dashed);
PG_FUNCTION_INFO_V1(timeid_generate);
PG_FUNCTION_INFO_V1(timeid_generate_at);

Datum timeid_in(PG_FUNCTION_ARGS) { return text_in(fcinfo, type_name, tid::parse, tid::rules); }
Datum timeid_or_null(PG_FUNCTION_ARGS) { return text_or_null(fcinfo, tid::parse); }

Datum timeid_out(PG_FUNCTION_ARGS)
{
	char text[tid::text_len];
	tid::format(u64_arg(fcinfo, 0), text);
	PG_RETURN_CSTRING(cstring_of(text, sizeof text));
}

Datum timeid_to_bigint(PG_FUNCTION_ARGS)
{
	std::uint64_t v = u64_arg(fcinfo, 0);
	if (v > static_cast<std::uint64_t>(PG_INT64_MAX))
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("timeid out of range for bigint"),
		                errdetail("The timeid has its top bit set (its text starts with c..j).")));
	PG_RETURN_INT64(static_cast<int64>(v));
}

Datum bigint_to_timeid(PG_FUNCTION_ARGS)
{
	int64 v = PG_GETARG_INT64(0);
	if (v < 0)
		ereport(ERROR,
		        (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("bigint out of range for type timeid"),
		         errdetail("A timeid made from a bigint must be between 0 and " INT64_FORMAT ", got " INT64_FORMAT ".",
		                   PG_INT64_MAX, v)));
	PG_RETURN_DATUM(UInt64GetDatum(static_cast<std::uint64_t>(v)));
}

Datum make_timeid(PG_FUNCTION_ARGS)
{
	int64 micros = PG_GETARG_INT64(0);
	int32 clock = PG_GETARG_INT32(1);
	if (micros < 0 || static_cast<std::uint64_t>(micros) > tid::max_micros)
		report_out_of_range("micros", 0, static_cast<std::int64_t>(tid::max_micros), micros);
	if (clock < 0 || clock > static_cast<int32>(tid::max_clock_id))
		report_out_of_range("clock_id", 0, tid::max_clock_id, clock);
	PG_RETURN_DATUM(UInt64GetDatum(tid::make(static_cast<std::uint64_t>(micros), static_cast<unsigned>(clock))));
}

Datum timeid_micros(PG_FUNCTION_ARGS) { PG_RETURN_INT64(static_cast<int64>(tid::micros(u64_arg(fcinfo, 0)))); }

Datum timeid_clock_id(PG_FUNCTION_ARGS) { PG_RETURN_INT32(static_cast<int32>(tid::clock_id(u64_arg(fcinfo, 0)))); }

Datum timeid_to_dashed(PG_FUNCTION_ARGS)
{
	char text[tid::dashed_len];
	tid::format_dashed(u64_arg(fcinfo, 0), text);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, sizeof text));
}

Datum timeid_generate(PG_FUNCTION_ARGS)
{
	refuse_on_standby("timeid_generate()");
	unsigned clock = timeid_clock_id_for(fcinfo, 0);
	std::uint64_t micros;
	if (!next_timeid_micros(clock_now_us(), micros))
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is past the last time a timeid can hold (2^53-1 microseconds)")));
	PG_RETURN_DATUM(UInt64GetDatum(tid::make(micros, clock)));
}

// A timeid of a past time, for loading history: the generator's microsecond range, a random clock id, no
// server state (the clock id's 10 bits are all that tells IDs of one microsecond apart).
Datum timeid_generate_at(PG_FUNCTION_ARGS)
{
	std::int64_t micros = generated_units_of_timestamptz(tid::time_scale, PG_GETARG_TIMESTAMPTZ(0), type_name, 0,
	                                                     static_cast<std::int64_t>(tid::max_micros));
	std::uint16_t clock;
	pooled_random(&clock, sizeof clock);
	PG_RETURN_DATUM(UInt64GetDatum(tid::make(static_cast<std::uint64_t>(micros), clock & tid::max_clock_id)));
}

IDTYPES_ID_FUNCTIONS(timeid, timeid_traits)

} // extern "C"
