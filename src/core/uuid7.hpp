// The time layout of UUIDv7 (RFC 9562 §5.7) and of ULIDs stored as uuid: 16 bytes, big-endian, whose first
// 48 bits are Unix milliseconds; what follows (version, variant, random or counter bits) is ordered after the
// time. So, as for the extension's own types, the uuids of a time window or of a hex text prefix form one
// contiguous range of PostgreSQL's uuid order (bytewise), whatever the rest holds. Used for plain uuid columns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/radix2.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::uuid7 {

inline constexpr std::size_t size = 16;
using Bytes = std::array<std::uint8_t, size>;
using Hex = Radix2<size, 4>;

inline constexpr std::size_t hex_len = Hex::symbols; // 32
inline constexpr Alphabet hex = make_alphabet("0123456789abcdef", Case::fold);
extern const TextRules rules;

inline constexpr std::uint64_t max_ms = (std::uint64_t{1} << 48) - 1; // 10889-08-02T05:31:50.655Z
inline constexpr TimeScale time_scale{0, 1000, static_cast<std::int64_t>(max_ms)};

// The first 48 bits: Unix milliseconds for a UUIDv7 or a ULID (any uuid has them).
std::uint64_t unix_ms(const std::uint8_t *id) noexcept;

// Smallest / largest uuid whose first 48 bits are the millisecond: the other 80 bits all zero / all one.
// Neither is itself a UUIDv7 (their version and variant bits are 0 / 1), which is why together they bound
// every UUIDv7 and every ULID of that millisecond.
Bytes min_at(std::int64_t units) noexcept;
Bytes max_at(std::int64_t units) noexcept;

// Lower-case hex, no dashes.
void format_hex(const std::uint8_t *id, char (&out)[hex_len]) noexcept;

using PrefixRange = idtypes::PrefixRange<Bytes>; // never empty: every 128-bit value is a uuid
// The uuids whose 32 hex digits start with the prefix: hex digits in either case, dashes ignored anywhere
// (so prefixes of the canonical 8-4-4-4-12 form work), at most 32 digits.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

} // namespace idtypes::uuid7
