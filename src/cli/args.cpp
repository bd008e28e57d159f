#include "cli/args.hpp"

#include <charconv>

namespace idtypes::cli {

const std::string_view *Args::value(std::string_view name) const noexcept
{
	for (const auto &o : options)
		if (o.first == name)
			return &o.second;
	return nullptr;
}

namespace {

const OptionSpec *find(const std::vector<OptionSpec> &specs, std::string_view name, bool is_short)
{
	for (const OptionSpec &s : specs)
		if (is_short ? (name.size() == 1 && name[0] == s.short_name) : name == s.name)
			return &s;
	return nullptr;
}

} // namespace

bool parse_args(int argc, char **argv, int first, const std::vector<OptionSpec> &specs, Args &out, std::string &error)
{
	bool options_ended = false;
	for (int i = first; i < argc; i++) {
		std::string_view arg = argv[i];
		if (options_ended || arg.size() < 2 || arg[0] != '-') {
			out.positional.push_back(arg);
			continue;
		}
		if (arg == "--") {
			options_ended = true;
			continue;
		}
		if (arg == "-h" || arg == "--help") {
			out.help = true;
			continue;
		}
		// --name, --name=value, -n, -nVALUE
		bool is_short = arg[1] != '-';
		std::string_view name = arg.substr(is_short ? 1 : 2);
		std::string_view attached;
		bool has_attached = false;
		if (is_short && name.size() > 1) {
			attached = name.substr(1);
			name = name.substr(0, 1);
			has_attached = true;
		} else if (!is_short) {
			std::size_t eq = name.find('=');
			if (eq != std::string_view::npos) {
				attached = name.substr(eq + 1);
				name = name.substr(0, eq);
				has_attached = true;
			}
		}
		const OptionSpec *spec = find(specs, name, is_short);
		if (spec == nullptr) {
			error = "unknown option " + std::string(arg);
			return false;
		}
		std::string shown = "--" + std::string(spec->name);
		if (out.has(spec->name)) {
			error = shown + " given twice";
			return false;
		}
		std::string_view value;
		if (spec->takes_value) {
			if (has_attached) {
				value = attached;
			} else if (i + 1 < argc) {
				value = argv[++i];
			} else {
				error = shown + " needs a value";
				return false;
			}
		} else if (has_attached) {
			error = shown + " takes no value";
			return false;
		}
		out.options.emplace_back(spec->name, value);
	}
	return true;
}

bool parse_number(std::string_view text, std::int64_t lo, std::int64_t hi, std::int64_t &out) noexcept
{
	std::int64_t v = 0;
	auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
	if (ec != std::errc() || end != text.data() + text.size() || text.empty() || v < lo || v > hi)
		return false;
	out = v;
	return true;
}

} // namespace idtypes::cli
