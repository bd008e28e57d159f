// FF1 (core/ff1) against NIST's FF1 samples 1 to 9 and Zcash's published radix-2 vectors (FF1-AES256, 88
// bits), with OpenSSL's AES as the block cipher (the test links libcrypto; the core does not). Bit widths the
// public forms use are cross-checked against @noble/ciphers by test/public/ff1_noble.sh.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/ff1.hpp"
#include "openssl_aes.hpp"

using namespace idtypes;
using idtypes::test::Aes;
using idtypes::test::unhex;

namespace {

const char *const nist_key = "2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94";

// NIST's numerals written as the samples do: 0-9 then a-z.
std::vector<std::uint16_t> numerals(const std::string &text)
{
	std::vector<std::uint16_t> out;
	for (char c : text)
		out.push_back(static_cast<std::uint16_t>(c <= '9' ? c - '0' : c - 'a' + 10));
	return out;
}

struct Sample {
	int number;
	unsigned key_bytes, radix;
	const char *tweak, *plain, *cipher;
};

// FF1samples.pdf (NIST, Cryptographic Standards and Guidelines: examples with intermediate values).
const Sample nist_samples[] = {
    {1, 16, 10, "", "0123456789", "2433477484"},
    {2, 16, 10, "39383736353433323130", "0123456789", "6124200773"},
    {3, 16, 36, "3737373770717273373737", "0123456789abcdefghi", "a9tv40mll9kdu509eum"},
    {4, 24, 10, "", "0123456789", "2830668132"},
    {5, 24, 10, "39383736353433323130", "0123456789", "2496655549"},
    {6, 24, 36, "3737373770717273373737", "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"},
    {7, 32, 10, "", "0123456789", "6657667009"},
    {8, 32, 10, "39383736353433323130", "0123456789", "1001623463"},
    {9, 32, 36, "3737373770717273373737", "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"},
};

TEST(Ff1, NistSamples)
{
	for (const Sample &sample : nist_samples) {
		Aes aes(unhex(std::string(nist_key, 2 * sample.key_bytes)));
		std::vector<std::uint8_t> tweak = unhex(sample.tweak);
		std::vector<std::uint16_t> x = numerals(sample.plain), y(x.size()), back(x.size());
		ASSERT_EQ(ff1::Status::ok, ff1::encrypt(aes.cipher(), sample.radix, x.data(), static_cast<unsigned>(x.size()),
		                                        tweak.data(), tweak.size(), y.data()));
		EXPECT_EQ(numerals(sample.cipher), y) << "sample " << sample.number;
		ASSERT_EQ(ff1::Status::ok, ff1::decrypt(aes.cipher(), sample.radix, y.data(), static_cast<unsigned>(y.size()),
		                                        tweak.data(), tweak.size(), back.data()));
		EXPECT_EQ(x, back) << "sample " << sample.number;
	}
}

// zcash-test-vectors' ff1.py (FF1-AES256, radix 2, 88 bits, NIST's AES-256 key), as numeral strings, most
// significant bit first; the last has a 255-byte tweak 00 01 ... fe.
struct BinaryVector {
	const char *plain, *cipher;
	bool long_tweak;
};
const BinaryVector zcash_vectors[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "0000100100110101011101111111110011000001101100111110011101110101011010100100010011001111", false},
    {"0000100100110101011101111111110011000001101100111110011101110101011010100100010011001111",
     "1101101011010001100011110000010011001111110110011101010110100001111001000101011111011000", false},
    {"0101010101010101010101010101010101010101010101010101010101010101010101010101010101010101",
     "0000111101000001111011010111011111110001100101000000001101101110100010010111001100100110", false},
    {"0101010101010101010101010101010101010101010101010101010101010101010101010101010101010101",
     "0111110110001000000111010110000100010101101000000011100111100100100010101101111010100011", true},
};

std::vector<std::uint8_t> bytes_of_bits(const std::string &bits)
{
	std::vector<std::uint8_t> out((bits.size() + 7) / 8, 0);
	std::size_t pad = out.size() * 8 - bits.size();
	for (std::size_t i = 0; i < bits.size(); i++)
		if (bits[i] == '1')
			out[(pad + i) / 8] |= static_cast<std::uint8_t>(0x80 >> ((pad + i) % 8));
	return out;
}

TEST(Ff1, ZcashRadix2Vectors)
{
	Aes aes(unhex(nist_key));
	std::vector<std::uint8_t> long_tweak;
	for (int i = 0; i < 255; i++)
		long_tweak.push_back(static_cast<std::uint8_t>(i));
	for (const BinaryVector &v : zcash_vectors) {
		const std::vector<std::uint8_t> tweak = v.long_tweak ? long_tweak : std::vector<std::uint8_t>{};
		// through the bits path
		std::vector<std::uint8_t> x = bytes_of_bits(v.plain), y(x.size()), back(x.size());
		ASSERT_EQ(ff1::Status::ok, ff1::encrypt_bits(aes.cipher(), x.data(), 88, tweak.data(), tweak.size(), y.data()));
		EXPECT_EQ(bytes_of_bits(v.cipher), y);
		ASSERT_EQ(ff1::Status::ok,
		          ff1::decrypt_bits(aes.cipher(), y.data(), 88, tweak.data(), tweak.size(), back.data()));
		EXPECT_EQ(x, back);
		// and through the general numerals path
		std::vector<std::uint16_t> xn = numerals(v.plain), yn(88);
		ASSERT_EQ(ff1::Status::ok, ff1::encrypt(aes.cipher(), 2, xn.data(), 88, tweak.data(), tweak.size(), yn.data()));
		EXPECT_EQ(numerals(v.cipher), yn);
	}
}

