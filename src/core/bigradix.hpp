// Any-base text of an unsigned big-endian byte string of up to 32 bytes, as one whole number with no
// padding: decimal for the numeric casts, bases 16/32/36/58/62 for TBSL's transport encodings.
// Long division by the largest power of the base that fits 32 bits, over 32-bit limbs: no big-number
// library, no allocation, a handful of divisions per chunk of digits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"

namespace idtypes::bigradix {

inline constexpr std::size_t max_bytes = 32;
inline constexpr std::size_t max_digits = 256; // base 2 of 32 bytes; every base >= 2 fits

// Writes the digits of the value, most significant first, without leading zeros (zero is the
// alphabet's zero symbol); returns their count. The base is the alphabet's size.
std::size_t format(const std::uint8_t *be, std::size_t n, const Alphabet &alphabet, char *out) noexcept;

enum class Parse : std::uint8_t { ok, empty, symbol, overflow };

struct Parsed {
	Parse status;
	std::size_t position; // 1-based position of a bad symbol
};

// Reads digits (leading zeros allowed) into an n-byte big-endian value.
Parsed parse(std::string_view digits, const Alphabet &alphabet, std::uint8_t *be, std::size_t n) noexcept;

inline constexpr Alphabet decimal = make_alphabet("0123456789");

} // namespace idtypes::bigradix
