// uid11 core: the spec's test vectors (§8.6), strict decoding and every rejection (§3.4, §7), the
// overflow the regex alone lets through, round trips, prefix ranges (§3.6, §4) and the xid profile.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/uid11.hpp"
#include "parse_check.hpp"
#include "prefix_check.hpp"

using namespace idtypes;

namespace {

std::string text_of(std::uint64_t v)
{
	char out[uid11::text_len];
	uid11::format(v, out);
	return std::string(out, sizeof out);
}

// Reference: repeated division, the spec's pseudocode (§9), then left-padding with '1'.
std::string reference_encode(std::uint64_t v)
{
	std::string s;
	do {
		s.insert(s.begin(), uid11::alphabet.symbols[v % 58]);
		v /= 58;
	} while (v);
	return std::string(11 - s.size(), '1') + s;
}

TEST(Uid11, SpecVectors)
{
	EXPECT_EQ(text_of(uid11::make_xid(0, 0)), "11111111111");
	EXPECT_EQ(uid11::make_xid(1, 0), 0x0000000000400000u);
	EXPECT_EQ(text_of(uid11::make_xid(1, 0)), "1111111NVpb");
	EXPECT_EQ(uid11::make_xid(86400000, 0), 0x0001499700000000u);
	EXPECT_EQ(text_of(uid11::make_xid(86400000, 0)), "113q8KFkAEs");
	EXPECT_EQ(parsed(uid11::parse, "113q8KFkAEs").value, 0x0001499700000000u);
}

TEST(Uid11, Extremes)
{
	EXPECT_EQ(text_of(~std::uint64_t{0}), "jpXCZedGfVQ");
	EXPECT_EQ(parsed(uid11::parse, "jpXCZedGfVQ").value, ~std::uint64_t{0});
	EXPECT_TRUE(parsed(uid11::parse, "jpXCZedGfVQ").status.ok());
	EXPECT_EQ(parsed(uid11::parse, "jpXCZedGfVR").status.error, TextError::too_large); // 2^64
	EXPECT_EQ(parsed(uid11::parse, "zzzzzzzzzzz").status.error, TextError::too_large);
	EXPECT_EQ(parsed(uid11::parse, "k1111111111").status.error, TextError::too_large);
	EXPECT_TRUE(parsed(uid11::parse, "j1111111111").status.ok());
}

TEST(Uid11, Rejections)
{
	const Rejection cases[] = {
	    {"", TextError::length, 0},
	    {"1111111111", TextError::length, 10},
	    {"111111111111", TextError::length, 12},
	    {"0111111111a", TextError::symbol, 1},
	    {"1O111111111", TextError::symbol, 2},
	    {"11I11111111", TextError::symbol, 3},
	    {"111l1111111", TextError::symbol, 4},
	    {"1111-111111", TextError::symbol, 5},
	    {"11111111 11", TextError::symbol, 9},
	    {"1111111111\n", TextError::symbol, 11},
	};
	expect_rejections(uid11::parse, cases);
}

TEST(Uid11, RandomRoundTripsMatchTheReferenceAndSortAsText)
{
	std::mt19937_64 rng(11);
	std::uint64_t prev = 0;
	for (int i = 0; i < 200000; i++) {
		std::uint64_t v = (i % 3 == 0) ? rng() >> (rng() % 64) : rng(); // small values too
		std::string t = text_of(v);
		ASSERT_EQ(t, reference_encode(v));
		auto p = parsed(uid11::parse, t);
		ASSERT_TRUE(p.status.ok());
		ASSERT_EQ(p.value, v);
		EXPECT_EQ(v < prev, t < text_of(prev));
		prev = v;
	}
}

TEST(Uid11, PrefixRangesMatchTheCanonicalText)
{
	expect_exact_u64_prefixes(
	    text_of, [](const std::string &p) { return uid11::prefix_range(p); }, 5, 3000);
}

TEST(Uid11, PrefixesAtTheTopAreClampedOrEmpty)
{
	uid11::PrefixRange j = uid11::prefix_range("jpXCZedGfV");
	ASSERT_FALSE(j.empty);
	EXPECT_EQ(j.hi, ~std::uint64_t{0}); // ...VQ is the last value; VR..Vz lie above 2^64-1
	EXPECT_EQ(text_of(j.lo), "jpXCZedGfV1");
	EXPECT_TRUE(uid11::prefix_range("jpXCZedGfVR").empty);
	EXPECT_TRUE(uid11::prefix_range("k").empty);
	EXPECT_TRUE(uid11::prefix_range("zzzzzzzzzzz").empty);
	uid11::PrefixRange one = uid11::prefix_range("1");
	EXPECT_EQ(one.lo, 0u);
	EXPECT_EQ(one.hi, 430804206899405823u);           // 58^10 - 1
	uid11::PrefixRange all = uid11::prefix_range(""); // every value
	ASSERT_TRUE(all.status.ok());
	EXPECT_FALSE(all.empty);
	EXPECT_EQ(all.lo, 0u);
	EXPECT_EQ(all.hi, ~std::uint64_t{0});
	EXPECT_EQ(uid11::prefix_range("1O").status.error, TextError::symbol);
	EXPECT_EQ(uid11::prefix_range("111111111111").status.error, TextError::prefix_length);
}

TEST(Uid11, XidFieldsAndGeneration)
{
	std::uint64_t v = uid11::make_xid(uid11::xid_max_delta, uid11::xid_max_random);
	EXPECT_EQ(v, ~std::uint64_t{0});
	EXPECT_EQ(uid11::xid_delta(v), uid11::xid_max_delta);
	EXPECT_EQ(uid11::xid_random(v), uid11::xid_max_random);
	uid11::Generated g = uid11::next_xid(0, uid11::xid_epoch_ms + 86400000, 0);
	ASSERT_TRUE(g.ok);
	EXPECT_EQ(text_of(g.value), "113q8KFkAEs");
	const std::int64_t last_ms = uid11::xid_epoch_ms + static_cast<std::int64_t>(uid11::xid_max_delta);
	EXPECT_FALSE(uid11::next_xid(0, uid11::xid_epoch_ms - 1, 0).ok);
	EXPECT_TRUE(uid11::next_xid(0, last_ms, 0).ok);
	EXPECT_FALSE(uid11::next_xid(0, last_ms + 1, 0).ok);
	// the last xid millisecond is 2151-03-25T18:46:22.214Z (rollover at .215, per the errata; not 05-18)
	EXPECT_EQ(uid11::xid_epoch_ms + static_cast<std::int64_t>(uid11::xid_max_delta), 5719056382214);
}

TEST(Uid11, NextXidIsRandomPerMillisecondThenIncreases)
{
	constexpr std::uint32_t all = 1u << 22;
	const std::int64_t ms = 1721382046481;
	const std::uint64_t delta = static_cast<std::uint64_t>(ms - uid11::xid_epoch_ms);
	uid11::Generated a = uid11::next_xid(0, ms, 0x12345u | (3u << 22));
	EXPECT_EQ(a.value, uid11::make_xid(delta, 0x12345)); // a new millisecond: the random field as drawn
	uid11::Generated b = uid11::next_xid(a.value, ms, 0x3FFFFFu | (3u << 22));
	EXPECT_EQ(b.value, uid11::make_xid(delta, 0x12345 + 4));   // same ms: + 1 + 3
	uid11::Generated c = uid11::next_xid(b.value, ms - 50, 0); // clock back: keep the ms, go on
	EXPECT_EQ(c.value, uid11::make_xid(delta, 0x12345 + 5));
	uid11::Generated d = uid11::next_xid(uid11::make_xid(delta, all - 1), ms, 7); // field used up
	EXPECT_EQ(d.value, uid11::make_xid(delta + 1, 7));
	EXPECT_FALSE(uid11::next_xid(uid11::make_xid(uid11::xid_max_delta, all - 1), ms, 0).ok);
}

TEST(Uid11, NextXidNeverRepeatsUnderAnyRandomness)
{
	std::mt19937 rng(6);
	std::uint64_t last = 0;
	for (int i = 0; i < 100000; i++) {
		uid11::Generated g = uid11::next_xid(last, 1721382046481 + i / 5000, rng());
		ASSERT_TRUE(g.ok);
		ASSERT_GT(g.value, last);
		last = g.value;
	}
}

TEST(Uid11, TicketsIncreaseWithTheClockAndNeverRepeat)
{
	const std::int64_t us = 1721382046481123;
	uid11::Generated a = uid11::next_ticket(0, us);
	ASSERT_TRUE(a.ok);
	EXPECT_EQ(a.value, static_cast<std::uint64_t>(us) << 12);
	EXPECT_EQ(uid11::ticket_time_us(a.value), us);
	EXPECT_EQ(uid11::next_ticket(a.value, us).value, a.value + 1);        // same microsecond: the sequence
	EXPECT_EQ(uid11::next_ticket(a.value, us - 9).value, a.value + 1);    // clock behind: go on from the last
	EXPECT_EQ(uid11::next_ticket(a.value, us + 1).value, a.value + 4096); // a new microsecond
	EXPECT_EQ(uid11::last_ticket_of(us) + 1, uid11::next_ticket(0, us + 1).value);
	EXPECT_FALSE(uid11::next_ticket(0, -1).ok);
	EXPECT_FALSE(uid11::next_ticket(0, std::int64_t{1} << 52).ok); // past the year 2112
	EXPECT_TRUE(uid11::next_ticket(0, (std::int64_t{1} << 52) - 1).ok);
	EXPECT_FALSE(uid11::next_ticket(~std::uint64_t{0}, 0).ok); // used up
}

TEST(Uid11, FullrandIsAKeyedPermutationThatLooksRandom)
{
	const uid11::FullrandKey key{0x0123456789abcdef, 0xfedcba9876543210};
	const uid11::FullrandKey other{0x0123456789abcdef, 0xfedcba9876543211};
	std::mt19937_64 rng(11);
	int bit_counts[64] = {};
	int differs_from_other_key = 0;
	constexpr int n = 100000;
	for (int i = 0; i < n; i++) {
		// consecutive tickets (as a busy server issues them) and arbitrary ones
		std::uint64_t ticket = i % 2 ? rng() : (std::uint64_t{1721382046481123} << 12) + i;
		std::uint64_t v = uid11::fullrand_of_ticket(ticket, key);
		ASSERT_EQ(uid11::ticket_of_fullrand(v, key), ticket); // invertible: no two tickets give one value
		differs_from_other_key += v != uid11::fullrand_of_ticket(ticket, other);
		for (int b = 0; b < 64; b++)
			bit_counts[b] += (v >> b) & 1;
	}
	EXPECT_EQ(differs_from_other_key, n); // one key bit changes every value
	for (int b = 0; b < 64; b++) {        // each bit set about half the time (5 standard deviations: 790)
		EXPECT_GT(bit_counts[b], n / 2 - 790) << "bit " << b;
		EXPECT_LT(bit_counts[b], n / 2 + 790) << "bit " << b;
	}
	EXPECT_EQ(uid11::fullrand_of_ticket(0, key), uid11::fullrand_of_ticket(0, key)); // deterministic
}

// A server that took over from one with another key skips every value a range of that key holds: none of the
// values it issues is one the other key gave a ticket of that range. The range here is half the ticket space,
// so that skips are many (a real range is a server's stint: a tiny share of it).
TEST(Uid11, FullrandSkipsWhatAnotherKeysRangeHolds)
{
	const uid11::FullrandKey old_key{0x0123456789abcdef, 0xfedcba9876543210};
	const uid11::FullrandKey new_key{0x1111111111111111, 0x2222222222222222};
	const uid11::KeyRange range{old_key, 0, std::uint64_t{1} << 63};
	EXPECT_FALSE(uid11::fullrand_clear(uid11::fullrand_of_ticket(12345, old_key), &range, 1));
	EXPECT_FALSE(uid11::fullrand_clear(uid11::fullrand_of_ticket(range.upto, old_key), &range, 1)); // upto is in
	EXPECT_TRUE(uid11::fullrand_clear(uid11::fullrand_of_ticket(0, old_key), &range, 1));           // after is not
	EXPECT_TRUE(uid11::fullrand_clear(uid11::fullrand_of_ticket(range.upto + 1, old_key), &range, 1));
	EXPECT_TRUE(uid11::fullrand_clear(uid11::fullrand_of_ticket(12345, old_key), &range, 0)); // no range
	constexpr int n = 100000;
	int skipped = 0;
	for (int i = 0; i < n; i++) {
		const std::uint64_t v = uid11::fullrand_of_ticket((std::uint64_t{1721382046481123} << 12) + i, new_key);
		if (!uid11::fullrand_clear(v, &range, 1)) {
			skipped++;
			continue;
		}
		ASSERT_GT(uid11::ticket_of_fullrand(v, old_key), range.upto);
	}
	EXPECT_GT(skipped, n / 2 - 790); // about half: what was checked is what was skipped
	EXPECT_LT(skipped, n / 2 + 790);
}

} // namespace
