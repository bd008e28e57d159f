// A positional-numeral alphabet: symbol table plus a 256-entry reverse table built at compile time.
// Shared by every format's codec (base32-sortable, hex, base32hex, Base58).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace idtypes {

enum class Case : std::uint8_t { exact, fold };

struct Alphabet {
	std::string_view symbols;            // symbol i has value i
	std::array<std::int8_t, 256> values; // value of a byte, or -1 when the byte is no symbol

	constexpr unsigned size() const noexcept { return static_cast<unsigned>(symbols.size()); }
	constexpr int value_of(char c) const noexcept { return values[static_cast<unsigned char>(c)]; }
};

constexpr char ascii_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
constexpr char ascii_upper(char c) noexcept { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }

// With Case::fold both cases of a letter decode to the same value (the symbols keep their own case).
constexpr Alphabet make_alphabet(std::string_view symbols, Case c = Case::exact) noexcept
{
	Alphabet a{symbols, {}};
	for (auto &v : a.values)
		v = -1;
	for (unsigned i = 0; i < symbols.size(); i++) {
		char s = symbols[i];
		a.values[static_cast<unsigned char>(s)] = static_cast<std::int8_t>(i);
		if (c == Case::fold) {
			a.values[static_cast<unsigned char>(ascii_lower(s))] = static_cast<std::int8_t>(i);
			a.values[static_cast<unsigned char>(ascii_upper(s))] = static_cast<std::int8_t>(i);
		}
	}
	return a;
}

} // namespace idtypes
