// How a format counts time: units of `unit_us` microseconds since `epoch_us` (Unix microseconds), from 0 to
// `max_units`. Every format's IDs are ordered by their time units first, so "IDs whose time lies in a
// window" is always one contiguous ID range, found by mapping the window to a range of units here.
#pragma once

#include <cstdint>

namespace idtypes {

struct TimeScale {
	std::int64_t epoch_us;
	std::int64_t unit_us;
	std::int64_t max_units;
};

// One end of a time window in Unix microseconds.
struct WindowBound {
	bool infinite;
	bool inclusive;
	std::int64_t unix_us;
};

// An inclusive range of time units, or empty.
struct UnitRange {
	bool empty;
	std::int64_t first;
	std::int64_t last;
};

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept
{
	std::int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

// The unit holding the instant (the instant truncated to the format's precision); false when that unit is
// outside 0..max_units.
constexpr bool units_at(const TimeScale &s, std::int64_t unix_us, std::int64_t &units) noexcept
{
	if (unix_us < s.epoch_us)
		return false;
	units = floor_div(unix_us - s.epoch_us, s.unit_us);
	return units <= s.max_units;
}

constexpr std::int64_t unix_us_of(const TimeScale &s, std::int64_t units) noexcept
{
	return s.epoch_us + units * s.unit_us;
}

// The units whose instant t satisfies lo <= t <= hi (strict where a bound is exclusive), clamped to the scale.
// Any instant is accepted, up to the int64 limits (a bound past the scale's last unit selects nothing; one
// before its first, everything from there): every step below is checked so that none can overflow.
constexpr UnitRange window_units(const TimeScale &s, WindowBound lo, WindowBound hi) noexcept
{
	std::int64_t first = 0, last = s.max_units;
	if (!lo.infinite) {
		std::int64_t d = 0; // the bound relative to the epoch; saturates
		if (__builtin_sub_overflow(lo.unix_us, s.epoch_us, &d))
			d = lo.unix_us < 0 ? INT64_MIN : INT64_MAX;
		if (d >= 0) { // a bound before the epoch leaves `first` at 0
			// smallest k with k*unit >= d, or > d when exclusive
			std::int64_t q = floor_div(d, s.unit_us);
			bool on_unit = q * s.unit_us == d;
			std::int64_t k = lo.inclusive && on_unit ? q : (q >= s.max_units ? s.max_units + 1 : q + 1);
			if (k > first)
				first = k;
		}
	}
	if (!hi.infinite) {
		std::int64_t d = 0;
		if (__builtin_sub_overflow(hi.unix_us, s.epoch_us, &d))
			d = hi.unix_us < 0 ? INT64_MIN : INT64_MAX;
		if (d < 0 || (d == 0 && !hi.inclusive))
			return UnitRange{true, 0, 0}; // the window ends before the first unit
		// largest k with k*unit <= d, or < d when exclusive
		std::int64_t q = floor_div(d, s.unit_us);
		std::int64_t k = hi.inclusive || q * s.unit_us != d ? q : q - 1;
		if (k < last)
			last = k;
	}
	if (first > last)
		return UnitRange{true, 0, 0};
	return UnitRange{false, first, last};
}

} // namespace idtypes
