// SQL type tbsl: text I/O, numeric casts, fields, base conversions, the generator, and its plug into the
// prefix/time-window mechanism. Ordering, hashing and binary I/O are the shared 10-byte fixed shape.
#include "core/tbsl.hpp"
#include "pg/common/settings.hpp"
#include "pg/generate/generators.hpp"
#include "pg/generate/identity.hpp"
#include "pg/generate/standby_rule.hpp"
#include "pg/types/bytes_type.hpp"

using namespace idtypes;
using namespace idtypes::pg;

namespace {

constexpr const char *type_name = tbsl::descriptor.name;

// Binary input must hold a payload of at most 18 decimal digits, like text input.
const char *invalid_reason(const std::uint8_t *bytes)
{
	return tbsl::payload(bytes) > tbsl::max_payload ? tbsl::rules.too_large : nullptr;
}

const Alphabet &base_arg(FunctionCallInfo fcinfo, int n)
{
	int32 base = PG_GETARG_INT32(n);
	const Alphabet *a = tbsl::base_alphabet(base);
	if (a == nullptr)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unsupported base %d", base),
		                errdetail("The base must be 16, 32, 36, 58 or 62.")));
	return *a;
}

} // namespace

const IdTypeTraits idtypes::pg::tbsl_traits = {
    tbsl::descriptor,         prefix_bounds<tbsl::prefix_range>, datum_at<tbsl::min_at>,    datum_at<tbsl::max_at>,
    bytes_units<tbsl::units>, fixed_compare<tbsl::size>,         fixed_position<tbsl::size>};

extern "C" {

PG_FUNCTION_INFO_V1(tbsl_in);
PG_FUNCTION_INFO_V1(tbsl_or_null);
PG_FUNCTION_INFO_V1(tbsl_out);
PG_FUNCTION_INFO_V1(tbsl_to_numeric);
PG_FUNCTION_INFO_V1(numeric_to_tbsl);
PG_FUNCTION_INFO_V1(make_tbsl);
PG_FUNCTION_INFO_V1(tbsl_machine_id);
PG_FUNCTION_INFO_V1(tbsl_suffix);
PG_FUNCTION_INFO_V1(tbsl_to_base);
PG_FUNCTION_INFO_V1(tbsl_from_base);
PG_FUNCTION_INFO_V1(tbsl_generate);
PG_FUNCTION_INFO_V1(tbsl_generate_at);

Datum tbsl_in(PG_FUNCTION_ARGS) { return text_in(fcinfo, type_name, tbsl::parse, tbsl::rules); }
Datum tbsl_or_null(PG_FUNCTION_ARGS) { return text_or_null(fcinfo, tbsl::parse); }

Datum tbsl_out(PG_FUNCTION_ARGS)
{
	char text[tbsl::text_len];
	tbsl::format(fixed_arg(fcinfo, 0), text);
	PG_RETURN_CSTRING(cstring_of(text, sizeof text));
}

Datum tbsl_to_numeric(PG_FUNCTION_ARGS) { return numeric_of_bytes(fixed_arg(fcinfo, 0), tbsl::size); }

Datum numeric_to_tbsl(PG_FUNCTION_ARGS)
{
	tbsl::Bytes b;
	bytes_of_numeric(PG_GETARG_DATUM(0), b.data(), b.size(), type_name);
	if (tbsl::payload(b.data()) > tbsl::max_payload)
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("numeric out of range for type tbsl"),
		                errdetail("%s", tbsl::rules.too_large)));
	return id_datum(b);
}

Datum make_tbsl(PG_FUNCTION_ARGS)
{
	int64 seconds = PG_GETARG_INT64(0);
	int32 micros = PG_GETARG_INT32(1), machine = PG_GETARG_INT32(2), suffix = PG_GETARG_INT32(3);
	if (seconds < 0 || static_cast<std::uint64_t>(seconds) > tbsl::max_seconds)
		report_out_of_range("unix_seconds", 0, static_cast<std::int64_t>(tbsl::max_seconds), seconds);
	if (micros < 0 || static_cast<std::uint32_t>(micros) > tbsl::max_micros)
		report_out_of_range("microseconds", 0, tbsl::max_micros, micros);
	if (machine < 0 || static_cast<std::uint32_t>(machine) > tbsl::max_machine)
		report_out_of_range("machine_id", 0, tbsl::max_machine, machine);
	if (suffix < 0 || static_cast<std::uint32_t>(suffix) > tbsl::max_suffix)
		report_out_of_range("suffix", 0, tbsl::max_suffix, suffix);
	return id_datum(tbsl::from_fields(static_cast<std::uint64_t>(seconds), static_cast<std::uint32_t>(micros),
	                                  static_cast<std::uint32_t>(machine), static_cast<std::uint32_t>(suffix)));
}

