// The command line after the command's name: positional arguments, and the options the command declares
// (`--name value`, `--name=value`, `-n value`, flags), `--` ending the options and `-h`/`--help` anywhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idtypes::cli {

struct OptionSpec {
	const char *name; // without the dashes
	char short_name;  // or 0
	bool takes_value;
};

struct Args {
	std::vector<std::string_view> positional;
	std::vector<std::pair<std::string_view, std::string_view>> options; // name, value ("" for a flag)
	bool help = false;

	// The value given for an option, or nullptr when it was not given.
	const std::string_view *value(std::string_view name) const noexcept;
	bool has(std::string_view name) const noexcept { return value(name) != nullptr; }
};

// False with the reason on a usage error: an option the command does not take, one given twice, one
// without its value.
bool parse_args(int argc, char **argv, int first, const std::vector<OptionSpec> &specs, Args &out, std::string &error);

// A whole decimal number from lo to hi, nothing else.
bool parse_number(std::string_view text, std::int64_t lo, std::int64_t hi, std::int64_t &out) noexcept;

} // namespace idtypes::cli
