// Time windows to unit ranges (time_scale.hpp) on the four formats' scales and on arbitrary ones:
// window_units gives exactly the units whose instant satisfies both bounds (checked against a binary search
// in 128-bit arithmetic), units_at truncates and range-checks, and a format's min_at/max_at bracket exactly
// the values of a unit, so that `id <@ window` is the ID range [min_at(first), max_at(last)].
// Input: scale selector, then per bound a flag byte and 8 bytes, then a value of the format.
#include "fuzz.hpp"

namespace {

using fuzz::Input;
using fuzz::step_down;
using fuzz::step_up;
using i128 = __int128;
using namespace idtypes;

// Unix microseconds the PostgreSQL layer can pass: PostgreSQL's earliest timestamp (4714-11-24 BC) up to
// INT64_MAX (to_unix_us saturates the last days of PostgreSQL's range, 294276-12-21 on, to INT64_MAX).
constexpr std::int64_t pg_min_unix_us = -211813488000000000 + 946684800000000;
// (INT64_MAX with an exclusive lower bound once overflowed: the seed window-exclusive-int64-max keeps it.)
constexpr std::int64_t pg_max_unix_us = INT64_MAX;
constexpr std::int64_t arbitrary_span = std::int64_t{1} << 61; // bounds of arbitrary scales stay within +-2^61

std::int64_t clamp(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

WindowBound read_bound(Input &in, const TimeScale &s, bool arbitrary)
{
	const std::uint8_t f = in.byte();
	std::int64_t v = static_cast<std::int64_t>(in.u64());
	if (f & 4) // near a unit's instant: epoch + k*unit + a small offset
		v = s.epoch_us + static_cast<std::int64_t>(static_cast<std::uint64_t>(v) % (s.max_units + 1)) * s.unit_us +
		    static_cast<std::int8_t>(in.byte());
	v = arbitrary ? clamp(v, -arbitrary_span, arbitrary_span) : clamp(v, pg_min_unix_us, pg_max_unix_us);
	return WindowBound{(f & 1) != 0, (f & 2) != 0, v};
}

i128 instant(const TimeScale &s, std::int64_t k) { return i128{s.epoch_us} + i128{k} * s.unit_us; }
bool after_lo(const TimeScale &s, const WindowBound &b, std::int64_t k)
{
	return b.infinite || (b.inclusive ? instant(s, k) >= b.unix_us : instant(s, k) > b.unix_us);
}
bool before_hi(const TimeScale &s, const WindowBound &b, std::int64_t k)
{
	return b.infinite || (b.inclusive ? instant(s, k) <= b.unix_us : instant(s, k) < b.unix_us);
}

void check_scale(const TimeScale &s, const WindowBound &lo, const WindowBound &hi)
{
	// first: the smallest unit after lo (max_units + 1 when none); last: the largest before hi (-1 when none)
	std::int64_t a = 0, b = s.max_units + 1;
	while (a < b) {
		std::int64_t m = a + (b - a) / 2;
		if (after_lo(s, lo, m))
			b = m;
		else
			a = m + 1;
	}
	const std::int64_t first = a;
	a = -1, b = s.max_units;
	while (a < b) {
		std::int64_t m = b - (b - a) / 2;
		if (before_hi(s, hi, m))
			a = m;
		else
			b = m - 1;
	}
	const std::int64_t last = a;
	const UnitRange r = window_units(s, lo, hi);
	FUZZ_CHECK(r.empty == (first > last));
	if (!r.empty)
		FUZZ_CHECK(r.first == first && r.last == last);

	for (const WindowBound &w : {lo, hi}) { // units_at: the unit holding the instant, if in range
		std::int64_t u = -1;
		const bool ok = units_at(s, w.unix_us, u);
		const i128 d = i128{w.unix_us} - s.epoch_us;
		FUZZ_CHECK(ok == (d >= 0 && d / s.unit_us <= s.max_units));
		if (ok)
			FUZZ_CHECK(u == d / s.unit_us && instant(s, u) <= w.unix_us && instant(s, u + 1) > w.unix_us);
	}
}

// The format's side: every value's unit is in range, min_at/max_at are the first and last value of a unit,
// and x lies in [min_at(first), max_at(last)] exactly when its unit lies in [first, last].
template <typename F>
void check_format(Input &in, const WindowBound &lo, const WindowBound &hi)
{
	using A = typename F::A;
	A x = in.bytes<F::B>();
	F::make_valid(x);
	const std::int64_t u = F::units_of(x);
	FUZZ_CHECK(u >= 0 && u <= F::scale.max_units);
	FUZZ_CHECK(F::min_at(u) <= x && x <= F::max_at(u));
	const UnitRange r = window_units(F::scale, lo, hi);
	if (r.empty)
		return;
	const A first = F::min_at(r.first), last = F::max_at(r.last);
	FUZZ_CHECK(F::valid(first) && F::valid(last) && first <= last);
	FUZZ_CHECK(F::units_of(first) == r.first && F::units_of(last) == r.last);
	A below = first, above = last;
	if (step_down(below))
		FUZZ_CHECK(F::units_of(below) == r.first - 1);
	if (step_up(above) && F::valid(above))
		FUZZ_CHECK(F::units_of(above) == r.last + 1);
	FUZZ_CHECK((first <= x && x <= last) == (r.first <= u && u <= r.last));
}

template <typename F>
void fuzz_format(Input &in)
{
	const WindowBound lo = read_bound(in, F::scale, false), hi = read_bound(in, F::scale, false);
	check_scale(F::scale, lo, hi);
	check_format<F>(in, lo, hi);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	Input in{data, size};
	switch (in.byte() % 5) {
	case 0: fuzz_format<fuzz::Timeid>(in); break;
	case 1: fuzz_format<fuzz::Uid11>(in); break;
	case 2: fuzz_format<fuzz::Tbsl>(in); break;
	case 3: fuzz_format<fuzz::Scru160>(in); break;
	default: { // an arbitrary scale: epoch within +-2^60, unit 1..2^24 us, up to 2^36 units
		TimeScale s;
		s.epoch_us = static_cast<std::int64_t>(in.u64() % ((std::uint64_t{1} << 61) + 1)) - (std::int64_t{1} << 60);
		s.unit_us = 1 + static_cast<std::int64_t>(in.u64() % (std::uint64_t{1} << 24));
		s.max_units = static_cast<std::int64_t>(in.u64() % ((std::uint64_t{1} << 36) + 1));
		const WindowBound lo = read_bound(in, s, true), hi = read_bound(in, s, true);
		check_scale(s, lo, hi);
	}
	}
	return 0;
}
