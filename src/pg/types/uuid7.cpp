// Time questions on plain uuid columns holding UUIDv7 or ULIDs: `uuid <@ tstzrange`, `uuid ^@ text` (hex
// prefixes), uuid_v7_timestamp, uuid_v7_min/_max, through the same prefix/time-window mechanism as the
// extension's own types. uuid is PostgreSQL's type: its order is bytewise (uuid_cmp is memcmp), so the
// fixed-length shape's comparison and position serve it, and the planner's rewrite uses uuid's own btree
// operators. The SQL helper functions are named uuid_* (uuid7::descriptor.name); the C entry points uuid_v7_*, apart
// from any symbol PostgreSQL or libuuid export. Of the mechanism's entry points, uuid.sql binds all but
// uuid_v7_prefix_range (uuid has no range type here), uuid_v7_in_range and uuid_v7_comparison_sel (uuid's btree
// family and comparison operators are PostgreSQL's own, not the extension's to change).
// Also the generators: uuid_v7_generate over the server's one generator state, uuid_v7_generate_at without it;
// and ULID text in and out (uuid_from_ulid, uuid_to_ulid) for uuid columns that hold ULIDs.
#include "core/uuid7.hpp"
#include "pg/generate/generators.hpp"
#include "pg/types/bytes_type.hpp"

extern "C" {
#include "utils/uuid.h"
}

using namespace idtypes;
using namespace idtypes::pg;

namespace {

static_assert(sizeof(pg_uuid_t) == uuid7::size);

Datum uuid_datum(const uuid7::V7 &v)
{
	auto *out = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
	const uuid7::Bytes bytes = uuid7::layout(v);
	memcpy(out->data, bytes.data(), bytes.size());
	return UUIDPGetDatum(out);
}

std::uint64_t random_bits()
{
	std::uint64_t random;
	pooled_random(&random, sizeof random);
	return random;
}

// The millisecond range every generated uuid lies in: 22008 outside it (and for infinities), naming it.
void check_generated_time(TimestampTz ts)
{
	generated_units_of_timestamptz(uuid7::time_scale, ts, uuid7::descriptor.name, 0,
	                               static_cast<std::int64_t>(uuid7::max_ms));
}

// The value with its time moved by the shift's fixed length (uuid7::shift_length_us: a day 24 hours, a month
// 30.4375 days, whatever the value's time or the session's time zone), in whole fraction steps: values of
// one shift keep the server's order among themselves. (uuidv7(shift) adds the interval by the session's
// calendar instead, so that its values of one shift may invert across a daylight saving change or a month's
// end; for a shift of hours and less the two agree.)
uuid7::V7 shifted(const uuid7::V7 &v, const Interval *shift)
{
	std::int64_t length_us = 0;
	if (!uuid7::shift_length_us(shift->month, shift->day, shift->time, length_us))
		check_generated_time(shift->month < 0 || (shift->month == 0 && shift->day < 0) ? DT_NOBEGIN : DT_NOEND);
	const std::int64_t unix_us = uuid7::us_of(v);
	check_generated_time(unix_us + length_us - to_unix_us(0)); // to_unix_us(0): PostgreSQL's epoch in Unix µs
	uuid7::Generated g = uuid7::shifted(v, length_us);
	if (!g.ok) // a fraction step outside the range, at its very ends
		check_generated_time(length_us < 0 ? DT_NOBEGIN : DT_NOEND);
	return g.value;
}

} // namespace

const IdTypeTraits idtypes::pg::uuid_traits = {
    uuid7::descriptor,         prefix_bounds<uuid7::prefix_range>, datum_at<uuid7::min_at>,    datum_at<uuid7::max_at>,
    bytes_units<uuid7::units>, fixed_compare<uuid7::size>,         fixed_position<uuid7::size>};

extern "C" {

PG_FUNCTION_INFO_V1(uuid_v7_generate);
PG_FUNCTION_INFO_V1(uuid_v7_generate_at);

Datum uuid_v7_generate(PG_FUNCTION_ARGS)
{
	uuid7::Generated g = next_uuid7(clock_now_us(), random_bits());
	if (!g.ok)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
		                errmsg("the clock is past the last time a UUIDv7 can hold (10889-08-02 05:31:50.655 UTC)")));
	if (PG_NARGS() > 0 && !PG_ARGISNULL(0))
		return uuid_datum(shifted(g.value, PG_GETARG_INTERVAL_P(0)));
	return uuid_datum(g.value);
}

// A UUIDv7 of a past time, for loading history: its microsecond as the fraction, 62 random bits, no server
// state.
Datum uuid_v7_generate_at(PG_FUNCTION_ARGS)
{
	const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	check_generated_time(ts);
	return uuid_datum(uuid7::V7{uuid7::time_of_us(to_unix_us(ts)), random_bits() & uuid7::random_mask});
}

// The uuid of a ULID's text (26 symbols of Crockford's base32, either case): 22P02 with a DETAIL otherwise.
PG_FUNCTION_INFO_V1(uuid_v7_from_ulid);
Datum uuid_v7_from_ulid(PG_FUNCTION_ARGS)
{
	const std::string_view text = text_arg(fcinfo, 0);
	auto *out = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
	uuid7::Bytes bytes;
	const TextStatus status = uuid7::parse_ulid(text, bytes);
	if (!status.ok())
		report_invalid_text("ULID", text, status, uuid7::ulid_rules);
	memcpy(out->data, bytes.data(), bytes.size());
	return UUIDPGetDatum(out);
}

// Any uuid's 128 bits as a ULID's text, upper case.
PG_FUNCTION_INFO_V1(uuid_v7_to_ulid);
Datum uuid_v7_to_ulid(PG_FUNCTION_ARGS)
{
	char text[uuid7::ulid_len];
	uuid7::format_ulid(PG_GETARG_UUID_P(0)->data, text);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, sizeof text));
}

IDTYPES_ID_FUNCTIONS(uuid_v7, uuid_traits)

} // extern "C"
