// Fixed-width text over a big-endian byte string with a power-of-two alphabet (2^Bits symbols), most
// significant symbol first. When Symbols*Bits exceeds the byte string's bits, the first symbol carries
// `pad` leading zero bits (TID: 13 base32 symbols = 65 bits over 64). Because every symbol is a run of
// whole bits, a text prefix is exactly a bit prefix, which makes prefix ranges exact.
// Used by timeid (base32-sortable), tbsl (hex) and scru160 (base32hex, hex).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
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

	// Decodes exactly `symbols` symbols into `bytes`.
	static TextStatus decode(std::string_view text, const Alphabet &alphabet, std::uint8_t *bytes) noexcept
	{
		if (text.size() != symbols)
			return fail(TextError::length, static_cast<std::uint32_t>(text.size()));
		std::uint8_t digits[symbols];
		for (std::size_t i = 0; i < symbols; i++) {
			int v = alphabet.value_of(text[i]);
			if (v < 0)
				return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(text[i]));
			digits[i] = static_cast<std::uint8_t>(v);
		}
		if (digits[0] >= first_limit)
			return fail(TextError::first_symbol, 1, static_cast<unsigned char>(text[0]));
		pack(digits, bytes);
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
				return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(prefix[i]));
			if (n == symbols)
				return fail(TextError::prefix_length, static_cast<std::uint32_t>(n + 1));
			low[n] = high[n] = static_cast<std::uint8_t>(v);
			n++;
		}
		if (n == 0)
			return fail(TextError::empty_prefix);
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
