// Every format's descriptor (src/core/format.hpp) agrees with the format's own functions: the length of its
// text, its alphabet's first and last symbols as a prefix's padding (which the SQL edition's prefix bounds
// use), its time scale in both directions. Everything else (the PostgreSQL types and planner, the public
// forms, the command-line tool, the SQL edition's constants) reads the descriptor, so a format described
// wrongly fails here once rather than differently in each of them.
#include <gtest/gtest.h>

#include <string>

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"

using namespace idtypes;

namespace {

// A format's canonical text and time, by its own functions, for an 8-byte value and for a byte array.
template <std::size_t N, auto Format>
std::string u64_text(std::uint64_t v)
{
	char out[N];
	Format(v, out);
	return std::string(out, N);
}
template <std::size_t N, auto Format, typename Bytes>
std::string bytes_text(const Bytes &v)
{
	char out[N];
	Format(v.data(), out);
	return std::string(out, N);
}
template <auto Units, typename Bytes>
std::int64_t bytes_units(const Bytes &v)
{
	return Units(v.data());
}

// The checks every format shares: Format = its descriptor; Text(v) its canonical text; Units(v) its time.
template <typename Text, typename Units, typename PrefixRange, typename At>
void check(const Format &d, const TimeScale &scale, Text text, Units units, PrefixRange prefix_range, At min_at,
           At max_at)
{
	SCOPED_TRACE(d.name);
	EXPECT_EQ(d.scale.epoch_us, scale.epoch_us);
	EXPECT_EQ(d.scale.unit_us, scale.unit_us);
	EXPECT_EQ(d.scale.max_units, scale.max_units);
	EXPECT_EQ(d.rules.max_prefix, d.text_len);
	for (std::int64_t u : {std::int64_t{0}, std::int64_t{1}, d.scale.max_units / 2, d.scale.max_units}) {
		EXPECT_EQ(units(min_at(u)), u);
		EXPECT_EQ(units(max_at(u)), u);
	}
	std::string low = text(min_at(0));
	ASSERT_EQ(low.size(), d.text_len);
	EXPECT_EQ(low, std::string(d.text_len, d.alphabet.symbols.front())) << "the smallest ID's text";
	// a one-symbol prefix selects the texts padded with the first symbol up to those padded with the last
	std::string p(1, d.alphabet.symbols.front());
	auto r = prefix_range(p);
	ASSERT_TRUE(r.status.ok());
	ASSERT_FALSE(r.empty);
	EXPECT_EQ(text(r.lo), p + std::string(d.text_len - 1, d.alphabet.symbols.front()));
	EXPECT_EQ(text(r.hi), p + std::string(d.text_len - 1, d.alphabet.symbols.back()));
}

TEST(Descriptor, Timeid)
{
	namespace f = timeid;
	check(f::descriptor, f::time_scale, u64_text<f::text_len, f::format>, f::units, f::prefix_range, f::min_at,
	      f::max_at);
	EXPECT_EQ(f::units(f::make(f::max_micros, 0)), static_cast<std::int64_t>(f::max_micros));
}

TEST(Descriptor, Uid11)
{
	namespace f = uid11;
	check(f::descriptor, f::time_scale, u64_text<f::text_len, f::format>, f::units, f::prefix_range, f::min_at,
	      f::max_at);
}

TEST(Descriptor, Tbsl)
{
	namespace f = tbsl;
	check(f::descriptor, f::time_scale, bytes_text<f::text_len, f::format, f::Bytes>, bytes_units<f::units, f::Bytes>,
	      f::prefix_range, f::min_at, f::max_at);
}

TEST(Descriptor, Scru160)
{
	namespace f = scru160;
	check(f::descriptor, f::time_scale, bytes_text<f::text_len, f::format, f::Bytes>, bytes_units<f::units, f::Bytes>,
	      f::prefix_range, f::min_at, f::max_at);
}

// uuid's text carries its version and variant, so its prefixes are not plain padding: its scale only.
TEST(Descriptor, Uuid7)
{
	namespace f = uuid7;
	EXPECT_EQ(f::descriptor.scale.max_units, f::time_scale.max_units);
	EXPECT_EQ(f::descriptor.text_len, f::hex_len);
	for (std::int64_t u : {std::int64_t{0}, std::int64_t{1}, f::time_scale.max_units}) {
		EXPECT_EQ(f::units(f::min_at(u).data()), u);
		EXPECT_EQ(f::units(f::max_at(u).data()), u);
	}
}

} // namespace
