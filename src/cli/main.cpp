// idtypes: the command-line tool on the extension's core. Inspects, generates, converts IDs of the four
// formats and prints the ID ranges that prefix and time-window queries use, with no database.
#include <cstdio>
#include <exception>
#include <string>

#include "cli/adopt.hpp"
#include "cli/commands.hpp"

#ifndef IDTYPES_VERSION // the extension's version, from idtypes.control (CMakeLists.txt)
#error "IDTYPES_VERSION is not defined"
#endif

namespace {

using namespace idtypes::cli;

const char help[] = R"(usage: idtypes COMMAND ...

Sortable IDs of the idtypes PostgreSQL extension (timeid, tbsl, uid11 with its xid profile, scru160),
read, made and converted by the same code as the extension, with no database.

  idtypes inspect ID...
      Recognise each ID's format and print its canonical text, its time (RFC 3339, UTC, at the
      format's precision) and its fields. timeids may be written dashed, scru160s in hex.
  idtypes time ID... [--from FORM]
      Print each ID's time alone, one per line, as inspect prints it.
  idtypes gen TYPE [-n N] [--machine M] [--sequenced] [--clock-id C]
      Print N new IDs (default 1), one per line, strictly increasing. TYPE: tbsl, timeid, uid11,
      xid (uid11's xid profile, what uid11_generate() makes; the same as uid11), scru160, or
      uuid (UUIDv7s as uuid_v7_generate() makes them). --machine (0..99, default 0) and
      --sequenced are tbsl_generate's arguments; --clock-id (0..1023, default drawn at random)
      is timeid_generate's.
  idtypes convert ID... --to FORM [--from FORM]
      Print each ID in another form: tbsl: tbsl, base16, base32, base36, base58, base62
      (tbsl_to_base / tbsl_from_base); timeid: timeid, dashed; scru160: scru160 (base32hex), hex;
      uid11: uid11. "canonical" is any format's own text. --from names the form of the input,
      needed for tbsl's bases; otherwise it is recognised as by inspect.
  idtypes range TYPE --prefix P
      The lowest and highest ID whose text starts with P (T_prefix_lo / T_prefix_hi).
  idtypes range TYPE [--from T1] [--to T2]
      The lowest and highest ID whose time lies in [T1, T2): T_window_lo / T_window_hi of
      tstzrange(T1, T2). A missing end is unbounded.
  idtypes range TYPE --at T
      The lowest and highest ID at that instant, truncated to the format's precision (T_min / T_max).
  idtypes adopt TABLE --to TYPE [--mapping keep|v7|time] [--time-column C] [--step S]
      Print the psql script that moves TABLE's key, and every foreign key to it, onto TYPE (timeid,
      or uuid for UUIDv7s) in the database: pipe it to psql. --step run (default: plan, start,
      backfill, the CREATE INDEX CONCURRENTLY statements, constrain, verify, cut over; run it again
      to resume), plan, rollback, finish, progress (\watch). docs/adopting.md.
  idtypes --version
      The version of idtypes the tool was built from.

inspect, time and convert read the IDs from standard input when none are given: one per line, the
whitespace around it ignored, blank lines skipped; an invalid one is reported with its line number.

Times are RFC 3339, e.g. 2024-07-19T09:40:46.481Z or 2024-07-19T11:40:46+02:00. range prints two
lines, lowest first; when no ID matches they are reversed (lo above hi, as the SQL functions give)
and a note goes to stderr.

Exit status: 0 success, 1 an invalid ID, prefix or time (the reason is the SQL error's DETAIL),
2 a usage error.
)";

const Command commands[] = {
    {"inspect", {}, inspect},
    {"time", {{"from", 0, true}}, time},
    {"gen", {{"count", 'n', true}, {"machine", 0, true}, {"sequenced", 0, false}, {"clock-id", 0, true}}, gen},
    {"convert", {{"to", 0, true}, {"from", 0, true}}, convert},
    {"range", {{"prefix", 0, true}, {"from", 0, true}, {"to", 0, true}, {"at", 0, true}}, range},
    {"adopt", {{"to", 0, true}, {"mapping", 0, true}, {"time-column", 0, true}, {"step", 0, true}}, adopt},
};

int run(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("give a command: inspect, time, gen, convert, range or adopt");
	std::string_view name = argv[1];
	if (name == "-h" || name == "--help" || name == "help") {
		std::fputs(help, stdout);
		return 0;
	}
	if (name == "--version") {
		std::puts("idtypes " IDTYPES_VERSION);
		return 0;
	}
	for (const Command &c : commands) {
		if (name != c.name)
			continue;
		Args args;
		std::string error;
		if (!parse_args(argc, argv, 2, c.options, args, error))
			return usage_error(std::string(c.name) + ": " + error);
		if (args.help) {
			std::fputs(help, stdout);
			return 0;
		}
		return c.run(args);
	}
	return usage_error("unknown command \"" + std::string(name) + "\"");
}

} // namespace

int main(int argc, char **argv)
{
	// The core never throws; the tool's own strings can (out of memory): report it, never abort with a trace.
	try {
		int status = run(argc, argv);
		if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
			std::perror("idtypes: could not write the output");
			return exit_invalid;
		}
		return status;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "idtypes: %s\n", e.what());
		return exit_invalid;
	}
}
