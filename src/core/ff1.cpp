#include "core/ff1.hpp"

#include <cstring>

namespace idtypes::ff1 {

namespace {

// CBC-MAC with a zero IV, absorbing bytes as they come. The PRF input P || Q is the same in every round up to
// Q's round number, so that prefix is absorbed once and a copy of it finishes each round: one block cipher
// call per round instead of the whole tweak again.
struct CbcMac {
	std::uint8_t state[16] = {};
	unsigned fill = 0;

	void absorb(const BlockCipher &cipher, const std::uint8_t *bytes, std::size_t len) noexcept
	{
		for (std::size_t i = 0; i < len; i++)
			absorb_byte(cipher, bytes[i]);
	}
	void absorb_byte(const BlockCipher &cipher, std::uint8_t byte) noexcept
	{
		state[fill++] ^= byte;
		if (fill == 16) {
			cipher.encrypt(cipher.key, state, state);
			fill = 0;
		}
	}
};

// The sizes SP 800-38G derives from radix and n (its steps 1, 3 and 4).
struct Shape {
	unsigned radix, n, u, v;
	unsigned b; // bytes of NUM_radix of the longer half
	unsigned d; // bytes of S
};

// b for radix 2^16 and v = 128 is 256; d = 4 * ceil(b / 4) + 4.
constexpr std::size_t max_num_bytes = 260;

// Big-endian byte strings as numbers, for the general radix: x = x * mul + add, and x = x / div returning
// the remainder. Intermediate values stay below 2^32 for mul, div <= 2^16.
void mul_add(std::uint8_t *x, std::size_t len, std::uint32_t mul, std::uint32_t add) noexcept
{
	std::uint32_t carry = add;
	for (std::size_t i = len; i-- > 0;) {
		std::uint32_t t = x[i] * mul + carry;
		x[i] = static_cast<std::uint8_t>(t);
		carry = t >> 8;
	}
}

std::uint32_t div_mod(std::uint8_t *x, std::size_t len, std::uint32_t div) noexcept
{
	std::uint32_t rest = 0;
	for (std::size_t i = 0; i < len; i++) {
		std::uint32_t t = (rest << 8) | x[i];
		x[i] = static_cast<std::uint8_t>(t / div);
		rest = t % div;
	}
	return rest;
}

// ceil(ceil(v * log2(radix)) / 8), exactly: the bytes of radix^v - 1.
unsigned num_byte_length(unsigned radix, unsigned v) noexcept
{
	std::uint8_t power[max_num_bytes] = {};
	power[max_num_bytes - 1] = 1;
	for (unsigned i = 0; i < v; i++)
		mul_add(power, max_num_bytes, radix, 0);
	for (std::size_t i = max_num_bytes; i-- > 0;) // minus one: radix^v is never 0
		if (power[i]-- != 0)
			break;
	std::size_t first = 0;
	while (first < max_num_bytes && power[first] == 0)
		first++;
	return static_cast<unsigned>(max_num_bytes - first);
}

Shape shape_of(unsigned radix, unsigned n, unsigned b) noexcept
{
	return Shape{radix, n, n / 2, n - n / 2, b, 4 * ((b + 3) / 4) + 4};
}

// A half of the general radix: numerals, most significant first (its length is the caller's m or n - m).
struct Numerals {
	std::uint16_t digit[max_numerals / 2];
};

// [NUM_radix(x)]^b
void num_bytes(const Numerals &x, unsigned len, const Shape &s, std::uint8_t *out) noexcept
{
	std::memset(out, 0, s.b);
	for (unsigned k = 0; k < len; k++)
		mul_add(out, s.b, s.radix, x.digit[k]);
}

// STR_radix^m((NUM_radix(x) +/- NUM(y)) mod radix^m), numeral by numeral: y's low m numerals come off by
// division, and carry or borrow across them, so neither side is ever a big number beyond y.
Numerals combine(const Numerals &x, unsigned m, const std::uint8_t *y, const Shape &s, bool subtract) noexcept
{
	std::uint8_t rest[max_num_bytes];
	std::memcpy(rest, y, s.d);
	Numerals c;
	std::int32_t radix = static_cast<std::int32_t>(s.radix), carry = 0;
	for (unsigned k = m; k-- > 0;) {
		std::int32_t yk = static_cast<std::int32_t>(div_mod(rest, s.d, s.radix));
		std::int32_t t = subtract ? x.digit[k] - yk - carry : x.digit[k] + yk + carry;
		carry = subtract ? t < 0 : t >= radix;
		c.digit[k] = static_cast<std::uint16_t>(subtract ? (t < 0 ? t + radix : t) : (t >= radix ? t - radix : t));
	}
	return c;
}

// A half of radix 2: up to 128 bits.
struct Bits128 {
	std::uint64_t hi, lo;
};

Bits128 low_bits(Bits128 x, unsigned m) noexcept
{
	if (m < 64)
		return Bits128{0, m == 0 ? 0 : x.lo & ((std::uint64_t{1} << m) - 1)};
	if (m < 128)
		x.hi &= (std::uint64_t{1} << (m - 64)) - 1;
	return x;
}

void num_bytes(const Bits128 &x, unsigned, const Shape &s, std::uint8_t *out) noexcept
{
	for (unsigned j = 0; j < s.b; j++) // byte j from the right
		out[s.b - 1 - j] = static_cast<std::uint8_t>(j < 8 ? x.lo >> (8 * j) : x.hi >> (8 * (j - 8)));
}

// Modulo 2^m, which divides 2^128: y's last 16 bytes and 128-bit wrap-around are enough.
Bits128 combine(const Bits128 &x, unsigned m, const std::uint8_t *y, const Shape &s, bool subtract) noexcept
{
	Bits128 yy{0, 0};
	for (unsigned i = s.d > 16 ? s.d - 16 : 0; i < s.d; i++) {
		yy.hi = (yy.hi << 8) | (yy.lo >> 56);
		yy.lo = (yy.lo << 8) | y[i];
	}
	Bits128 c;
	if (subtract) {
		c.lo = x.lo - yy.lo;
		c.hi = x.hi - yy.hi - (x.lo < yy.lo);
	} else {
		c.lo = x.lo + yy.lo;
		c.hi = x.hi + yy.hi + (c.lo < x.lo);
	}
	return low_bits(c, m);
}

// The ten rounds of FF1 (SP 800-38G algorithms 7 and 8) over halves a (u numerals) and b (v numerals).
template <typename Half>
void rounds(const BlockCipher &cipher, const Shape &s, const std::uint8_t *tweak, std::size_t tweak_len, Half &a,
            Half &b, bool decrypting) noexcept
{
	const std::uint32_t t = static_cast<std::uint32_t>(tweak_len);
	const std::uint8_t p[16] = {1,
	                            2,
	                            1,
	                            static_cast<std::uint8_t>(s.radix >> 16),
	                            static_cast<std::uint8_t>(s.radix >> 8),
	                            static_cast<std::uint8_t>(s.radix),
	                            10,
	                            static_cast<std::uint8_t>(s.u),
	                            static_cast<std::uint8_t>(s.n >> 24),
	                            static_cast<std::uint8_t>(s.n >> 16),
	                            static_cast<std::uint8_t>(s.n >> 8),
	                            static_cast<std::uint8_t>(s.n),
	                            static_cast<std::uint8_t>(t >> 24),
	                            static_cast<std::uint8_t>(t >> 16),
	                            static_cast<std::uint8_t>(t >> 8),
	                            static_cast<std::uint8_t>(t)};
	CbcMac prefix; // P || T || [0]^((-t-b-1) mod 16)
	prefix.absorb(cipher, p, sizeof p);
	prefix.absorb(cipher, tweak, tweak_len);
	for (std::size_t pad = (16 - (tweak_len + s.b + 1) % 16) % 16; pad > 0; pad--)
		prefix.absorb_byte(cipher, 0);

	std::uint8_t num[max_num_bytes];
	std::uint8_t y[max_num_bytes + 16]; // S: R, then CIPH(R xor [j]^16) for j = 1, 2, ...
	for (unsigned round = 0; round < 10; round++) {
		unsigned i = decrypting ? 9 - round : round;
		unsigned m = i % 2 == 0 ? s.u : s.v;
		CbcMac mac = prefix;
		mac.absorb_byte(cipher, static_cast<std::uint8_t>(i));
		num_bytes(decrypting ? a : b, s.n - m, s, num);
		mac.absorb(cipher, num, s.b); // completes the last block: R is the state
		std::memcpy(y, mac.state, 16);
		for (std::uint32_t j = 1; 16 * j < s.d; j++) {
			std::uint8_t block[16];
			std::memcpy(block, mac.state, 16);
			for (unsigned k = 0; k < 4; k++)
				block[15 - k] ^= static_cast<std::uint8_t>(j >> (8 * k));
			cipher.encrypt(cipher.key, block, y + 16 * j);
		}
		if (!decrypting) {
			Half c = combine(a, m, y, s, false);
			a = b;
			b = c;
		} else {
			Half c = combine(b, m, y, s, true);
			b = a;
			a = c;
		}
	}
}

bool domain_large_enough(unsigned radix, unsigned n) noexcept
{
	std::uint64_t size = 1;
	for (unsigned i = 0; i < n && size < min_domain; i++)
		size *= radix;
	return size >= min_domain;
}

Status numerals(const BlockCipher &cipher, unsigned radix, const std::uint16_t *x, unsigned n,
                const std::uint8_t *tweak, std::size_t tweak_len, std::uint16_t *y, bool decrypting) noexcept
{
	if (radix < 2 || radix > max_radix)
		return Status::radix;
	if (n < 2 || n > max_numerals || !domain_large_enough(radix, n) || tweak_len > UINT32_MAX)
		return Status::length;
	for (unsigned k = 0; k < n; k++)
		if (x[k] >= radix)
			return Status::numeral;
	Shape s = shape_of(radix, n, num_byte_length(radix, n - n / 2));
	Numerals a, b;
	std::memcpy(a.digit, x, s.u * sizeof x[0]);
	std::memcpy(b.digit, x + s.u, s.v * sizeof x[0]);
	rounds(cipher, s, tweak, tweak_len, a, b, decrypting);
	std::memcpy(y, a.digit, s.u * sizeof y[0]);
	std::memcpy(y + s.u, b.digit, s.v * sizeof y[0]);
	return Status::ok;
}

// Up to 256 bits as four 64-bit words, least significant first.
struct Bits256 {
	std::uint64_t word[4];

