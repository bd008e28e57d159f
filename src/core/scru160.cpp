#include "core/scru160.hpp"

#include <cstring>

namespace idtypes::scru160 {

const TextRules rules = {
    "32 base32hex or 40 hex characters",
    "base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case",
    "a base32hex digit",
    "The value is too large.",
    text_len,
};

Bytes make(std::uint64_t ts, std::uint32_t counter, std::uint32_t random16, const std::uint8_t *random80) noexcept
{
	Bytes b;
	for (int i = 5; i >= 0; i--, ts >>= 8)
		b[i] = static_cast<std::uint8_t>(ts);
	b[6] = static_cast<std::uint8_t>(counter >> 8);
	b[7] = static_cast<std::uint8_t>(counter);
	b[8] = static_cast<std::uint8_t>(random16 >> 8);
	b[9] = static_cast<std::uint8_t>(random16);
	std::memcpy(b.data() + 10, random80, 10);
	return b;
}

std::uint64_t timestamp(const std::uint8_t *id) noexcept
{
	std::uint64_t ts = 0;
	for (int i = 0; i < 6; i++)
		ts = (ts << 8) | id[i];
	return ts;
}

Fields fields(const std::uint8_t *id) noexcept
{
	Fields f{timestamp(id),
	         static_cast<std::uint32_t>((id[6] << 8) | id[7]),
	         static_cast<std::uint32_t>((id[8] << 8) | id[9]),
	         {}};
	std::memcpy(f.random80.data(), id + 10, 10);
	return f;
}

Bytes min_at(std::int64_t units) noexcept
{
	const std::uint8_t zeros[10] = {};
	return make(static_cast<std::uint64_t>(units), 0, 0, zeros);
}

Bytes max_at(std::int64_t units) noexcept
{
	std::uint8_t ones[10];
	std::memset(ones, 0xFF, sizeof ones);
	return make(static_cast<std::uint64_t>(units), max_counter, 0xFFFF, ones);
}

TextStatus parse(std::string_view text, Bytes &out) noexcept
{
	if (text.size() == text_len)
		return Base32hex::decode(text, base32hex, out.data());
	if (text.size() == hex_len)
		return Hex::decode(text, hex, out.data());
	return fail(TextError::length, static_cast<std::uint32_t>(text.size()));
}

void format(const std::uint8_t *id, char (&out)[text_len]) noexcept { Base32hex::encode(id, base32hex, out); }

void format_hex(const std::uint8_t *id, char (&out)[hex_len]) noexcept { Hex::encode(id, hex, out); }

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	PrefixRange r{};
	r.status = Base32hex::prefix(prefix, base32hex, r.lo.data(), r.hi.data(), r.empty);
	return r;
}

Generated generate(State &state, std::int64_t now_ms, const Randomness &random) noexcept
{
	const std::uint32_t seed = random.counter_seed & ((1u << counter_seed_bits) - 1);
	std::uint64_t now = now_ms < 1 ? 1 : static_cast<std::uint64_t>(now_ms); // 0 is reserved
	std::uint64_t ts;
	std::uint32_t counter;
	if (now > state.timestamp) {
		ts = now;
		counter = seed;
	} else if (state.counter < max_counter) { // same millisecond, or the clock went back: count on
		ts = state.timestamp;
		counter = state.counter + 1;
	} else { // counter overflow: borrow the next millisecond
		ts = state.timestamp + 1;
		counter = seed;
	}
	if (ts >= max_timestamp) // 2^48-1 is reserved
		return Generated{{}, false};
	state.timestamp = ts;
	state.counter = counter;
	return Generated{make(ts, counter, random.random16, random.random80), true};
}

} // namespace idtypes::scru160
