// The public forms' core (core/public_id): each format's bits under FF1 with OpenSSL's AES, TBSL's
// cycle-walking, the uuid layout, the tweak's separation of types and key names, the text's version symbol.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "core/public_id.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "openssl_aes.hpp"

using namespace idtypes;
using idtypes::public_id::Direction;
using idtypes::test::Aes;
using idtypes::test::unhex;

namespace {

const char *const key_hex = "2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94";

public_id::Tweak tweak(const char *type, const char *key)
{
	public_id::Tweak t;
	EXPECT_TRUE(public_id::make_tweak(type, key, t));
	return t;
}

// Every valid TBSL maps to a valid TBSL and back, including the values whose first FF1 image is no TBSL (the
// walk), which are counted so that the test proves the walk was taken.
TEST(PublicId, TbslCycleWalkStaysValid)
{
	Aes aes(unhex(key_hex));
	const public_id::Tweak t = tweak("tbsl", "orders");
	std::mt19937_64 rng(80);
	int walked = 0;
	for (int i = 0; i < 20000; i++) {
		tbsl::Bytes id =
		    tbsl::make(rng() % (tbsl::max_payload + 1), static_cast<std::uint32_t>(rng()) & tbsl::max_suffix);
		if (i == 0)
			id = tbsl::make(0, 0);
		if (i == 1)
			id = tbsl::make(tbsl::max_payload, tbsl::max_suffix);
		std::uint8_t once[tbsl::size], form[tbsl::size], back[tbsl::size];
		(void)ff1::encrypt_bits(aes.cipher(), id.data(), 80, t.bytes, t.len, once);
		walked += tbsl::payload(once) > tbsl::max_payload;
		public_id::tbsl(aes.cipher(), t, id.data(), form, Direction::to_public);
		ASSERT_LE(tbsl::payload(form), tbsl::max_payload);
		public_id::tbsl(aes.cipher(), t, form, back, Direction::from_public);
		ASSERT_EQ(0, std::memcmp(id.data(), back, tbsl::size));
	}
	// 13% of 2^80 is no TBSL: about 2,650 of 20,000 first images
	EXPECT_GT(walked, 2000);
	EXPECT_LT(walked, 3300);
}

TEST(PublicId, UuidKeepsVariantAndSwapsVersion)
{
	Aes aes(unhex(key_hex));
	const public_id::Tweak t = tweak("uuid", "orders");
	std::mt19937_64 rng(122);
	for (int i = 0; i < 2000; i++) {
		std::uint8_t id[16], form[16], back[16];
		for (auto &b : id)
			b = static_cast<std::uint8_t>(rng());
		id[6] = static_cast<std::uint8_t>(0x70 | (id[6] & 0x0F));
		id[8] = static_cast<std::uint8_t>(0x80 | (id[8] & 0x3F));
		public_id::uuid(aes.cipher(), t, id, form, Direction::to_public);
		EXPECT_EQ(4u, public_id::uuid_version(form));
		EXPECT_TRUE(public_id::uuid_variant_10(form));
		public_id::uuid(aes.cipher(), t, form, back, Direction::from_public);
		ASSERT_EQ(0, std::memcmp(id, back, 16));
	}
}

TEST(PublicId, TimeidKeepsTheTopBit)
{
	Aes aes(unhex(key_hex));
	const public_id::Tweak t = tweak("timeid", "orders");
	for (std::uint64_t id : {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << 63) - 1, std::uint64_t{1} << 63,
	                         ~std::uint64_t{0}}) {
		std::uint64_t form = public_id::timeid(aes.cipher(), t, id, Direction::to_public);
		EXPECT_EQ(id >> 63, form >> 63);
		EXPECT_NE(id, form);
		EXPECT_EQ(id, public_id::timeid(aes.cipher(), t, form, Direction::from_public));
	}
}

// The type and the key's name are the tweak: the same key and bits give other forms under another of either.
TEST(PublicId, TweakSeparatesTypesAndKeyNames)
{
	Aes aes(unhex(key_hex));
	const std::uint64_t id = 0x0123456789ABCDEFull; // top bit 0: valid for both 63 and 64 bits
	const std::uint64_t as_timeid =
	    public_id::timeid(aes.cipher(), tweak("timeid", "orders"), id, Direction::to_public);
	const std::uint64_t as_uid11 = public_id::uid11(aes.cipher(), tweak("uid11", "orders"), id, Direction::to_public);
	const std::uint64_t other_name =
	    public_id::timeid(aes.cipher(), tweak("timeid", "users"), id, Direction::to_public);
	EXPECT_NE(as_timeid, as_uid11 & ~(std::uint64_t{1} << 63));
	EXPECT_NE(as_timeid, other_name);
	public_id::Tweak t;
	EXPECT_FALSE(public_id::make_tweak("timeid", std::string(64, 'k'), t));
	EXPECT_TRUE(public_id::make_tweak("scru160", std::string(63, 'k'), t));
}

TEST(PublicId, TextSplitsAtTheVersionSymbol)
{
	EXPECT_EQ('2', public_id::version_symbol(timeid::alphabet, 0));
	EXPECT_EQ('3', public_id::version_symbol(timeid::alphabet, 17));
	public_id::PublicText p = public_id::split("43kxmtyqiinc23", timeid::alphabet, timeid::text_len);
	EXPECT_EQ(public_id::PublicError::none, p.error);
	EXPECT_EQ(2u, p.residue);
	EXPECT_EQ("3kxmtyqiinc23", p.id_text);
	EXPECT_EQ(public_id::PublicError::length, public_id::split("3kxmtyqiinc23", timeid::alphabet, 13).error);
	// 'k' is a timeid symbol but not one of the first 16: no version symbol
	EXPECT_EQ(public_id::PublicError::version_symbol, public_id::split("k3kxmtyqiinc23", timeid::alphabet, 13).error);
}

} // namespace
