// uuid time layout (UUIDv7, ULIDs stored as uuid): RFC 9562's example and a ULID decoded by hand, the bounds
// of a millisecond, hex prefix ranges (dashes, either case, every length, the errors), and time windows.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/uuid7.hpp"

using namespace idtypes;

namespace {

uuid7::Bytes bytes_of(std::string hex) // 32 hex digits, dashes ignored
{
	std::string digits;
	for (char c : hex)
		if (c != '-')
			digits += c;
	EXPECT_EQ(digits.size(), 32u) << hex;
	uuid7::Bytes b{};
	for (std::size_t i = 0; i < b.size(); i++)
		b[i] = static_cast<std::uint8_t>(std::stoul(digits.substr(2 * i, 2), nullptr, 16));
	return b;
}

std::string hex_of(const uuid7::Bytes &b)
{
	char out[uuid7::hex_len];
	uuid7::format_hex(b.data(), out);
	return std::string(out, sizeof out);
}

// The canonical 8-4-4-4-12 form.
std::string dashed(const std::string &hex)
{
	return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
	       hex.substr(20);
}

uuid7::Bytes random_bytes(std::mt19937_64 &rng)
{
	uuid7::Bytes b;
	for (auto &x : b)
		x = static_cast<std::uint8_t>(rng());
	return b;
}

TEST(Uuid7, Rfc9562ExampleAndAUlid)
{
	// RFC 9562 appendix A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F, Tuesday 2022-02-22 19:22:22 UTC
	uuid7::Bytes v7 = bytes_of("017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
	EXPECT_EQ(uuid7::unix_ms(v7.data()), 1645557742000u);
	EXPECT_EQ(hex_of(v7), "017f22e279b07cc398c4dc0c0c07398f");
	// the ULID spec's example 01ARZ3NDEKTSV4RRFFQ69G5FAV (Crockford base32 of 128 bits), stored as a uuid:
	// its first 10 symbols are the time, 2016-07-30 23:54:10.259 UTC
	uuid7::Bytes ulid = bytes_of("01563e3a-b5d3-d676-4c61-efb99302bd5b");
	EXPECT_EQ(uuid7::unix_ms(ulid.data()), 1469922850259u);
}

TEST(Uuid7, MillisecondBoundsHoldEveryUuidOfThatMillisecond)
{
	std::mt19937_64 rng(7);
	for (std::int64_t ms : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1645557742000},
	                        static_cast<std::int64_t>(uuid7::max_ms) - 1, static_cast<std::int64_t>(uuid7::max_ms)}) {
		uuid7::Bytes lo = uuid7::min_at(ms), hi = uuid7::max_at(ms);
		EXPECT_EQ(uuid7::unix_ms(lo.data()), static_cast<std::uint64_t>(ms));
		EXPECT_EQ(uuid7::unix_ms(hi.data()), static_cast<std::uint64_t>(ms));
		std::string h = hex_of(lo);
		EXPECT_EQ(h.substr(12), std::string(20, '0'));
		EXPECT_EQ(hex_of(hi).substr(12), std::string(20, 'f'));
		EXPECT_EQ(hex_of(hi).substr(0, 12), h.substr(0, 12));
		for (int i = 0; i < 1000; i++) { // any uuid of that millisecond, a UUIDv7 or a ULID, lies between
			uuid7::Bytes v = random_bytes(rng);
			uuid7::Bytes at = lo;
			for (std::size_t k = 6; k < v.size(); k++)
				at[k] = v[k];
			if (i % 2 == 0) { // version 7, variant 10
				at[6] = static_cast<std::uint8_t>(0x70 | (at[6] & 0x0F));
				at[8] = static_cast<std::uint8_t>(0x80 | (at[8] & 0x3F));
			}
			EXPECT_LE(lo, at);
			EXPECT_LE(at, hi);
			EXPECT_EQ(uuid7::unix_ms(at.data()) == static_cast<std::uint64_t>(ms), lo <= at && at <= hi);
			EXPECT_EQ(uuid7::unix_ms(v.data()) == static_cast<std::uint64_t>(ms), lo <= v && v <= hi);
		}
	}
	// consecutive milliseconds are adjacent ranges
	uuid7::Bytes end = uuid7::max_at(1645557742000), next = uuid7::min_at(1645557742001);
	EXPECT_LT(end, next);
	EXPECT_EQ(hex_of(end), "017f22e279b0ffffffffffffffffffff");
	EXPECT_EQ(hex_of(next), "017f22e279b100000000000000000000");
}

