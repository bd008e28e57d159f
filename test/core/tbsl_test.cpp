// TBSL core: canonical text and the payload rule, fields, prefix ranges, base conversions against a
// straightforward big-integer computation, and the generator under an injected clock.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/tbsl.hpp"
#include "parse_check.hpp"

using namespace idtypes;

namespace {

// The reference's numbers: 128-bit unsigned integers, written out rather than unsigned __int128, which
// 32-bit targets (i386, armhf) lack. Only what the checks below use.
struct u128 {
	std::uint64_t hi = 0, lo = 0;
	u128(std::uint64_t v = 0) : lo(v) {}
	friend u128 operator<<(u128 v, int n)
	{
		if (n >= 64)
			return make(v.lo << (n - 64), 0);
		return n == 0 ? v : make(v.hi << n | v.lo >> (64 - n), v.lo << n);
	}
	friend u128 operator>>(u128 v, int n)
	{
		if (n >= 64)
			return make(0, v.hi >> (n - 64));
		return n == 0 ? v : make(v.hi >> n, v.lo >> n | v.hi << (64 - n));
	}
	u128 &operator>>=(int n) { return *this = *this >> n; }
	friend u128 operator|(u128 a, u128 b) { return make(a.hi | b.hi, a.lo | b.lo); }
	friend u128 operator+(u128 a, u128 b) { return make(a.hi + b.hi + (a.lo + b.lo < a.lo), a.lo + b.lo); }
	friend u128 operator-(u128 a, u128 b) { return make(a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo); }
	friend bool operator<(u128 a, u128 b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
	friend bool operator>(u128 a, u128 b) { return b < a; }
	friend bool operator<=(u128 a, u128 b) { return !(b < a); }
	friend bool operator>=(u128 a, u128 b) { return !(a < b); }
	explicit operator bool() const { return hi != 0 || lo != 0; }
	explicit operator std::uint8_t() const { return static_cast<std::uint8_t>(lo); }
	// Divides by D (below 2^32) in place, 32 bits at a time; returns the remainder.
	std::uint64_t divide(std::uint64_t d)
	{
		std::uint64_t rem = 0;
		for (std::uint64_t *half : {&hi, &lo}) {
			std::uint64_t high = (rem << 32) | (*half >> 32);
			rem = high % d;
			std::uint64_t low = (rem << 32) | (*half & 0xFFFFFFFFu);
			rem = low % d;
			*half = (high / d) << 32 | low / d;
		}
		return rem;
	}
	static u128 make(std::uint64_t hi, std::uint64_t lo)
	{
		u128 v;
		v.hi = hi;
		v.lo = lo;
		return v;
	}
};

std::string text_of(const tbsl::Bytes &b)
{
	char out[tbsl::text_len];
	tbsl::format(b.data(), out);
	return std::string(out, sizeof out);
}

u128 value_of(const tbsl::Bytes &b)
{
	u128 v = 0;
	for (std::uint8_t x : b)
		v = (v << 8) | x;
	return v;
}

tbsl::Bytes bytes_of(u128 v)
{
	tbsl::Bytes b;
	for (int i = 9; i >= 0; i--, v >>= 8)
		b[i] = static_cast<std::uint8_t>(v);
	return b;
}

TEST(Tbsl, CanonicalTextIsThePayloadInHexThenTheSuffix)
{
	tbsl::Bytes b = tbsl::from_fields(1700000000, 123456, 7, 0xABCDE);
	char expected[32];
	std::snprintf(expected, sizeof expected, "%015llX%05X", 170000000012345607ull, 0xABCDEu);
	EXPECT_EQ(text_of(b), expected);
	tbsl::Fields f = tbsl::fields(b.data());
	EXPECT_EQ(f.seconds, 1700000000u);
	EXPECT_EQ(f.micros, 123456u);
	EXPECT_EQ(f.machine, 7u);
	EXPECT_EQ(f.suffix, 0xABCDEu);
	EXPECT_EQ(tbsl::unix_us(b.data()), 1700000000123456);
	auto p = parsed(tbsl::parse, expected);
	ASSERT_TRUE(p.status.ok());
	EXPECT_EQ(p.value, b);
}

TEST(Tbsl, Extremes)
{
	EXPECT_EQ(text_of(tbsl::make(0, 0)), "00000000000000000000");
	EXPECT_EQ(text_of(tbsl::make(tbsl::max_payload, tbsl::max_suffix)), "DE0B6B3A763FFFFFFFFF");
	EXPECT_TRUE(parsed(tbsl::parse, "DE0B6B3A763FFFFFFFFF").status.ok());
	EXPECT_EQ(parsed(tbsl::parse, "DE0B6B3A764000000000").status.error, TextError::too_large); // payload 10^18
	EXPECT_EQ(parsed(tbsl::parse, "FFFFFFFFFFFFFFFFFFFF").status.error, TextError::too_large);
	tbsl::Fields f = tbsl::fields(tbsl::make(tbsl::max_payload, 0).data());
	EXPECT_EQ(f.seconds, tbsl::max_seconds);
	EXPECT_EQ(f.micros, tbsl::max_micros);
	EXPECT_EQ(f.machine, tbsl::max_machine);
	EXPECT_EQ(tbsl::min_at(5), tbsl::from_fields(0, 5, 0, 0));
	EXPECT_EQ(tbsl::max_at(5), tbsl::from_fields(0, 5, 99, 0xFFFFF));
}

TEST(Tbsl, Rejections)
{
	const Rejection cases[] = {
	    {"", TextError::length, 0},
	    {"0000000000000000000", TextError::length, 19},
	    {"000000000000000000000", TextError::length, 21},
	    {"0000000000000000000a", TextError::symbol, 20}, // lower case is not canonical
	    {"0000000000000000000G", TextError::symbol, 20},
	    {" 0000000000000000000", TextError::symbol, 1},
	    {"0000000000000000000\n", TextError::symbol, 20},
	    {"0x000000000000000000", TextError::symbol, 2},
	};
	expect_rejections(tbsl::parse, cases);
}

TEST(Tbsl, RandomRoundTripsAndOrder)
{
	std::mt19937_64 rng(9);
	std::string prev_text;
	u128 prev = 0;
	for (int i = 0; i < 50000; i++) {
		tbsl::Bytes b =
		    tbsl::from_fields(rng() % (tbsl::max_seconds + 1), rng() % 1000000, rng() % 100, rng() & tbsl::max_suffix);
		std::string t = text_of(b);
		auto p = parsed(tbsl::parse, t);
		ASSERT_TRUE(p.status.ok()) << t;
		ASSERT_EQ(p.value, b);
		EXPECT_EQ(value_of(b) < prev, t < prev_text);
		prev = value_of(b);
		prev_text = t;
	}
}

TEST(Tbsl, PrefixRangesMatchTheTextAndStopAtTheLargestValidValue)
{
	std::mt19937_64 rng(4);
	const u128 max_valid = value_of(tbsl::make(tbsl::max_payload, tbsl::max_suffix));
	for (int i = 0; i < 1000; i++) {
		tbsl::Bytes b =
		    tbsl::from_fields(rng() % (tbsl::max_seconds + 1), rng() % 1000000, rng() % 100, rng() & tbsl::max_suffix);
		std::string t = text_of(b);
		for (std::size_t n = 1; n <= tbsl::text_len; n++) {
			std::string p = t.substr(0, n);
			tbsl::PrefixRange r = tbsl::prefix_range(p);
			ASSERT_TRUE(r.status.ok());
			ASSERT_FALSE(r.empty);
			EXPECT_LE(value_of(r.lo), value_of(b));
			EXPECT_GE(value_of(r.hi), value_of(b));
			EXPECT_EQ(text_of(r.lo).substr(0, n), p);
			EXPECT_EQ(text_of(r.hi).substr(0, n), p);
			if (value_of(r.lo) > 0) {
				EXPECT_NE(text_of(bytes_of(value_of(r.lo) - 1)).substr(0, n), p);
			}
			if (value_of(r.hi) < max_valid) {
				EXPECT_NE(text_of(bytes_of(value_of(r.hi) + 1)).substr(0, n), p);
			}
		}
	}
	tbsl::PrefixRange top = tbsl::prefix_range("DE0B6B3A763");
	EXPECT_EQ(text_of(top.hi), "DE0B6B3A763FFFFFFFFF");
	tbsl::PrefixRange d = tbsl::prefix_range("D");
	EXPECT_EQ(text_of(d.hi), "DE0B6B3A763FFFFFFFFF");
	EXPECT_TRUE(tbsl::prefix_range("E").empty);
	tbsl::PrefixRange all = tbsl::prefix_range(""); // every valid TBSL
	ASSERT_TRUE(all.status.ok());
	EXPECT_EQ(text_of(all.lo), "00000000000000000000");
	EXPECT_EQ(text_of(all.hi), "DE0B6B3A763FFFFFFFFF");
	EXPECT_TRUE(tbsl::prefix_range("DE0B6B3A764").empty);
	EXPECT_EQ(tbsl::prefix_range("d").status.error, TextError::symbol);
	EXPECT_EQ(tbsl::prefix_range("000000000000000000000").status.error, TextError::prefix_length);
}

// The reference: the 80-bit number in the base by repeated division (what Infocyph\UID computes).
std::string reference_to_base(u128 v, std::string_view symbols)
{
	std::string s;
	do
		s.insert(s.begin(), symbols[static_cast<std::size_t>(v.divide(symbols.size()))]);
	while (v);
	return s;
}

TEST(Tbsl, BaseConversionsAgreeWithABigIntegerComputation)
{
	std::mt19937_64 rng(8);
	std::vector<u128> values = {0, 1, 57, 58, 61, 62, (u128{1} << 80) - 1, (u128{1} << 64), (u128{1} << 79)};
	for (int i = 0; i < 5000; i++)
		values.push_back(((u128{rng()} << 64) | rng()) >> (48 + rng() % 80));
	for (int base : {16, 32, 36, 58, 62}) {
		const Alphabet *a = tbsl::base_alphabet(base);
		ASSERT_NE(a, nullptr);
		for (u128 v : values) {
			tbsl::Bytes b = bytes_of(v);
			char out[tbsl::max_base_len];
			std::string text(out, tbsl::to_base(b.data(), *a, out));
			ASSERT_EQ(text, reference_to_base(v, a->symbols)) << base;
			tbsl::BaseParsed back = tbsl::from_base(text, *a);
			if (tbsl::payload(b.data()) <= tbsl::max_payload) {
				ASSERT_EQ(back.status, tbsl::FromBase::ok);
				ASSERT_EQ(back.value, b);
			} else {
				ASSERT_EQ(back.status, tbsl::FromBase::payload);
			}
		}
		// the longest text each base writes: 2^80-1
		char out[tbsl::max_base_len];
		tbsl::Bytes max = bytes_of((u128{1} << 80) - 1);
		std::size_t len = tbsl::to_base(max.data(), *a, out);
		EXPECT_EQ(len, reference_to_base((u128{1} << 80) - 1, a->symbols).size());
	}
	EXPECT_EQ(tbsl::base_alphabet(10), nullptr);
	EXPECT_EQ(tbsl::base_alphabet(64), nullptr);
}

TEST(Tbsl, FromBaseRules)
{
	const Alphabet &b16 = *tbsl::base_alphabet(16);
	const Alphabet &b58 = *tbsl::base_alphabet(58);
	EXPECT_EQ(tbsl::from_base("ff", b16).value, tbsl::from_base("FF", b16).value);    // case-insensitive
	EXPECT_EQ(tbsl::from_base("000ff", b16).value, tbsl::from_base("ff", b16).value); // leading zeros
	EXPECT_EQ(tbsl::from_base("", b16).status, tbsl::FromBase::empty);
	EXPECT_EQ(tbsl::from_base("fg", b16).status, tbsl::FromBase::symbol);
	EXPECT_EQ(tbsl::from_base("fg", b16).position, 2u);
	EXPECT_EQ(tbsl::from_base("100000000000000000000", b16).status, tbsl::FromBase::too_large); // 2^80
	EXPECT_EQ(tbsl::from_base("0", b58).status, tbsl::FromBase::symbol);                        // base 58 has no 0
	EXPECT_EQ(tbsl::from_base("1", b58).status, tbsl::FromBase::ok);                            // its zero digit
	char out[tbsl::max_base_len];
	tbsl::Bytes zero = tbsl::make(0, 0);
	EXPECT_EQ(std::string(out, tbsl::to_base(zero.data(), b58, out)), "1");
	EXPECT_EQ(std::string(out, tbsl::to_base(zero.data(), b16, out)), "0");
	EXPECT_EQ(tbsl::from_base("aB", *tbsl::base_alphabet(62)).value, tbsl::make(0, 36 * 62 + 11));
}

// A scripted clock: returns the scripted times in turn, then keeps the last one advancing by `tick`.
struct FakeClock {
	std::vector<std::int64_t> times;
	std::size_t next = 0;
	std::int64_t tick = 1;
	int pauses = 0;
	bool allow_pause = true;

