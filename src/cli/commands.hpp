// The tool's commands. Each prints its results on stdout and its errors on stderr, and returns the exit
// status: 0, exit_invalid for an invalid ID, prefix or time (with the SQL error's reason), exit_usage for a
// command line it cannot run.
#pragma once

#include <string_view>
#include <vector>

#include "cli/args.hpp"

namespace idtypes::cli {

inline constexpr int exit_invalid = 1;
inline constexpr int exit_usage = 2;

// Prints a usage error and returns exit_usage.
int usage_error(std::string_view message);

struct Command {
	const char *name;
	std::vector<OptionSpec> options;
	int (*run)(const Args &args);
};

int inspect(const Args &args);
int gen(const Args &args);
int convert(const Args &args);
int time(const Args &args);
int range(const Args &args);

} // namespace idtypes::cli