TEST(Uuid7, PrefixRangesInEitherCaseWithOrWithoutDashes)
{
	std::mt19937_64 rng(16);
	for (int i = 0; i < 300; i++) {
		uuid7::Bytes b = random_bytes(rng);
		std::string h = hex_of(b), d = dashed(h);
		for (std::size_t n = 0; n <= uuid7::hex_len; n++) {
			std::string p = h.substr(0, n);
			uuid7::PrefixRange r = uuid7::prefix_range(p);
			ASSERT_TRUE(r.status.ok()) << p;
			ASSERT_FALSE(r.empty);
			EXPECT_LE(r.lo, b);
			EXPECT_GE(r.hi, b);
			EXPECT_EQ(hex_of(r.lo), p + std::string(uuid7::hex_len - n, '0'));
			EXPECT_EQ(hex_of(r.hi), p + std::string(uuid7::hex_len - n, 'f'));
			std::string upper = p;
			for (char &c : upper)
				c = ascii_upper(c);
			uuid7::PrefixRange u = uuid7::prefix_range(upper);
			EXPECT_EQ(u.lo, r.lo);
			EXPECT_EQ(u.hi, r.hi);
		}
		for (std::size_t n = 0; n <= d.size(); n++) { // the canonical form's prefixes, dashes included
			std::string p = d.substr(0, n), digits;
			for (char c : p)
				if (c != '-')
					digits += c;
			uuid7::PrefixRange r = uuid7::prefix_range(p), plain = uuid7::prefix_range(digits);
			ASSERT_TRUE(r.status.ok()) << p;
			EXPECT_EQ(r.lo, plain.lo);
			EXPECT_EQ(r.hi, plain.hi);
		}
	}
	uuid7::PrefixRange all = uuid7::prefix_range("");
	ASSERT_TRUE(all.status.ok());
	EXPECT_EQ(hex_of(all.lo), std::string(32, '0'));
	EXPECT_EQ(hex_of(all.hi), std::string(32, 'f'));
	EXPECT_EQ(uuid7::prefix_range("--").lo, all.lo); // dashes alone: the empty prefix
}

TEST(Uuid7, PrefixErrors)
{
	uuid7::PrefixRange r = uuid7::prefix_range("017f22e2-79g0");
	EXPECT_EQ(r.status.error, TextError::symbol);
	EXPECT_EQ(r.status.position, 12u); // bytes counted with the dash
	EXPECT_EQ(r.status.byte, 'g');
	EXPECT_EQ(uuid7::prefix_range("{017f").status.error, TextError::symbol);
	EXPECT_EQ(uuid7::prefix_range(" 017f").status.position, 1u);
	r = uuid7::prefix_range(std::string(33, 'a'));
	EXPECT_EQ(r.status.error, TextError::prefix_length);
	EXPECT_EQ(r.status.position, 33u);
	r = uuid7::prefix_range("017f22e2-79b0-7cc3-98c4-dc0c0c07398f0"); // 33 digits, dashes not counted
	EXPECT_EQ(r.status.error, TextError::prefix_length);
	EXPECT_EQ(r.status.position, 33u);
	EXPECT_TRUE(uuid7::prefix_range("017f22e2-79b0-7cc3-98c4-dc0c0c07398f-").status.ok());
	char detail[detail_size];
	describe(uuid7::prefix_range("01x").status, uuid7::rules, detail);
	EXPECT_STREQ(detail, "Character 3 (\"x\") is not in the hex digits 0-9 a-f (either case; dashes are ignored).");
}

