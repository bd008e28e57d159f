#include "core/uuid7.hpp"

#include <cstring>

#include "core/bytes.hpp"

namespace idtypes::uuid7 {

const TextRules rules = {
    "32 hex digits", "the hex digits 0-9 a-f (either case; dashes are ignored)",
    "a hex digit",   "The value exceeds 128 bits.",
    hex_len,
};

std::uint64_t unix_ms(const std::uint8_t *id) noexcept { return load_be64(id) >> 16; }

namespace {

Bytes at(std::int64_t units, std::uint8_t rest) noexcept
{
	Bytes b;
	std::memset(b.data(), rest, size);
	store_be<6>(static_cast<std::uint64_t>(units), b.data());
	return b;
}

} // namespace

Bytes min_at(std::int64_t units) noexcept { return at(units, 0x00); }
Bytes max_at(std::int64_t units) noexcept { return at(units, 0xFF); }

void format_hex(const std::uint8_t *id, char (&out)[hex_len]) noexcept { Hex::encode(id, hex, out); }

Bytes layout(const V7 &v) noexcept
{
	Bytes b;
	store_be64((v.time >> fraction_bits) << 16 | 0x7000 | (v.time & max_fraction), b.data());
	store_be64(std::uint64_t{0x8} << 60 | (v.random & random_mask), b.data() + 8);
	return b;
}

Generated next(const V7 &last, std::int64_t now_us, std::uint64_t random) noexcept
{
	const std::uint64_t fresh = random & random_mask;
	if (now_us > 0 && static_cast<std::uint64_t>(now_us / 1000) > max_ms)
		return Generated{last, false};
	const std::uint64_t clock = now_us > 0 ? time_of_us(now_us) : 0;
	if (clock > last.time)
		return Generated{V7{clock, fresh}, true};
	if ((last.time & max_fraction) != max_fraction) // the fraction counts on
		return Generated{V7{last.time + 1, fresh}, true};
	const std::uint64_t step = 1 + (random >> 32); // then the random bits
	if (last.random <= random_mask - step)
		return Generated{V7{last.time, last.random + step}, true};
	if (last.time >= max_time)
		return Generated{last, false};
	return Generated{V7{last.time + 1, fresh}, true}; // the next millisecond's first fraction
}

Generated shifted(const V7 &v, std::int64_t shift_us) noexcept
{
	// floor division, so that the step count is one whole number for every value shifted alike
	std::int64_t ms = shift_us / 1000, us = shift_us % 1000;
	if (us < 0) {
		ms -= 1;
		us += 1000;
	}
	if (ms > static_cast<std::int64_t>(max_ms) || ms < -static_cast<std::int64_t>(max_ms) - 1)
		return Generated{v, false}; // past any time (and the steps would overflow)
	const std::int64_t steps =
	    ms * static_cast<std::int64_t>(max_fraction + 1) + us * static_cast<std::int64_t>(max_fraction + 1) / 1000;
	const auto time = static_cast<std::int64_t>(v.time);
	if (steps < 0 ? time < -steps : steps > static_cast<std::int64_t>(max_time) - time)
		return Generated{v, false};
	return Generated{V7{static_cast<std::uint64_t>(time + steps), v.random}, true};
}

bool shift_length_us(std::int32_t months, std::int32_t days, std::int64_t micros, std::int64_t &length_us) noexcept
{
	constexpr std::int64_t day_us = 86400000000;
	constexpr std::int64_t month_us = 2629800000000;           // 30.4375 days
	constexpr std::int64_t part_limit = std::int64_t{1} << 61; // three parts within it add up without overflow
	constexpr std::int64_t limit = std::int64_t{1} << 62;
	if (months > part_limit / month_us || months < -part_limit / month_us || days > part_limit / day_us ||
	    days < -part_limit / day_us || micros > part_limit || micros < -part_limit)
		return false;
	length_us = months * month_us + days * day_us + micros;
	return length_us <= limit && length_us >= -limit;
}

const TextRules ulid_rules = {
    "26 characters",
    "the ULID alphabet, Crockford's base32 (0123456789ABCDEFGHJKMNPQRSTVWXYZ, either case; no I, L, O or U)",
    "0-7 (a ULID holds 128 bits; a first character of 8 or more would need 130)",
    "The value exceeds 128 bits.",
    ulid_len,
};

// 128 bits in 5-bit symbols: the first symbol takes the top 3 bits, each next one the next 5.
void format_ulid(const std::uint8_t *id, char (&out)[ulid_len]) noexcept
{
	const std::uint64_t hi = load_be64(id), lo = load_be64(id + 8);
	out[0] = crockford.symbols[hi >> 61];
	for (unsigned i = 1; i < ulid_len; i++) {
		const unsigned shift = 125 - 5 * i; // of the symbol's lowest bit in the 128-bit value
		const std::uint64_t v = shift >= 64  ? hi >> (shift - 64)
		                        : shift > 59 ? (hi << (64 - shift) | lo >> shift)
		                                     : lo >> shift;
		out[i] = crockford.symbols[v & 31];
	}
}

TextStatus parse_ulid(std::string_view text, Bytes &out) noexcept
{
	if (text.size() != ulid_len)
		return fail(TextError::length, static_cast<std::uint32_t>(text.size()));
	std::uint64_t hi = 0, lo = 0;
	for (unsigned i = 0; i < ulid_len; i++) {
		const int v = crockford.value_of(text[i]);
		if (v < 0)
			return fail(TextError::symbol, i + 1, static_cast<unsigned char>(text[i]));
		if (i == 0 && v > 7)
			return fail(TextError::first_symbol, 1, static_cast<unsigned char>(text[0]));
		hi = hi << 5 | lo >> 59;
		lo = lo << 5 | static_cast<std::uint64_t>(v);
	}
	store_be64(hi, out.data());
	store_be64(lo, out.data() + 8);
	return {};
}

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	PrefixRange r{};
	r.status = Hex::prefix(prefix, hex, r.lo.data(), r.hi.data(), r.empty, '-');
	return r;
}

} // namespace idtypes::uuid7