	std::uint64_t word_at(unsigned bit) const noexcept // the 64 bits from `bit` up
	{
		unsigned w = bit / 64, shift = bit % 64;
		if (w >= 4)
			return 0;
		std::uint64_t v = word[w] >> shift;
		if (shift != 0 && w + 1 < 4)
			v |= word[w + 1] << (64 - shift);
		return v;
	}
	void or_at(unsigned bit, std::uint64_t v) noexcept
	{
		unsigned w = bit / 64, shift = bit % 64;
		if (w >= 4)
			return;
		word[w] |= v << shift;
		if (shift != 0 && w + 1 < 4)
			word[w + 1] |= v >> (64 - shift);
	}
	Bits128 field(unsigned low, unsigned count) const noexcept
	{
		return low_bits(Bits128{word_at(low + 64), word_at(low)}, count);
	}
	void set_field(unsigned low, const Bits128 &v) noexcept
	{
		or_at(low, v.lo);
		or_at(low + 64, v.hi);
	}
};

Status bits(const BlockCipher &cipher, const std::uint8_t *in, unsigned n, const std::uint8_t *tweak,
            std::size_t tweak_len, std::uint8_t *out, bool decrypting) noexcept
{
	if (n < 2 || n > max_numerals || !domain_large_enough(2, n) || tweak_len > UINT32_MAX)
		return Status::length;
	const unsigned nbytes = (n + 7) / 8;
	Bits256 value{};
	for (unsigned i = 0; i < nbytes; i++)
		value.word[(nbytes - 1 - i) / 8] |= std::uint64_t{in[i]} << (8 * ((nbytes - 1 - i) % 8));
	Shape s = shape_of(2, n, (n - n / 2 + 7) / 8);
	Bits128 a = value.field(s.v, s.u), b = value.field(0, s.v);
	rounds(cipher, s, tweak, tweak_len, a, b, decrypting);
	Bits256 result{};
	result.set_field(s.v, a);
	result.set_field(0, b);
	for (unsigned i = 0; i < nbytes; i++)
		out[i] = static_cast<std::uint8_t>(result.word[(nbytes - 1 - i) / 8] >> (8 * ((nbytes - 1 - i) % 8)));
	return Status::ok;
}

} // namespace

Status encrypt(const BlockCipher &cipher, unsigned radix, const std::uint16_t *x, unsigned n, const std::uint8_t *tweak,
               std::size_t tweak_len, std::uint16_t *y) noexcept
{
	return numerals(cipher, radix, x, n, tweak, tweak_len, y, false);
}

Status decrypt(const BlockCipher &cipher, unsigned radix, const std::uint16_t *x, unsigned n, const std::uint8_t *tweak,
               std::size_t tweak_len, std::uint16_t *y) noexcept
{
	return numerals(cipher, radix, x, n, tweak, tweak_len, y, true);
}

Status encrypt_bits(const BlockCipher &cipher, const std::uint8_t *in, unsigned n, const std::uint8_t *tweak,
                    std::size_t tweak_len, std::uint8_t *out) noexcept
{
	return bits(cipher, in, n, tweak, tweak_len, out, false);
}

Status decrypt_bits(const BlockCipher &cipher, const std::uint8_t *in, unsigned n, const std::uint8_t *tweak,
                    std::size_t tweak_len, std::uint8_t *out) noexcept
{
	return bits(cipher, in, n, tweak, tweak_len, out, true);
}

} // namespace idtypes::ff1
