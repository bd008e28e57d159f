// The keyring file's text (core/keyring_text.hpp): every shape of a line, the checks across lines, and that
// no message carries a byte of the file (every malformed shape, the key anywhere on the line).
#include "core/keyring_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace idtypes;
using keyring_text::Problem;

namespace {

const std::string k1 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const std::string k2 = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

struct Parsed {
	keyring_text::Result r;
	std::vector<keyring_text::Entry> e = std::vector<keyring_text::Entry>(keyring_text::max_entries);
	std::string message;
};

Parsed parse(const std::string &text)
{
	Parsed p;
	p.r = keyring_text::parse(text, p.e.data(), keyring_text::max_entries);
	char m[512];
	p.message = std::string(m, keyring_text::describe(p.r, m, sizeof m));
	return p;
}

} // namespace

TEST(KeyringText, ReadsEveryShapeOfALine)
{
	Parsed p = parse("# keys\n\norders 1 " + k1 + " decrypt\norders 2 " + k2 + "  # the new one\n" + "users 7 " + k1 +
	                 " roles=web,api databases=shop active\ninvoices 3 retired\n");
	ASSERT_EQ(p.r.problem, Problem::none) << p.message;
	ASSERT_EQ(p.r.count, 4);
	EXPECT_STREQ(p.e[0].name, "orders");
	EXPECT_EQ(p.e[0].version, 1);
	EXPECT_EQ(p.e[0].stage, keyring_text::Stage::decrypt);
	EXPECT_EQ(p.e[0].line, 3);
	EXPECT_EQ(p.e[0].key[0], 0x00);
	EXPECT_EQ(p.e[0].key[31], 0xff);
	EXPECT_EQ(p.e[1].stage, keyring_text::Stage::active); // 1.5's lines: active
	EXPECT_STREQ(p.e[2].roles, "web,api");
	EXPECT_STREQ(p.e[2].databases, "shop");
	EXPECT_EQ(p.e[3].stage, keyring_text::Stage::retired);
	EXPECT_EQ(p.e[3].line, 6);
}

TEST(KeyringText, RefusesEveryMalformedShapeNamingLineAndFieldNeverItsBytes)
{
	const std::string half1 = k1.substr(0, 32), half2 = k1.substr(32);
	struct Case {
		std::string text;
		Problem problem;
		int line, field;
	} cases[] = {
	    {half1 + " " + half2 + " decrypt\n", Problem::name, 1, 1},          // a key split by a space (no name)
	    {"a 1 " + half1 + " " + half2 + "\n", Problem::key, 1, 3},          // split after name and version
	    {k1 + " 1 " + k2 + "\n", Problem::name, 1, 1},                      // a key in the name field
	    {k1.substr(0, 63) + " 1 " + k2 + "\n", Problem::name, 1, 1},        // 63 hex digits as a name
	    {"orders " + k1 + " " + k2 + "\n", Problem::version, 1, 2},         // a key in the version field
	    {"orders 1 " + k1 + "0\n", Problem::key, 1, 3},                     // overlong
	    {"orders 1 " + k1.substr(1) + "\n", Problem::key, 1, 3},            // short
	    {"orders 1 " + k1.substr(0, 63) + "g\n", Problem::key, 1, 3},       // non-hex
	    {"orders 1 " + k1 + " " + k2 + "\n", Problem::unknown_field, 1, 4}, // two keys
	    {"orders 1 " + k1 + " roles=" + k2 + "\"\n", Problem::scope, 1, 4}, // a quote in a scope
	    {"orders 1 " + k1 + " roles=a roles=b\n", Problem::scope, 1, 5},    // a scope twice
	    {"orders 1 " + k1 + " roles=a,,b\n", Problem::scope, 1, 4},         // an empty name
	    {"orders 1 retired " + k1 + "\n", Problem::retired_fields, 1, 4},   // retired with a key
	    {"orders 1\n", Problem::too_few_fields, 1, 0},                      // too few
	    {"orders 1 " + k1 + " active roles=a databases=b x\n", Problem::too_many_fields, 1, 0},
	    {"orders 0 " + k1 + "\n", Problem::version, 1, 2},
	    {"orders 2147483648 " + k1 + "\n", Problem::version, 1, 2},
	    {"\n# c\norders 1 " + k1 + "\norders 1 " + k2 + "\n", Problem::duplicate, 4, 0},
	    {"orders 1 " + k1 + "\norders 17 " + k2 + "\n", Problem::same_symbol, 2, 0},
	    {"orders 1 retired\norders 17 " + k2 + "\n", Problem::same_symbol, 2, 0},
	    {"orders 1 " + k1 + "\norders 2 " + k2 + " roles=web\n", Problem::other_scope, 2, 0},
	    {"orders 1 " + k1 + "\r\n", Problem::none, 0, 0}, // CRLF
	};
	for (const Case &c : cases) {
		Parsed p = parse(c.text);
		if (c.line == 0 && c.problem == Problem::none) {
			EXPECT_EQ(p.r.problem, Problem::none) << c.text;
			continue;
		}
		if (c.line == 0) { // a 63-hex-digit name is a name: the next field fails
			EXPECT_NE(p.r.problem, Problem::none) << c.text;
		} else {
			EXPECT_EQ(p.r.problem, c.problem) << c.text << p.message;
			EXPECT_EQ(p.r.line, c.line) << c.text;
			EXPECT_EQ(p.r.field, c.field) << c.text;
		}
		EXPECT_FALSE(keyring_text::key_like(p.message)) << p.message;
		EXPECT_NE(p.message.find("line "), std::string::npos) << p.message;
	}
}

