// Decimal text of an unsigned big-endian byte string of up to 32 bytes (uid11's 64 bits, TBSL's 80), for
// the casts to and from numeric. Schoolbook division by 10^9 over 32-bit limbs: a few dozen operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idtypes::decimal {

inline constexpr std::size_t max_bytes = 32;
inline constexpr std::size_t max_digits = 78; // 2^256 has 78 decimal digits

// Writes the decimal digits of the value (no sign, no leading zeros; "0" for zero); returns their count.
std::size_t format(const std::uint8_t *be, std::size_t n, char *out) noexcept;

enum class Parse : std::uint8_t { ok, syntax, overflow };

// Reads a string of ASCII digits (at least one) into an n-byte big-endian value.
Parse parse(std::string_view digits, std::uint8_t *be, std::size_t n) noexcept;

} // namespace idtypes::decimal
