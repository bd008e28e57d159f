// TID core: the atproto syntax rules and examples, the draft's vectors (with its known errata: see
// docs/types.md, "timeid (TID)"), edges, round trips, prefixes and the generator's monotonic rule.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/timeid.hpp"
#include "parse_check.hpp"
#include "prefix_check.hpp"

using namespace idtypes;
namespace tid = idtypes::timeid;

namespace {

std::string text_of(std::uint64_t v)
{
	char out[tid::text_len];
	tid::format(v, out);
	return std::string(out, sizeof out);
}

std::uint64_t parse_ok(const char *text)
{
	auto p = parsed(tid::parse, text);
	EXPECT_TRUE(p.status.ok()) << text;
	return p.value;
}

TEST(TimeId, DraftExamples)
{
	// 2022-02-22T19:22:22Z, clock 0 (the draft's second example; right as printed)
	EXPECT_EQ(text_of(tid::make(1645557742000000, 0)), "3iso34eqpw222");
	// the draft's first example, corrected (the draft printed the time read in UTC-7)
	std::uint64_t v = tid::make(1721382046481000, 1);
	EXPECT_EQ(text_of(v), "3kxmtyqiinc23");
	char dashed[tid::dashed_len];
	tid::format_dashed(v, dashed);
	EXPECT_EQ(std::string(dashed, sizeof dashed), "3kxm-tyq-iinc-23");
}

TEST(TimeId, AtprotoValidExamples)
{
	for (const char *s : {"3jzfcijpj2z2a", "7777777777777", "3zzzzzzzzzzzz", "2222222222222"}) {
		std::uint64_t v = parse_ok(s);
		EXPECT_EQ(text_of(v), s);
	}
	EXPECT_EQ(parse_ok("2222222222222"), 0u);
}

TEST(TimeId, AtprotoInvalidExamples)
{
	const Rejection cases[] = {
	    {"3jzfcijpj2z21", TextError::symbol, 13}, // not base32
	    {"0000000000000", TextError::symbol, 1},
	    {"3JZFCIJPJ2Z2A", TextError::symbol, 2},   // case-sensitive
	    {"3jzfcijpj2z2aa", TextError::length, 14}, // too long
	    {"3jzfcijpj2z2", TextError::length, 12},   // too short
	    {"222", TextError::length, 3},
	    {"3jzf-cij-pj2z-2a", TextError::length, 16},   // legacy dashes
	    {"zzzzzzzzzzzzz", TextError::first_symbol, 1}, // a 65th bit
	    {"kjzfcijpj2z2a", TextError::first_symbol, 1},
	    {"", TextError::length, 0},
	    {"3jzfcijpj2z2 ", TextError::symbol, 13},
	    {"3jzfcijpj2z2\n", TextError::symbol, 13},
	    {"3jzfcijpj-z2a", TextError::symbol, 10},
	};
	expect_rejections(tid::parse, cases);
}

TEST(TimeId, FirstSymbolsCtoJSetTheTopBitAndSortLast)
{
	std::uint64_t top = parse_ok("c222222222222");
	EXPECT_EQ(top, std::uint64_t{1} << 63);
	EXPECT_EQ(parse_ok("jzzzzzzzzzzzz"), ~std::uint64_t{0});
	EXPECT_GT(top, parse_ok("bzzzzzzzzzzzz"));
	EXPECT_LT(text_of(parse_ok("bzzzzzzzzzzzz")), text_of(top));
}

TEST(TimeId, Edges)
{
	EXPECT_EQ(text_of(tid::make(0, 0)), "2222222222222");
	EXPECT_EQ(text_of(tid::make(0, 1023)), "22222222222zz");
	EXPECT_EQ(text_of(tid::make(tid::max_micros, 1023)), "bzzzzzzzzzzzz");
	EXPECT_EQ(text_of(tid::make(tid::max_micros, 0)), "bzzzzzzzzzz22");
	std::uint64_t v = tid::make(tid::max_micros, 1023);
	EXPECT_EQ(tid::micros(v), tid::max_micros);
	EXPECT_EQ(tid::clock_id(v), 1023u);
	EXPECT_EQ(tid::min_at(5), tid::make(5, 0));
	EXPECT_EQ(tid::max_at(5), tid::make(5, 1023));
}

TEST(TimeId, RandomRoundTripsAndOrder)
{
	std::mt19937_64 rng(42);
	std::uint64_t prev = 0;
	std::string prev_text = text_of(0);
	for (int i = 0; i < 100000; i++) {
		std::uint64_t v = rng();
		std::string t = text_of(v);
		EXPECT_EQ(parse_ok(t.c_str()), v);
		EXPECT_EQ(v < prev, t < prev_text) << "text order must equal unsigned order";
		prev = v;
		prev_text = t;
	}
}

TEST(TimeId, PrefixRangesAreExact)
{
	expect_exact_u64_prefixes(
	    text_of, [](const std::string &p) { return tid::prefix_range(p); }, 7, 2000);
}

TEST(TimeId, PrefixAcceptsDashesAndRejectsBadSymbols)
{
	tid::PrefixRange a = tid::prefix_range("3kxm-tyq");
	tid::PrefixRange b = tid::prefix_range("3kxmtyq");
	ASSERT_TRUE(a.status.ok());
	EXPECT_EQ(a.lo, b.lo);
	EXPECT_EQ(a.hi, b.hi);
	EXPECT_EQ(tid::prefix_range("3kxm-tyq-iinc-23").lo, tid::make(1721382046481000, 1));
	EXPECT_EQ(tid::prefix_range("3K").status.error, TextError::symbol);
	for (std::string_view none : {"", "---"}) { // every value, top-bit ones included
		tid::PrefixRange all = tid::prefix_range(none);
		ASSERT_TRUE(all.status.ok());
		EXPECT_FALSE(all.empty);
		EXPECT_EQ(all.lo, 0u);
		EXPECT_EQ(all.hi, ~std::uint64_t{0});
	}
	EXPECT_EQ(tid::prefix_range("22222222222222").status.error, TextError::prefix_length);
	TextStatus too_long = tid::prefix_range("2222-2222-2222-2222-2222").status; // 20 symbols, dashes not counted
	EXPECT_EQ(too_long.error, TextError::prefix_length);
	EXPECT_EQ(too_long.position, 20u);
	// valid symbols, but a first symbol k..z matches no 64-bit value
	tid::PrefixRange k = tid::prefix_range("k");
	EXPECT_TRUE(k.status.ok());
	EXPECT_TRUE(k.empty);
	tid::PrefixRange all = tid::prefix_range("2");
	EXPECT_EQ(all.lo, 0u);
	EXPECT_EQ(all.hi, (std::uint64_t{1} << 60) - 1);
	tid::PrefixRange j = tid::prefix_range("j");
	EXPECT_EQ(j.hi, ~std::uint64_t{0});
}

TEST(TimeId, GeneratorTakesNowOrLastPlusOne)
{
	std::uint64_t last = 0;
	tid::Generated g = tid::generate(last, 1000, 5);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(tid::micros(g.value), 1000u);
	EXPECT_EQ(tid::clock_id(g.value), 5u);
	g = tid::generate(last, 1000, 5); // same microsecond
	EXPECT_EQ(tid::micros(g.value), 1001u);
	g = tid::generate(last, 900, 5); // clock stepped back
	EXPECT_EQ(tid::micros(g.value), 1002u);
	g = tid::generate(last, 5000, 5); // clock jumps ahead
	EXPECT_EQ(tid::micros(g.value), 5000u);
	EXPECT_EQ(last, 5000u);
}

TEST(TimeId, GeneratorStopsPastTheLayout)
{
	std::uint64_t last = tid::max_micros - 1;
	EXPECT_TRUE(tid::generate(last, 0, 0).ok);
	EXPECT_FALSE(tid::generate(last, 0, 0).ok);
	EXPECT_EQ(last, tid::max_micros);
}

TEST(TimeId, DetailsNameTheRule)
{
	char out[detail_size];
	describe(parsed(tid::parse, "3JZFCIJPJ2Z2A").status, tid::rules, out);
	EXPECT_STREQ(
	    out,
	    "Character 2 (\"J\") is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case).");
	describe(parsed(tid::parse, "kjzfcijpj2z2a").status, tid::rules, out);
	EXPECT_STREQ(out, "The first character must be one of 234567abcdefghij (the value has 64 bits, the text 65).");
}

} // namespace