TEST(KeyringText, HoldsAsManyVersionsAsA64KiBFileOf15)
{
	std::string text;
	int lines = 0; // `name version key` lines as short as 1.5 took them, up to 1.5's 64 KiB
	for (;;) {
		const std::string line =
		    "k" + std::to_string(lines / 16) + " " + std::to_string(lines % 16 + 1) + " " + k1 + "\n";
		if (text.size() + line.size() > keyring_text::max_file)
			break;
		text += line;
		lines++;
	}
	Parsed p = parse(text);
	EXPECT_EQ(p.r.problem, Problem::none) << p.message;
	EXPECT_EQ(p.r.count, lines);
	EXPECT_GT(lines, 850);
	std::string more;
	for (int i = 0; i <= keyring_text::max_entries; i++)
		more += "k" + std::to_string(i / 16) + " " + std::to_string(i % 16 + 1) + " retired\n";
	p = parse(more);
	EXPECT_EQ(p.r.problem, Problem::too_many);
	EXPECT_EQ(p.r.line, keyring_text::max_entries + 1);
	EXPECT_EQ(parse(std::string(keyring_text::max_file + 1, '#')).r.problem, Problem::too_large);
}

TEST(KeyringText, ScopeNamesAndKeyLikeText)
{
	std::size_t at = 0;
	std::string_view name;
	std::vector<std::string> names;
	while (keyring_text::next_name("web,api,x", at, name))
		names.emplace_back(name);
	EXPECT_EQ(names, (std::vector<std::string>{"web", "api", "x"}));
	EXPECT_TRUE(keyring_text::key_like("role0123456789abcdef"));
	EXPECT_FALSE(keyring_text::key_like("line 3, field 3: 0123456789abcde"));
	EXPECT_TRUE(keyring_text::hex_in_name("web_0123abcd"));
	EXPECT_FALSE(keyring_text::hex_in_name("web_0123abc_deadbee"));
	EXPECT_EQ(keyring_text::hex_digits("0x12"), 3);
	EXPECT_EQ(keyring_text::hex_digits("12:ab:Cd"), 6);
	EXPECT_EQ(keyring_text::hex_digits("ghost"), 0);
}
