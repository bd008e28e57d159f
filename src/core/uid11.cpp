#include "core/uid11.hpp"

namespace idtypes::uid11 {

namespace {

constexpr std::uint64_t pow58(unsigned k) noexcept
{
	std::uint64_t p = 1;
	for (unsigned i = 0; i < k; i++)
		p *= 58;
	return p;
}

constexpr std::uint64_t p5 = pow58(5);   // 656356768, fits 32 bits
constexpr std::uint64_t p10 = pow58(10); // the weight of the first symbol

// Five symbols of a value below 58^5, by 32-bit division by a constant.
void format5(std::uint32_t v, char *out) noexcept
{
	for (int i = 4; i >= 0; i--) {
		out[i] = alphabet.symbols[v % 58];
		v /= 58;
	}
}

} // namespace

const TextRules rules = {
    "11 characters",   "the Base58 alphabet 1-9 A-H J-N P-Z a-k m-z (no 0, O, I, l)",
    "a Base58 symbol", "The value exceeds 2^64-1 (the largest uid11 is jpXCZedGfVQ).",
    text_len,
};

TextStatus parse(std::string_view text, std::uint64_t &out) noexcept
{
	if (text.size() != text_len)
		return fail(TextError::length, static_cast<std::uint32_t>(text.size()));
	int invalid = 0; // negative when some symbol is outside the alphabet
	std::uint64_t digits[text_len];
	for (std::size_t i = 0; i < text_len; i++) {
		int v = alphabet.value_of(text[i]);
		invalid |= v;
		digits[i] = static_cast<std::uint8_t>(v);
	}
	if (invalid < 0)
		return first_invalid_symbol(text, alphabet);
	// the last ten symbols are below 58^10 < 2^59; only the first symbol's weight can overflow
	std::uint64_t rest = 0;
	for (std::size_t i = 1; i < text_len; i++)
		rest = rest * 58 + digits[i];
	std::uint64_t high, value;
	if (__builtin_mul_overflow(digits[0], p10, &high) || __builtin_add_overflow(high, rest, &value))
		return fail(TextError::too_large);
	out = value;
	return {};
}

void format(std::uint64_t value, char (&out)[text_len]) noexcept
{
	// 11 symbols = 1 + 5 + 5: split with two 64-bit divisions, then 32-bit arithmetic
	std::uint64_t first = value / p10;
	std::uint64_t rest = value % p10;
	out[0] = alphabet.symbols[first];
	format5(static_cast<std::uint32_t>(rest / p5), out + 1);
	format5(static_cast<std::uint32_t>(rest % p5), out + 6);
}

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	if (prefix.empty()) // every value (58^11 itself does not fit 64 bits)
		return PrefixRange{{}, false, 0, ~std::uint64_t{0}};
	std::uint64_t value = 0;
	bool above = false; // value(P) * 58^k no longer fits 64 bits
	for (std::size_t i = 0; i < prefix.size(); i++) {
		int d = alphabet.value_of(prefix[i]);
		if (d < 0)
			return PrefixRange{
			    fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(prefix[i])),
			    false, 0, 0};
		if (i == text_len)
			return PrefixRange{fail(TextError::prefix_length, static_cast<std::uint32_t>(prefix.size())), false, 0, 0};
		if (!above && (__builtin_mul_overflow(value, std::uint64_t{58}, &value) ||
		               __builtin_add_overflow(value, static_cast<std::uint64_t>(d), &value)))
			above = true;
	}
	std::uint64_t scale = pow58(static_cast<unsigned>(text_len - prefix.size()));
	std::uint64_t lo, hi;
	if (above || __builtin_mul_overflow(value, scale, &lo))
		return PrefixRange{{}, true, 0, 0};
	if (__builtin_add_overflow(lo, scale - 1, &hi))
		hi = ~std::uint64_t{0};
	return PrefixRange{{}, false, lo, hi};
}

