#include "core/timeid.hpp"

#include "core/bytes.hpp"

namespace idtypes::timeid {

const TextRules rules = {
    "13 characters",
    "the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case)",
    "one of 234567abcdefghij (the value has 64 bits, the text 65)",
    "The value exceeds 64 bits.",
    text_len,
};

TextStatus parse(std::string_view text, std::uint64_t &out) noexcept
{
	std::uint8_t bytes[8];
	TextStatus status = Codec::decode(text, alphabet, bytes);
	if (status.ok())
		out = load_be64(bytes);
	return status;
}

void format(std::uint64_t value, char (&out)[text_len]) noexcept
{
	std::uint8_t bytes[8];
	store_be64(value, bytes);
	Codec::encode(bytes, alphabet, out);
}

void format_dashed(std::uint64_t value, char (&out)[dashed_len]) noexcept
{
	char plain[text_len];
	format(value, plain);
	// STTT-TTT-TTTT-CC: dashes after the 4th, 7th and 11th symbols
	std::size_t o = 0;
	for (std::size_t i = 0; i < text_len; i++) {
		if (i == 4 || i == 7 || i == 11)
			out[o++] = '-';
		out[o++] = plain[i];
	}
}

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	std::uint8_t lo[8], hi[8];
	bool empty = false;
	TextStatus status = Codec::prefix(prefix, alphabet, lo, hi, empty, '-');
	if (!status.ok() || empty)
		return PrefixRange{status, empty, 0, 0};
	return PrefixRange{status, false, load_be64(lo), load_be64(hi)};
}

Generated generate(std::uint64_t &last_micros, std::int64_t now_us, unsigned clock) noexcept
{
	std::uint64_t m = next_micros(last_micros, now_us);
	if (m > max_micros)
		return Generated{0, false};
	last_micros = m;
	return Generated{make(m, clock & max_clock_id), true};
}

} // namespace idtypes::timeid
