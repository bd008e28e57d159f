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
