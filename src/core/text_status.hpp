// Why a text did not parse, in a form every format shares: an error kind plus the 1-based position and
// byte it concerns. The PostgreSQL layer turns it into the DETAIL of a 22P02 error via describe().
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace idtypes {

enum class TextError : std::uint8_t {
	none,
	length,         // wrong number of symbols
	symbol,         // a byte outside the alphabet
	first_symbol,   // the leading symbol would set bits the value does not have
	too_large,      // the whole value exceeds the format's maximum
	empty_prefix,   // a prefix with no symbol
	prefix_length,  // a prefix longer than the canonical text
};

struct TextStatus {
	TextError error = TextError::none;
	std::uint32_t position = 0;   // 1-based byte position for symbol errors; the length found for length errors
	unsigned char byte = 0;

	constexpr bool ok() const noexcept { return error == TextError::none; }
};

// The sentences a format contributes to its error details.
struct TextRules {
	const char *length;        // "13 characters"
	const char *alphabet;      // "the base32-sortable alphabet (234567abcdefghijklmnopqrstuvwxyz)"
	const char *first_symbol;  // "one of 234567abcdefghij"
	const char *too_large;     // "The value exceeds 2^64-1."
	unsigned max_prefix;       // symbols in the canonical text
};

constexpr std::size_t detail_size = 256;

// Writes a one-sentence explanation of a failed status (e.g. `Character 4 ("!") is not in ...`).
void describe(const TextStatus &status, const TextRules &rules, char (&out)[detail_size]) noexcept;

constexpr TextStatus fail(TextError e, std::uint32_t position = 0, unsigned char byte = 0) noexcept
{
	return TextStatus{e, position, byte};
}

// What every format's parse and prefix_range return, over its value type (uint64_t or a byte array).
template <typename V>
struct Parsed {
	V value;
	TextStatus status;
};

// The values whose canonical text starts with a prefix: [lo, hi], or `empty` when the prefix is valid text
// but no value of the format has it (each format says when).
template <typename V>
struct PrefixRange {
	TextStatus status;
	bool empty;
	V lo, hi;
};

static_assert(std::is_trivially_destructible_v<TextStatus>);

} // namespace idtypes
