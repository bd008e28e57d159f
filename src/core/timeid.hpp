// TID ("timestamp identifier", the draft's TimeID; SQL type timeid).
// Specs: the AT Protocol's "Timestamp Identifiers (TIDs)" specification (normative), and the Internet-Draft
// draft-goldman-tid, "The Time-Ordered ID and base32lex Binary Encoding" (dashed display form, prefixes).
// A 64-bit unsigned value: top bit 0 in generated IDs, 53 bits of Unix microseconds, a 10-bit clock id;
// written as 13 base32-sortable symbols (65 bits, so the first symbol holds 4 bits: 2..j).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/format.hpp"
#include "core/radix2.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::timeid {

using Codec = Radix2<8, 5>;

inline constexpr std::size_t text_len = Codec::symbols;       // 13
inline constexpr std::size_t dashed_len = text_len + 3;       // STTT-TTT-TTTT-CC
inline constexpr std::uint64_t max_micros = (1ull << 53) - 1; // what make_timeid and the generator produce
inline constexpr unsigned clock_bits = 10;
inline constexpr unsigned max_clock_id = (1u << clock_bits) - 1;

inline constexpr Alphabet alphabet = make_alphabet("234567abcdefghijklmnopqrstuvwxyz");
extern const TextRules rules;

// Time of every value the type accepts, top-bit ones included (their microseconds reach 2^54-1).
inline constexpr TimeScale time_scale{0, 1, (std::int64_t{1} << 54) - 1};
inline constexpr Format descriptor{"timeid", time_scale, text_len, alphabet, rules};

static_assert(text_len == 13 && Codec::pad == 1);

using PrefixRange =
    idtypes::PrefixRange<std::uint64_t>; // empty: the prefix is valid text but no value has it (first symbol k..z)

struct Generated {
	std::uint64_t value;
	bool ok; // false once the clock passes 2^53-1 microseconds (year 2255)
};

[[nodiscard]] TextStatus parse(std::string_view text, std::uint64_t &out) noexcept;
void format(std::uint64_t value, char (&out)[text_len]) noexcept;
void format_dashed(std::uint64_t value, char (&out)[dashed_len]) noexcept;

// The values whose canonical text starts with the prefix; dashes in the prefix are ignored.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

constexpr std::uint64_t make(std::uint64_t micros, unsigned clock_id) noexcept
{
	return (micros << clock_bits) | clock_id;
}
constexpr std::uint64_t micros(std::uint64_t value) noexcept { return value >> clock_bits; }
constexpr std::int64_t units(std::uint64_t value) noexcept { return static_cast<std::int64_t>(micros(value)); }
constexpr unsigned clock_id(std::uint64_t value) noexcept { return static_cast<unsigned>(value & max_clock_id); }

// Smallest and largest value at a time unit of time_scale.
constexpr std::uint64_t min_at(std::int64_t units) noexcept { return make(static_cast<std::uint64_t>(units), 0); }
constexpr std::uint64_t max_at(std::int64_t units) noexcept
{
	return make(static_cast<std::uint64_t>(units), max_clock_id);
}

// The draft's rule: the current microsecond or the last one issued plus one, whichever is greater.
constexpr std::uint64_t next_micros(std::uint64_t last_micros, std::int64_t now_us) noexcept
{
	std::uint64_t now = now_us < 0 ? 0 : static_cast<std::uint64_t>(now_us);
	return now > last_micros ? now : last_micros + 1;
}

// Next ID for a generator whose last issued microsecond is `last_micros` (updated on success).
[[nodiscard]] Generated generate(std::uint64_t &last_micros, std::int64_t now_us, unsigned clock_id) noexcept;

} // namespace idtypes::timeid
