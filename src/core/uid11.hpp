// uid11: a 64-bit unsigned payload written as exactly 11 Base58 (Bitcoin alphabet) symbols, most
// significant first, left-padded with '1'; and its xid profile (42-bit milliseconds since
// 2011-11-11T11:11:11.111Z, 22 random bits). Spec: uid11 1.0 (draft), "Fixed-length (11) Base58
// identifier", with its profile xid.
// Base58 is not a power of two: a text prefix is a decimal-like range value*58^k .. +58^k-1, not a bit prefix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::uid11 {

inline constexpr std::size_t text_len = 11;
inline constexpr Alphabet alphabet = make_alphabet("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");
extern const TextRules rules;

// xid profile (spec §8)
inline constexpr std::int64_t xid_epoch_ms = 1321009871111; // 2011-11-11T11:11:11.111Z
inline constexpr unsigned xid_random_bits = 22;
inline constexpr std::uint64_t xid_max_delta = (std::uint64_t{1} << 42) - 1;
inline constexpr std::uint32_t xid_max_random = (1u << xid_random_bits) - 1;
inline constexpr TimeScale time_scale{xid_epoch_ms * 1000, 1000, static_cast<std::int64_t>(xid_max_delta)};

using PrefixRange = idtypes::PrefixRange<std::uint64_t>; // empty: the whole range lies above 2^64-1

[[nodiscard]] TextStatus parse(std::string_view text, std::uint64_t &out) noexcept;
void format(std::uint64_t value, char (&out)[text_len]) noexcept;

// Spec §3.6 and §4: [value(P) * 58^(11-N), + 58^(11-N) - 1], hi clamped to 2^64-1.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

constexpr std::uint64_t make_xid(std::uint64_t delta_ms, std::uint32_t random) noexcept
{
	return (delta_ms << xid_random_bits) | (random & xid_max_random);
}
constexpr std::uint64_t xid_delta(std::uint64_t value) noexcept { return value >> xid_random_bits; }
constexpr std::uint32_t xid_random(std::uint64_t value) noexcept
{
	return static_cast<std::uint32_t>(value & xid_max_random);
}
constexpr std::uint64_t min_at(std::int64_t units) noexcept { return make_xid(static_cast<std::uint64_t>(units), 0); }
constexpr std::uint64_t max_at(std::int64_t units) noexcept
{
	return make_xid(static_cast<std::uint64_t>(units), xid_max_random);
}

struct Generated {
	std::uint64_t value;
	bool ok; // false when the clock is outside the xid range (before 2011-11-11 or after 2151-03-25)
};

// The next xid after `last` (0 when there is none) at the Unix time now_ms.
// A new millisecond takes a random field (spec §8.3); later IDs in the same millisecond, or while the clock is
// behind the last one, add 1..16 to the previous field, and past 2^22-1 move on one millisecond. So one state
// never issues the same xid twice, and its xids increase.
[[nodiscard]] Generated next_xid(std::uint64_t last, std::int64_t now_ms, std::uint32_t random) noexcept;

} // namespace idtypes::uid11