Generated next_xid(std::uint64_t last, std::int64_t now_ms, std::uint32_t random) noexcept
{
	std::int64_t now = now_ms - xid_epoch_ms;
	if (now < 0 || static_cast<std::uint64_t>(now) > xid_max_delta)
		return Generated{0, false};
	const std::uint32_t fresh = random & xid_max_random;
	std::uint64_t delta = static_cast<std::uint64_t>(now);
	std::uint32_t field;
	if (last == 0 || delta > xid_delta(last)) {
		field = fresh;
	} else {
		delta = xid_delta(last);
		field = xid_random(last) + 1 + ((random >> xid_random_bits) & 0xF);
		if (field > xid_max_random) { // this millisecond's fields are used up: borrow the next one
			delta++;
			field = fresh;
		}
	}
	if (delta > xid_max_delta)
		return Generated{0, false};
	return Generated{make_xid(delta, field), true};
}

Generated next_ticket(std::uint64_t last, std::int64_t now_us) noexcept
{
	constexpr std::int64_t max_us = (std::int64_t{1} << (64 - ticket_sequence_bits)) - 1;
	if (now_us < 0 || now_us > max_us || last == ~std::uint64_t{0})
		return Generated{0, false};
	std::uint64_t first = static_cast<std::uint64_t>(now_us) << ticket_sequence_bits;
	return Generated{last + 1 > first ? last + 1 : first, true};
}

namespace {

constexpr unsigned feistel_rounds = 6;

// SplitMix64's finaliser: every input bit affects every output bit.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9;
	x ^= x >> 27;
	x *= 0x94d049bb133111eb;
	return x ^ (x >> 31);
}

std::uint32_t round_function(const FullrandKey &key, unsigned round, std::uint32_t half) noexcept
{
	std::uint64_t round_key = mix64(key.k0 + round * 0x9E3779B97F4A7C15) ^ key.k1;
	return static_cast<std::uint32_t>(mix64((std::uint64_t{half} << 32 | round) ^ round_key) >> 32);
}

} // namespace

std::uint64_t fullrand_of_ticket(std::uint64_t ticket, const FullrandKey &key) noexcept
{
	std::uint32_t left = static_cast<std::uint32_t>(ticket >> 32), right = static_cast<std::uint32_t>(ticket);
	for (unsigned round = 0; round < feistel_rounds; round++) {
		std::uint32_t next = left ^ round_function(key, round, right);
		left = right;
		right = next;
	}
	return std::uint64_t{left} << 32 | right;
}

std::uint64_t ticket_of_fullrand(std::uint64_t value, const FullrandKey &key) noexcept
{
	std::uint32_t left = static_cast<std::uint32_t>(value >> 32), right = static_cast<std::uint32_t>(value);
	for (unsigned round = feistel_rounds; round-- > 0;) {
		std::uint32_t previous = right ^ round_function(key, round, left);
		right = left;
		left = previous;
	}
	return std::uint64_t{left} << 32 | right;
}

bool fullrand_clear(std::uint64_t value, const KeyRange *ranges, std::size_t count) noexcept
{
	for (std::size_t i = 0; i < count; i++) {
		const std::uint64_t ticket = ticket_of_fullrand(value, ranges[i].key);
		if (ticket > ranges[i].after && ticket <= ranges[i].upto)
			return false;
	}
	return true;
}

FullrandKey wrap_key(const FullrandKey &key, const Wrap &wrap) noexcept
{
	return FullrandKey{fullrand_of_ticket(key.k0, wrap.a), fullrand_of_ticket(key.k1, wrap.b)};
}

FullrandKey unwrap_key(const FullrandKey &wrapped, const Wrap &wrap) noexcept
{
	return FullrandKey{ticket_of_fullrand(wrapped.k0, wrap.a), ticket_of_fullrand(wrapped.k1, wrap.b)};
}

} // namespace idtypes::uid11
