// The text of pg_idtypes_high_water: layout 3 (the key and its owner) round trips, layouts 2 and 1 (idtypes
// 1.0 to 1.4, which also hold a mark) are still read, and anything else is refused (garbled, or a later
// layout), never read as "no key". The key records (origins' names) round trip, and give each key its range.
#include "core/key_file_text.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace idtypes;

namespace {

key_file_text::Contents with_key()
{
	key_file_text::Contents c;
	c.mark = 1764000000123456;
	c.has_key = c.has_owner = true;
	c.key = {0x0123456789abcdefULL, 0xfedcba9876543210ULL};
	c.owner = {7312345678901234567ULL, 2049, 18446744073709551615ULL, 1764000000987654321};
	return c;
}

std::string text_of(const key_file_text::Contents &c)
{
	char out[key_file_text::max_text];
	return std::string(out, key_file_text::format(c, out));
}

} // namespace

TEST(HighWater, Layout3RoundTripsTheKeyAndItsOwner)
{
	key_file_text::Contents c = with_key();
	std::string text = text_of(c);
	EXPECT_EQ(text, "idtypes high-water mark layout 3\n"
	                "key 0123456789abcdef fedcba9876543210\n"
	                "owner 7312345678901234567 2049 18446744073709551615 1764000000987654321\n");
	key_file_text::Parsed p = key_file_text::parse(text);
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_EQ(p.layout, 3);
	EXPECT_EQ(p.contents.mark, 0); // the file holds no mark: the mark is the replication origin
	EXPECT_TRUE(p.contents.has_key && p.contents.has_owner);
	EXPECT_EQ(p.contents.key.k0, c.key.k0);
	EXPECT_EQ(p.contents.key.k1, c.key.k1);
	EXPECT_TRUE(key_file_text::same_instance(p.contents.owner, c.owner));
}

TEST(HighWater, Layout2IsReadWithItsMark)
{
	const std::string key = "key 0123456789abcdef fedcba9876543210\n";
	const std::string owner = "owner 7312345678901234567 2049 18446744073709551615 1764000000987654321\n";
	key_file_text::Parsed p =
	    key_file_text::parse("idtypes high-water mark layout 2\nmark 1764000000123456\n" + key + owner);
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_EQ(p.layout, 2);
	EXPECT_EQ(p.contents.mark, 1764000000123456);
	EXPECT_TRUE(p.contents.has_key && p.contents.has_owner);
	EXPECT_TRUE(key_file_text::same_instance(p.contents.owner, with_key().owner));

	// a layout 1 key whose owner was not checked yet, without an owner
	p = key_file_text::parse("idtypes high-water mark layout 2\nmark 1764000000123456\n" + key);
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_TRUE(p.contents.has_key);
	EXPECT_FALSE(p.contents.has_owner);
	EXPECT_EQ(p.contents.key.k0, 0x0123456789abcdefULL);

	p = key_file_text::parse("idtypes high-water mark layout 2\nmark 5\n");
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_EQ(p.contents.mark, 5);
	EXPECT_FALSE(p.contents.has_key);
}

TEST(HighWater, Layout1IsReadWithoutOwner)
{
	key_file_text::Parsed p = key_file_text::parse("1764000000123456\n");
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_EQ(p.layout, 1);
	EXPECT_EQ(p.contents.mark, 1764000000123456);
	EXPECT_FALSE(p.contents.has_key);
	p = key_file_text::parse("1764000000123456 0123456789abcdef fedcba9876543210\n");
	ASSERT_EQ(p.status, key_file_text::Parse::ok);
	EXPECT_TRUE(p.contents.has_key);
	EXPECT_FALSE(p.contents.has_owner);
	EXPECT_EQ(p.contents.key.k1, 0xfedcba9876543210ULL);
}

