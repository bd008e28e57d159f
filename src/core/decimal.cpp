#include "core/decimal.hpp"

namespace idtypes::decimal {

namespace {

constexpr std::uint32_t chunk = 1000000000; // 10^9
constexpr std::size_t max_limbs = max_bytes / 4;

// big-endian bytes -> most-significant-first 32-bit limbs, right-aligned
std::size_t to_limbs(const std::uint8_t *be, std::size_t n, std::uint32_t *limbs) noexcept
{
	std::size_t count = (n + 3) / 4;
	for (std::size_t i = 0; i < count; i++)
		limbs[i] = 0;
	for (std::size_t i = 0; i < n; i++) {
		std::size_t bit = (n - 1 - i) * 8; // position of this byte from the least significant end
		limbs[count - 1 - bit / 32] |= static_cast<std::uint32_t>(be[i]) << (bit % 32);
	}
	return count;
}

} // namespace

std::size_t format(const std::uint8_t *be, std::size_t n, char *out) noexcept
{
	std::uint32_t limbs[max_limbs];
	std::size_t count = to_limbs(be, n, limbs);
	std::uint32_t chunks[max_digits / 9 + 1];
	std::size_t nchunks = 0;
	bool zero;
	do {
		// divide the whole number by 10^9, keeping the remainder
		std::uint64_t rem = 0;
		zero = true;
		for (std::size_t i = 0; i < count; i++) {
			std::uint64_t cur = (rem << 32) | limbs[i];
			limbs[i] = static_cast<std::uint32_t>(cur / chunk);
			rem = cur % chunk;
			zero = zero && limbs[i] == 0;
		}
		chunks[nchunks++] = static_cast<std::uint32_t>(rem);
	} while (!zero);
	std::size_t len = 0;
	for (std::size_t c = nchunks; c-- > 0;) {
		char digits[9];
		std::uint32_t v = chunks[c];
		for (int d = 8; d >= 0; d--, v /= 10)
			digits[d] = static_cast<char>('0' + v % 10);
		int start = 0;
		if (c == nchunks - 1) // no leading zeros in the most significant chunk
			while (start < 8 && digits[start] == '0')
				start++;
		for (int d = start; d < 9; d++)
			out[len++] = digits[d];
	}
	return len;
}

Parse parse(std::string_view digits, std::uint8_t *be, std::size_t n) noexcept
{
	if (digits.empty())
		return Parse::syntax;
	std::uint32_t limbs[max_limbs] = {};
	std::size_t count = (n + 3) / 4;
	for (char c : digits) {
		if (c < '0' || c > '9')
			return Parse::syntax;
		// limbs = limbs * 10 + digit
		std::uint64_t carry = static_cast<std::uint64_t>(c - '0');
		for (std::size_t i = count; i-- > 0;) {
			std::uint64_t cur = static_cast<std::uint64_t>(limbs[i]) * 10 + carry;
			limbs[i] = static_cast<std::uint32_t>(cur);
			carry = cur >> 32;
		}
		if (carry != 0)
			return Parse::overflow;
	}
	// the top limb may hold only the bytes that exist
	std::size_t spare_bits = count * 32 - n * 8;
	if (spare_bits > 0 && (limbs[0] >> (32 - spare_bits)) != 0)
		return Parse::overflow;
	for (std::size_t i = 0; i < n; i++) {
		std::size_t bit = (n - 1 - i) * 8;
		be[i] = static_cast<std::uint8_t>(limbs[count - 1 - bit / 32] >> (bit % 32));
	}
	return Parse::ok;
}

} // namespace idtypes::decimal
