// Shared pieces of the core: the power-of-two radix codec, time windows, error details.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/bytes.hpp"
#include "core/radix2.hpp"
#include "core/time_scale.hpp"

using namespace idtypes;

namespace {

constexpr Alphabet hex_upper = make_alphabet("0123456789ABCDEF");
constexpr Alphabet base32hex_any = make_alphabet("0123456789ABCDEFGHIJKLMNOPQRSTUV", Case::fold);

TEST(Radix2, ExactWidthHexRoundTrip)
{
	using Hex = Radix2<3, 4>;
	static_assert(Hex::symbols == 6 && Hex::pad == 0);
	const std::uint8_t bytes[3] = {0x01, 0xAB, 0xFF};
	char text[6];
	Hex::encode(bytes, hex_upper, text);
	EXPECT_EQ(std::string(text, 6), "01ABFF");
	std::uint8_t back[3];
	ASSERT_TRUE(Hex::decode("01ABFF", hex_upper, back).ok());
	EXPECT_EQ(0, std::memcmp(bytes, back, 3));
}

TEST(Radix2, PaddedFirstSymbolRejectsHighBits)
{
	using B32 = Radix2<2, 5>; // 16 bits in 4 symbols of 5 bits: 4 pad bits, first symbol 0..1
	static_assert(B32::pad == 4 && B32::first_limit == 2);
	std::uint8_t out[2];
	EXPECT_TRUE(B32::decode("1VVV", base32hex_any, out).ok());
	EXPECT_EQ(out[0], 0xFF);
	EXPECT_EQ(out[1], 0xFF);
	TextStatus s = B32::decode("2000", base32hex_any, out);
	EXPECT_EQ(s.error, TextError::first_symbol);
}

TEST(Radix2, CaseFoldingAlphabet)
{
	using B32 = Radix2<2, 5>;
	using Hex = Radix2<3, 4>;
	std::uint8_t a[3], b[3];
	ASSERT_TRUE(B32::decode("1vvv", base32hex_any, a).ok());
	ASSERT_TRUE(B32::decode("1VVV", base32hex_any, b).ok());
	EXPECT_EQ(0, std::memcmp(a, b, 2));
	EXPECT_EQ(Hex::decode("01abff", hex_upper, a).error, TextError::symbol);
}

// Decoding works in groups of symbols (see radix2.hpp); these are the shapes the formats use.
static_assert(Radix2<20, 5>::group_symbols == 8 && Radix2<20, 5>::group_bytes == 5);  // scru160 base32hex
static_assert(Radix2<20, 4>::group_symbols == 10 && Radix2<20, 4>::group_bytes == 5); // scru160 hex
static_assert(Radix2<10, 4>::group_symbols == 10 && Radix2<10, 4>::group_bytes == 5); // tbsl
static_assert(Radix2<8, 5>::group_symbols == 13 && Radix2<8, 5>::group_bytes == 8);   // timeid, one 65-bit group

template <typename Codec>
void expect_round_trips(const Alphabet &alphabet, unsigned seed)
{
	std::mt19937_64 rng(seed);
	for (int i = 0; i < 2000; i++) {
		std::uint8_t bytes[sizeof(typename Codec::Bytes_t)], back[sizeof bytes];
		for (auto &b : bytes)
			b = static_cast<std::uint8_t>(rng());
		char text[Codec::symbols];
		Codec::encode(bytes, alphabet, text);
		ASSERT_TRUE(Codec::decode(std::string_view(text, sizeof text), alphabet, back).ok());
		ASSERT_EQ(0, std::memcmp(bytes, back, sizeof bytes));
	}
}

TEST(Radix2, GroupedDecodingRoundTrips)
{
	expect_round_trips<Radix2<20, 5>>(base32hex_any, 1);
	expect_round_trips<Radix2<20, 4>>(hex_upper, 2);
	expect_round_trips<Radix2<10, 4>>(hex_upper, 3);
}

// The validity of a whole text is checked at once: every byte value at every position must still be
// accepted exactly when it is a symbol, and a rejection must name the first bad position and its byte.
TEST(Radix2, EveryByteAtEveryPositionIsCheckedAndTheFirstBadOneNamed)
{
	using B32 = Radix2<20, 5>;
	const std::string valid = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
	std::uint8_t out[20];
	for (std::size_t pos = 0; pos < B32::symbols; pos++) {
		for (int byte = 1; byte < 256; byte++) {
			std::string text = valid;
			text[pos] = static_cast<char>(byte);
			TextStatus s = B32::decode(text, base32hex_any, out);
			if (base32hex_any.value_of(static_cast<char>(byte)) >= 0) {
				ASSERT_TRUE(s.ok()) << pos << " " << byte;
			} else {
				ASSERT_EQ(s.error, TextError::symbol) << pos << " " << byte;
				ASSERT_EQ(s.position, pos + 1);
				ASSERT_EQ(s.byte, byte);
			}
		}
	}
	std::string two_bad = valid;
	two_bad[9] = '!';
	two_bad[3] = 'w' + 1;
	EXPECT_EQ(B32::decode(two_bad, base32hex_any, out).position, 4u);
}

TEST(Radix2, PrefixBoundsAreBitPrefixes)
{
	using Hex = Radix2<3, 4>;
	std::uint8_t lo[3], hi[3];
	bool empty = true;
	ASSERT_TRUE(Hex::prefix("A-B", hex_upper, lo, hi, empty, '-').ok());
	EXPECT_FALSE(empty);
	EXPECT_EQ(lo[0], 0xAB);
	EXPECT_EQ(lo[1], 0x00);
	EXPECT_EQ(hi[0], 0xAB);
	EXPECT_EQ(hi[2], 0xFF);
	// no symbol: every value, as `text ^@ ''` is true for every text
	for (std::string_view none : {"", "-"}) {
		ASSERT_TRUE(Hex::prefix(none, hex_upper, lo, hi, empty, '-').ok());
		EXPECT_FALSE(empty);
		EXPECT_EQ(lo[0], 0x00);
		EXPECT_EQ(lo[2], 0x00);
		EXPECT_EQ(hi[0], 0xFF);
		EXPECT_EQ(hi[2], 0xFF);
	}
	EXPECT_EQ(Hex::prefix("0000000", hex_upper, lo, hi, empty).error, TextError::prefix_length);
	TextStatus s = Hex::prefix("0G", hex_upper, lo, hi, empty);
	EXPECT_EQ(s.error, TextError::symbol);
	EXPECT_EQ(s.position, 2u);
}

TEST(TimeScale, UnitsAtTruncatesAndChecksRange)
{
	constexpr TimeScale ms{1000000, 1000, 10};
	std::int64_t u = -1;
	EXPECT_TRUE(units_at(ms, 1000000, u));
	EXPECT_EQ(u, 0);
	EXPECT_TRUE(units_at(ms, 1000999, u));
	EXPECT_EQ(u, 0);
	EXPECT_TRUE(units_at(ms, 1010999, u));
	EXPECT_EQ(u, 10);
	EXPECT_FALSE(units_at(ms, 1011000, u));
	EXPECT_FALSE(units_at(ms, 999999, u));
	EXPECT_EQ(unix_us_of(ms, 3), 1003000);
}

TEST(TimeScale, WindowRespectsInclusivityAtUnitPrecision)
{
	constexpr TimeScale ms{0, 1000, 1000000};
	// [1500, 3000) holds the ms instants 2000 only
	UnitRange r = window_units(ms, {false, true, 1500}, {false, false, 3000});
	EXPECT_FALSE(r.empty);
	EXPECT_EQ(r.first, 2);
	EXPECT_EQ(r.last, 2);
	// [2000, 3000] holds 2000 and 3000
	r = window_units(ms, {false, true, 2000}, {false, true, 3000});
	EXPECT_EQ(r.first, 2);
	EXPECT_EQ(r.last, 3);
	// (2000, 3000) holds nothing
	r = window_units(ms, {false, false, 2000}, {false, false, 3000});
	EXPECT_TRUE(r.empty);
	// unbounded and out-of-scale windows clamp
	r = window_units(ms, {true, false, 0}, {false, true, -5});
	EXPECT_TRUE(r.empty);
	r = window_units(ms, {false, true, -5000}, {true, false, 0});
	EXPECT_EQ(r.first, 0);
	EXPECT_EQ(r.last, 1000000);
	r = window_units(ms, {false, true, -1500}, {false, true, -1}); // before the epoch
	EXPECT_TRUE(r.empty);
}

TEST(TextStatus, DescribeNamesPositionAndByte)
{
	TextRules rules{"3 characters", "the test alphabet", "A", "Too large.", 3};
	char out[detail_size];
	describe(fail(TextError::symbol, 2, '!'), rules, out);
	EXPECT_STREQ(out, "Character 2 (\"!\") is not in the test alphabet.");
	describe(fail(TextError::symbol, 1, 0xC3), rules, out);
	EXPECT_STREQ(out, "Byte 1 (0xC3) is not in the test alphabet.");
	describe(fail(TextError::length, 5), rules, out);
	EXPECT_STREQ(out, "Expected 3 characters, found 5.");
	describe(fail(TextError::prefix_length, 4), rules, out);
	EXPECT_STREQ(out, "A prefix has at most 3 symbols, found 4.");
}

} // namespace

