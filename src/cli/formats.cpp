#include "cli/formats.hpp"

#include <cstdio>
#include <cstring>
#include <iterator>

#include "core/bytes.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/text_status.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"

namespace idtypes::cli {

namespace {

std::uint64_t u64_of(const Id &id) { return load_be64(id.bytes.data()); }

Id id_of(std::uint64_t v)
{
	Id id;
	store_be64(v, id.bytes.data());
	return id;
}

template <std::size_t N>
Id id_of(const std::array<std::uint8_t, N> &b)
{
	static_assert(N <= sizeof(Id::bytes));
	Id id;
	std::memcpy(id.bytes.data(), b.data(), N);
	return id;
}

template <std::size_t N>
std::string text_of(const char (&t)[N])
{
	return std::string(t, N);
}

std::string detail_of(const TextStatus &s, const TextRules &rules)
{
	char d[detail_size];
	describe(s, rules, d);
	return d;
}

// A core parse into an Id, with the SQL input function's DETAIL when it fails.
template <typename V, typename Parse>
Read read_with(Parse parse, const TextRules &rules, std::string_view text, Id &id, std::string &why)
{
	V v{};
	TextStatus s = parse(text, v);
	if (s.ok()) {
		id = id_of(v);
		return Read::ok;
	}
	why = detail_of(s, rules);
	return s.error == TextError::length ? Read::wrong_length : Read::invalid;
}

template <typename R>
Bounds bounds_of(const R &r, const TextRules &rules)
{
	Bounds b{};
	if (!r.status.ok()) {
		b.why = detail_of(r.status, rules);
		return b;
	}
	b.ok = true;
	b.empty = r.empty;
	if (!r.empty) {
		b.lo = id_of(r.lo);
		b.hi = id_of(r.hi);
	}
	return b;
}

template <auto At>
Id id_at(std::int64_t units)
{
	return id_of(At(units));
}

// Format::units from the core's F::units, over the ID's value (8-byte formats) or its bytes.
template <std::int64_t (*Units)(std::uint64_t)>
std::int64_t u64_units(const Id &id)
{
	return Units(u64_of(id));
}
template <std::int64_t (*Units)(const std::uint8_t *)>
std::int64_t bytes_units(const Id &id)
{
	return Units(id.bytes.data());
}

// --- timeid

Read timeid_read(std::string_view t, Id &id, std::string &why)
{
	return read_with<std::uint64_t>(timeid::parse, timeid::rules, t, id, why);
}

std::string timeid_write(const Id &id)
{
	char out[timeid::text_len];
	timeid::format(u64_of(id), out);
	return text_of(out);
}

std::string timeid_write_dashed(const Id &id)
{
	char out[timeid::dashed_len];
	timeid::format_dashed(u64_of(id), out);
	return text_of(out);
}

// The dashed display form: the dashes are taken out where the core's format_dashed puts them (its output is
// the layout), the rest is parsed as canonical text; positions in the DETAIL are those of the dashed text.
Read timeid_read_dashed(std::string_view t, Id &id, std::string &why)
{
	char layout[timeid::dashed_len];
	timeid::format_dashed(0, layout);
	char buf[64];
	if (t.size() != timeid::dashed_len) {
		std::snprintf(buf, sizeof buf, "Expected %zu characters (STTT-TTT-TTTT-CC), found %zu.", timeid::dashed_len,
		              t.size());
		why = buf;
		return Read::wrong_length;
	}
	char plain[timeid::text_len];
	std::uint32_t position[timeid::text_len]; // of each plain symbol in the dashed text
	std::size_t n = 0;
	for (std::size_t i = 0; i < t.size(); i++) {
		if (layout[i] != '-') {
			position[n] = static_cast<std::uint32_t>(i + 1);
			plain[n++] = t[i];
		} else if (t[i] != '-') {
			std::snprintf(buf, sizeof buf, "Character %zu must be a dash (STTT-TTT-TTTT-CC).", i + 1);
			why = buf;
			return Read::invalid;
		}
	}
	std::uint64_t v = 0;
	TextStatus s = timeid::parse(std::string_view(plain, n), v);
	if (!s.ok()) {
		if (s.error == TextError::symbol)
			s.position = position[s.position - 1];
		why = detail_of(s, timeid::rules);
		return Read::invalid;
	}
	id = id_of(v);
	return Read::ok;
}

std::vector<Field> timeid_fields(const Id &id)
{
	std::uint64_t v = u64_of(id);
	return {{"dashed", timeid_write_dashed(id)},
	        {"micros", std::to_string(timeid::micros(v))},
	        {"clock_id", std::to_string(timeid::clock_id(v))}};
}

Bounds timeid_prefix(std::string_view p) { return bounds_of(timeid::prefix_range(p), timeid::rules); }

const Spelling timeid_spellings[] = {
    {timeid::descriptor.name, true, timeid_write, timeid_read},
    {"dashed", true, timeid_write_dashed, timeid_read_dashed},
};

// --- tbsl

Read tbsl_read(std::string_view t, Id &id, std::string &why)
{
	return read_with<tbsl::Bytes>(tbsl::parse, tbsl::rules, t, id, why);
}

std::string tbsl_write(const Id &id)
{
	char out[tbsl::text_len];
	tbsl::format(id.bytes.data(), out);
	return text_of(out);
}

// tbsl_to_base / tbsl_from_base
template <int Base>
std::string tbsl_write_base(const Id &id)
{
	char out[tbsl::max_base_len];
	std::size_t n = tbsl::to_base(id.bytes.data(), *tbsl::base_alphabet(Base), out);
	return std::string(out, n);
}

template <int Base>
Read tbsl_read_base(std::string_view t, Id &id, std::string &why)
{
	tbsl::BaseParsed p = tbsl::from_base(t, *tbsl::base_alphabet(Base));
	if (p.status == tbsl::FromBase::ok) {
		id = id_of(p.value);
		return Read::ok;
	}
	char d[detail_size];
	tbsl::describe(p, d);
	why = d;
	return Read::invalid;
}

std::vector<Field> tbsl_fields(const Id &id)
{
	tbsl::Fields f = tbsl::fields(id.bytes.data());
	return {{"unix_seconds", std::to_string(f.seconds)},
	        {"microseconds", std::to_string(f.micros)},
	        {"machine_id", std::to_string(f.machine)},
	        {"suffix", std::to_string(f.suffix)}};
}

Bounds tbsl_prefix(std::string_view p) { return bounds_of(tbsl::prefix_range(p), tbsl::rules); }

const Spelling tbsl_spellings[] = {
    {tbsl::descriptor.name, true, tbsl_write, tbsl_read},
    {"base16", false, tbsl_write_base<16>, tbsl_read_base<16>},
    {"base32", false, tbsl_write_base<32>, tbsl_read_base<32>},
    {"base36", false, tbsl_write_base<36>, tbsl_read_base<36>},
    {"base58", false, tbsl_write_base<58>, tbsl_read_base<58>},
    {"base62", false, tbsl_write_base<62>, tbsl_read_base<62>},
};

// --- uid11 (timestamps read as its xid profile)

Read uid11_read(std::string_view t, Id &id, std::string &why)
{
	return read_with<std::uint64_t>(uid11::parse, uid11::rules, t, id, why);
}

std::string uid11_write(const Id &id)
{
	char out[uid11::text_len];
	uid11::format(u64_of(id), out);
	return text_of(out);
}

std::vector<Field> uid11_fields(const Id &id)
{
	std::uint64_t v = u64_of(id);
	return {{"value", std::to_string(v)},
	        {"xid_timestamp", std::to_string(uid11::xid_delta(v))},
	        {"xid_random", std::to_string(uid11::xid_random(v))}};
}

Bounds uid11_prefix(std::string_view p) { return bounds_of(uid11::prefix_range(p), uid11::rules); }

const Spelling uid11_spellings[] = {
    {uid11::descriptor.name, true, uid11_write, uid11_read},
};

// --- scru160: its parse reads both spellings, so hex needs no reader of its own

Read scru160_read(std::string_view t, Id &id, std::string &why)
{
	return read_with<scru160::Bytes>(scru160::parse, scru160::rules, t, id, why);
}

std::string scru160_write(const Id &id)
{
	char out[scru160::text_len];
	scru160::format(id.bytes.data(), out);
	return text_of(out);
}

std::string scru160_write_hex(const Id &id)
{
	char out[scru160::hex_len];
	scru160::format_hex(id.bytes.data(), out);
	return text_of(out);
}

std::vector<Field> scru160_fields(const Id &id)
{
	scru160::Fields f = scru160::fields(id.bytes.data());
	std::string random80;
	for (std::uint8_t b : f.random80) {
		char hex[3];
		std::snprintf(hex, sizeof hex, "%02x", b);
		random80 += hex;
	}
	return {{"hex", scru160_write_hex(id)},
	        {"timestamp", std::to_string(f.timestamp)},
	        {"counter", std::to_string(f.counter)},
	        {"random16", std::to_string(f.random16)},
	        {"random80", random80}};
}

Bounds scru160_prefix(std::string_view p) { return bounds_of(scru160::prefix_range(p), scru160::rules); }

const Spelling scru160_spellings[] = {
    {scru160::descriptor.name, true, scru160_write, scru160_read},
    {"hex", false, scru160_write_hex, scru160_read},
};

} // namespace

// Names and time scales are the core's descriptors (src/core/format.hpp).
const Format formats[4] = {
    {timeid::descriptor.name, timeid::descriptor.scale, timeid_spellings, std::size(timeid_spellings),
     u64_units<timeid::units>, timeid_fields, timeid_prefix, id_at<timeid::min_at>, id_at<timeid::max_at>},
    {tbsl::descriptor.name, tbsl::descriptor.scale, tbsl_spellings, std::size(tbsl_spellings), bytes_units<tbsl::units>,
     tbsl_fields, tbsl_prefix, id_at<tbsl::min_at>, id_at<tbsl::max_at>},
    {uid11::descriptor.name, uid11::descriptor.scale, uid11_spellings, std::size(uid11_spellings),
     u64_units<uid11::units>, uid11_fields, uid11_prefix, id_at<uid11::min_at>, id_at<uid11::max_at>},
    {scru160::descriptor.name, scru160::descriptor.scale, scru160_spellings, std::size(scru160_spellings),
     bytes_units<scru160::units>, scru160_fields, scru160_prefix, id_at<scru160::min_at>, id_at<scru160::max_at>},
};

const Format *format_named(std::string_view name) noexcept
{
	if (name == "xid")
		name = uid11::descriptor.name;
	for (const Format &f : formats)
		if (name == f.name)
			return &f;
	return nullptr;
}

const Spelling *spelling_named(const Format &f, std::string_view name) noexcept
{
	if (name == "canonical")
		return &f.spellings[0];
	for (std::size_t i = 0; i < f.spelling_count; i++)
		if (name == f.spellings[i].name)
			return &f.spellings[i];
	return nullptr;
}

const Spelling *any_spelling_named(std::string_view name, const Format *&format) noexcept
{
	for (const Format &f : formats)
		for (std::size_t i = 0; i < f.spelling_count; i++)
			if (name == f.spellings[i].name) {
				format = &f;
				return &f.spellings[i];
			}
	return nullptr;
}

} // namespace idtypes::cli
