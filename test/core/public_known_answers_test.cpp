// The public forms pinned: test/public/known_answers.txt holds the forms idtypes 1.5 made for fixed keys, key
// names, versions and IDs of every type (test/public/run.sh checks the same table through SQL). The core must
// give exactly these, both ways, so that no change of bit layout, tweak or version symbol goes unnoticed.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/public_id.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "openssl_aes.hpp"

using namespace idtypes;
using idtypes::public_id::Direction;
using idtypes::test::Aes;
using idtypes::test::unhex;

namespace {

const std::map<std::string, std::string> keys = {
    {"orders 1", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"},
    {"orders 2", "2b7e151628aed2a6abf7158809cf4f3cef4359d8d580aa4f7f036d6f04fc6a94"},
    {"users 7", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"},
};

std::string uuid_text(const std::uint8_t *b)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			s += '-';
		s += digits[b[i] >> 4];
		s += digits[b[i] & 15];
	}
	return s;
}

// The public form of `id` (its text) under the key, as the SQL functions make it; and back.
std::string to_public(const std::string &type, const std::string &id, const Aes &aes, const public_id::Tweak &t,
                      unsigned version)
{
	if (type == "uuid") {
		std::vector<std::uint8_t> b = unhex(std::string(id).erase(23, 1).erase(18, 1).erase(13, 1).erase(8, 1));
		std::uint8_t out[16];
		public_id::uuid(aes.cipher(), t, b.data(), out, Direction::to_public);
		return uuid_text(out);
	}
	if (type == "timeid") {
		std::uint64_t v = 0;
		EXPECT_TRUE(timeid::parse(id, v).ok());
		char text[timeid::text_len];
		timeid::format(public_id::timeid(aes.cipher(), t, v, Direction::to_public), text);
		return public_id::version_symbol(timeid::alphabet, version) + std::string(text, sizeof text);
	}
	if (type == "uid11") {
		std::uint64_t v = 0;
		EXPECT_TRUE(uid11::parse(id, v).ok());
		char text[uid11::text_len];
		uid11::format(public_id::uid11(aes.cipher(), t, v, Direction::to_public), text);
		return public_id::version_symbol(uid11::alphabet, version) + std::string(text, sizeof text);
	}
	if (type == "tbsl") {
		tbsl::Bytes v{}, out{};
		EXPECT_TRUE(tbsl::parse(id, v).ok());
		public_id::tbsl(aes.cipher(), t, v.data(), out.data(), Direction::to_public);
		char text[tbsl::text_len];
		tbsl::format(out.data(), text);
		return public_id::version_symbol(tbsl::alphabet, version) + std::string(text, sizeof text);
	}
	scru160::Bytes v{}, out{};
	EXPECT_TRUE(scru160::parse(id, v).ok());
	public_id::scru160(aes.cipher(), t, v.data(), out.data(), Direction::to_public);
	char text[scru160::text_len];
	scru160::format(out.data(), text);
	return public_id::version_symbol(scru160::base32hex, version) + std::string(text, sizeof text);
}

std::string from_public(const std::string &type, const std::string &form, const Aes &aes, const public_id::Tweak &t)
{
	if (type == "uuid") {
		std::vector<std::uint8_t> b = unhex(std::string(form).erase(23, 1).erase(18, 1).erase(13, 1).erase(8, 1));
		std::uint8_t out[16];
		public_id::uuid(aes.cipher(), t, b.data(), out, Direction::from_public);
		return uuid_text(out);
	}
	const std::string inner = form.substr(1);
	if (type == "timeid") {
		std::uint64_t v = 0;
		EXPECT_TRUE(timeid::parse(inner, v).ok());
		char text[timeid::text_len];
		timeid::format(public_id::timeid(aes.cipher(), t, v, Direction::from_public), text);
		return std::string(text, sizeof text);
	}
	if (type == "uid11") {
		std::uint64_t v = 0;
		EXPECT_TRUE(uid11::parse(inner, v).ok());
		char text[uid11::text_len];
		uid11::format(public_id::uid11(aes.cipher(), t, v, Direction::from_public), text);
		return std::string(text, sizeof text);
	}
	if (type == "tbsl") {
		tbsl::Bytes v{}, out{};
		EXPECT_TRUE(tbsl::parse(inner, v).ok());
		public_id::tbsl(aes.cipher(), t, v.data(), out.data(), Direction::from_public);
		char text[tbsl::text_len];
		tbsl::format(out.data(), text);
		return std::string(text, sizeof text);
	}
	scru160::Bytes v{}, out{};
	EXPECT_TRUE(scru160::parse(inner, v).ok());
	public_id::scru160(aes.cipher(), t, v.data(), out.data(), Direction::from_public);
	char text[scru160::text_len];
	scru160::format(out.data(), text);
	return std::string(text, sizeof text);
}

TEST(PublicKnownAnswers, EveryTypeAsIdtypes15MadeThem)
{
	std::ifstream file(IDTYPES_KNOWN_ANSWERS);
	ASSERT_TRUE(file.good()) << IDTYPES_KNOWN_ANSWERS;
	std::map<std::string, int> checked;
	std::string line;
	while (std::getline(file, line)) {
		if (line.empty() || line[0] == '#')
			continue;
		std::istringstream fields(line);
		std::string type, id, name, form;
		unsigned version = 0;
		fields >> type >> id >> name >> version >> form;
		const std::string key = name + " " + std::to_string(version);
		ASSERT_EQ(1u, keys.count(key)) << line;
		Aes aes(unhex(keys.at(key)));
		public_id::Tweak t;
		ASSERT_TRUE(public_id::make_tweak(type, name, t));
		EXPECT_EQ(form, to_public(type, id, aes, t, version)) << line;
		EXPECT_EQ(id, from_public(type, form, aes, t)) << line;
		checked[type]++;
	}
	// 3 or 4 IDs of each type under orders 1, orders 2 and users 7
	EXPECT_EQ(12, checked["timeid"]);
	EXPECT_EQ(9, checked["tbsl"]);
	EXPECT_EQ(9, checked["uid11"]);
	EXPECT_EQ(9, checked["scru160"]);
	EXPECT_EQ(9, checked["uuid"]);
}

} // namespace