#include "core/bigradix.hpp"

namespace {

using idtypes::bigradix::Parse;

std::string digits_of(const std::uint8_t *be, std::size_t n, const Alphabet &a = idtypes::bigradix::decimal)
{
	char out[idtypes::bigradix::max_digits];
	return std::string(out, idtypes::bigradix::format(be, n, a, out));
}

Parse parse_into(const char *text, std::uint8_t *be, std::size_t n, const Alphabet &a = idtypes::bigradix::decimal)
{
	return idtypes::bigradix::parse(text, a, be, n).status;
}

TEST(BigRadix, SixtyFourBitDecimalAgreesWithBuiltIns)
{
	std::mt19937_64 rng(3);
	for (int i = 0; i < 20000; i++) {
		std::uint64_t v = rng() >> (rng() % 64);
		std::uint8_t be[8];
		store_be64(v, be);
		std::string s = digits_of(be, 8);
		ASSERT_EQ(s, std::to_string(v));
		std::uint8_t back[8];
		ASSERT_EQ(parse_into(s.c_str(), back, 8), Parse::ok);
		ASSERT_EQ(load_be64(back), v);
	}
}

TEST(BigRadix, EightyBitEdges)
{
	std::uint8_t zero[10] = {}, max[10], back[10];
	std::memset(max, 0xFF, sizeof max);
	EXPECT_EQ(digits_of(zero, 10), "0");
	EXPECT_EQ(digits_of(max, 10), "1208925819614629174706175"); // 2^80 - 1
	EXPECT_EQ(parse_into("1208925819614629174706175", back, 10), Parse::ok);
	EXPECT_EQ(0, std::memcmp(back, max, 10));
	EXPECT_EQ(parse_into("1208925819614629174706176", back, 10), Parse::overflow);
	EXPECT_EQ(parse_into("18446744073709551616", back, 8), Parse::overflow);
	EXPECT_EQ(parse_into("00018446744073709551615", back, 8), Parse::ok);
	EXPECT_EQ(parse_into("", back, 8), Parse::empty);
	EXPECT_EQ(parse_into("12a", back, 8), Parse::symbol);
	EXPECT_EQ(parse_into("-1", back, 8), Parse::symbol);
}

} // namespace

