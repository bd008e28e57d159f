// Google Benchmark for the core: text codecs and generator steps of every format, in ns per ID.
// Built by CMakeLists.txt when Google Benchmark is installed; run by scripts/bench.sh.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"

using namespace idtypes;

namespace {

constexpr int n = 1024; // a batch of distinct inputs, cycled

std::vector<std::uint64_t> u64s()
{
	std::mt19937_64 rng(1);
	std::vector<std::uint64_t> v(n);
	for (auto &x : v)
		x = rng() >> 1;
	return v;
}

template <std::size_t N>
std::vector<std::array<std::uint8_t, N>> byte_ids(bool tbsl_valid)
{
	std::mt19937_64 rng(2);
	std::vector<std::array<std::uint8_t, N>> v(n);
	for (auto &b : v)
		for (auto &x : b)
			x = static_cast<std::uint8_t>(rng());
	if (tbsl_valid)
		for (auto &b : v)
			b[0] &= 0x7F; // payload below 999999999999999999
	return v;
}

// A format function's ID argument: 64-bit IDs by value, byte-array IDs by pointer.
std::uint64_t id_arg(std::uint64_t v) { return v; }
template <std::size_t N>
const std::uint8_t *id_arg(const std::array<std::uint8_t, N> &b)
{
	return b.data();
}

// Formats the batch of IDs, one per iteration.
template <std::size_t Len, typename Ids, typename Format>
void bench_format(benchmark::State &state, const Ids &ids, Format format)
{
	char out[Len];
	std::size_t i = 0;
	for (auto _ : state) {
		format(id_arg(ids[i++ % n]), out);
		benchmark::DoNotOptimize(out);
	}
}

// Parses the texts of the batch of IDs, one per iteration.
template <std::size_t Len, typename Ids, typename Format, typename V>
void bench_parse(benchmark::State &state, const Ids &ids, Format format,
                 TextStatus (*parse)(std::string_view, V &) noexcept)
{
	std::vector<std::array<char, Len>> texts(n);
	for (int i = 0; i < n; i++)
		format(id_arg(ids[i]), *reinterpret_cast<char(*)[Len]>(texts[i].data()));
	std::size_t i = 0;
	for (auto _ : state) {
		V out;
		benchmark::DoNotOptimize(parse(std::string_view(texts[i++ % n].data(), Len), out));
		benchmark::DoNotOptimize(out);
	}
}

void timeid_format(benchmark::State &s) { bench_format<timeid::text_len>(s, u64s(), timeid::format); }
void timeid_parse(benchmark::State &s) { bench_parse<timeid::text_len>(s, u64s(), timeid::format, timeid::parse); }
void uid11_format(benchmark::State &s) { bench_format<uid11::text_len>(s, u64s(), uid11::format); }
void uid11_parse(benchmark::State &s) { bench_parse<uid11::text_len>(s, u64s(), uid11::format, uid11::parse); }
void tbsl_format(benchmark::State &s) { bench_format<tbsl::text_len>(s, byte_ids<tbsl::size>(true), tbsl::format); }
void tbsl_parse(benchmark::State &s)
{
	bench_parse<tbsl::text_len>(s, byte_ids<tbsl::size>(true), tbsl::format, tbsl::parse);
}
void scru160_format(benchmark::State &s)
{
	bench_format<scru160::text_len>(s, byte_ids<scru160::size>(false), scru160::format);
}
void scru160_parse(benchmark::State &s)
{
	bench_parse<scru160::text_len>(s, byte_ids<scru160::size>(false), scru160::format, scru160::parse);
}

void tbsl_to_base58(benchmark::State &state)
{
	auto v = byte_ids<tbsl::size>(true);
	const Alphabet &a = *tbsl::base_alphabet(58);
	char out[tbsl::max_base_len];
	std::size_t i = 0;
	for (auto _ : state)
		benchmark::DoNotOptimize(tbsl::to_base(v[i++ % n].data(), a, out));
}

void tbsl_from_base58(benchmark::State &state)
{
	auto v = byte_ids<tbsl::size>(true);
	const Alphabet &a = *tbsl::base_alphabet(58);
	std::vector<std::string> texts;
	for (auto &b : v) {
		char out[tbsl::max_base_len];
		texts.emplace_back(out, tbsl::to_base(b.data(), a, out));
	}
	std::size_t i = 0;
	for (auto _ : state)
		benchmark::DoNotOptimize(tbsl::from_base(texts[i++ % n], a));
}

// Generators: one step each at an advancing clock (the clock read and the randomness are the caller's).
void timeid_generate(benchmark::State &state)
{
	std::uint64_t last = 0;
	std::int64_t now = 1700000000000000;
	for (auto _ : state)
		benchmark::DoNotOptimize(timeid::generate(last, now++ / 4, 7));
}

void tbsl_generate_sequenced(benchmark::State &state)
{
	tbsl::State s;
	tbsl::Request r{3, true, tbsl::ClockBackward::wait, 1000000, 0};
	std::int64_t now = 1700000000000000;
	for (auto _ : state)
		benchmark::DoNotOptimize(tbsl::step(s, r, now++ / 4));
}

void uid11_generate(benchmark::State &state)
{
	std::uint64_t last = 0;
	std::int64_t now = 1700000000000;
	std::uint32_t random = 12345;
	for (auto _ : state) {
		random = random * 1664525 + 1013904223;
		uid11::Generated g = uid11::next_xid(last, now++ / 1000, random);
		last = g.value;
		benchmark::DoNotOptimize(g);
	}
}

void scru160_generate(benchmark::State &state)
{
	scru160::State s;
	scru160::Randomness r{};
	std::int64_t now = 1700000000000;
	for (auto _ : state)
		benchmark::DoNotOptimize(scru160::generate(s, now++ / 1000, r));
}

} // namespace

BENCHMARK(timeid_format);
BENCHMARK(timeid_parse);
BENCHMARK(uid11_format);
BENCHMARK(uid11_parse);
BENCHMARK(tbsl_format);
BENCHMARK(tbsl_parse);
BENCHMARK(tbsl_to_base58);
BENCHMARK(tbsl_from_base58);
BENCHMARK(scru160_format);
BENCHMARK(scru160_parse);
BENCHMARK(timeid_generate);
BENCHMARK(tbsl_generate_sequenced);
BENCHMARK(uid11_generate);
BENCHMARK(scru160_generate);
BENCHMARK_MAIN();
