// The module: PG_MODULE_MAGIC and the configuration parameters.
#include "pg/glue.hpp"
#include "pg/settings.hpp"

namespace idtypes::pg {
int timeid_clock_id_setting = -1;
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
	MarkGUCPrefixReserved("idtypes");
}

} // extern "C"
