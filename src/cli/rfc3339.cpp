#include "cli/rfc3339.hpp"

#include <cstdio>

#include "core/time_scale.hpp"

namespace idtypes::cli {

namespace {

constexpr std::int64_t us_per_day = 86400LL * 1000000;

// Days since 1970-01-01 of a civil date, and back (H. Hinnant's algorithms, valid for any int64 day count
// a time in microseconds can reach).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) noexcept
{
	y -= m <= 2;
	const std::int64_t era = floor_div(y, 400);
	const auto yoe = static_cast<unsigned>(y - era * 400);
	const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
	std::int64_t year;
	unsigned month, day;
};

Civil civil_from_days(std::int64_t z) noexcept
{
	z += 719468;
	const std::int64_t era = floor_div(z, 146097);
	const auto doe = static_cast<unsigned>(z - era * 146097);
	const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	const unsigned mp = (5 * doy + 2) / 153;
	const unsigned d = doy - (153 * mp + 2) / 5 + 1;
	const unsigned m = mp < 10 ? mp + 3 : mp - 9;
	return Civil{static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

unsigned days_in_month(std::int64_t y, unsigned m) noexcept
{
	static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

// Reads exactly `n` decimal digits at `pos`, advancing it.
bool digits(std::string_view t, std::size_t &pos, std::size_t n, unsigned &out) noexcept
{
	if (t.size() - pos < n)
		return false;
	unsigned v = 0;
	for (std::size_t i = 0; i < n; i++) {
		char c = t[pos + i];
		if (c < '0' || c > '9')
			return false;
		v = v * 10 + static_cast<unsigned>(c - '0');
	}
	pos += n;
	out = v;
	return true;
}

bool expect(std::string_view t, std::size_t &pos, char c) noexcept
{
	if (pos >= t.size() || t[pos] != c)
		return false;
	pos++;
	return true;
}

} // namespace

int fraction_digits(std::int64_t unit_us) noexcept
{
	int n = 6;
	for (std::int64_t u = unit_us; u >= 10 && n > 0; u /= 10)
		n--;
	return n;
}

std::string format_time(std::int64_t unix_us, int digits)
{
	const std::int64_t day = floor_div(unix_us, us_per_day);
	const std::int64_t us = unix_us - day * us_per_day;
	const Civil c = civil_from_days(day);
	const std::int64_t secs = us / 1000000;
	char out[64];
	int n = std::snprintf(out, sizeof out, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(c.year),
	                      c.month, c.day, static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
	                      static_cast<long long>(secs % 60));
	if (digits > 0) {
		long long fraction = us % 1000000;
		for (int i = digits; i < 6; i++)
			fraction /= 10;
		n += std::snprintf(out + n, sizeof out - static_cast<std::size_t>(n), ".%0*lld", digits, fraction);
	}
	std::snprintf(out + n, sizeof out - static_cast<std::size_t>(n), "Z");
	return out;
}

bool parse_time(std::string_view t, std::int64_t &unix_us) noexcept
{
	std::size_t pos = 0;
	unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
	std::size_t year_len = t.find('-');
	if ((year_len != 4 && year_len != 5) || !digits(t, pos, year_len, year) || !expect(t, pos, '-') ||
	    !digits(t, pos, 2, month) || !expect(t, pos, '-') || !digits(t, pos, 2, day))
		return false;
	if (pos >= t.size() || (t[pos] != 'T' && t[pos] != 't' && t[pos] != ' '))
		return false;
	pos++;
	if (!digits(t, pos, 2, hour) || !expect(t, pos, ':') || !digits(t, pos, 2, minute) || !expect(t, pos, ':') ||
	    !digits(t, pos, 2, second))
		return false;
	if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 || minute > 59 ||
	    second > 60)
		return false;
	std::int64_t fraction_us = 0; // rounded to the nearest microsecond
	if (pos < t.size() && t[pos] == '.') {
		pos++;
		std::size_t start = pos;
		std::int64_t scale = 100000;
		bool round_up = false;
		for (; pos < t.size() && t[pos] >= '0' && t[pos] <= '9'; pos++) {
			if (scale > 0)
				fraction_us += (t[pos] - '0') * scale;
			else if (scale == 0 && pos - start == 6)
				round_up = t[pos] >= '5';
			scale /= 10;
		}
		if (pos == start)
			return false;
		fraction_us += round_up;
	}
	std::int64_t offset_s = 0;
	if (pos < t.size() && (t[pos] == 'Z' || t[pos] == 'z')) {
		pos++;
	} else if (pos < t.size() && (t[pos] == '+' || t[pos] == '-')) {
		int sign = t[pos] == '-' ? -1 : 1;
		unsigned oh = 0, om = 0;
		pos++;
		if (!digits(t, pos, 2, oh) || !expect(t, pos, ':') || !digits(t, pos, 2, om) || oh > 23 || om > 59)
			return false;
		offset_s = sign * static_cast<std::int64_t>(oh * 3600 + om * 60);
	} else {
		return false;
	}
	if (pos != t.size())
		return false;
	const std::int64_t seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
	unix_us = (seconds - offset_s) * 1000000 + fraction_us; // five-digit years stay far inside int64
	return true;
}

} // namespace idtypes::cli
