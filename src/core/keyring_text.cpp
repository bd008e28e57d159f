#include "core/keyring_text.hpp"

#include <cstdio>
#include <cstring>

namespace idtypes::keyring_text {

namespace {

struct Field {
	std::string_view text;
	bool is(std::string_view word) const { return text == word; }
	bool starts(std::string_view prefix) const { return text.substr(0, prefix.size()) == prefix; }
};
constexpr int max_fields = 6;

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Fields separated by spaces or tabs, up to a # comment; max_fields + 1 when there are more.
int split(std::string_view line, Field (&fields)[max_fields])
{
	int n = 0;
	std::size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && blank(line[i]))
			i++;
		if (i == line.size() || line[i] == '#')
			break;
		const std::size_t start = i;
		while (i < line.size() && !blank(line[i]) && line[i] != '#')
			i++;
		if (n == max_fields)
			return max_fields + 1;
		fields[n++] = Field{line.substr(start, i - start)};
	}
	return n;
}

// No 16 hex digits in a row either: they may be part of a key written in the wrong field, and a name is shown
// (idtypes_keys(), errors).
bool valid_name(std::string_view s)
{
	if (s.empty() || s.size() > public_id::max_key_name || key_like(s))
		return false;
	for (char c : s)
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return false;
	return true;
}

bool parse_version(std::string_view s, std::int32_t &out)
{
	if (s.empty() || s.size() > 10)
		return false;
	std::int64_t v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	if (v < 1 || v > INT32_MAX)
		return false;
	out = static_cast<std::int32_t>(v);
	return true;
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool parse_key(std::string_view s, std::uint8_t (&out)[key_bytes])
{
	if (s.size() != 2 * key_bytes)
		return false;
	for (std::size_t i = 0; i < key_bytes; i++) {
		const int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
	}
	return true;
}

// Names separated by commas, none empty, at most max_scope_names, each a valid SQL identifier's bytes
// (no quote, no backslash, no control character).
bool valid_scope(std::string_view s)
{
	if (s.empty() || s.size() >= max_scope)
		return false;
	int names = 1;
	for (std::size_t i = 0; i < s.size(); i++) {
		const unsigned char c = static_cast<unsigned char>(s[i]);
		if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
			return false;
		if (c == ',') {
			if (i == 0 || i + 1 == s.size() || s[i + 1] == ',')
				return false;
			names++;
		}
	}
	return names <= max_scope_names;
}

Result problem(Problem p, int line, int field)
{
	Result r;
	r.problem = p;
	r.line = line;
	r.field = field;
	return r;
}

// One line with n >= 3 fields into e.
Result parse_entry(const Field *f, int n, int line, Entry &e)
{
	std::memset(&e, 0, sizeof e);
	e.line = line;
	if (!valid_name(f[0].text))
		return problem(Problem::name, line, 1);
	std::memcpy(e.name, f[0].text.data(), f[0].text.size());
	if (!parse_version(f[1].text, e.version))
		return problem(Problem::version, line, 2);
	if (f[2].is("retired")) { // no key: the version's symbol stays taken, its forms are refused by name
		e.stage = Stage::retired;
		if (n > 3)
			return problem(Problem::retired_fields, line, 4);
		return Result{};
	}
	if (!parse_key(f[2].text, e.key))
		return problem(Problem::key, line, 3);
	e.stage = Stage::active;
	bool staged = false;
	for (int i = 3; i < n; i++) {
		char *into = f[i].starts("databases=") ? e.databases : f[i].starts("roles=") ? e.roles : nullptr;
		if (into == nullptr && !staged && (f[i].is("active") || f[i].is("decrypt"))) {
			e.stage = f[i].is("active") ? Stage::active : Stage::decrypt;
			staged = true;
			continue;
		}
		if (into == nullptr)
			return problem(Problem::unknown_field, line, i + 1);
		const std::string_view value = f[i].text.substr(f[i].text.find('=') + 1);
		if (into[0] != '\0' || !valid_scope(value))
			return problem(Problem::scope, line, i + 1);
		std::memcpy(into, value.data(), value.size());
	}
	return Result{};
}

} // namespace

bool compatible(const Entry &o, const Entry &e, Result &r) noexcept
{
	if (std::strcmp(o.name, e.name) != 0)
		return true;
	r = problem(Problem::none, e.line, 0);
	r.other_line = o.line;
	r.version = e.version;
	r.other_version = o.version;
	if (o.version == e.version)
		r.problem = Problem::duplicate;
	else if (o.version % public_id::version_symbols == e.version % public_id::version_symbols)
		r.problem = Problem::same_symbol;
	else if (o.stage != Stage::retired && e.stage != Stage::retired &&
	         (std::strcmp(o.databases, e.databases) != 0 || std::strcmp(o.roles, e.roles) != 0))
		r.problem = Problem::other_scope;
	return r.problem == Problem::none;
}

