#include "core/bigradix.hpp"

namespace idtypes::bigradix {

namespace {

constexpr std::size_t max_limbs = max_bytes / 4;

// The largest power of `base` below 2^32, and its exponent: the chunk one division step yields.
struct Chunk {
	std::uint32_t divisor;
	unsigned digits;
};

Chunk chunk_for(unsigned base) noexcept
{
	std::uint64_t d = base;
	unsigned k = 1;
	while (d * base <= 0xFFFFFFFFu) {
		d *= base;
		k++;
	}
	return Chunk{static_cast<std::uint32_t>(d), k};
}

// big-endian bytes -> most-significant-first 32-bit limbs
std::size_t to_limbs(const std::uint8_t *be, std::size_t n, std::uint32_t *limbs) noexcept
{
	std::size_t count = (n + 3) / 4;
	for (std::size_t i = 0; i < count; i++)
		limbs[i] = 0;
	for (std::size_t i = 0; i < n; i++) {
		std::size_t bit = (n - 1 - i) * 8; // this byte's position from the least significant end
		limbs[count - 1 - bit / 32] |= static_cast<std::uint32_t>(be[i]) << (bit % 32);
	}
	return count;
}

} // namespace

std::size_t format(const std::uint8_t *be, std::size_t n, const Alphabet &alphabet, char *out) noexcept
{
	const unsigned base = alphabet.size();
	const Chunk chunk = chunk_for(base);
	std::uint32_t limbs[max_limbs];
	std::size_t count = to_limbs(be, n, limbs);
	std::uint32_t chunks[max_digits];
	std::size_t nchunks = 0;
	bool zero;
	do {
		std::uint64_t rem = 0;
		zero = true;
		for (std::size_t i = 0; i < count; i++) {
			std::uint64_t cur = (rem << 32) | limbs[i];
			limbs[i] = static_cast<std::uint32_t>(cur / chunk.divisor);
			rem = cur % chunk.divisor;
			zero = zero && limbs[i] == 0;
		}
		chunks[nchunks++] = static_cast<std::uint32_t>(rem);
	} while (!zero);
	std::size_t len = 0;
	for (std::size_t c = nchunks; c-- > 0;) {
		char digits[32];
		std::uint32_t v = chunks[c];
		for (unsigned d = chunk.digits; d-- > 0; v /= base)
			digits[d] = alphabet.symbols[v % base];
		unsigned start = 0;
		if (c == nchunks - 1) // no leading zeros in the most significant chunk (but keep one digit)
			while (start + 1 < chunk.digits && digits[start] == alphabet.symbols[0])
				start++;
		for (unsigned d = start; d < chunk.digits; d++)
			out[len++] = digits[d];
	}
	return len;
}

Parsed parse(std::string_view digits, const Alphabet &alphabet, std::uint8_t *be, std::size_t n) noexcept
{
	if (digits.empty())
		return Parsed{Parse::empty, 0};
	const std::uint64_t base = alphabet.size();
	std::uint32_t limbs[max_limbs] = {};
	std::size_t count = (n + 3) / 4;
	for (std::size_t p = 0; p < digits.size(); p++) {
		int v = alphabet.value_of(digits[p]);
		if (v < 0)
			return Parsed{Parse::symbol, p + 1};
		std::uint64_t carry = static_cast<std::uint64_t>(v); // limbs = limbs * base + v
		for (std::size_t i = count; i-- > 0;) {
			std::uint64_t cur = static_cast<std::uint64_t>(limbs[i]) * base + carry;
			limbs[i] = static_cast<std::uint32_t>(cur);
			carry = cur >> 32;
		}
		if (carry != 0)
			return Parsed{Parse::overflow, 0};
	}
	std::size_t spare_bits = count * 32 - n * 8; // the top limb holds only the bytes that exist
	if (spare_bits > 0 && (limbs[0] >> (32 - spare_bits)) != 0)
		return Parsed{Parse::overflow, 0};
	for (std::size_t i = 0; i < n; i++) {
		std::size_t bit = (n - 1 - i) * 8;
		be[i] = static_cast<std::uint8_t>(limbs[count - 1 - bit / 32] >> (bit % 32));
	}
	return Parsed{Parse::ok, 0};
}

} // namespace idtypes::bigradix
