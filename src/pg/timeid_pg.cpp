// SQL type timeid (TID): text I/O, conversions, field access, the generator, and its plug into the
// prefix/time-window mechanism. Ordering, hashing and binary I/O are the shared 8-byte shape.
#include "core/timeid.hpp"
#include "pg/generators.hpp"
#include "pg/settings.hpp"
#include "pg/u64_shape.hpp"

namespace tid = idtypes::timeid;
using namespace idtypes::pg;

namespace {

constexpr const char *type_name = "timeid";

std::int64_t units_of(Datum id) { return static_cast<std::int64_t>(tid::micros(DatumGetUInt64(id))); }

const IdTypeTraits traits = {type_name, &tid::rules, tid::time_scale,
                             prefix_bounds<tid::prefix_range>, datum_at<tid::min_at>, datum_at<tid::max_at>,
                             units_of, u64_compare};

std::uint64_t arg(FunctionCallInfo fcinfo, int n) { return u64_arg(fcinfo, n); }

// Per-backend state, used when idtypes is not preloaded.
std::uint64_t backend_last_micros = 0;

unsigned session_clock_id()
{
	if (timeid_clock_id_setting >= 0)
		return static_cast<unsigned>(timeid_clock_id_setting);
	// distinct among the server's running backends, so that without shared state two sessions in the same
	// microsecond still differ
	return backend_discriminator() & tid::max_clock_id;
}

// The draft's rule (current microsecond or last + 1) over the server-wide last microsecond when there is
// one, else over this backend's. Returns false past 2^53-1.
bool next_micros(std::int64_t now_us, std::uint64_t &micros)
{
	SharedGenerators *shared = shared_generators();
	if (shared == nullptr) {
		micros = tid::next_micros(backend_last_micros, now_us);
		if (micros > tid::max_micros)
			return false;
		backend_last_micros = micros;
		return true;
	}
	std::uint64_t last = pg_atomic_read_u64(&shared->timeid_last_micros);
	do {
		micros = tid::next_micros(last, now_us);
		if (micros > tid::max_micros)
			return false;
	} while (!pg_atomic_compare_exchange_u64(&shared->timeid_last_micros, &last, micros)); // `last` refreshed on failure
	return true;
}

} // namespace

extern "C" {

PG_FUNCTION_INFO_V1(timeid_in);
PG_FUNCTION_INFO_V1(timeid_out);
PG_FUNCTION_INFO_V1(timeid_to_bigint);
PG_FUNCTION_INFO_V1(bigint_to_timeid);
PG_FUNCTION_INFO_V1(make_timeid);
PG_FUNCTION_INFO_V1(timeid_micros);
PG_FUNCTION_INFO_V1(timeid_clock_id);
PG_FUNCTION_INFO_V1(timeid_to_dashed);
PG_FUNCTION_INFO_V1(timeid_generate);

Datum timeid_in(PG_FUNCTION_ARGS) { return text_in(fcinfo, type_name, tid::parse, tid::rules); }

Datum timeid_out(PG_FUNCTION_ARGS)
{
	char text[tid::text_len];
	tid::format(arg(fcinfo, 0), text);
	PG_RETURN_CSTRING(cstring_of(text, sizeof text));
}

Datum timeid_to_bigint(PG_FUNCTION_ARGS)
{
	std::uint64_t v = arg(fcinfo, 0);
	if (v > static_cast<std::uint64_t>(PG_INT64_MAX))
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("timeid out of range for bigint"),
		                errdetail("The timeid has its top bit set (its text starts with c..j).")));
	PG_RETURN_INT64(static_cast<int64>(v));
}

Datum bigint_to_timeid(PG_FUNCTION_ARGS)
{
	int64 v = PG_GETARG_INT64(0);
	if (v < 0)
		report_out_of_range("bigint cast to timeid", 0, PG_INT64_MAX, v);
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

Datum timeid_micros(PG_FUNCTION_ARGS) { PG_RETURN_INT64(static_cast<int64>(tid::micros(arg(fcinfo, 0)))); }

Datum timeid_clock_id(PG_FUNCTION_ARGS) { PG_RETURN_INT32(static_cast<int32>(tid::clock_id(arg(fcinfo, 0)))); }

Datum timeid_to_dashed(PG_FUNCTION_ARGS)
{
	char text[tid::dashed_len];
	tid::format_dashed(arg(fcinfo, 0), text);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, sizeof text));
}

Datum timeid_generate(PG_FUNCTION_ARGS)
{
	unsigned clock;
	if (PG_ARGISNULL(0)) {
		clock = session_clock_id();
	} else {
		int32 c = PG_GETARG_INT32(0);
		if (c < 0 || c > static_cast<int32>(tid::max_clock_id))
			report_out_of_range("clock_id", 0, tid::max_clock_id, c);
		clock = static_cast<unsigned>(c);
	}
	std::uint64_t micros;
	if (!next_micros(clock_now_us(), micros))
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is past the last time a timeid can hold (2^53-1 microseconds)")));
	PG_RETURN_DATUM(UInt64GetDatum(tid::make(micros, clock)));
}

IDTYPES_RANGE_FUNCTIONS(timeid, traits)

} // extern "C"