TEST(Uuid7, TimeWindowsAreMillisecondRanges)
{
	// [2022-02-22 19:22:22, 19:22:23) holds the RFC example; the window's ends are whole milliseconds
	WindowBound lo{false, true, 1645557742000000}, hi{false, false, 1645557743000000};
	UnitRange u = window_units(uuid7::time_scale, lo, hi);
	ASSERT_FALSE(u.empty);
	EXPECT_EQ(u.first, 1645557742000);
	EXPECT_EQ(u.last, 1645557742999);
	uuid7::Bytes v7 = bytes_of("017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
	EXPECT_LE(uuid7::min_at(u.first), v7);
	EXPECT_LE(v7, uuid7::max_at(u.last));
	// an exclusive lower bound inside a millisecond leaves it out only from the next one: times are milliseconds
	u = window_units(uuid7::time_scale, WindowBound{false, false, 1645557742000500}, WindowBound{true, false, 0});
	EXPECT_EQ(u.first, 1645557742001);
	EXPECT_EQ(u.last, static_cast<std::int64_t>(uuid7::max_ms));
	// before 1970: nothing; past 10889: nothing
	EXPECT_TRUE(window_units(uuid7::time_scale, WindowBound{true, false, 0}, WindowBound{false, false, 0}).empty);
	EXPECT_TRUE(
	    window_units(uuid7::time_scale, WindowBound{false, true, std::int64_t{1} << 62}, WindowBound{true, false, 0})
	        .empty);
}

} // namespace

// ---- Generation: PostgreSQL 18's layout, never a repeat, the fraction and then the random bits counting on

namespace {
// The value a uuid's bytes hold (version and variant left out): the inverse of the layout.
uuid7::V7 v7_of(const std::uint8_t *id)
{
	std::uint64_t hi = 0, lo = 0;
	for (int i = 0; i < 8; i++) {
		hi = hi << 8 | id[i];
		lo = lo << 8 | id[8 + i];
	}
	return uuid7::V7{(hi >> 16) << uuid7::fraction_bits | (hi & uuid7::max_fraction), lo & uuid7::random_mask};
}
} // namespace

// The layout as PostgreSQL 18's uuidv7() writes it: RFC 9562 A.6's example (2022-02-22 19:22:22 UTC) with its
// rand_a read as a fraction and its rand_b as the random bits, byte for byte; and back.
TEST(Uuid7Generate, LayoutIsPostgresEighteens)
{
	const uuid7::V7 v{0x17F22E279B0ull << 12 | 0xCC3, 0x18C4DC0C0C07398Full};
	EXPECT_EQ(hex_of(uuid7::layout(v)), "017f22e279b07cc398c4dc0c0c07398f");
	const uuid7::Bytes b = uuid7::layout(v);
	EXPECT_EQ(v7_of(b.data()).time, v.time);
	EXPECT_EQ(v7_of(b.data()).random, v.random);
	EXPECT_EQ(uuid7::unix_ms(b.data()), 0x17F22E279B0u);
	// version 7 and variant 10 whatever the bits given
	const uuid7::Bytes ones = uuid7::layout(uuid7::V7{uuid7::max_time, ~std::uint64_t{0}});
	EXPECT_EQ(hex_of(ones), "ffffffffffff7fffbfffffffffffffff");
	EXPECT_EQ(hex_of(uuid7::layout(uuid7::V7{})), "00000000000070008000000000000000");
}

