// The keyed public forms of IDs (docs/public-ids.md): FF1 in radix 2 (core/ff1) over each format's variable
// bits, under a tweak naming the type and the key, and the text around it (a key version symbol, then the
// format's own text). The block cipher is the caller's, as in ff1.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/ff1.hpp"
#include "core/text_status.hpp"

namespace idtypes::public_id {

using ff1::BlockCipher;

enum class Direction : std::uint8_t { to_public, from_public };

inline constexpr std::size_t max_key_name = 63; // keyring names: what fits a PostgreSQL identifier
inline constexpr std::size_t max_tweak = 16 + max_key_name;

// "<type>\0<key name>": public forms of one ID under one key differ between types and between key names.
struct Tweak {
	std::uint8_t bytes[max_tweak];
	std::size_t len;
};
// False when the key name is longer than max_key_name.
bool make_tweak(std::string_view type, std::string_view key_name, Tweak &out) noexcept;

// timeid: the low 63 bits (a TID's top bit is always 0; a timeid with it set keeps it as it is).
std::uint64_t timeid(const BlockCipher &cipher, const Tweak &tweak, std::uint64_t id, Direction d) noexcept;
// uid11: all 64 bits.
std::uint64_t uid11(const BlockCipher &cipher, const Tweak &tweak, std::uint64_t id, Direction d) noexcept;
// tbsl: 80 bits, cycle-walking so that a valid TBSL (payload <= 999999999999999999) maps to a valid TBSL.
void tbsl(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
          Direction d) noexcept;
// scru160: all 160 bits.
void scru160(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
             Direction d) noexcept;
// uuid: the 122 bits that are neither version nor variant; to_public writes version 4, from_public version 7
// (the variant stays 10). The caller checks the version and variant it is given.
void uuid(const BlockCipher &cipher, const Tweak &tweak, const std::uint8_t *id, std::uint8_t *out,
          Direction d) noexcept;
// The version nibble and variant bits of a uuid (16 bytes).
constexpr unsigned uuid_version(const std::uint8_t *id) noexcept { return id[6] >> 4; }
constexpr bool uuid_variant_10(const std::uint8_t *id) noexcept { return (id[8] & 0xC0) == 0x80; }

// A text public form: the symbol of its key version (version mod 16: the first 16 symbols of the format's
// alphabet, so a keyring holds at most 16 versions of a key at once), then the ID's own text; one symbol longer
// than the ID's text, so it never parses as one.
inline constexpr unsigned version_symbols = 16;
constexpr char version_symbol(const Alphabet &alphabet, std::uint32_t version) noexcept
{
	return alphabet.symbols[version % version_symbols];
}

enum class PublicError : std::uint8_t { none, length, version_symbol, id };
struct PublicText {
	PublicError error;
	unsigned residue;         // the key version mod 16
	std::string_view id_text; // the ID's text after the symbol
	std::uint32_t length;     // for length errors: the length found
	unsigned char symbol;     // for version_symbol errors: the byte found
};
// Splits a public text whose ID text has id_len symbols (the caller parses the ID text).
PublicText split(std::string_view text, const Alphabet &alphabet, std::size_t id_len) noexcept;

// The DETAIL of a public text that did not parse: `type` names the format, `id_status` is the ID text's
// status when the error is PublicError::id.
void describe(const PublicText &text, const char *type, const Alphabet &alphabet, std::size_t id_len,
              const TextStatus &id_status, const TextRules &rules, char (&out)[detail_size]) noexcept;

} // namespace idtypes::public_id
