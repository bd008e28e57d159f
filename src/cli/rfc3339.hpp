// Times as RFC 3339 text in UTC, for the command-line tool: written at a format's precision, read with any
// UTC offset. Proleptic Gregorian calendar, no leap seconds (as Unix time and PostgreSQL count).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace idtypes::cli {

// Fractional digits that show a time unit exactly: 1 µs → 6, 1 ms → 3, 1 s → 0.
int fraction_digits(std::int64_t unit_us) noexcept;

// e.g. 2024-07-19T09:40:46.481000Z with digits = 6; the instant is truncated to the digits shown. Years
// past 9999 (a SCRU160 reaches 10889) are written with five digits.
std::string format_time(std::int64_t unix_us, int digits);

// YYYY-MM-DD(T|t| )HH:MM:SS[.fraction](Z|z|+HH:MM|-HH:MM), four- or five-digit years; a fraction finer
// than the microsecond is rounded to the nearest one, and second 60 is the next minute's 0, as PostgreSQL
// reads times. False when the text is not such a time.
bool parse_time(std::string_view text, std::int64_t &unix_us) noexcept;

} // namespace idtypes::cli