Datum tbsl_machine_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(tbsl::fields(fixed_arg(fcinfo, 0)).machine));
}

Datum tbsl_suffix(PG_FUNCTION_ARGS) { PG_RETURN_INT32(static_cast<int32>(tbsl::suffix(fixed_arg(fcinfo, 0)))); }

Datum tbsl_to_base(PG_FUNCTION_ARGS)
{
	const Alphabet &a = base_arg(fcinfo, 1);
	char out[tbsl::max_base_len];
	std::size_t len = tbsl::to_base(fixed_arg(fcinfo, 0), a, out);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(len)));
}

Datum tbsl_from_base(PG_FUNCTION_ARGS)
{
	std::string_view text = text_arg(fcinfo, 0);
	const Alphabet &a = base_arg(fcinfo, 1);
	tbsl::BaseParsed p = tbsl::from_base(text, a);
	if (p.status == tbsl::FromBase::ok)
		return id_datum(p.value);
	char detail[detail_size];
	tbsl::describe(p, detail);
	ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
	                errmsg("invalid input syntax for type %s in base %d: \"%.*s\"", type_name, PG_GETARG_INT32(1),
	                       static_cast<int>(text.size()), text.data()),
	                errdetail("%s", detail)));
	PG_RETURN_NULL();
}

Datum tbsl_generate(PG_FUNCTION_ARGS)
{
	refuse_on_standby("tbsl_generate()");
	std::uint32_t machine = tbsl_machine_id_for(fcinfo, 0);
	tbsl::Request req{};
	req.machine = machine;
	req.sequenced = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	req.on_backward =
	    clock_backward_setting == clock_backward_error ? tbsl::ClockBackward::error : tbsl::ClockBackward::wait;
	req.max_wait_us = static_cast<std::int64_t>(clock_backward_max_wait_ms) * 1000;
	pooled_random(&req.random, sizeof req.random);
	tbsl::Generated g = next_tbsl(req);
	switch (g.status) {
	case tbsl::Status::ok: return id_datum(g.value);
	case tbsl::Status::clock_behind:
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("the clock is " INT64_FORMAT " microseconds behind the last TBSL generated", g.behind_us),
		         errhint("Set idtypes.clock_backward = 'wait' to wait for the clock instead.")));
		break;
	case tbsl::Status::wait_timeout:
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("gave up waiting for the clock after %d ms", clock_backward_max_wait_ms),
		         errdetail("The clock is " INT64_FORMAT " microseconds behind the last TBSL generated.", g.behind_us)));
		break;
	case tbsl::Status::interrupted:
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceled while waiting for the clock")));
		break;
	case tbsl::Status::clock_range:
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is outside the times a TBSL can hold (1970 to 2286-11-20)")));
		break;
	case tbsl::Status::clock_unavailable: elog(ERROR, "idtypes: next_tbsl returned clock_unavailable"); break;
	}
	PG_RETURN_NULL();
}

// A TBSL of a past time, for loading history: its microsecond, the machine id, a random 20-bit suffix, no
// server state. Not strict (a NULL machine id means the setting): a NULL time gives NULL.
Datum tbsl_generate_at(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	refuse_on_standby("tbsl_generate_at()");
	std::int64_t us = units_of_timestamptz(tbsl::time_scale, PG_GETARG_TIMESTAMPTZ(0), type_name);
	std::uint32_t machine = tbsl_machine_id_for(fcinfo, 1);
	std::uint32_t random;
	pooled_random(&random, sizeof random);
	return id_datum(tbsl::from_fields(static_cast<std::uint64_t>(us / 1000000),
	                                  static_cast<std::uint32_t>(us % 1000000), machine, random & tbsl::max_suffix));
}

IDTYPES_ENTRY(tbsl_recv, fixed_recv<tbsl::size>(fcinfo, invalid_reason))
IDTYPES_ENTRY(tbsl_from_bytea, fixed_from_bytea<tbsl::size>(fcinfo, invalid_reason))
IDTYPES_ID_FUNCTIONS(tbsl, tbsl_traits)

} // extern "C"
