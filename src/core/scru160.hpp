// SCRU160 v0.1.0: 160 bits = 48-bit Unix milliseconds | 16-bit counter | random16 | random80, big-endian;
// text is 32 base32hex characters (canonical, upper case) or 40 hex, either case on input.
// Spec: SCRU160 v0.1.0 ("Sortable, Clock and Random number-based Unique identifier", the scru160 project).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/format.hpp"
#include "core/radix2.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::scru160 {

inline constexpr std::size_t size = 20;
using Bytes = std::array<std::uint8_t, size>;
using Base32hex = Radix2<size, 5>;
using Hex = Radix2<size, 4>;

inline constexpr std::size_t text_len = Base32hex::symbols; // 32
inline constexpr std::size_t hex_len = Hex::symbols;        // 40
inline constexpr Alphabet base32hex = make_alphabet("0123456789ABCDEFGHIJKLMNOPQRSTUV", Case::fold);
inline constexpr Alphabet hex = make_alphabet("0123456789abcdef", Case::fold);
extern const TextRules rules;

inline constexpr std::uint64_t max_timestamp = (std::uint64_t{1} << 48) - 1; // reserved, like 0
inline constexpr std::uint32_t max_counter = 0xFFFF;
inline constexpr unsigned counter_seed_bits = 15; // the default counter usage starts at a 15-bit random value
inline constexpr TimeScale time_scale{0, 1000, static_cast<std::int64_t>(max_timestamp)};
inline constexpr Format descriptor{"scru160", time_scale, text_len, base32hex, rules};

struct Fields {
	std::uint64_t timestamp; // Unix milliseconds
	std::uint32_t counter, random16;
	std::array<std::uint8_t, 10> random80;
};

Bytes make(std::uint64_t timestamp, std::uint32_t counter, std::uint32_t random16,
           const std::uint8_t *random80) noexcept;
Fields fields(const std::uint8_t *id) noexcept;
std::uint64_t timestamp(const std::uint8_t *id) noexcept;
inline std::int64_t units(const std::uint8_t *id) noexcept { return static_cast<std::int64_t>(timestamp(id)); }

// Smallest / largest SCRU160 at a millisecond (every other field zero / all ones).
Bytes min_at(std::int64_t units) noexcept;
Bytes max_at(std::int64_t units) noexcept;

// 32 base32hex or 40 hex characters, either case.
[[nodiscard]] TextStatus parse(std::string_view text, Bytes &out) noexcept;
void format(const std::uint8_t *id, char (&out)[text_len]) noexcept;    // upper-case base32hex
void format_hex(const std::uint8_t *id, char (&out)[hex_len]) noexcept; // lower-case hex

using PrefixRange = idtypes::PrefixRange<Bytes>; // empty: never: every 160-bit value is a SCRU160
// A base32hex prefix, either case.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

// --- generation: the default counter usage, monotonic per generator
struct State {
	std::uint64_t timestamp = 0; // of the last ID issued; 0 before the first
	std::uint32_t counter = 0;
};

struct Randomness {
	std::uint16_t counter_seed; // its low 15 bits seed the counter of a new millisecond
	std::uint16_t random16;
	std::uint8_t random80[10];
};

struct Generated {
	Bytes value;
	bool ok; // false when the clock is past the last usable millisecond (2^48-2)
};

// A new millisecond starts the counter at a 15-bit random value; further IDs in the same millisecond (or
// while the clock is behind the last one issued) add one; past 0xFFFF the timestamp moves on one
// millisecond. Timestamps 0 and 2^48-1 are never issued.
[[nodiscard]] Generated generate(State &state, std::int64_t now_ms, const Randomness &random) noexcept;

} // namespace idtypes::scru160
