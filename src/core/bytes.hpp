// Big-endian conversions between 64-bit values and bytes (IDs are stored and sent big-endian).
#pragma once

#include <cstdint>

namespace idtypes {

inline void store_be64(std::uint64_t v, std::uint8_t *out) noexcept
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		out[i] = static_cast<std::uint8_t>(v);
}

inline std::uint64_t load_be64(const std::uint8_t *in) noexcept
{
	std::uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | in[i];
	return v;
}

} // namespace idtypes