// The fraction is the microsecond within the millisecond scaled to 4096 steps: (us % 1000) * 4096 / 1000.
TEST(Uuid7Generate, FractionIsTheMicrosecondScaled)
{
	EXPECT_EQ(uuid7::time_of_us(1645557742000000), 1645557742000ull << 12);
	EXPECT_EQ(uuid7::time_of_us(1645557742000001), 1645557742000ull << 12 | 4);    // 4.096
	EXPECT_EQ(uuid7::time_of_us(1645557742000500), 1645557742000ull << 12 | 2048); // half
	EXPECT_EQ(uuid7::time_of_us(1645557742000999), 1645557742000ull << 12 | 4091); // 4091.9
	EXPECT_EQ(uuid7::time_of_us(0), 0u);
	for (std::int64_t us = 0; us < 1000; us++) // increasing with the microsecond, never past the millisecond
		EXPECT_LT(uuid7::time_of_us(us), uuid7::time_of_us(us + 1));
	EXPECT_EQ(uuid7::last_us_of(uuid7::V7{uuid7::time_of_us(1645557742000500), 0}), 1645557742000999);
}

// A clock later than the last value: its time and 62 fresh random bits (the top two of the draw dropped).
TEST(Uuid7Generate, TheClocksTimeWhenItIsLater)
{
	const std::int64_t now = 1700000000123456;
	uuid7::Generated g = uuid7::next(uuid7::V7{uuid7::time_of_us(now) - 1, uuid7::random_mask}, now, ~0ull);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, uuid7::time_of_us(now));
	EXPECT_EQ(g.value.random, uuid7::random_mask);
	g = uuid7::next(uuid7::V7{}, now, 0x123456789abcdefull);
	EXPECT_EQ(g.value.random, 0x123456789abcdefull);
}

// The clock not later: the fraction counts on by one step with fresh random bits, as uuidv7() does.
TEST(Uuid7Generate, TheFractionCountsOnFirst)
{
	const std::int64_t now = 1700000000123456;
	const uuid7::V7 last{uuid7::time_of_us(now), 0x3FFFFFFFFFFFFFF0ull};
	uuid7::Generated g = uuid7::next(last, now, 5);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, last.time + 1);
	EXPECT_EQ(g.value.random, 5u);           // smaller random bits, yet a later value: the time decides
	g = uuid7::next(last, now - 3000000, 5); // a clock 3 s behind: the same
	EXPECT_EQ(g.value.time, last.time + 1);
	g = uuid7::next(last, -1, 5); // a clock before 1970
	EXPECT_EQ(g.value.time, last.time + 1);
}

// At the millisecond's last fraction the random bits count on, by 1 + the draw's top 32 bits, keeping the
// millisecond (a clock behind, or 4096 values in one millisecond, does not push the time ahead of the clock);
// past the largest random bits the time carries into the next millisecond.
TEST(Uuid7Generate, ThenTheRandomBitsThenTheNextMillisecond)
{
	const std::uint64_t ms = 1700000000123;
	const uuid7::V7 last{ms << 12 | uuid7::max_fraction, 1000};
	uuid7::Generated g = uuid7::next(last, static_cast<std::int64_t>(ms) * 1000 + 999, 0x00000007FFFFFFFFull);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, last.time);
	EXPECT_EQ(g.value.random, 1000u + 8);
	g = uuid7::next(last, 0, 0);
	EXPECT_EQ(g.value.random, 1001u);
	g = uuid7::next(last, 0, ~0ull);
	EXPECT_EQ(g.value.random, 1000u + (std::uint64_t{1} << 32));
	// no room left for the step: the next millisecond, fraction 0, fresh random bits
	g = uuid7::next(uuid7::V7{last.time, uuid7::random_mask - 8}, 0, 0x00000008FFFFFFFFull);
	EXPECT_EQ(g.value.time, (ms + 1) << 12);
	EXPECT_EQ(g.value.random, 0x00000008FFFFFFFFull);
	g = uuid7::next(uuid7::V7{last.time, uuid7::random_mask - 8}, 0, 0x00000007FFFFFFFFull);
	EXPECT_EQ(g.value.time, last.time);
	EXPECT_EQ(g.value.random, uuid7::random_mask);
	// the bound a restart starts from (the mark's millisecond, all ones) leads to the next millisecond
	g = uuid7::next(uuid7::last_of_ms(ms), 0, 42);
	EXPECT_EQ(g.value.time, (ms + 1) << 12);
	EXPECT_EQ(g.value.random, 42u);
}

