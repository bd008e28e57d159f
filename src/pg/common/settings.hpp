// The extension's configuration parameters (idtypes.*), defined in module.cpp's _PG_init; the identity
// settings (idtypes.timeid_clock_id, idtypes.tbsl_machine_id, idtypes.require_identity) are identity.hpp's.
#pragma once

namespace idtypes::pg {

enum ClockBackwardSetting { clock_backward_wait, clock_backward_error };
extern int clock_backward_setting;     // idtypes.clock_backward: wait | error
extern int clock_backward_max_wait_ms; // idtypes.clock_backward_max_wait
extern int test_clock_offset_ms;       // idtypes.test_clock_offset: superuser-only, for tests
enum MarkAheadSetting { mark_ahead_refuse, mark_ahead_continue };
extern int mark_ahead_setting; // idtypes.mark_ahead: refuse | continue (server-wide: postgresql.conf)

} // namespace idtypes::pg