TEST(HighWater, AnythingElseIsGarbledOrNewer)
{
	for (const char *text :
	     {"", "garbage here", "garbage here\n", "1764000000123456", "1764000000123456 0123\n", "-5\n",
	      "99999999999999999999\n", "1764000000123456 0123456789ABCDEF fedcba9876543210\n",
	      "idtypes high-water mark layout 2\n", "idtypes high-water mark layout 2\nmark 12\nkey 0123456789abcdef\n",
	      "idtypes high-water mark layout 2\nmark 12\n\n", "idtypes high-water mark layout 2\nmark 12\nowner 1 2 3 4\n",
	      "idtypes high-water mark layout 1\n1764000000123456\n", "idtypes high-water mark layout x\n",
	      "idtypes high-water mark layout 3\n",
	      "idtypes high-water mark layout 3\nkey 0123456789abcdef fedcba9876543210\n",
	      "idtypes high-water mark layout 3\nmark 12\nkey 0123456789abcdef fedcba9876543210\nowner 1 2 3 4\n"})
		EXPECT_EQ(key_file_text::parse(text).status, key_file_text::Parse::garbled) << '"' << text << '"';
	key_file_text::Parsed p =
	    key_file_text::parse("idtypes high-water mark layout 4\nwhatever a later version writes\n");
	EXPECT_EQ(p.status, key_file_text::Parse::newer_layout);
	EXPECT_EQ(p.layout, 4);
}

TEST(HighWater, AnInstanceIsItsClusterDirectoryAndBirth)
{
	key_file_text::Instance a{1, 2049, 1000, 55};
	key_file_text::Instance moved_device = a;
	moved_device.device = 2050; // device numbers can change between boots: the birth time decides
	EXPECT_TRUE(key_file_text::same_instance(a, moved_device));
	key_file_text::Instance copy = a;
	copy.birth_ns = 56; // a copy made elsewhere with the same inode number
	EXPECT_FALSE(key_file_text::same_instance(a, copy));
	copy = a;
	copy.inode = 1001;
	EXPECT_FALSE(key_file_text::same_instance(a, copy));
	copy = a;
	copy.system_id = 2;
	EXPECT_FALSE(key_file_text::same_instance(a, copy));
	key_file_text::Instance no_birth{1, 2049, 1000, 0}; // no birth time known: the device counts
	EXPECT_TRUE(key_file_text::same_instance(no_birth, key_file_text::Instance{1, 2049, 1000, 0}));
	EXPECT_FALSE(key_file_text::same_instance(no_birth, key_file_text::Instance{1, 2050, 1000, 0}));
}

TEST(KeyRecord, RoundTripsAsTheOriginsNameItIs)
{
	const key_file_text::Record record{{0x0123456789abcdefULL, 0xfedcba9876543210ULL}, 0x0000aabbccddeeffULL};
	const uid11::Wrap wrap{{1, 2}, {3, 4}};
	const uid11::FullrandKey shown = uid11::wrap_key(record.key, wrap);
	char expected[key_file_text::max_record];
	std::snprintf(expected, sizeof expected, "idtypes_fullrand_key 0000aabbccddeeff %016llx %016llx",
	              static_cast<unsigned long long>(shown.k0), static_cast<unsigned long long>(shown.k1));
	char text[key_file_text::max_record];
	const std::size_t n = key_file_text::format_record(record, wrap, text);
	EXPECT_EQ(std::string(text, n), expected);
	EXPECT_EQ(std::string(text, n).find("0123456789abcdef"), std::string::npos); // the key is not shown
	EXPECT_EQ(std::string(text, n).find("fedcba9876543210"), std::string::npos);
	key_file_text::Record back{};
	ASSERT_TRUE(key_file_text::parse_record(std::string(text, n), wrap, back));
	EXPECT_EQ(back.after, record.after);
	EXPECT_EQ(back.key.k0, record.key.k0);
	EXPECT_EQ(back.key.k1, record.key.k1);
	ASSERT_TRUE(key_file_text::parse_record(std::string(text, n), uid11::Wrap{{1, 2}, {3, 5}}, back));
	EXPECT_NE(back.key.k1, record.key.k1); // another cluster's secret: another key
	for (const char *other : {"idtypes_high_water", "idtypes_fullrand_key ", "pg_16384",
	                          "idtypes_fullrand_key 0000aabbccddeeff 0123456789abcdef fedcba987654321",
	                          "idtypes_fullrand_key 0000aabbccddeeff 0123456789abcdef fedcba9876543210 ",
	                          "idtypes_fullrand_key 0000AABBCCDDEEFF 0123456789abcdef fedcba9876543210"})
		EXPECT_FALSE(key_file_text::parse_record(other, wrap, back)) << other;
}