TEST(Uuid7Generate, NotPastTheLastMillisecond)
{
	EXPECT_FALSE(uuid7::next(uuid7::last_of_ms(uuid7::max_ms), 0, 0).ok);
	EXPECT_FALSE(uuid7::next(uuid7::V7{}, static_cast<std::int64_t>(uuid7::max_ms + 1) * 1000, 0).ok);
	uuid7::Generated g = uuid7::next(uuid7::V7{}, static_cast<std::int64_t>(uuid7::max_ms) * 1000 + 999, 0);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time >> 12, uuid7::max_ms);
	g = uuid7::next(uuid7::V7{uuid7::max_time - 1, 0}, 0, 0);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, uuid7::max_time);
}

// Any clock (ahead, still, behind, jumping) and any draws: each value's uuid is greater than the last one's.
TEST(Uuid7Generate, EveryValueIsGreaterThanTheLast)
{
	std::mt19937_64 rng(29);
	uuid7::V7 last{};
	uuid7::Bytes last_bytes = uuid7::layout(last);
	std::int64_t now = 1700000000000000;
	std::size_t fractions = 0, randoms = 0;
	for (int i = 0; i < 2000000; i++) {
		switch (rng() % 8) {
		case 0: now += static_cast<std::int64_t>(rng() % 3); break;
		case 1: now -= static_cast<std::int64_t>(rng() % 2000); break; // set back
		case 2: now += static_cast<std::int64_t>(rng() % 5000); break;
		default: break; // many values in one microsecond
		}
		uuid7::Generated g = uuid7::next(last, now, rng());
		ASSERT_TRUE(g.ok);
		const uuid7::Bytes b = uuid7::layout(g.value);
		ASSERT_LT(last_bytes, b) << i;
		fractions += g.value.time == last.time + 1;
		randoms += g.value.time == last.time;
		last = g.value;
		last_bytes = b;
	}
	EXPECT_GT(fractions, 100000u); // both ways of counting on were taken
	EXPECT_GT(randoms, 1000u);
}

// Shifted by whole milliseconds the fraction and random bits stay; a sub-millisecond shift moves the fraction
// by its steps, rounded down; values of one shift keep their order; the range is 0 .. max_time.
TEST(Uuid7Generate, Shifted)
{
	const uuid7::V7 v{1700000000123ull << 12 | 100, 77};
	uuid7::Generated g = uuid7::shifted(v, -86400000000);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, (1700000000123ull - 86400000) << 12 | 100);
	EXPECT_EQ(g.value.random, 77u);
	EXPECT_EQ(uuid7::shifted(v, 1).value.time, v.time + 4);  // 4.096 steps
	EXPECT_EQ(uuid7::shifted(v, -1).value.time, v.time - 5); // -1000 us + 999 us: -4096 + 4091
	EXPECT_EQ(uuid7::shifted(v, 0).value.time, v.time);
	for (std::int64_t s : {std::int64_t{-1234567}, std::int64_t{-1}, std::int64_t{3}, std::int64_t{999}})
		for (std::uint64_t t = v.time; t < v.time + 5000; t++)
			ASSERT_LT(uuid7::shifted(uuid7::V7{t, 0}, s).value.time, uuid7::shifted(uuid7::V7{t + 1, 0}, s).value.time);
	EXPECT_TRUE(uuid7::shifted(uuid7::V7{0, 0}, 0).ok);
	EXPECT_FALSE(uuid7::shifted(uuid7::V7{3, 0}, -1).ok);
	EXPECT_FALSE(uuid7::shifted(uuid7::V7{uuid7::max_time, 0}, 1).ok);
	EXPECT_FALSE(uuid7::shifted(v, INT64_MAX).ok);
	EXPECT_FALSE(uuid7::shifted(v, INT64_MIN).ok);
	g = uuid7::shifted(uuid7::V7{0, 0}, static_cast<std::int64_t>(uuid7::max_ms) * 1000 + 999);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(g.value.time, uuid7::time_of_us(static_cast<std::int64_t>(uuid7::max_ms) * 1000 + 999));
}

