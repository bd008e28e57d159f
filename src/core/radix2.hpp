// Fixed-width text over a big-endian byte string with a power-of-two alphabet (2^Bits symbols), most
// significant symbol first. When Symbols*Bits exceeds the byte string's bits, the first symbol carries
// `pad` leading zero bits (TID: 13 base32 symbols = 65 bits over 64). Because every symbol is a run of
// whole bits, a text prefix is exactly a bit prefix, which makes prefix ranges exact.
// Used by timeid (base32-sortable), tbsl (hex) and scru160 (base32hex, hex).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/bytes.hpp"
#include "core/text_status.hpp"

namespace idtypes {

template <std::size_t Bytes, unsigned Bits>
struct Radix2 {
	static constexpr std::size_t symbols = (Bytes * 8 + Bits - 1) / Bits;
	static constexpr unsigned pad = static_cast<unsigned>(symbols * Bits - Bytes * 8);
	static constexpr unsigned first_limit = 1u << (Bits - pad); // the first symbol's value must be below this
	static constexpr unsigned digit_max = (1u << Bits) - 1;

	using Bytes_t = std::array<std::uint8_t, Bytes>;

	static void encode(const std::uint8_t *bytes, const Alphabet &alphabet, char *out) noexcept
	{
		std::uint32_t acc = 0;
		unsigned have = pad; // the pad bits are leading zeros already "in" the accumulator
		std::size_t next = 0;
		for (std::size_t i = 0; i < symbols; i++) {
			if (have < Bits) {
				acc = (acc << 8) | bytes[next++];
				have += 8;
			}
			out[i] = alphabet.symbols[(acc >> (have - Bits)) & digit_max];
			have -= Bits;
		}
	}

	// Decoding works in groups of symbols that fill whole bytes, each group in a 64-bit accumulator of its
	// own, so that groups do not wait on each other and each is stored at once: all symbols when the value
	// fits 64 bits (the pad bits fall off the top), else the most symbols that make whole bytes, fit 64
	// bits and divide the text evenly (base32: 8 symbols = 5 bytes; hex: 10 symbols = 5 bytes).
	static constexpr std::size_t group_symbols_of() noexcept
	{
		if (Bytes <= 8)
			return symbols;
		const std::size_t unit = std::lcm(Bits, 8u) / Bits;
		std::size_t best = unit;
		for (std::size_t g = unit; g * Bits <= 64; g += unit)
			if (symbols % g == 0)
				best = g;
		return best;
	}
	static constexpr std::size_t group_symbols = group_symbols_of();
	static constexpr std::size_t group_bytes = Bytes <= 8 ? Bytes : group_symbols * Bits / 8;
	static_assert(symbols % group_symbols == 0 && (Bytes <= 8 || pad == 0), "symbols must fill whole groups");

	// Decodes exactly `symbols` symbols into `bytes`, with no branch per symbol (the position of an invalid
	// symbol is looked up only once the whole text failed). This is the hot path of COPY FROM and casts.
	static TextStatus decode(std::string_view text, const Alphabet &alphabet, std::uint8_t *bytes) noexcept
	{
		if (text.size() != symbols)
			return fail(TextError::length, static_cast<std::uint32_t>(text.size()));
		// A valid symbol's value is at most digit_max, an invalid one reads as 0xFF: the OR of all values
		// is above digit_max exactly when some symbol is invalid (and the bytes are then not used).
		unsigned seen = 0;
#pragma GCC unroll 64
		for (std::size_t g = 0; g < symbols / group_symbols; g++) {
			const char *in = text.data() + g * group_symbols;
			std::uint64_t acc = 0;
#pragma GCC unroll 64
			for (std::size_t i = 0; i < group_symbols; i++) {
				unsigned v = static_cast<std::uint8_t>(alphabet.value_of(in[i]));
				seen |= v;
				acc = (acc << Bits) | v;
			}
			store_be<group_bytes>(acc, bytes + g * group_bytes);
		}
		if (seen > digit_max)
			return first_invalid_symbol(text, alphabet);
		if (static_cast<unsigned>(alphabet.value_of(text[0])) >= first_limit)
			return fail(TextError::first_symbol, 1, static_cast<unsigned char>(text[0]));
		return {};
	}

	// The smallest and largest byte strings whose text starts with `prefix` (symbols equal to `skip` are
	// ignored). `empty` is set when no value has that prefix (a first symbol at or above first_limit).
	static TextStatus prefix(std::string_view prefix, const Alphabet &alphabet, std::uint8_t *lo, std::uint8_t *hi,
	                         bool &empty, char skip = '\0') noexcept
	{
		std::uint8_t low[symbols], high[symbols];
		std::size_t n = 0;
		for (std::size_t i = 0; i < prefix.size(); i++) {
			if (skip != '\0' && prefix[i] == skip)
				continue;
			int v = alphabet.value_of(prefix[i]);
			if (v < 0)
				return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1),
				            static_cast<unsigned char>(prefix[i]));
			if (n == symbols) { // report how long the prefix is (dashes not counted), as uid11 does
				std::size_t found = n;
				for (std::size_t j = i; j < prefix.size(); j++)
					found += prefix[j] != skip || skip == '\0';
				return fail(TextError::prefix_length, static_cast<std::uint32_t>(found));
			}
			low[n] = high[n] = static_cast<std::uint8_t>(v);
			n++;
		}
		for (std::size_t i = n; i < symbols; i++) {
			low[i] = 0;
			high[i] = digit_max;
		}
		empty = low[0] >= first_limit;
		if (!empty) {
			pack(low, lo);
			pack(high, hi);
		}
		return {};
	}

	// Packs `symbols` digit values (the first below first_limit) into `bytes`.
	static void pack(const std::uint8_t *digits, std::uint8_t *bytes) noexcept
	{
		std::uint32_t acc = digits[0];
		unsigned have = Bits - pad;
		std::size_t next = 0;
		for (std::size_t i = 1;; i++) {
			while (have >= 8) {
				bytes[next++] = static_cast<std::uint8_t>(acc >> (have - 8));
				have -= 8;
			}
			if (i == symbols)
				break;
			acc = (acc << Bits) | digits[i];
			have += Bits;
		}
	}
};

} // namespace idtypes