	static std::int64_t now(void *ctx) noexcept
	{
		auto *c = static_cast<FakeClock *>(ctx);
		if (c->next < c->times.size())
			return c->times[c->next++];
		return c->times.back() += c->tick;
	}
	static bool pause(void *ctx) noexcept
	{
		auto *c = static_cast<FakeClock *>(ctx);
		c->pauses++;
		return c->allow_pause;
	}
	tbsl::Clock clock() { return tbsl::Clock{now, pause, this}; }
};

tbsl::Request request(bool sequenced, tbsl::ClockBackward policy = tbsl::ClockBackward::wait, std::uint32_t machine = 3)
{
	return tbsl::Request{machine, sequenced, policy, 1000000, 0x12345};
}

TEST(TbslGenerator, RandomModeCarriesTheTimeAndMachine)
{
	tbsl::State s;
	FakeClock c{{1700000000000001}};
	tbsl::Generated g = tbsl::generate(s, request(false), c.clock());
	ASSERT_EQ(g.status, tbsl::Status::ok);
	tbsl::Fields f = tbsl::fields(g.value.data());
	EXPECT_EQ(f.seconds, 1700000000u);
	EXPECT_EQ(f.micros, 1u);
	EXPECT_EQ(f.machine, 3u);
	EXPECT_EQ(f.suffix, 0x12345u);
	// the same microsecond again is fine in random mode: the suffix grows by 1..16
	c.times = {1700000000000001};
	c.next = 0;
	tbsl::Generated again = tbsl::generate(s, request(false), c.clock());
	EXPECT_EQ(again.status, tbsl::Status::ok);
	EXPECT_EQ(tbsl::suffix(again.value.data()), 0x12345u + 1);
	EXPECT_EQ(c.pauses, 0);
}

TEST(TbslGenerator, SequencedModeCountsFromZeroPerMachineAndMicrosecond)
{
	tbsl::State s;
	FakeClock c{{100, 100, 100, 101}};
	auto suffix = [&](std::uint32_t machine) {
		return tbsl::suffix(
		    tbsl::generate(s, request(true, tbsl::ClockBackward::wait, machine), c.clock()).value.data());
	};
	EXPECT_EQ(suffix(3), 0u);
	EXPECT_EQ(suffix(3), 1u);
	EXPECT_EQ(suffix(4), 0u); // another machine id has its own sequence
	EXPECT_EQ(suffix(3), 0u); // a new microsecond starts again at 0
}

TEST(TbslGenerator, SequenceExhaustionWaitsForTheNextMicrosecond)
{
	tbsl::State s;
	s.last_us = 500;
	s.sequences[3] = {500, tbsl::max_suffix};
	FakeClock c{{500, 500, 500, 501}};
	tbsl::Generated g = tbsl::generate(s, request(true), c.clock());
	ASSERT_EQ(g.status, tbsl::Status::ok);
	EXPECT_EQ(tbsl::unix_us(g.value.data()), 501);
	EXPECT_EQ(tbsl::suffix(g.value.data()), 0u);
	EXPECT_EQ(c.pauses, 3);
}

TEST(TbslGenerator, ClockOneMicrosecondBehindWaitsOrErrorsPerPolicy)
{
	tbsl::State s;
	s.last_us = 1000;
	FakeClock c{{999, 999, 1000}};
	tbsl::Generated g = tbsl::generate(s, request(false, tbsl::ClockBackward::wait), c.clock());
	ASSERT_EQ(g.status, tbsl::Status::ok);
	EXPECT_EQ(tbsl::unix_us(g.value.data()), 1000);
	EXPECT_EQ(c.pauses, 2);

	FakeClock e{{999}};
	g = tbsl::generate(s, request(false, tbsl::ClockBackward::error), e.clock());
	EXPECT_EQ(g.status, tbsl::Status::clock_behind);
	EXPECT_EQ(g.behind_us, 1);
	EXPECT_EQ(e.pauses, 0);
}

TEST(TbslGenerator, WaitGivesUpAfterTheLimit)
{
	tbsl::State s;
	s.last_us = 10000000;
	FakeClock c{{5000000}};
	c.tick = 1000; // the clock moves on 1 ms per reading but stays 5 s behind for longer than the 1 s limit
	tbsl::Generated g = tbsl::generate(s, request(false, tbsl::ClockBackward::wait), c.clock());
	EXPECT_EQ(g.status, tbsl::Status::wait_timeout);
	EXPECT_GE(c.pauses, 1000);
	EXPECT_LE(c.pauses, 1002);
}

TEST(TbslGenerator, AnInterruptedWaitStops)
{
	tbsl::State s;
	s.last_us = 1000;
	FakeClock c{{10}};
	c.allow_pause = false;
	EXPECT_EQ(tbsl::generate(s, request(false), c.clock()).status, tbsl::Status::interrupted);
}

TEST(TbslGenerator, ClockOutsideTheFormat)
{
	tbsl::State s;
	FakeClock c{{10000000000000000}}; // second 10000000000 has 11 digits
	EXPECT_EQ(tbsl::generate(s, request(false), c.clock()).status, tbsl::Status::clock_range);
}

TEST(TbslGenerator, MixedModesInOneMicrosecondNeverRepeat)
{
	tbsl::State s;
	std::mt19937 rng(12);
	std::vector<tbsl::Bytes> seen;
	for (int i = 0; i < 3000; i++) {
		tbsl::Request r = request(i % 3 == 0);
		r.random = rng();
		tbsl::Step st = tbsl::step(s, r, 777);
		if (st.result != tbsl::StepResult::issued)
			break;
		seen.push_back(st.value);
	}
	ASSERT_GT(seen.size(), 2000u);
	for (std::size_t i = 1; i < seen.size(); i++)
		ASSERT_GT(seen[i], seen[i - 1]);
}

TEST(TbslGenerator, AMicrosecondsSuffixesUsedUpInRandomMode)
{
	tbsl::State s;
	tbsl::Request r = request(false);
	r.random = 0xFFFFFFFF; // suffix 0xFFFFF at once, then nothing is left in this microsecond
	tbsl::Step st = tbsl::step(s, r, 900);
	ASSERT_EQ(st.result, tbsl::StepResult::issued);
	EXPECT_EQ(tbsl::suffix(st.value.data()), tbsl::max_suffix);
	EXPECT_EQ(tbsl::step(s, r, 900).result, tbsl::StepResult::exhausted);
	EXPECT_EQ(tbsl::step(s, r, 901).result, tbsl::StepResult::issued);
}

} // namespace

// Two generators on one state, as two sessions: the other one issues a TBSL just before this one's step.
// The clock is read inside the step (under the lock of a shared state), so this one's reading is never
// older than the other's TBSL, and `error` does not take it for a clock that went backwards.
TEST(TbslGenerator, TheClockIsReadWhereTheStepRuns)
{
	struct Racing {
		tbsl::State state;
		int steps = 0;
		static tbsl::Step step(void *ctx, const tbsl::Request &req, const tbsl::Clock &clock) noexcept
		{
			auto *r = static_cast<Racing *>(ctx);
			r->steps++;
			tbsl::Request other = req;
			other.machine = 9;
			(void)tbsl::step(r->state, other, clock.now_us(clock.ctx)); // the other session, first
			return tbsl::step(r->state, req, clock.now_us(clock.ctx));
		}
	} racing;
	FakeClock c{{150, 151}};
	tbsl::Generated g =
	    tbsl::generate(tbsl::Stepper{Racing::step, &racing}, request(false, tbsl::ClockBackward::error), c.clock());
	ASSERT_EQ(g.status, tbsl::Status::ok);
	EXPECT_EQ(tbsl::unix_us(g.value.data()), 151);
	EXPECT_EQ(racing.steps, 1);
	EXPECT_EQ(c.next, 2u); // the clock was read by the steps only
}

// A stepper that cannot use the clock (a server whose high-water mark cannot be moved past it) stops the
// generator at once: no waiting, no TBSL of an earlier time.
TEST(TbslGenerator, AStepperWithoutClockStopsAtOnce)
{
	auto no_clock = [](void *, const tbsl::Request &, const tbsl::Clock &clock) noexcept {
		return tbsl::Step{tbsl::StepResult::no_clock, {}, 0, clock.now_us(clock.ctx)};
	};
	FakeClock c{{1000}};
	tbsl::Generated g = tbsl::generate(tbsl::Stepper{no_clock, nullptr}, request(false), c.clock());
	EXPECT_EQ(g.status, tbsl::Status::clock_unavailable);
	EXPECT_EQ(c.pauses, 0);
}