// The bits path is the numerals path in radix 2, for every width the public forms use and the odd ones
// around them (odd n: halves of different lengths), with tweaks across the 16-byte padding boundary.
TEST(Ff1, BitsPathAgreesWithNumerals)
{
	std::mt19937_64 rng(51);
	std::vector<std::uint8_t> key(32);
	for (auto &k : key)
		k = static_cast<std::uint8_t>(rng());
	Aes aes(key);
	for (unsigned n : {20u, 21u, 63u, 64u, 80u, 81u, 122u, 127u, 128u, 160u, 192u, 193u, 255u, 256u}) {
		for (std::size_t tweak_len : {0u, 1u, 13u, 15u, 16u, 17u, 40u}) {
			std::vector<std::uint8_t> tweak(tweak_len);
			for (auto &t : tweak)
				t = static_cast<std::uint8_t>(rng());
			std::string bits;
			for (unsigned i = 0; i < n; i++)
				bits += (rng() & 1) ? '1' : '0';
			std::vector<std::uint8_t> x = bytes_of_bits(bits), y(x.size()), back(x.size());
			std::vector<std::uint16_t> xn = numerals(bits), yn(n);
			ASSERT_EQ(ff1::Status::ok, ff1::encrypt_bits(aes.cipher(), x.data(), n, tweak.data(), tweak_len, y.data()));
			ASSERT_EQ(ff1::Status::ok, ff1::encrypt(aes.cipher(), 2, xn.data(), n, tweak.data(), tweak_len, yn.data()));
			std::string ybits;
			for (auto d : yn)
				ybits += static_cast<char>('0' + d);
			EXPECT_EQ(bytes_of_bits(ybits), y) << "n=" << n << " t=" << tweak_len;
			ASSERT_EQ(ff1::Status::ok,
			          ff1::decrypt_bits(aes.cipher(), y.data(), n, tweak.data(), tweak_len, back.data()));
			EXPECT_EQ(x, back) << "n=" << n << " t=" << tweak_len;
		}
	}
}

TEST(Ff1, BitsAboveNAreIgnoredAndCleared)
{
	Aes aes(unhex(nist_key));
	std::uint8_t x[8] = {0x80, 1, 2, 3, 4, 5, 6, 7}, clean[8] = {0, 1, 2, 3, 4, 5, 6, 7}, y1[8], y2[8];
	ASSERT_EQ(ff1::Status::ok, ff1::encrypt_bits(aes.cipher(), x, 63, nullptr, 0, y1));
	ASSERT_EQ(ff1::Status::ok, ff1::encrypt_bits(aes.cipher(), clean, 63, nullptr, 0, y2));
	EXPECT_EQ(0, std::memcmp(y1, y2, 8));
	EXPECT_EQ(0, y1[0] & 0x80);
}

TEST(Ff1, RefusesWhatTheStandardForbids)
{
	Aes aes(unhex(nist_key));
	std::uint16_t x[300] = {}, y[300];
	std::uint8_t b[40] = {}, c[40];
	EXPECT_EQ(ff1::Status::radix, ff1::encrypt(aes.cipher(), 1, x, 30, nullptr, 0, y));
	EXPECT_EQ(ff1::Status::radix, ff1::encrypt(aes.cipher(), 65537, x, 30, nullptr, 0, y));
	EXPECT_EQ(ff1::Status::length, ff1::encrypt(aes.cipher(), 10, x, 5, nullptr, 0, y)); // 10^5 < 10^6
	EXPECT_EQ(ff1::Status::ok, ff1::encrypt(aes.cipher(), 10, x, 6, nullptr, 0, y));
	EXPECT_EQ(ff1::Status::length, ff1::encrypt(aes.cipher(), 2, x, 257, nullptr, 0, y));
	x[3] = 10;
	EXPECT_EQ(ff1::Status::numeral, ff1::encrypt(aes.cipher(), 10, x, 10, nullptr, 0, y));
	EXPECT_EQ(ff1::Status::length, ff1::encrypt_bits(aes.cipher(), b, 19, nullptr, 0, c)); // 2^19 < 10^6
	EXPECT_EQ(ff1::Status::ok, ff1::encrypt_bits(aes.cipher(), b, 20, nullptr, 0, c));
}

// The widest radix SP 800-38G allows, both ways, so that the big-number path's limits are exercised.
TEST(Ff1, Radix65536RoundTrip)
{
	Aes aes(unhex(nist_key));
	std::vector<std::uint16_t> x(256), y(256), back(256);
	for (unsigned i = 0; i < 256; i++)
		x[i] = static_cast<std::uint16_t>(i * 257 + 3);
	ASSERT_EQ(ff1::Status::ok, ff1::encrypt(aes.cipher(), 65536, x.data(), 256, nullptr, 0, y.data()));
	EXPECT_NE(x, y);
	ASSERT_EQ(ff1::Status::ok, ff1::decrypt(aes.cipher(), 65536, y.data(), 256, nullptr, 0, back.data()));
	EXPECT_EQ(x, back);
}

} // namespace
