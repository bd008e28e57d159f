// SQL type uid11 (xid profile): text I/O, numeric casts, xid fields, generators, and its plug into the
// prefix/time-window mechanism. Ordering, hashing and binary I/O are the shared 8-byte shape.
#include "core/uid11.hpp"
#include "core/bytes.hpp"
#include "pg/generate/generators.hpp"
#include "pg/generate/standby_rule.hpp"
#include "pg/types/u64_type.hpp"

using namespace idtypes;
using namespace idtypes::pg;

namespace {

constexpr const char *type_name = uid11::descriptor.name;

} // namespace

const IdTypeTraits idtypes::pg::uid11_traits = {uid11::descriptor,
                                                prefix_bounds<uid11::prefix_range>,
                                                datum_at<uid11::min_at>,
                                                datum_at<uid11::max_at>,
                                                u64_units<uid11::units>,
                                                u64_compare,
                                                u64_position};

extern "C" {

PG_FUNCTION_INFO_V1(uid11_in);
PG_FUNCTION_INFO_V1(uid11_or_null);
PG_FUNCTION_INFO_V1(uid11_out);
PG_FUNCTION_INFO_V1(uid11_to_numeric);
PG_FUNCTION_INFO_V1(numeric_to_uid11);
PG_FUNCTION_INFO_V1(make_uid11_xid);
PG_FUNCTION_INFO_V1(uid11_xid_random);
PG_FUNCTION_INFO_V1(uid11_generate);
PG_FUNCTION_INFO_V1(uid11_generate_random);
PG_FUNCTION_INFO_V1(uid11_generate_at);

Datum uid11_in(PG_FUNCTION_ARGS) { return text_in(fcinfo, type_name, uid11::parse, uid11::rules); }
Datum uid11_or_null(PG_FUNCTION_ARGS) { return text_or_null(fcinfo, uid11::parse); }

Datum uid11_out(PG_FUNCTION_ARGS)
{
	char text[uid11::text_len];
	uid11::format(u64_arg(fcinfo, 0), text);
	PG_RETURN_CSTRING(cstring_of(text, sizeof text));
}

Datum uid11_to_numeric(PG_FUNCTION_ARGS)
{
	std::uint8_t be[8];
	store_be64(u64_arg(fcinfo, 0), be);
	return numeric_of_bytes(be, sizeof be);
}

Datum numeric_to_uid11(PG_FUNCTION_ARGS)
{
	std::uint8_t be[8];
	bytes_of_numeric(PG_GETARG_DATUM(0), be, sizeof be, type_name);
	PG_RETURN_DATUM(UInt64GetDatum(load_be64(be)));
}

Datum make_uid11_xid(PG_FUNCTION_ARGS)
{
	int64 unix_ms = PG_GETARG_INT64(0);
	int32 random = PG_GETARG_INT32(1);
	// unix_ms - epoch cannot overflow for a valid delta; check the range before subtracting
	constexpr std::int64_t last_ms = uid11::xid_epoch_ms + static_cast<std::int64_t>(uid11::xid_max_delta);
	if (unix_ms < uid11::xid_epoch_ms || unix_ms > last_ms)
		report_out_of_range("unix_ms", uid11::xid_epoch_ms, last_ms, unix_ms);
	if (random < 0 || static_cast<std::uint32_t>(random) > uid11::xid_max_random)
		report_out_of_range("random", 0, uid11::xid_max_random, random);
	PG_RETURN_DATUM(UInt64GetDatum(uid11::make_xid(static_cast<std::uint64_t>(unix_ms - uid11::xid_epoch_ms),
	                                               static_cast<std::uint32_t>(random))));
}

Datum uid11_xid_random(PG_FUNCTION_ARGS) { PG_RETURN_INT32(static_cast<int32>(uid11::xid_random(u64_arg(fcinfo, 0)))); }

Datum uid11_generate(PG_FUNCTION_ARGS)
{
	refuse_on_standby("uid11_generate()");
	std::uint32_t random; // 22 bits for a new millisecond (unbiased: 2^22 divides 2^32), 4 for a step within one
	pooled_random(&random, sizeof random);
	uid11::Generated g = next_xid(clock_now_us() / 1000, random);
	if (!g.ok)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is outside the times an xid can hold (2011-11-11 to 2151-03-25)")));
	PG_RETURN_DATUM(UInt64GetDatum(g.value));
}

Datum uid11_generate_random(PG_FUNCTION_ARGS)
{
	refuse_on_standby("uid11_generate_random()");
	uid11::Generated g = next_fullrand(clock_now_us());
	if (!g.ok)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is outside the times uid11_generate_random can serve (1970 to 2112)")));
	PG_RETURN_DATUM(UInt64GetDatum(g.value));
}

// An xid of a past time, for loading history: its millisecond and 22 random bits, no server state.
Datum uid11_generate_at(PG_FUNCTION_ARGS)
{
	std::int64_t delta = units_of_timestamptz(uid11::time_scale, PG_GETARG_TIMESTAMPTZ(0), type_name);
	std::uint32_t random;
	pooled_random(&random, sizeof random);
	PG_RETURN_DATUM(UInt64GetDatum(uid11::make_xid(static_cast<std::uint64_t>(delta), random)));
}

IDTYPES_ID_FUNCTIONS(uid11, uid11_traits)

} // extern "C"