TEST(KeyRecord, LineageGivesEveryOtherKeyItsRange)
{
	const uid11::FullrandKey k1{1, 1}, k2{2, 2}, k3{3, 3};
	uid11::KeyRange out[4];
	// none yet: nothing to skip, the current key to be recorded
	key_file_text::Lineage l = key_file_text::lineage(nullptr, 0, k1, 100, out, 4);
	EXPECT_EQ(l.ranges, 0u);
	EXPECT_FALSE(l.recorded);
	// two predecessors, given in any order; the current key new
	key_file_text::Record records[] = {{k2, 20}, {k1, 10}};
	l = key_file_text::lineage(records, 2, k3, 30, out, 4);
	ASSERT_EQ(l.ranges, 2u);
	EXPECT_FALSE(l.recorded);
	EXPECT_EQ(out[0].key.k0, 2u); // the latest first
	EXPECT_EQ(out[0].after, 20u);
	EXPECT_EQ(out[0].upto, 30u);
	EXPECT_EQ(out[1].key.k0, 1u);
	EXPECT_EQ(out[1].after, 10u);
	EXPECT_EQ(out[1].upto, 20u);
	// the current key recorded last: its own range is not skipped
	key_file_text::Record recorded[] = {{k1, 10}, {k3, 20}};
	l = key_file_text::lineage(recorded, 2, k3, 30, out, 4);
	ASSERT_EQ(l.ranges, 1u);
	EXPECT_TRUE(l.recorded);
	EXPECT_EQ(out[0].upto, 20u);
	// the current key back after another one's stint: recorded again (the other's range ends at the floor)
	key_file_text::Record back[] = {{k1, 10}, {k2, 20}};
	l = key_file_text::lineage(back, 2, k1, 30, out, 4);
	ASSERT_EQ(l.ranges, 1u);
	EXPECT_FALSE(l.recorded);
	EXPECT_EQ(out[0].key.k0, 2u);
	EXPECT_EQ(out[0].upto, 30u);
	// a key that came back counts once, its range from its first tickets to its last
	key_file_text::Record again[] = {{k1, 10}, {k2, 20}, {k1, 30}};
	l = key_file_text::lineage(again, 3, k3, 40, out, 2);
	ASSERT_EQ(l.ranges, 2u);
	EXPECT_EQ(l.beyond, 0u);
	EXPECT_EQ(out[0].key.k0, 1u);
	EXPECT_EQ(out[0].after, 10u);
	EXPECT_EQ(out[0].upto, 40u);
	EXPECT_EQ(out[1].key.k0, 2u);
}

TEST(KeyRecord, LineageCountsKeysNotRecords)
{
	const uid11::FullrandKey k1{1, 1}, k2{2, 2}, k3{3, 3}, k4{4, 4};
	uid11::KeyRange out[2];
	// idtypes 1.6 wrote several records of one key (one per first call): one key, one range
	key_file_text::Record copies[] = {{k1, 10}, {k1, 11}, {k1, 12}, {k2, 20}, {k2, 21}, {k2, 21}};
	key_file_text::Lineage l = key_file_text::lineage(copies, 6, k3, 30, out, 2);
	ASSERT_EQ(l.ranges, 2u);
	EXPECT_EQ(l.beyond, 0u);
	EXPECT_FALSE(l.recorded);
	EXPECT_EQ(out[0].key.k0, 2u);
	EXPECT_EQ(out[0].after, 20u);
	EXPECT_EQ(out[0].upto, 30u);
	EXPECT_EQ(out[1].key.k0, 1u);
	EXPECT_EQ(out[1].after, 10u);
	EXPECT_EQ(out[1].upto, 20u);
	// more keys than room: the latest kept, the older ones counted (a key left out counts once)
	key_file_text::Record many[] = {{k1, 10}, {k1, 11}, {k2, 20}, {k1, 25}, {k3, 30}, {k4, 40}};
	l = key_file_text::lineage(many, 6, k4, 50, out, 2);
	ASSERT_EQ(l.ranges, 2u);
	EXPECT_TRUE(l.recorded);
	EXPECT_EQ(out[0].key.k0, 3u);
	EXPECT_EQ(out[1].key.k0, 1u);
	EXPECT_EQ(out[1].after, 10u);
	EXPECT_EQ(out[1].upto, 30u);
	EXPECT_EQ(l.beyond, 1u); // k2
	// a key with an empty range (two records at one `after`) is not a key to skip
	key_file_text::Record tie[] = {{k1, 10}, {k2, 10}};
	l = key_file_text::lineage(tie, 2, k3, 10, out, 2);
	EXPECT_EQ(l.ranges, 0u);
	EXPECT_EQ(l.beyond, 0u);
}
