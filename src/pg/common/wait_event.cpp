#include "pg/common/wait_event.hpp"

#include "pg/common/postgres.hpp"

extern "C" {
#include "utils/wait_event.h"
}

namespace idtypes::pg {

namespace {

// The event of that name, registered once per server (shared memory) and looked up once per process.
std::uint32_t registered([[maybe_unused]] const char *name, [[maybe_unused]] std::uint32_t &event)
{
#if PG_VERSION_NUM >= 170000
	if (event == 0)
		event = WaitEventExtensionNew(name);
	return event;
#else
	return PG_WAIT_EXTENSION;
#endif
}

} // namespace

std::uint32_t mark_write_wait_event()
{
	static std::uint32_t event = 0;
	return registered(mark_write_wait_name, event);
}

std::uint32_t clock_wait_event()
{
	static std::uint32_t event = 0;
	return registered(clock_wait_name, event);
}

std::uint32_t key_record_wait_event()
{
	static std::uint32_t event = 0;
	return registered(key_record_wait_name, event);
}

} // namespace idtypes::pg
