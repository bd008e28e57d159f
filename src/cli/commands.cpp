#include "cli/commands.hpp"

#include <cstdio>
#include <iostream>
#include <string>

#include <unistd.h>

#include "cli/formats.hpp"
#include "cli/generate.hpp"
#include "cli/rfc3339.hpp"
#include "core/uuid7.hpp"

namespace idtypes::cli {

namespace {

void print(std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// stdout first, so that `idtypes ... >file 2>&1` keeps the order in which results and errors came
void error(const std::string &message)
{
	std::fflush(stdout);
	std::fprintf(stderr, "idtypes: %s\n", message.c_str());
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string time_of(const Format &f, std::int64_t units)
{
	return format_time(unix_us_of(f.scale, units), fraction_digits(f.scale.unit_us));
}

// --- reading IDs whose format is not given

struct Reading {
	const Format *format = nullptr;
	Id id;
};

struct Recognised {
	std::vector<Reading> readings;
	std::vector<std::string> reasons; // when there is none: why each format refused the text
};

// Every format's recognisable spellings are tried. Their lengths all differ (uid11 11, timeid 13 or 16
// dashed, tbsl 20, scru160 32 or 40), so a text has at most one reading today; should formats ever
// overlap, every reading is kept. The reasons shown for a text no format reads are those of the formats
// whose length it has (e.g. a bad symbol); when it has no format's length, each format's length rule.
Recognised recognise(std::string_view text)
{
	Recognised r;
	std::vector<std::string> invalid, wrong_length;
	for (const Format &f : formats) {
		for (std::size_t i = 0; i < f.spelling_count; i++) {
			const Spelling &s = f.spellings[i];
			if (!s.recognised)
				continue;
			Id id;
			std::string why;
			Read result = s.read(text, id, why);
			std::string who = i == 0 ? std::string(f.name) : std::string(f.name) + " (" + s.name + ")";
			if (result == Read::ok)
				r.readings.push_back(Reading{&f, id});
			else if (result == Read::invalid)
				invalid.push_back(who + ": " + why);
			else if (i == 0)
				wrong_length.push_back(who + ": " + why);
		}
	}
	r.reasons = invalid.empty() ? wrong_length : invalid;
	return r;
}

// Where an ID came from: a command-line argument (line 0) or a line of standard input.
std::string invalid_id(std::string_view text, long line)
{
	std::string where = line == 0 ? "" : "standard input, line " + std::to_string(line) + ": ";
	return where + "invalid ID " + quoted(text) + ":";
}

void report_unrecognised(std::string_view text, long line, const Recognised &r)
{
	std::string message = invalid_id(text, line);
	for (const std::string &reason : r.reasons)
		message += "\n  " + reason;
	error(message);
}

// --- the IDs a command reads

// Its arguments or, when there are none, standard input: one ID per line, the whitespace around it ignored,
// blank lines skipped. `each(text, line)` (line 0 for an argument) returns an exit status; the first usage
// error stops the run, otherwise every ID is read and the status is exit_invalid if any ID was invalid.
template <typename Each>
int for_each_id(const Args &a, const char *command, Each each)
{
	int status = 0;
	auto take = [&](std::string_view text, long line) {
		int s = each(text, line);
		if (s != 0)
			status = s;
		return s != exit_usage; // a usage error ends the run
	};
	if (!a.positional.empty()) {
		for (std::string_view text : a.positional)
			if (!take(text, 0))
				break;
		return status;
	}
	if (isatty(STDIN_FILENO)) // nothing piped in: a forgotten argument, not IDs to be typed
		return usage_error(std::string(command) + ": give one or more IDs, or one per line on standard input");
	std::ios_base::sync_with_stdio(false); // std::cin buffers, rather than reading stdin a byte at a time
	std::string line;
	const char *space = " \t\r\v\f";
	for (long number = 1; std::getline(std::cin, line); number++) {
		std::size_t first = line.find_first_not_of(space);
		if (first == std::string::npos)
			continue;
		std::string_view text = std::string_view(line).substr(first, line.find_last_not_of(space) + 1 - first);
		if (!take(text, number))
			return status;
	}
	if (std::cin.bad()) {
		std::perror("idtypes: could not read standard input");
		return exit_invalid;
	}
	return status;
}

std::string spelling_names(const Format &f)
{
	std::string names;
	for (std::size_t i = 0; i < f.spelling_count; i++)
		names += std::string(i ? ", " : "") + f.spellings[i].name;
	return names;
}

// --- range helpers

// What T_prefix_lo/hi and T_window_lo/hi give when nothing matches: lo above hi, so that
// `id >= lo AND id <= hi` selects nothing.
void print_bounds(const Format &f, const Id &lo, const Id &hi)
{
	print(f.spellings[0].write(lo) + "\n" + f.spellings[0].write(hi) + "\n");
}

void print_empty_bounds(const Format &f, const std::string &what)
{
	print_bounds(f, f.max_at(f.scale.max_units), f.min_at(0));
	error("no " + std::string(f.name) + " " + what + ": lo is above hi (as the SQL functions give), so " +
	      "a query selects nothing");
}

bool time_arg(const Args &a, const char *name, WindowBound &bound, bool inclusive)
{
	const std::string_view *text = a.value(name);
	bound = WindowBound{text == nullptr, inclusive, 0};
	if (text == nullptr || parse_time(*text, bound.unix_us))
		return true;
	error("invalid time " + quoted(*text) + " for --" + name +
	      ": expected RFC 3339, e.g. 2024-07-19T09:40:46.481Z or 2024-07-19T11:40:46+02:00");
	return false;
}

} // namespace

int usage_error(std::string_view message)
{
	error(std::string(message) + "\nTry 'idtypes --help'.");
	return exit_usage;
}

namespace {

// The one TYPE a command names; null (after the usage message) when it names none or an unknown one.
const Format *the_type(const Args &a, const char *command, const char *types = " (tbsl, timeid, uid11, xid or scru160)")
{
	if (a.positional.size() != 1) {
		usage_error(std::string(command) + ": give one TYPE" + types);
		return nullptr;
	}
	const Format *f = format_named(a.positional[0]);
	if (f == nullptr)
		usage_error(std::string(command) + ": unknown TYPE " + quoted(a.positional[0]) + types);
	return f;
}

} // namespace

int inspect(const Args &a)
{
	bool first = true;
	return for_each_id(a, "inspect", [&](std::string_view text, long line) {
		Recognised r = recognise(text);
		if (r.readings.empty()) {
			report_unrecognised(text, line, r);
			return exit_invalid;
		}
		for (const Reading &reading : r.readings) {
			const Format &f = *reading.format;
			std::string out = first ? "" : "\n";
			first = false;
			out += "input: " + std::string(text) + "\nformat: " + f.name +
			       "\ncanonical: " + f.spellings[0].write(reading.id) + "\ntime: " + time_of(f, f.units(reading.id)) +
			       "\n";
			for (const Field &field : f.fields(reading.id))
				out += std::string(field.name) + ": " + field.value + "\n";
			print(out);
		}
		return 0;
	});
}

namespace {

// The canonical 8-4-4-4-12 form, lower case, as PostgreSQL prints a uuid.
std::string uuid_text(const Id &id)
{
	char hex[uuid7::hex_len];
	uuid7::format_hex(id.bytes.data(), hex);
	const std::string_view h(hex, sizeof hex);
	return std::string(h.substr(0, 8)) + "-" + std::string(h.substr(8, 4)) + "-" + std::string(h.substr(12, 4)) + "-" +
	       std::string(h.substr(16, 4)) + "-" + std::string(h.substr(20));
}

} // namespace

int gen(const Args &a)
{
	// uuid is no format of the tool's (it reads no uuid), but it generates UUIDv7s as uuid_v7_generate() does
	const bool uuid = a.positional.size() == 1 && a.positional[0] == "uuid";
	const Format *f = uuid ? nullptr : the_type(a, "gen", " (tbsl, timeid, uid11, xid, scru160 or uuid)");
	if (f == nullptr && !uuid)
		return exit_usage;
	std::string_view name = uuid ? "uuid" : f->name;
	std::int64_t count = 1, number = 0;
	GenOptions o;
	if (const std::string_view *n = a.value("count"); n && !parse_number(*n, 0, INT64_MAX, count))
		return usage_error("gen: -n must be a whole number, 0 or more; got " + quoted(*n));
	if (const std::string_view *m = a.value("machine")) {
		if (name != "tbsl")
			return usage_error("gen: --machine is for tbsl only");
		if (!parse_number(*m, 0, 99, number))
			return usage_error("gen: --machine must be between 0 and 99; got " + quoted(*m));
		o.machine = static_cast<unsigned>(number);
	}
	if (a.has("sequenced")) {
		if (name != "tbsl")
			return usage_error("gen: --sequenced is for tbsl only");
		o.sequenced = true;
	}
	if (const std::string_view *c = a.value("clock-id")) {
		if (name != "timeid")
			return usage_error("gen: --clock-id is for timeid only");
		if (!parse_number(*c, 0, 1023, number))
			return usage_error("gen: --clock-id must be between 0 and 1023; got " + quoted(*c));
		o.clock_id = static_cast<int>(number);
	}
	std::unique_ptr<Generator> g = uuid ? make_uuid_generator() : make_generator(*f, o);
	std::string why;
	for (std::int64_t i = 0; i < count; i++) {
		Id id;
		if (!g->next(id, why)) {
			error(why);
			return exit_invalid;
		}
		print((uuid ? uuid_text(id) : f->spellings[0].write(id)) + "\n");
	}
	return 0;
}

namespace {

// The form --from names (none: the ID's form is recognised, as by inspect).
struct Form {
	const Format *format = nullptr;
	const Spelling *spelling = nullptr;
};

// False after the usage error for an unknown form.
bool from_option(const Args &a, const char *command, Form &from)
{
	const std::string_view *name = a.value("from");
	if (name == nullptr)
		return true;
	from.spelling = any_spelling_named(*name, from.format);
	if (from.spelling == nullptr)
		usage_error(std::string(command) + ": unknown --from form " + quoted(*name));
	return from.spelling != nullptr;
}

// The ID a text holds in that form, or its first reading (there is one today); false after the error.
bool read_id(std::string_view text, long line, const Form &from, Reading &out)
{
	if (from.spelling != nullptr) {
		out.format = from.format;
		std::string why;
		if (from.spelling->read(text, out.id, why) == Read::ok)
			return true;
		error(invalid_id(text, line) + "\n  " + from.format->name + " (" + from.spelling->name + "): " + why);
		return false;
	}
	Recognised r = recognise(text);
	if (r.readings.empty()) {
		report_unrecognised(text, line, r);
		return false;
	}
	out = r.readings[0];
	return true;
}

// for_each_id of a command that takes --from: `each(reading)` gets every ID that reads, and returns a status.
template <typename Each>
int for_each_reading(const Args &a, const char *command, Each each)
{
	Form from;
	if (!from_option(a, command, from))
		return exit_usage;
	return for_each_id(a, command, [&](std::string_view text, long line) {
		Reading reading;
		return read_id(text, line, from, reading) ? each(reading) : exit_invalid;
	});
}

} // namespace

int convert(const Args &a)
{
	const std::string_view *to = a.value("to");
	if (to == nullptr)
		return usage_error("convert: give one or more IDs and --to FORM");
	return for_each_reading(a, "convert", [&](const Reading &reading) {
		const Format &f = *reading.format;
		const Spelling *target = spelling_named(f, *to);
		if (target == nullptr)
			return usage_error("convert: a " + std::string(f.name) + " has no form " + quoted(*to) +
			                   "; its forms: " + spelling_names(f));
		print(target->write(reading.id) + "\n");
		return 0;
	});
}

int time(const Args &a)
{
	return for_each_reading(a, "time", [](const Reading &reading) {
		print(time_of(*reading.format, reading.format->units(reading.id)) + "\n");
		return 0;
	});
}

int range(const Args &a)
{
	const Format *f = the_type(a, "range");
	if (f == nullptr)
		return exit_usage;
	const bool prefix = a.has("prefix"), window = a.has("from") || a.has("to"), at = a.has("at");
	if (prefix + window + at != 1)
		return usage_error("range: give --prefix P, or --from T1 and/or --to T2, or --at T");

	if (prefix) { // T_prefix_lo / T_prefix_hi
		std::string_view p = *a.value("prefix");
		Bounds b = f->prefix(p);
		if (!b.ok) {
			error("invalid input syntax for type " + std::string(f->name) + ": " + quoted(p) + ": " + b.why);
			return exit_invalid;
		}
		if (b.empty)
			print_empty_bounds(*f, "has the prefix " + quoted(p));
		else
			print_bounds(*f, b.lo, b.hi);
		return 0;
	}

	if (at) { // T_min / T_max
		WindowBound t;
		if (!time_arg(a, "at", t, true))
			return exit_invalid;
		std::int64_t units = 0;
		if (!units_at(f->scale, t.unix_us, units)) {
			error("timestamp out of range for type " + std::string(f->name) + ": a " + f->name + " holds times from " +
			      time_of(*f, 0) + " to " + time_of(*f, f->scale.max_units));
			return exit_invalid;
		}
		print_bounds(*f, f->min_at(units), f->max_at(units));
		return 0;
	}

	// T_window_lo / T_window_hi of tstzrange(from, to), whose default bounds are '[)'; a missing end is
	// unbounded, as a NULL bound is
	WindowBound lo, hi;
	if (!time_arg(a, "from", lo, true) || !time_arg(a, "to", hi, false))
		return exit_invalid;
	if (!lo.infinite && !hi.infinite && lo.unix_us > hi.unix_us) { // tstzrange refuses it the same way
		error("range lower bound must be less than or equal to range upper bound");
		return exit_invalid;
	}
	UnitRange units = window_units(f->scale, lo, hi);
	if (units.empty)
		print_empty_bounds(*f, "lies in that window");
	else
		print_bounds(*f, f->min_at(units.first), f->max_at(units.last));
	return 0;
}

} // namespace idtypes::cli
