// The module: PG_MODULE_MAGIC and the configuration parameters.
#include "pg/generators.hpp"
#include "pg/settings.hpp"

namespace idtypes::pg {
int timeid_clock_id_setting = -1;
int tbsl_machine_id_setting = 0;
int clock_backward_setting = clock_backward_wait;
int clock_backward_max_wait_ms = 1000;
int test_clock_offset_ms = 0;
}

namespace {
const struct config_enum_entry clock_backward_options[] = {
	{"wait", idtypes::pg::clock_backward_wait, false},
	{"error", idtypes::pg::clock_backward_error, false},
	{nullptr, 0, false},
};
}

extern "C" {

PG_MODULE_MAGIC;

// PostgreSQL 15's fmgr.h does not declare it; without C linkage it would never be called.
void _PG_init(void);

void _PG_init(void)
{
	DefineCustomIntVariable("idtypes.timeid_clock_id", "Clock id of the timeids this session generates.",
	                        "-1 picks a random clock id once per session.", &idtypes::pg::timeid_clock_id_setting, -1,
	                        -1, 1023, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable("idtypes.tbsl_machine_id", "Machine id of the TBSLs this session generates.",
	                        "Give every server (or writer) of a cluster its own id, 0 to 99.",
	                        &idtypes::pg::tbsl_machine_id_setting, 0, 0, 99, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomEnumVariable("idtypes.clock_backward",
	                         "What tbsl_generate does when the clock is behind the last TBSL it issued.",
	                         "wait: wait for the clock to catch up, at most idtypes.clock_backward_max_wait; error: fail at once.",
	                         &idtypes::pg::clock_backward_setting, idtypes::pg::clock_backward_wait,
	                         clock_backward_options, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable("idtypes.clock_backward_max_wait", "Longest wait for a clock that went backwards.", nullptr,
	                        &idtypes::pg::clock_backward_max_wait_ms, 1000, 0, 60000, PGC_USERSET, GUC_UNIT_MS,
	                        nullptr, nullptr, nullptr);
	DefineCustomIntVariable("idtypes.test_clock_offset",
	                        "For tests only: shifts the clock the generators read by this many milliseconds.", nullptr,
	                        &idtypes::pg::test_clock_offset_ms, 0, -86400000, 86400000, PGC_SUSET,
	                        GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr, nullptr, nullptr);
	MarkGUCPrefixReserved("idtypes");
	if (process_shared_preload_libraries_in_progress)
		idtypes::pg::request_shared_generators();
}

} // extern "C"