// A shift's length is fixed, the one extract(epoch FROM interval) gives: a day 24 h, a month 30.4375 days,
// whatever the value's time; so values of one shift keep their order where the calendar's sums would not:
// across a daylight saving change (02:30 and 03:15 CET on 2026-03-28, the eve of Europe/Berlin's change, plus
// '1 day' are 03:30 and 03:15 by the calendar) and at a month's end (Jan 30 23:00 and Jan 31 01:00 plus
// '1 month' are Feb 28 23:00 and 01:00 by the calendar).
TEST(Uuid7Generate, ShiftLengthIsFixed)
{
	std::int64_t us = 0;
	ASSERT_TRUE(uuid7::shift_length_us(0, 1, 0, us));
	EXPECT_EQ(us, 86400000000);
	ASSERT_TRUE(uuid7::shift_length_us(1, 0, 0, us));
	EXPECT_EQ(us, 2629800000000); // extract(epoch FROM interval '1 month') = 2629800
	ASSERT_TRUE(uuid7::shift_length_us(-36, -1, 2500, us));
	EXPECT_EQ(us, -36 * 2629800000000 - 86400000000 + 2500);
	ASSERT_TRUE(uuid7::shift_length_us(12000, 0, 0, us)); // 1000 years: 365,250 days
	EXPECT_EQ(us, 365250 * 86400000000);
	EXPECT_FALSE(uuid7::shift_length_us(3600000, 0, 0, us)); // 300,000 years
	EXPECT_FALSE(uuid7::shift_length_us(INT32_MIN, INT32_MIN, INT64_MIN, us));
	EXPECT_FALSE(uuid7::shift_length_us(0, 0, INT64_MAX, us));
	EXPECT_FALSE(uuid7::shift_length_us(0, INT32_MAX, 0, us));

	const auto at = [](std::int64_t unix_s) { return uuid7::V7{uuid7::time_of_us(unix_s * 1000000), 5}; };
	const struct {
		std::int64_t earlier_s, later_s;
		std::int32_t months, days;
	} pairs[] = {
	    {1774661400, 1774664100, 0, 1}, // 2026-03-28 01:30Z and 02:15Z (02:30 and 03:15 in Berlin), '1 day'
	    {1769814000, 1769821200, 1, 0}, // 2026-01-30 23:00Z and 2026-01-31 01:00Z, '1 month'
	    {1769774400, 1769860800, 1, 0}, // 2026-01-30 and 31 at noon, '1 month'
	};
	for (const auto &p : pairs) {
		ASSERT_TRUE(uuid7::shift_length_us(p.months, p.days, 0, us));
		const uuid7::Generated a = uuid7::shifted(at(p.earlier_s), us), b = uuid7::shifted(at(p.later_s), us);
		ASSERT_TRUE(a.ok && b.ok);
		EXPECT_LT(a.value.time, b.value.time) << p.earlier_s;
		EXPECT_EQ(b.value.time - a.value.time, at(p.later_s).time - at(p.earlier_s).time); // the same distance
	}
}

namespace {

std::string ulid_of(const uuid7::Bytes &b)
{
	char out[uuid7::ulid_len];
	uuid7::format_ulid(b.data(), out);
	return std::string(out, sizeof out);
}

// A ULID's text by the definition: the 128-bit number in base 32, 26 digits, most significant first.
std::string ulid_by_long_division(uuid7::Bytes b)
{
	std::string out(uuid7::ulid_len, '?');
	for (std::size_t i = uuid7::ulid_len; i-- > 0;) {
		unsigned rest = 0;
		for (auto &x : b) { // b /= 32, rest = b % 32
			const unsigned cur = rest << 8 | x;
			x = static_cast<std::uint8_t>(cur / 32);
			rest = cur % 32;
		}
		out[i] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[rest];
	}
	return out;
}

} // namespace