Result parse(std::string_view text, Entry *entries, int cap) noexcept
{
	Result r;
	if (text.size() > max_file)
		return problem(Problem::too_large, 0, 0);
	int line = 0, count = 0;
	for (std::size_t pos = 0; pos < text.size();) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string_view::npos)
			end = text.size();
		const std::string_view l = text.substr(pos, end - pos);
		pos = end + 1;
		line++;
		Field f[max_fields];
		const int n = split(l, f);
		if (n == 0)
			continue;
		if (n < 3 || n > max_fields) {
			r = problem(n < 3 ? Problem::too_few_fields : Problem::too_many_fields, line, 0);
			break;
		}
		if (count == cap || count == max_entries) {
			r = problem(Problem::too_many, line, 0);
			break;
		}
		r = parse_entry(f, n, line, entries[count]);
		for (int j = 0; r.problem == Problem::none && j < count; j++)
			(void)compatible(entries[j], entries[count], r);
		if (r.problem != Problem::none) {
			std::memset(&entries[count], 0, sizeof entries[count]);
			break;
		}
		count++;
	}
	r.count = count;
	return r;
}

bool next_name(const char *scope, std::size_t &at, std::string_view &name) noexcept
{
	if (scope[at] == '\0')
		return false;
	const char *start = scope + at;
	const char *comma = std::strchr(start, ',');
	const std::size_t len = comma != nullptr ? static_cast<std::size_t>(comma - start) : std::strlen(start);
	name = std::string_view(start, len);
	at += len + (comma != nullptr);
	return true;
}

namespace {
bool hex_run(std::string_view s, int length) noexcept
{
	int run = 0;
	for (char c : s) {
		run = hex_value(c) >= 0 ? run + 1 : 0;
		if (run >= length)
			return true;
	}
	return false;
}
} // namespace

bool key_like(std::string_view s) noexcept { return hex_run(s, 16); }

bool hex_in_name(std::string_view s) noexcept { return hex_run(s, 8); }

int hex_digits(std::string_view s) noexcept
{
	int n = 0;
	for (char c : s)
		n += hex_value(c) >= 0;
	return n;
}

std::size_t describe(const Result &r, char *out, std::size_t cap) noexcept
{
	const char *shape = "a line is: name version key (64 hex digits) [active|decrypt] [databases=…] [roles=…], "
	                    "or: name version retired";
	int n = 0;
	switch (r.problem) {
	case Problem::none: n = std::snprintf(out, cap, "no problem"); break;
	case Problem::too_few_fields:
	case Problem::too_many_fields:
		n = std::snprintf(out, cap, "line %d: too %s fields; %s", r.line,
		                  r.problem == Problem::too_few_fields ? "few" : "many", shape);
		break;
	case Problem::name:
		n = std::snprintf(out, cap,
		                  "line %d, field 1: a key's name is 1 to 63 letters, digits, \"_\", \"-\" or \".\", without "
		                  "16 hexadecimal digits in a row",
		                  r.line);
		break;
	case Problem::version:
		n = std::snprintf(out, cap, "line %d, field 2: a version is a whole number from 1 to 2147483647", r.line);
		break;
	case Problem::key:
		n = std::snprintf(out, cap, "line %d, field 3: a key is 64 hexadecimal digits (AES-256), or the word retired",
		                  r.line);
		break;
	case Problem::retired_fields:
		n = std::snprintf(out, cap, "line %d, field %d: a retired version's line is: name version retired", r.line,
		                  r.field);
		break;
	case Problem::unknown_field:
		n = std::snprintf(out, cap,
		                  "line %d, field %d: neither a stage (active, decrypt) nor a scope (databases=…, roles=…)",
		                  r.line, r.field);
		break;
	case Problem::scope:
		n = std::snprintf(out, cap,
		                  "line %d, field %d: a scope is given once per line, as 1 to %d names separated by commas "
		                  "(at most %zu bytes, no quote or backslash)",
		                  r.line, r.field, max_scope_names, max_scope - 1);
		break;
	case Problem::duplicate:
		n = std::snprintf(out, cap, "line %d: version %d of this key is on line %d too", r.line, r.version,
		                  r.other_line);
		break;
	case Problem::same_symbol:
		n = std::snprintf(out, cap,
		                  "line %d: versions %d (here) and %d (line %d) of this key have the same symbol in a public "
		                  "form (versions equal modulo 16): keep one",
		                  r.line, r.version, r.other_version, r.other_line);
		break;
	case Problem::other_scope:
		n = std::snprintf(out, cap,
		                  "line %d: the scope differs from line %d's, a version of the same key: every line of a key "
		                  "gives the same databases= and roles=",
		                  r.line, r.other_line);
		break;
	case Problem::too_many:
		n = std::snprintf(out, cap, "line %d: more than %d key versions", r.line, max_entries);
		break;
	case Problem::too_large: n = std::snprintf(out, cap, "it is larger than %zu bytes", max_file); break;
	}
	return n < 0 ? 0 : static_cast<std::size_t>(n) < cap ? static_cast<std::size_t>(n) : cap - 1;
}

} // namespace idtypes::keyring_text
