// The module: PG_MODULE_MAGIC and the configuration parameters.
#include "pg/common/postgres.hpp"
#include "pg/common/settings.hpp"
#include "pg/generate/identity.hpp"
#include "pg/mark/server_state.hpp"
#include "pg/public/keyring.hpp"

namespace idtypes::pg {

int clock_backward_setting = clock_backward_wait;
int clock_backward_max_wait_ms = 1000;
int test_clock_offset_ms = 0;
int mark_ahead_setting = mark_ahead_refuse;

namespace {

const struct config_enum_entry clock_backward_options[] = {
    {"wait", clock_backward_wait, false},
    {"error", clock_backward_error, false},
    {nullptr, 0, false},
};

const struct config_enum_entry mark_ahead_options[] = {
    {"refuse", mark_ahead_refuse, false},
    {"continue", mark_ahead_continue, false},
    {nullptr, 0, false},
};

} // namespace

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
	define_identity_settings();
	keyring::define_setting();
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
	// Server-wide (the configuration file): the mark is the server's, so every session must agree on it.
	DefineCustomEnumVariable(
	    "idtypes.mark_ahead", "What the generators do when the replicated mark is more than a day ahead of the clock.",
	    "refuse: every generator fails until the clock or this setting is put right; continue: "
	    "they issue above the mark, dated after it, never below it.",
	    &mark_ahead_setting, mark_ahead_refuse, mark_ahead_options, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
	MarkGUCPrefixReserved("idtypes");
	if (process_shared_preload_libraries_in_progress)
		reserve_generator_state();
}

} // extern "C"
