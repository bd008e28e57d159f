#include "pg/wait_event.hpp"

#include "pg/glue.hpp"

extern "C" {
#include "utils/wait_event.h"
}

namespace idtypes::pg {

std::uint32_t mark_write_wait_event()
{
#if PG_VERSION_NUM >= 170000
	// the name is registered once per server (shared memory); each process looks its number up once
	static std::uint32_t event = 0;
	if (event == 0)
		event = WaitEventExtensionNew(mark_write_wait_name);
	return event;
#else
	return PG_WAIT_EXTENSION;
#endif
}

} // namespace idtypes::pg
