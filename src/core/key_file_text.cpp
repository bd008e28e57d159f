#include "core/key_file_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace idtypes::key_file_text {

namespace {

constexpr std::string_view header = "idtypes high-water mark layout ";

// A reader over the text that takes one expected piece at a time; any mismatch makes it fail for good.
struct Reader {
	std::string_view rest;
	bool ok = true;

	bool literal(std::string_view word)
	{
		ok = ok && rest.substr(0, word.size()) == word;
		if (ok)
			rest.remove_prefix(word.size());
		return ok;
	}
	// A decimal number up to `max`, without sign or leading spaces.
	std::uint64_t decimal(std::uint64_t max = UINT64_MAX)
	{
		std::uint64_t v = 0;
		std::size_t n = 0;
		for (; ok && n < rest.size() && rest[n] >= '0' && rest[n] <= '9'; n++) {
			auto digit = static_cast<std::uint64_t>(rest[n] - '0');
			ok = v <= (max - digit) / 10;
			v = v * 10 + digit;
		}
		ok = ok && n > 0;
		rest.remove_prefix(ok ? n : 0);
		return v;
	}
	std::int64_t time_us() { return static_cast<std::int64_t>(decimal(INT64_MAX)); }
	// Exactly 16 lower-case hex digits, as written.
	std::uint64_t hex16()
	{
		std::uint64_t v = 0;
		for (std::size_t n = 0; ok && n < 16; n++) {
			char c = n < rest.size() ? rest[n] : '\0';
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
			ok = d >= 0;
			v = (v << 4) | static_cast<std::uint64_t>(d < 0 ? 0 : d);
		}
		rest.remove_prefix(ok ? 16 : 0);
		return v;
	}
	bool at_end() const { return ok && rest.empty(); }
};

Parsed garbled() { return Parsed{Parse::garbled, 0, {}}; }

// "<mark>\n" or "<mark> <k0> <k1>\n"
Parsed parse_layout_1(std::string_view text)
{
	Parsed p{Parse::ok, 1, {}};
	Reader r{text};
	p.contents.mark = r.time_us();
	if (r.rest.substr(0, 1) == " ") {
		r.literal(" ");
		p.contents.key.k0 = r.hex16();
		r.literal(" ");
		p.contents.key.k1 = r.hex16();
		p.contents.has_key = true;
	}
	r.literal("\n");
	return r.at_end() ? p : garbled();
}

// "key <k0> <k1>\n" (layouts 2 and 3)
void read_key(Reader &r, Contents &c)
{
	r.literal("key ");
	c.key.k0 = r.hex16();
	r.literal(" ");
	c.key.k1 = r.hex16();
	r.literal("\n");
	c.has_key = true;
}

// "owner <system identifier> <device> <inode> <birth ns>\n" (layouts 2 and 3)
void read_owner(Reader &r, Contents &c)
{
	r.literal("owner ");
	c.owner.system_id = r.decimal();
	r.literal(" ");
	c.owner.device = r.decimal();
	r.literal(" ");
	c.owner.inode = r.decimal();
	r.literal(" ");
	c.owner.birth_ns = r.time_us();
	r.literal("\n");
	c.has_owner = true;
}

// a mark, then optionally a key, then optionally its owner
Parsed parse_layout_2(Reader r)
{
	Parsed p{Parse::ok, 2, {}};
	r.literal("\nmark ");
	p.contents.mark = r.time_us();
	r.literal("\n");
	if (r.ok && !r.rest.empty())
		read_key(r, p.contents);
	if (r.ok && !r.rest.empty())
		read_owner(r, p.contents);
	return r.at_end() ? p : garbled();
}

// a key and its owner (a layout 3 file is written only once the key has its owner)
Parsed parse_layout_3(Reader r)
{
	Parsed p{Parse::ok, 3, {}};
	r.literal("\n");
	read_key(r, p.contents);
	read_owner(r, p.contents);
	return r.at_end() ? p : garbled();
}

} // namespace