// The window's units for bounds at the int64 limits, as PostgreSQL passes instants it cannot place
// (timestamps from year 294276 on saturate to INT64_MAX): never an overflow, never the whole range.
TEST(TimeScale, WindowsAtTheInt64Limits)
{
	constexpr TimeScale us{0, 1, (std::int64_t{1} << 54) - 1};
	constexpr TimeScale ms{1321009871111000, 1000, (std::int64_t{1} << 42) - 1};
	for (const TimeScale &s : {us, ms}) {
		for (bool inclusive : {true, false}) {
			EXPECT_TRUE(window_units(s, WindowBound{false, inclusive, INT64_MAX}, WindowBound{true, false, 0}).empty);
			EXPECT_TRUE(window_units(s, WindowBound{true, false, 0}, WindowBound{false, inclusive, INT64_MIN}).empty);
			UnitRange all =
			    window_units(s, WindowBound{false, inclusive, INT64_MIN}, WindowBound{false, inclusive, INT64_MAX});
			EXPECT_FALSE(all.empty);
			EXPECT_EQ(all.first, 0);
			EXPECT_EQ(all.last, s.max_units);
		}
	}
	// exclusive bounds on a unit boundary, inclusive ones between units
	UnitRange r =
	    window_units(ms, WindowBound{false, false, ms.epoch_us + 5000}, WindowBound{false, false, ms.epoch_us + 9000});
	EXPECT_EQ(r.first, 6);
	EXPECT_EQ(r.last, 8);
	r = window_units(ms, WindowBound{false, true, ms.epoch_us + 5500}, WindowBound{false, true, ms.epoch_us + 9500});
	EXPECT_EQ(r.first, 6);
	EXPECT_EQ(r.last, 9);
}
