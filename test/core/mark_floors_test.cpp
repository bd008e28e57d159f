// A generator state started or raised at a mark issues only IDs past every ID its format could have issued
// up to the mark, and raising never lowers a state that is already past it.
#include "core/mark_floors.hpp"

#include "core/timeid.hpp"
#include "core/uid11.hpp"

#include <gtest/gtest.h>

using namespace idtypes;

namespace {

constexpr std::int64_t mark = 1764000000123456;   // 2025-11-24, µs
constexpr std::int64_t behind = mark - 120000000; // a clock two minutes behind the mark

scru160::Randomness randomness()
{
	return scru160::Randomness{0x7FFF, 0xFFFF, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}};
}

} // namespace

TEST(MarkFloors, EveryFormatContinuesPastTheMarkWithTheClockBehind)
{
	const mark_floors::Floors f = mark_floors::floors_past(mark);
	EXPECT_GT(timeid::next_micros(f.timeid_last_micros, behind), static_cast<std::uint64_t>(mark));

	// the largest xid of the mark's millisecond, then anything the clock gives
	const uid11::Generated x = uid11::next_xid(f.uid11_last, behind / 1000, uid11::xid_max_random);
	ASSERT_TRUE(x.ok);
	EXPECT_GT(x.value,
	          uid11::make_xid(static_cast<std::uint64_t>(mark / 1000 - uid11::xid_epoch_ms), uid11::xid_max_random));

	const uid11::Generated t = uid11::next_ticket(f.fullrand_last_ticket, behind);
	ASSERT_TRUE(t.ok);
	EXPECT_GT(uid11::ticket_time_us(t.value), mark);

	EXPECT_GT(f.tbsl_last_us, mark);

	scru160::State s;
	s.timestamp = static_cast<std::uint64_t>(behind / 1000);
	mark_floors::raise(s, f);
	const scru160::Generated g = scru160::generate(s, behind / 1000, randomness());
	ASSERT_TRUE(g.ok);
	EXPECT_GT(s.timestamp, static_cast<std::uint64_t>(mark / 1000));

	uuid7::V7 last{};
	mark_floors::raise(last, f);
	const uuid7::Generated u = uuid7::next(last, behind, ~0ULL);
	ASSERT_TRUE(u.ok);
	EXPECT_GT(u.value.time, uuid7::last_of_ms(static_cast<std::uint64_t>(mark / 1000)).time);
}

TEST(MarkFloors, RaisingNeverLowers)
{
	const mark_floors::Floors f = mark_floors::floors_past(mark);
	tbsl::State t;
	t.last_us = mark + 5000;
	mark_floors::raise(t, f);
	EXPECT_EQ(t.last_us, mark + 5000);
	t.last_us = mark - 5000;
	mark_floors::raise(t, f);
	EXPECT_EQ(t.last_us, mark + 1);

	scru160::State s{static_cast<std::uint64_t>(mark / 1000) + 3, 17};
	mark_floors::raise(s, f);
	EXPECT_EQ(s.timestamp, static_cast<std::uint64_t>(mark / 1000) + 3);
	EXPECT_EQ(s.counter, 17u);

	uuid7::V7 later{f.uuid7_last.time + 1, 0};
	mark_floors::raise(later, f);
	EXPECT_EQ(later.time, f.uuid7_last.time + 1);
}

TEST(MarkFloors, NoMarkIsAFreshState)
{
	const mark_floors::Floors f = mark_floors::floors_past(0);
	EXPECT_EQ(f.timeid_last_micros, 0u);
	EXPECT_EQ(f.uid11_last, 0u);
	EXPECT_EQ(f.tbsl_last_us, -1);
	EXPECT_EQ(f.scru160_ms, 0u);
	EXPECT_EQ(f.scru160_counter, 0u);
}

// A mark past a format's range (a wrong replicated mark that got through, or the year 2200) leaves that
// format's generator refusing, never wrapped to an early time nor overflowed.
TEST(MarkFloors, SaturateAtEachFormatsEnd)
{
	constexpr std::int64_t year_2200 = 7258118400000000;
	for (const std::int64_t m : {year_2200, INT64_MAX}) {
		const mark_floors::Floors f = mark_floors::floors_past(m);
		EXPECT_GE(f.timeid_last_micros, static_cast<std::uint64_t>(year_2200));
		if (m == INT64_MAX) { // past timeid's and scru160's ranges (2200 is inside them)
			EXPECT_FALSE(timeid::next_micros(f.timeid_last_micros, 0) <= timeid::max_micros);
		}
		EXPECT_FALSE(uid11::next_xid(f.uid11_last, year_2200 / 1000, 0).ok); // not 2060: refused
		EXPECT_EQ(f.uid11_last, uid11::make_xid(uid11::xid_max_delta, uid11::xid_max_random));
		EXPECT_FALSE(uid11::next_ticket(f.fullrand_last_ticket, 0).ok);
		EXPECT_GE(f.tbsl_last_us, year_2200); // no overflow to a negative time
		scru160::State s;
		mark_floors::raise(s, f);
		EXPECT_EQ(scru160::generate(s, 0, randomness()).ok, m != INT64_MAX);
		uuid7::V7 last{};
		mark_floors::raise(last, f);
		EXPECT_EQ(last.time >> uuid7::fraction_bits, m > static_cast<std::int64_t>(uuid7::max_ms) * 1000
		                                                 ? uuid7::max_ms
		                                                 : static_cast<std::uint64_t>(m / 1000));
	}
	EXPECT_EQ(mark_floors::floors_past(INT64_MAX).tbsl_last_us, INT64_MAX);
}

TEST(MarkFloors, NegativeMarkIsNoMark)
{
	const mark_floors::Floors f = mark_floors::floors_past(-5);
	EXPECT_EQ(f.timeid_last_micros, 0u);
	EXPECT_EQ(f.tbsl_last_us, -1);
}
