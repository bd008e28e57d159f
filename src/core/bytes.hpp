// Big-endian conversions between 64-bit values and bytes (IDs are stored and sent big-endian).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace idtypes {

// The low N bytes of v, most significant first, as one or two stores (whatever the optimization level).
template <std::size_t N>
inline void store_be(std::uint64_t v, std::uint8_t *out) noexcept
{
	static_assert(N >= 1 && N <= 8);
	std::uint64_t top = v << (64 - 8 * N); // the N bytes at the top, most significant first
	if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		top = __builtin_bswap64(top);
	std::memcpy(out, &top, N); // the first N bytes in memory are now the top N bytes, in order
}

inline void store_be64(std::uint64_t v, std::uint8_t *out) noexcept { store_be<8>(v, out); }

inline std::uint64_t load_be64(const std::uint8_t *in) noexcept
{
	std::uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | in[i];
	return v;
}

} // namespace idtypes
