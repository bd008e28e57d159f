// SCRU160 core: the spec's example IDs against its layout, base32hex and hex spellings, every rejection,
// round trips, prefix ranges, and the generator's default counter usage under an injected clock.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/scru160.hpp"
#include "parse_check.hpp"

using namespace idtypes;

namespace {

std::string text_of(const scru160::Bytes &b)
{
	char out[scru160::text_len];
	scru160::format(b.data(), out);
	return std::string(out, sizeof out);
}

std::string hex_of(const scru160::Bytes &b)
{
	char out[scru160::hex_len];
	scru160::format_hex(b.data(), out);
	return std::string(out, sizeof out);
}

scru160::Bytes parse_ok(const std::string &text)
{
	auto p = parsed(scru160::parse, text);
	EXPECT_TRUE(p.status.ok()) << text;
	return p.value;
}

// All four examples carry the same millisecond, 2021-09-13T13:41:30.683Z (the hex spells it: 017bdf6431bb),
// shortly before the spec's v0.1.0 date; they are four different IDs (see the errata), two pairs.
constexpr std::uint64_t examples_ms = 1631540490683;

TEST(Scru160, SpecExamplesFollowTheLayout)
{
	for (const char *s : {"05TTUP1HNCPNH30VEK64KDQT9BSNU4C4", "05TTUP1HNCPNIB63R8IN5V2L3VFGNFET",
	                      "017bdf6431bb33750751eb63beb3c3f8c5969d86", "017bdf6431bb337662412e6a5758890735c33c2b"}) {
		scru160::Bytes b = parse_ok(s);
		scru160::Fields f = scru160::fields(b.data());
		EXPECT_EQ(f.timestamp, examples_ms) << s;
		// the text spells the fields: the first 48 bits are the timestamp (10 hex digits + 2 of the 12)
		if (std::strlen(s) == scru160::hex_len) {
			EXPECT_EQ(hex_of(b), s);
			EXPECT_EQ(f.timestamp, std::stoull(std::string(s, 12), nullptr, 16));
			EXPECT_EQ(f.counter, std::stoul(std::string(s + 12, 4), nullptr, 16));
			EXPECT_EQ(f.random16, std::stoul(std::string(s + 16, 4), nullptr, 16));
		} else {
			EXPECT_EQ(text_of(b), s);
		}
	}
	// each pair was generated in one millisecond, one count apart
	scru160::Fields a = scru160::fields(parse_ok("05TTUP1HNCPNH30VEK64KDQT9BSNU4C4").data());
	scru160::Fields b = scru160::fields(parse_ok("05TTUP1HNCPNIB63R8IN5V2L3VFGNFET").data());
	EXPECT_EQ(a.timestamp, b.timestamp);
	EXPECT_EQ(a.counter + 1, b.counter);
	scru160::Fields c = scru160::fields(parse_ok("017bdf6431bb33750751eb63beb3c3f8c5969d86").data());
	scru160::Fields d = scru160::fields(parse_ok("017bdf6431bb337662412e6a5758890735c33c2b").data());
	EXPECT_EQ(c.timestamp, d.timestamp);
	EXPECT_EQ(c.counter + 1, d.counter);
}

TEST(Scru160, Base32hexAndHexSpellAnyIdAlike)
{
	std::mt19937_64 rng(160);
	for (int i = 0; i < 20000; i++) {
		scru160::Bytes b;
		for (auto &x : b)
			x = static_cast<std::uint8_t>(rng());
		std::string t = text_of(b), h = hex_of(b);
		EXPECT_EQ(parse_ok(t), b);
		EXPECT_EQ(parse_ok(h), b);
		std::string lower = t, upper = h;
		for (char &c : lower)
			c = ascii_lower(c);
		for (char &c : upper)
			c = ascii_upper(c);
		EXPECT_EQ(parse_ok(lower), b); // decoders ignore case
		EXPECT_EQ(parse_ok(upper), b);
	}
}

TEST(Scru160, TextOrderIsByteOrder)
{
	std::mt19937_64 rng(3);
	scru160::Bytes prev{};
	for (int i = 0; i < 20000; i++) {
		scru160::Bytes b;
		for (auto &x : b)
			x = static_cast<std::uint8_t>(rng() >> (rng() % 8));
		EXPECT_EQ(b < prev, text_of(b) < text_of(prev));
		EXPECT_EQ(b < prev, hex_of(b) < hex_of(prev));
		prev = b;
	}
}

TEST(Scru160, Rejections)
{
	const Rejection cases[] = {
	    {"", TextError::length, 0},
	    {std::string(31, '0'), TextError::length, 31},
	    {std::string(33, '0'), TextError::length, 33},
	    {std::string(39, '0'), TextError::length, 39},
	    {std::string(41, '0'), TextError::length, 41},
	    {std::string(31, '0') + "W", TextError::symbol, 32},  // beyond V
	    {std::string(39, '0') + "g", TextError::symbol, 40},  // hex has no g
	    {std::string(30, '0') + "=0", TextError::symbol, 31}, // no padding
	    {"0x" + std::string(38, '0'), TextError::symbol, 2},
	    {std::string(31, '0') + " ", TextError::symbol, 32},
	    {"05TTUP1H-NCPNH30VEK64KDQT9BSNU4C", TextError::symbol, 9},
	};
	expect_rejections(scru160::parse, cases);
}

TEST(Scru160, PrefixRangesAreBitPrefixesInEitherCase)
{
	std::mt19937_64 rng(1);
	for (int i = 0; i < 500; i++) {
		scru160::Bytes b;
		for (auto &x : b)
			x = static_cast<std::uint8_t>(rng());
		std::string t = text_of(b);
		for (std::size_t n = 1; n <= scru160::text_len; n++) {
			std::string p = t.substr(0, n);
			scru160::PrefixRange r = scru160::prefix_range(p);
			ASSERT_TRUE(r.status.ok());
			EXPECT_LE(r.lo, b);
			EXPECT_GE(r.hi, b);
			EXPECT_EQ(text_of(r.lo).substr(0, n), p);
			EXPECT_EQ(text_of(r.hi).substr(0, n), p);
			EXPECT_EQ(text_of(r.lo).substr(n), std::string(scru160::text_len - n, '0'));
			EXPECT_EQ(text_of(r.hi).substr(n), std::string(scru160::text_len - n, 'V'));
			for (char &c : p)
				c = ascii_lower(c);
			EXPECT_EQ(scru160::prefix_range(p).lo, r.lo);
		}
	}
	scru160::PrefixRange all = scru160::prefix_range(""); // every value
	ASSERT_TRUE(all.status.ok());
	EXPECT_EQ(text_of(all.lo), std::string(scru160::text_len, '0'));
	EXPECT_EQ(text_of(all.hi), std::string(scru160::text_len, 'V'));
	EXPECT_EQ(scru160::prefix_range("W").status.error, TextError::symbol);
	EXPECT_EQ(scru160::prefix_range(std::string(33, '0')).status.error, TextError::prefix_length);
}

scru160::Randomness randomness(std::uint16_t seed)
{
	scru160::Randomness r{seed, 0xABCD, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
	return r;
}

TEST(Scru160Generator, NewMillisecondSameMillisecondClockBack)
{
	scru160::State s;
	scru160::Generated g = scru160::generate(s, 1632459059643, randomness(0xFFFF));
	ASSERT_TRUE(g.ok);
	scru160::Fields f = scru160::fields(g.value.data());
	EXPECT_EQ(f.timestamp, 1632459059643u);
	EXPECT_EQ(f.counter, 0x7FFFu); // a 15-bit seed
	EXPECT_EQ(f.random16, 0xABCDu);
	EXPECT_EQ(f.random80[9], 10);
	scru160::Bytes prev = g.value;
	g = scru160::generate(s, 1632459059643, randomness(5)); // same ms: count on
	EXPECT_EQ(scru160::fields(g.value.data()).counter, 0x8000u);
	EXPECT_GT(g.value, prev);
	prev = g.value;
	g = scru160::generate(s, 1632459050000, randomness(5)); // the clock stepped back: keep the last ms, count on
	EXPECT_EQ(scru160::fields(g.value.data()).timestamp, 1632459059643u);
	EXPECT_EQ(scru160::fields(g.value.data()).counter, 0x8001u);
	EXPECT_GT(g.value, prev);
	g = scru160::generate(s, 1632459059644, randomness(7)); // a new ms: a new seed
	EXPECT_EQ(scru160::fields(g.value.data()).counter, 7u);
}

TEST(Scru160Generator, CounterOverflowMovesToTheNextMillisecond)
{
	scru160::State s{1000, 0xFFFF};
	scru160::Generated g = scru160::generate(s, 1000, randomness(3));
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(scru160::fields(g.value.data()).timestamp, 1001u);
	EXPECT_EQ(scru160::fields(g.value.data()).counter, 3u);
}

TEST(Scru160Generator, NeverTheReservedTimestamps)
{
	scru160::State s;
	scru160::Generated g = scru160::generate(s, 0, randomness(0));
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(scru160::fields(g.value.data()).timestamp, 1u); // not 0
	scru160::State late;
	EXPECT_TRUE(scru160::generate(late, scru160::max_timestamp - 1, randomness(0)).ok);
	EXPECT_FALSE(scru160::generate(late, scru160::max_timestamp, randomness(0)).ok);
	scru160::State full{scru160::max_timestamp - 1, 0xFFFF};
	EXPECT_FALSE(scru160::generate(full, 0, randomness(0)).ok); // overflow would reach 2^48-1
}

TEST(Scru160Generator, MonotonicOverManyCalls)
{
	scru160::State s;
	std::mt19937 rng(2);
	scru160::Bytes prev{};
	std::int64_t clock = 1700000000000;
	for (int i = 0; i < 200000; i++) {
		if (rng() % 1000 == 0)
			clock -= rng() % 50; // occasional steps back
		else if (rng() % 100 == 0)
			clock += 1;
		scru160::Generated g = scru160::generate(s, clock, randomness(static_cast<std::uint16_t>(rng())));
		ASSERT_TRUE(g.ok);
		ASSERT_GT(g.value, prev);
		prev = g.value;
	}
}

} // namespace
