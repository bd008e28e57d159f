// FF1, the format-preserving encryption of NIST SP 800-38G (Rev. 1): a numeral string of length n in base
// `radix` to another of the same length and base, under a 128-bit block cipher (AES) and a tweak. The public
// forms of IDs use it in radix 2 over a format's variable bits (encrypt_bits); the numeral interface takes
// any radix, which the NIST samples (radix 10 and 36) test.
//
// The cipher is the caller's: the core has no AES of its own (the PostgreSQL layer passes OpenSSL's, the
// unit tests too). No allocation, no exceptions; every buffer is on the stack and bounded by the limits below.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idtypes::ff1 {

// One 128-bit block encrypted under the caller's key (`in` and `out` may be the same 16 bytes).
struct BlockCipher {
	void (*encrypt)(const void *key, const std::uint8_t *in, std::uint8_t *out) noexcept;
	const void *key;
};

inline constexpr unsigned max_numerals = 256;        // n; radix 2: up to 256 bits
inline constexpr unsigned max_radix = 1u << 16;      // SP 800-38G's bound
inline constexpr std::uint32_t min_domain = 1000000; // radix^n >= 10^6 (Rev. 1)

enum class Status : std::uint8_t {
	ok,
	radix,   // radix outside 2..2^16
	length,  // n outside 2..max_numerals, or radix^n below min_domain
	numeral, // a numeral >= radix
};

// x: n numerals, most significant first; y: n numerals out (may be x).
Status encrypt(const BlockCipher &cipher, unsigned radix, const std::uint16_t *x, unsigned n, const std::uint8_t *tweak,
               std::size_t tweak_len, std::uint16_t *y) noexcept;
Status decrypt(const BlockCipher &cipher, unsigned radix, const std::uint16_t *x, unsigned n, const std::uint8_t *tweak,
               std::size_t tweak_len, std::uint16_t *y) noexcept;

// Radix 2 over n bits, held as the low n bits of a big-endian string of (n + 7) / 8 bytes (numeral 1 is the
// most significant of those bits). Bits above n in `in` are ignored; in `out` they are zero. Same result as
// encrypt() with the bits as numerals, without its big-number arithmetic: 64-bit words, one block cipher call
// per round for n up to 192.
Status encrypt_bits(const BlockCipher &cipher, const std::uint8_t *in, unsigned n, const std::uint8_t *tweak,
                    std::size_t tweak_len, std::uint8_t *out) noexcept;
Status decrypt_bits(const BlockCipher &cipher, const std::uint8_t *in, unsigned n, const std::uint8_t *tweak,
                    std::size_t tweak_len, std::uint8_t *out) noexcept;

} // namespace idtypes::ff1
