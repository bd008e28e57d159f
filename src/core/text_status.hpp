// Why a text did not parse, in a form every format shares: an error kind plus the 1-based position and
// byte it concerns. The PostgreSQL layer turns it into the DETAIL of a 22P02 error via describe().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/alphabet.hpp"

namespace idtypes {

enum class TextError : std::uint8_t {
	none,
	length,        // wrong number of symbols
	symbol,        // a byte outside the alphabet
	first_symbol,  // the leading symbol would set bits the value does not have
	too_large,     // the whole value exceeds the format's maximum
	prefix_length, // a prefix longer than the canonical text
};

struct TextStatus {             // 8 bytes, returned in one register
	std::uint32_t position = 0; // 1-based byte position for symbol errors; the length found for length errors
	TextError error = TextError::none;
	unsigned char byte = 0;

	constexpr bool ok() const noexcept { return error == TextError::none; }
};

// The sentences a format contributes to its error details.
struct TextRules {
	const char *length;       // "13 characters"
	const char *alphabet;     // "the base32-sortable alphabet (234567abcdefghijklmnopqrstuvwxyz)"
	const char *first_symbol; // "one of 234567abcdefghij"
	const char *too_large;    // "The value exceeds 2^64-1."
	unsigned max_prefix;      // symbols in the canonical text
};

constexpr std::size_t detail_size = 256;

// Writes a one-sentence explanation of a failed status (e.g. `Character 4 ("!") is not in ...`).
void describe(const TextStatus &status, const TextRules &rules, char (&out)[detail_size]) noexcept;

constexpr TextStatus fail(TextError e, std::uint32_t position = 0, unsigned char byte = 0) noexcept
{
	return TextStatus{position, e, byte};
}

// The error for the first byte of `text` outside `alphabet`; there must be one. Decoders check validity for
// a whole text at once (no branch per symbol) and look up where it failed only then.
inline TextStatus first_invalid_symbol(std::string_view text, const Alphabet &alphabet) noexcept
{
	std::size_t i = 0;
	while (alphabet.value_of(text[i]) >= 0)
		i++;
	return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(text[i]));
}

// Every format's parse is `TextStatus parse(std::string_view text, V &out)` over its value type (uint64_t
// or a byte array): it writes the ID where the caller wants it (for byte arrays, straight into the
// PostgreSQL datum; returning the array in a struct cost COPY FROM ~45 ns a value in copies and
// store-forwarding stalls). `out` is unspecified when the status is not ok.

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
