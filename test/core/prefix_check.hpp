// Shared by the format tests: the range a prefix selects must be exactly the values whose canonical text
// starts with it — both ends carry the prefix, and the values just outside do not.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

// For `count` random 64-bit values and every prefix length of their text: PrefixRange(prefix) is exact.
// text_of(std::uint64_t) -> std::string; prefix_range(std::string) -> {status, empty, lo, hi}.
template <typename TextOf, typename PrefixRangeOf>
void expect_exact_u64_prefixes(TextOf text_of, PrefixRangeOf prefix_range, unsigned seed, int count)
{
	std::mt19937_64 rng(seed);
	for (int i = 0; i < count; i++) {
		std::uint64_t v = rng();
		std::string t = text_of(v);
		for (std::size_t n = 1; n <= t.size(); n++) {
			std::string p = t.substr(0, n);
			auto r = prefix_range(p);
			ASSERT_TRUE(r.status.ok()) << p;
			ASSERT_FALSE(r.empty) << p;
			EXPECT_LE(r.lo, v);
			EXPECT_GE(r.hi, v);
			EXPECT_EQ(text_of(r.lo).substr(0, n), p);
			EXPECT_EQ(text_of(r.hi).substr(0, n), p);
			if (r.lo > 0) {
				EXPECT_NE(text_of(r.lo - 1).substr(0, n), p);
			}
			if (r.hi < ~std::uint64_t{0}) {
				EXPECT_NE(text_of(r.hi + 1).substr(0, n), p);
			}
		}
	}
}
