// The module: PG_MODULE_MAGIC and the configuration parameters.
#include <climits>

#include "pg/generators.hpp"
#include "pg/glue.hpp"
#include "pg/settings.hpp"

namespace idtypes::pg {

int clock_backward_setting = clock_backward_wait;
int clock_backward_max_wait_ms = 1000;
int test_clock_offset_ms = 0;

namespace {

int tbsl_machine_id_value = 0;
int timeid_clock_id_value = -1;

// A value set before the library was loaded (postgresql.conf, ALTER DATABASE/ROLE ... SET, or SET in the
// session) is applied while the parameter is defined. PostgreSQL would replace an out-of-range one by the
// default with only a WARNING (perhaps only in the server log): for an identity that is another writer's
// identity. So the parameters take any integer, their check hooks reject out-of-range values whenever
// PostgreSQL can report it (SET, ALTER ... SET, a reload), and the value kept from before loading is
// checked again where it is used.
bool defining = false;

struct IdentityRange {
	const char *name;
	int min, max;
};
constexpr IdentityRange tbsl_machine_id_range{"idtypes.tbsl_machine_id", 0, 99};
constexpr IdentityRange timeid_clock_id_range{"idtypes.timeid_clock_id", -1, 1023};

bool check_identity(const IdentityRange &range, int value)
{
	if (defining || (value >= range.min && value <= range.max))
		return true;
	GUC_check_errdetail("%s must be between %d and %d.", range.name, range.min, range.max);
	return false;
}

bool check_tbsl_machine_id(int *value, void **, GucSource) { return check_identity(tbsl_machine_id_range, *value); }
bool check_timeid_clock_id(int *value, void **, GucSource) { return check_identity(timeid_clock_id_range, *value); }

int checked_identity(const IdentityRange &range, int value, const char *argument_hint)
{
	if (value < range.min || value > range.max)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		         errmsg("invalid value for parameter \"%s\": %d", range.name, value),
		         errdetail("It was set before idtypes was loaded, so it could not be checked then; it must "
		                   "be between %d and %d.",
		                   range.min, range.max),
		         errhint("Set %s to a value from %d to %d, or %s.", range.name, range.min, range.max, argument_hint)));
	return value;
}

const struct config_enum_entry clock_backward_options[] = {
    {"wait", clock_backward_wait, false},
    {"error", clock_backward_error, false},
    {nullptr, 0, false},
};

} // namespace

int tbsl_machine_id_setting()
{
	return checked_identity(tbsl_machine_id_range, tbsl_machine_id_value, "pass machine_id to tbsl_generate()");
}

int timeid_clock_id_setting()
{
	return checked_identity(timeid_clock_id_range, timeid_clock_id_value, "pass clock_id to timeid_generate()");
}

} // namespace idtypes::pg

extern "C" {

// On 18 and later the module also names itself and its version (pg_get_loaded_modules() shows them).
// The macro takes C designated initializers, which C++17 knows only as a GNU extension.
#if PG_VERSION_NUM >= 180000
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wc++20-extensions"
PG_MODULE_MAGIC_EXT(.name = "idtypes", .version = IDTYPES_VERSION);
#pragma GCC diagnostic pop
#else
PG_MODULE_MAGIC;
#endif

// PostgreSQL 15's fmgr.h does not declare it; without C linkage it would never be called.
void _PG_init(void);

void _PG_init(void)
{
	using namespace idtypes::pg;
	defining = true;
	DefineCustomIntVariable("idtypes.timeid_clock_id", "Clock id of the timeids generated without a clock_id argument.",
	                        "-1 (the default) uses one clock id per server, drawn at random; 0 to 1023 sets it.",
	                        &timeid_clock_id_value, -1, INT_MIN, INT_MAX, PGC_USERSET, 0, check_timeid_clock_id,
	                        nullptr, nullptr);
	DefineCustomIntVariable(
	    "idtypes.tbsl_machine_id", "Machine id of the TBSLs generated without a machine_id argument.",
	    "Give every server that writes into the same keyspace its own id, 0 to 99.", &tbsl_machine_id_value, 0, INT_MIN,
	    INT_MAX, PGC_USERSET, 0, check_tbsl_machine_id, nullptr, nullptr);
	defining = false;
	DefineCustomEnumVariable(
	    "idtypes.clock_backward", "What tbsl_generate does when the clock is behind the last TBSL it issued.",
	    "wait: wait for the clock to catch up, at most idtypes.clock_backward_max_wait; error: fail at once.",
	    &clock_backward_setting, clock_backward_wait, clock_backward_options, PGC_USERSET, 0, nullptr, nullptr,
	    nullptr);
	DefineCustomIntVariable("idtypes.clock_backward_max_wait", "Longest wait for a clock that went backwards.", nullptr,
	                        &clock_backward_max_wait_ms, 1000, 0, 60000, PGC_USERSET, GUC_UNIT_MS, nullptr, nullptr,
	                        nullptr);
	// Back only: a clock shifted ahead would carry the server's shared state (every session's next IDs, the
	// mark on disk) ahead with it; one set back moves nothing that other sessions see.
	DefineCustomIntVariable("idtypes.test_clock_offset",
	                        "For tests only: sets the clock the generators read back by this many milliseconds.",
	                        nullptr, &test_clock_offset_ms, 0, -86400000, 0, PGC_SUSET,
	                        GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr, nullptr, nullptr);
	MarkGUCPrefixReserved("idtypes");
	if (process_shared_preload_libraries_in_progress)
		reserve_generator_state();
}

} // extern "C"
