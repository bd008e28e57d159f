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

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	PrefixRange r{};
	r.status = Hex::prefix(prefix, hex, r.lo.data(), r.hi.data(), r.empty, '-');
	return r;
}

} // namespace idtypes::uuid7
