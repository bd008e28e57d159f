#include "cli/adopt.hpp"

#include <cstdio>
#include <string>
#include <string_view>

#include "cli/commands.hpp"

namespace idtypes::cli {
namespace {

// A psql \set value: single-quoted, with ' and \ escaped as psql reads them in backslash commands.
std::string psql_quoted(std::string_view text)
{
	std::string out = "'";
	for (char c : text) {
		if (c == '\'' || c == '\\')
			out += '\\';
		out += c;
	}
	return out + "'";
}

// Every step is idempotent (a step already done says so and returns), so the same script resumes an
// adoption interrupted anywhere: run it again.
const char run_steps[] =
    R"(SELECT kind, object, detail FROM idtypes_adopt_plan(:'table', :'to', :'mapping', NULLIF(:'time_column', '')) WHERE blocking;
CALL idtypes_adopt_start(:'table', :'to', :'mapping', NULLIF(:'time_column', ''));
CALL idtypes_adopt_backfill(:'table');
SELECT s FROM idtypes_adopt_prepare(:'table') s \gexec
CALL idtypes_adopt_constrain(:'table');
SELECT count(*) = 0 AS verified FROM idtypes_adopt_verify(:'table') WHERE failures > 0 \gset
\if :verified
CALL idtypes_adopt_cutover(:'table');
SELECT relation, phase, rows_done, rows_per_second FROM idtypes_adopt_progress WHERE relation = :'table'::regclass;
\else
SELECT * FROM idtypes_adopt_verify(:'table') WHERE failures > 0;
DO $$BEGIN RAISE EXCEPTION 'verify found failures: not cut over'; END$$;
\endif
)";

} // namespace

int adopt(const Args &args)
{
	if (args.positional.size() != 1)
		return usage_error("adopt: give one table, e.g. idtypes adopt public.orders --to timeid | psql");
	std::string_view step = args.has("step") ? *args.value("step") : "run";
	std::string_view to = args.has("to") ? *args.value("to") : "";
	std::string_view mapping = args.has("mapping") ? *args.value("mapping") : "keep";
	std::string_view time_column = args.has("time-column") ? *args.value("time-column") : "";
	if (step != "run" && step != "plan" && step != "rollback" && step != "finish" && step != "progress")
		return usage_error("adopt: --step is run, plan, rollback, finish or progress");
	if ((step == "run" || step == "plan") && to.empty())
		return usage_error("adopt: --to timeid or --to uuid");
	if (mapping != "keep" && mapping != "v7" && mapping != "time")
		return usage_error("adopt: --mapping is keep, v7 or time");
	if ((mapping == "time") != !time_column.empty())
		return usage_error("adopt: --time-column goes with --mapping time, and only with it");
	std::string out = "\\set ON_ERROR_STOP on\n\\set table " + psql_quoted(args.positional[0]) + "\n";
	out += "\\set to " + psql_quoted(to) + "\n\\set mapping " + psql_quoted(mapping) + "\n\\set time_column " +
	       psql_quoted(time_column) + "\n";
	if (step == "run")
		out += run_steps;
	else if (step == "plan")
		out += "SELECT * FROM idtypes_adopt_plan(:'table', :'to', :'mapping', NULLIF(:'time_column', ''));\n";
	else if (step == "rollback")
		out += "CALL idtypes_adopt_rollback(:'table');\n";
	else if (step == "finish")
		out += "CALL idtypes_adopt_finish(:'table');\n";
	else
		out += "SELECT * FROM idtypes_adopt_progress WHERE relation = :'table'::regclass \\watch 5\n";
	std::fputs(out.c_str(), stdout);
	return 0;
}

} // namespace idtypes::cli
