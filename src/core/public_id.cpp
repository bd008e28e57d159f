#include "core/public_id.hpp"

#include <cstdio>
#include <cstring>

#include "core/bytes.hpp"
#include "core/tbsl.hpp"

namespace idtypes::public_id {

namespace {

// FF1 over the low n bits of a big-endian byte string (the core never fails on these fixed widths and tweaks
// of at most max_tweak bytes, so the status is not passed on).
void ff1_bits(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *in, unsigned n, std::uint8_t *out,
              Direction d) noexcept
{
	if (d == Direction::to_public)
		(void)ff1::encrypt_bits(cipher, in, n, tweak.bytes, tweak.len, out);
	else
		(void)ff1::decrypt_bits(cipher, in, n, tweak.bytes, tweak.len, out);
}

std::uint64_t ff1_u64(const BlockCipher &cipher, const Tweak &tweak, std::uint64_t v, unsigned n, Direction d) noexcept
{
	std::uint8_t in[8], out[8];
	store_be64(v, in);
	ff1_bits(cipher, tweak, in, n, out, d);
	return load_be64(out);
}

} // namespace

bool make_tweak(std::string_view type, std::string_view key_name, Tweak &out) noexcept
{
	if (key_name.size() > max_key_name || type.size() + 1 + key_name.size() > max_tweak)
		return false;
	std::memcpy(out.bytes, type.data(), type.size());
	out.bytes[type.size()] = 0;
	std::memcpy(out.bytes + type.size() + 1, key_name.data(), key_name.size());
	out.len = type.size() + 1 + key_name.size();
	return true;
}

std::uint64_t timeid(const BlockCipher &cipher, const Tweak &tweak, std::uint64_t id, Direction d) noexcept
{
	constexpr std::uint64_t top = std::uint64_t{1} << 63;
	return (id & top) | ff1_u64(cipher, tweak, id & ~top, 63, d);
}

std::uint64_t uid11(const BlockCipher &cipher, const Tweak &tweak, std::uint64_t id, Direction d) noexcept
{
	return ff1_u64(cipher, tweak, id, 64, d);
}

// FF1 permutes all 2^80 values, and 13% of them are no TBSL (a payload above 18 decimal digits). Walking the
// cycle (applying FF1 again until the result is valid) is a permutation of the valid values alone: the
// public form of a TBSL is a TBSL, so its text is TBSL text, and a public text whose payload is too large is
// rejected as malformed (no TBSL maps to it). On average 1.15 applications; the count depends on the ID, a
// timing difference that tells nothing of the key.
void tbsl(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
          Direction d) noexcept
{
	ff1_bits(cipher, tweak, id, 80, out, d);
	while (tbsl::payload(out) > tbsl::max_payload) {
		std::uint8_t again[tbsl::size];
		std::memcpy(again, out, sizeof again);
		ff1_bits(cipher, tweak, again, 80, out, d);
	}
}

void scru160(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
             Direction d) noexcept
{
	ff1_bits(cipher, tweak, id, 160, out, d);
}

// The 122 bits as one big-endian number of 16 bytes: the 48 bits before the version, the 12 between version
// and variant, the 62 after.
void uuid(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
          Direction d) noexcept
{
	const std::uint64_t hi = load_be64(id), lo = load_be64(id + 8);
	const std::uint64_t head = (hi >> 16) << 12 | (hi & 0xFFF); // 60 bits
	const std::uint64_t tail = lo & ((std::uint64_t{1} << 62) - 1);
	std::uint8_t bits[16], result[16];
	store_be64(head >> 2, bits);
	store_be64(head << 62 | tail, bits + 8);
	ff1_bits(cipher, tweak, bits, 122, result, d);
	const std::uint64_t rhi = load_be64(result), rlo = load_be64(result + 8);
	const std::uint64_t rhead = rhi << 2 | rlo >> 62;
	const std::uint64_t version = d == Direction::to_public ? 4 : 7;
	store_be64((rhead >> 12) << 16 | version << 12 | (rhead & 0xFFF), out);
	store_be64(std::uint64_t{2} << 62 | (rlo & ((std::uint64_t{1} << 62) - 1)), out + 8);
}

PublicText split(std::string_view text, const Alphabet &alphabet, std::size_t id_len) noexcept
{
	PublicText p{PublicError::none, 0, {}, 0, 0};
	if (text.size() != id_len + 1) {
		p.error = PublicError::length;
		p.length = static_cast<std::uint32_t>(text.size());
		return p;
	}
	int value = alphabet.value_of(text[0]);
	if (value < 0 || static_cast<unsigned>(value) >= version_symbols) {
		p.error = PublicError::version_symbol;
		p.symbol = static_cast<unsigned char>(text[0]);
		return p;
	}
	p.residue = static_cast<unsigned>(value);
	p.id_text = text.substr(1);
	return p;
}

void describe(const PublicText &text, const char *type, const Alphabet &alphabet, std::size_t id_len,
              const TextStatus &id_status, const TextRules &rules, char (&out)[detail_size]) noexcept
{
	const int symbols = static_cast<int>(version_symbols);
	switch (text.error) {
	case PublicError::none: std::snprintf(out, sizeof out, "The text is valid."); return;
	case PublicError::length:
		std::snprintf(out, sizeof out,
		              "A public %s has %zu characters (its key version symbol, then the %s's %zu), found %u.", type,
		              id_len + 1, type, id_len, static_cast<unsigned>(text.length));
		return;
	case PublicError::version_symbol:
		if (text.symbol >= 0x21 && text.symbol <= 0x7e)
			std::snprintf(out, sizeof out, "The first character names the key version: one of %.*s, found \"%c\".",
			              symbols, alphabet.symbols.data(), text.symbol);
		else
			std::snprintf(out, sizeof out, "The first character names the key version: one of %.*s, found byte 0x%02X.",
			              symbols, alphabet.symbols.data(), text.symbol);
		return;
	case PublicError::id: {
		char inner[detail_size];
		idtypes::describe(id_status, rules, inner);
		std::snprintf(out, sizeof out, "After the key version symbol, the %s's text: %.200s", type, inner);
		return;
	}
	}
	std::snprintf(out, sizeof out, "Unknown error.");
}

} // namespace idtypes::public_id
