#include "pg/common/postgres.hpp"
#include "pg/common/settings.hpp"

#include <ctime>

namespace idtypes::pg {

// Unix epoch minus PostgreSQL's epoch (2000-01-01), in microseconds.
constexpr std::int64_t unix_to_pg_us = (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC;

#if PG_VERSION_NUM < 160000 // no soft errors before 16: every error is raised
#define errsave(context, rest)                                                                                         \
	do {                                                                                                               \
		(void)(context);                                                                                               \
		ereport(ERROR, rest);                                                                                          \
	} while (0)
#endif

void report_invalid_input(Node *escontext, const char *type, std::string_view input, const TextStatus &status,
                          const TextRules &rules)
{
	char detail[detail_size];
	describe(status, rules, detail);
	errsave(escontext,
	        (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
	         errmsg("invalid input syntax for type %s: \"%.*s\"", type, static_cast<int>(input.size()), input.data()),
	         errdetail("%s", detail)));
}

void report_invalid_text(const char *type, std::string_view input, const TextStatus &status, const TextRules &rules)
{
	report_invalid_input(nullptr, type, input, status, rules);
	pg_unreachable();
}

void report_wrong_length(const char *type, std::size_t expected, std::size_t found)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
	                errmsg("invalid input syntax for type %s: wrong length", type),
	                errdetail("Expected %zu bytes, found %zu.", expected, found)));
	pg_unreachable();
}

void report_bad_binary(const char *type, const char *detail)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
	                errmsg("incorrect binary data format for type %s", type), errdetail("%s", detail)));
	pg_unreachable();
}

const char *received_type_name(FunctionCallInfo fcinfo)
{
	return PG_NARGS() > 1 ? format_type_be(PG_GETARG_OID(1)) : "ID";
}

const char *result_type_name(FunctionCallInfo fcinfo) { return format_type_be(get_fn_expr_rettype(fcinfo->flinfo)); }

void report_out_of_range(const char *what, std::int64_t lo, std::int64_t hi, std::int64_t value)
{
	ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
	                errmsg("%s must be between " INT64_FORMAT " and " INT64_FORMAT ", got " INT64_FORMAT, what, lo, hi,
	                       value)));
	pg_unreachable();
}

std::string_view text_arg(FunctionCallInfo fcinfo, int n)
{
	text *t = PG_GETARG_TEXT_PP(n);
	return std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

char *cstring_of(const char *bytes, std::size_t len)
{
	char *out = static_cast<char *>(palloc(len + 1));
	memcpy(out, bytes, len);
	out[len] = '\0';
	return out;
}

std::int64_t to_unix_us(TimestampTz ts)
{
	std::int64_t out;
	if (pg_add_s64_overflow(ts, unix_to_pg_us, &out))
		return ts > 0 ? PG_INT64_MAX : PG_INT64_MIN;
	return out;
}

TimestampTz timestamptz_of_units(const TimeScale &scale, std::int64_t units)
{
	TimestampTz ts = unix_us_of(scale, units) - unix_to_pg_us;
	if (!IS_VALID_TIMESTAMP(ts))
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
	return ts;
}

namespace {

// The unit holding ts when it lies in first..last; else 22008, whose DETAIL says "A <type> <carries> times
// from ... to ...".
std::int64_t units_within(const TimeScale &scale, TimestampTz ts, const char *type, std::int64_t first,
                          std::int64_t last, const char *carries)
{
	std::int64_t units = 0;
	if (TIMESTAMP_NOT_FINITE(ts) || !units_at(scale, to_unix_us(ts), units) || units < first || units > last)
		ereport(ERROR,
		        (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range for type %s", type),
		         errdetail("A %s %s times from %s to %s.", type, carries,
		                   pstrdup(timestamptz_to_str(timestamptz_of_units(scale, first))),
		                   pstrdup(timestamptz_to_str(timestamptz_of_units(scale, last))))));
	return units;
}

} // namespace

std::int64_t units_of_timestamptz(const TimeScale &scale, TimestampTz ts, const char *type)
{
	return units_within(scale, ts, type, 0, scale.max_units, "holds");
}

std::int64_t generated_units_of_timestamptz(const TimeScale &scale, TimestampTz ts, const char *type,
                                            std::int64_t first, std::int64_t last)
{
	return units_within(scale, ts, type, first, last, "generator issues IDs with");
}

std::int64_t clock_now_us()
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000 +
	       static_cast<std::int64_t>(test_clock_offset_ms) * 1000;
}

void strong_random(void *buf, std::size_t len)
{
	if (!pg_strong_random(buf, len))
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
}

void pooled_random(void *buf, std::size_t len)
{
	static std::uint8_t pool[512];
	static std::size_t left = 0;
	static int owner = 0; // the process that filled the pool
	if (owner != MyProcPid) {
		left = 0;
		owner = MyProcPid;
	}
	auto *out = static_cast<std::uint8_t *>(buf);
	while (len > 0) {
		if (left == 0) {
			strong_random(pool, sizeof pool);
			left = sizeof pool;
		}
		std::size_t take = len < left ? len : left;
		std::uint8_t *from = pool + (sizeof pool - left);
		memcpy(out, from, take);
		memset(from, 0, take); // a value handed out is not kept
		out += take;
		len -= take;
		left -= take;
	}
}

Datum numeric_of_bytes(const std::uint8_t *be, std::size_t n)
{
	char digits[bigradix::max_digits + 1];
	digits[bigradix::format(be, n, bigradix::decimal, digits)] = '\0';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(digits), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

void bytes_of_numeric(Datum numeric, std::uint8_t *be, std::size_t n, const char *type)
{
	char *text = DatumGetCString(DirectFunctionCall1(numeric_out, numeric));
	// numeric_out writes plain digits with an optional sign and fraction, or NaN / Infinity
	std::string_view digits(text);
	std::size_t point = digits.find('.');
	bool whole = true;
	if (point != std::string_view::npos) {
		for (char c : digits.substr(point + 1))
			whole = whole && c == '0';
		digits = digits.substr(0, point);
	}
	if (!whole || bigradix::parse(digits, bigradix::decimal, be, n).status != bigradix::Parse::ok)
		ereport(ERROR,
		        (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("numeric %s out of range for type %s", text, type),
		         errdetail("A %s is a whole number from 0 to 2^%zu-1.", type, n * 8)));
}

} // namespace idtypes::pg