TEST(Ulid, TheSpecsExampleBothWays)
{
	const uuid7::Bytes ulid = bytes_of("01563e3a-b5d3-d676-4c61-efb99302bd5b");
	EXPECT_EQ(ulid_of(ulid), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
	uuid7::Bytes back{};
	ASSERT_TRUE(uuid7::parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV", back).ok());
	EXPECT_EQ(back, ulid);
	ASSERT_TRUE(uuid7::parse_ulid("01arz3ndektsv4rrffq69g5fav", back).ok()); // either case
	EXPECT_EQ(back, ulid);
	ASSERT_TRUE(uuid7::parse_ulid("01ArZ3nDeKtSv4RrFfQ69g5FaV", back).ok());
	EXPECT_EQ(back, ulid);
}

TEST(Ulid, BoundsAndEveryBitAlone)
{
	uuid7::Bytes b{};
	EXPECT_EQ(ulid_of(b), std::string(26, '0'));
	b.fill(0xFF);
	EXPECT_EQ(ulid_of(b), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
	for (unsigned bit = 0; bit < 128; bit++) {
		uuid7::Bytes one{};
		one[15 - bit / 8] = static_cast<std::uint8_t>(1u << (bit % 8));
		const std::string text = ulid_of(one);
		EXPECT_EQ(text, ulid_by_long_division(one)) << bit;
		uuid7::Bytes back{};
		ASSERT_TRUE(uuid7::parse_ulid(text, back).ok()) << text;
		EXPECT_EQ(back, one) << text;
	}
}

TEST(Ulid, RandomRoundTripsAgreeWithTheDefinition)
{
	std::mt19937_64 rng(7);
	for (int i = 0; i < 20000; i++) {
		const uuid7::Bytes b = random_bytes(rng);
		const std::string text = ulid_of(b);
		ASSERT_EQ(text, ulid_by_long_division(b));
		uuid7::Bytes back{};
		ASSERT_TRUE(uuid7::parse_ulid(text, back).ok()) << text;
		ASSERT_EQ(back, b) << text;
		EXPECT_EQ(uuid7::unix_ms(b.data()), uuid7::unix_ms(back.data()));
	}
}

TEST(Ulid, Errors)
{
	uuid7::Bytes out{};
	TextStatus s = uuid7::parse_ulid("", out);
	EXPECT_EQ(s.error, TextError::length);
	EXPECT_EQ(s.position, 0u);
	s = uuid7::parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FA", out);
	EXPECT_EQ(s.error, TextError::length);
	EXPECT_EQ(s.position, 25u);
	s = uuid7::parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAVV", out);
	EXPECT_EQ(s.error, TextError::length);
	EXPECT_EQ(s.position, 27u);
	s = uuid7::parse_ulid("80000000000000000000000000", out); // 2^128: past 128 bits
	EXPECT_EQ(s.error, TextError::first_symbol);
	s = uuid7::parse_ulid("ZZZZZZZZZZZZZZZZZZZZZZZZZZ", out);
	EXPECT_EQ(s.error, TextError::first_symbol);
	for (const char c : {'I', 'i', 'L', 'l', 'O', 'o', 'U', 'u', '-', ' ', '\0'}) {
		std::string text = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
		text[7] = c;
		s = uuid7::parse_ulid(text, out);
		EXPECT_EQ(s.error, TextError::symbol) << c;
		EXPECT_EQ(s.position, 8u) << c;
		EXPECT_EQ(s.byte, static_cast<unsigned char>(c)) << c;
	}
	s = uuid7::parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5F\xC3\xA9", out); // é in UTF-8: two bytes
	EXPECT_EQ(s.error, TextError::symbol);
	EXPECT_EQ(s.position, 25u);
	EXPECT_EQ(s.byte, 0xC3);
	char detail[detail_size];
	describe(uuid7::parse_ulid("80000000000000000000000000", out), uuid7::ulid_rules, detail);
	EXPECT_STREQ(detail, "The first character must be 0-7 (a ULID holds 128 bits; a first character of 8 or more would "
	                     "need 130).");
}