bool same_instance(const Instance &a, const Instance &b) noexcept
{
	bool births_known = a.birth_ns != 0 && b.birth_ns != 0;
	return a.system_id == b.system_id && a.inode == b.inode &&
	       (births_known ? a.birth_ns == b.birth_ns : a.device == b.device);
}

Parsed parse(std::string_view text) noexcept
{
	if (text.substr(0, header.size()) != header)
		return parse_layout_1(text);
	Reader r{text.substr(header.size())};
	int found = static_cast<int>(r.decimal(1000));
	if (!r.ok)
		return garbled();
	if (found > layout)
		return Parsed{Parse::newer_layout, found, {}};
	return found == 3 ? parse_layout_3(r) : found == 2 ? parse_layout_2(r) : garbled(); // layout 1 has no header
}

std::size_t format(const Contents &c, char (&out)[max_text]) noexcept
{
	int n = std::snprintf(
	    out, sizeof out, "%.*s%d\nkey %016llx %016llx\nowner %llu %llu %llu %lld\n", static_cast<int>(header.size()),
	    header.data(), layout, static_cast<unsigned long long>(c.key.k0), static_cast<unsigned long long>(c.key.k1),
	    static_cast<unsigned long long>(c.owner.system_id), static_cast<unsigned long long>(c.owner.device),
	    static_cast<unsigned long long>(c.owner.inode), static_cast<long long>(c.owner.birth_ns));
	return static_cast<std::size_t>(n);
}

std::size_t format_record(const Record &record, const uid11::Wrap &wrap, char (&out)[max_record]) noexcept
{
	const uid11::FullrandKey shown = uid11::wrap_key(record.key, wrap);
	int n = std::snprintf(out, sizeof out, "%.*s%016llx %016llx %016llx", static_cast<int>(record_prefix.size()),
	                      record_prefix.data(), static_cast<unsigned long long>(record.after),
	                      static_cast<unsigned long long>(shown.k0), static_cast<unsigned long long>(shown.k1));
	return static_cast<std::size_t>(n);
}

bool parse_record(std::string_view text, const uid11::Wrap &wrap, Record &record) noexcept
{
	Reader r{text};
	r.literal(record_prefix);
	record.after = r.hex16();
	r.literal(" ");
	uid11::FullrandKey shown;
	shown.k0 = r.hex16();
	r.literal(" ");
	shown.k1 = r.hex16();
	record.key = uid11::unwrap_key(shown, wrap);
	return r.at_end();
}

Lineage lineage(Record *records, std::size_t count, const uid11::FullrandKey &current, std::uint64_t floor,
                uid11::KeyRange *out, std::size_t cap) noexcept
{
	std::sort(records, records + count, [](const Record &a, const Record &b) { return a.after < b.after; });
	const auto same = [](const uid11::FullrandKey &a, const uid11::FullrandKey &b) {
		return a.k0 == b.k0 && a.k1 == b.k1;
	};
	Lineage l{0, count > 0 && same(records[count - 1].key, current), 0};
	const auto upto = [&](std::size_t i) { return i + 1 < count ? records[i + 1].after : floor; };
	const auto skipped = [&](std::size_t i) { return !same(records[i].key, current) && upto(i) > records[i].after; };
	// latest first, so that the budget keeps the latest keys
	for (std::size_t i = count; i-- > 0;) {
		const Record &r = records[i];
		if (!skipped(i))
			continue;
		std::size_t k = 0;
		while (k < l.ranges && !same(out[k].key, r.key))
			k++;
		if (k < l.ranges) { // a key seen later: one range from its first tickets to its last (a superset)
			out[k].after = r.after < out[k].after ? r.after : out[k].after;
			continue;
		}
		bool counted = false; // a key already left out
		for (std::size_t j = i + 1; j < count && !counted; j++)
			counted = same(records[j].key, r.key) && skipped(j);
		if (counted)
			continue;
		if (l.ranges == cap)
			l.beyond++;
		else
			out[l.ranges++] = uid11::KeyRange{r.key, r.after, upto(i)};
	}
	return l;
}

} // namespace idtypes::key_file_text
