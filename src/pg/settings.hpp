// The extension's configuration parameters (idtypes.*), defined in module.cpp's _PG_init.
#pragma once

namespace idtypes::pg {

extern int timeid_clock_id_setting;        // idtypes.timeid_clock_id: -1 (random per backend) or 0..1023
extern int tbsl_machine_id_setting;        // idtypes.tbsl_machine_id: 0..99
enum ClockBackwardSetting { clock_backward_wait, clock_backward_error };
extern int clock_backward_setting;         // idtypes.clock_backward: wait | error
extern int clock_backward_max_wait_ms;     // idtypes.clock_backward_max_wait
extern int test_clock_offset_ms;           // idtypes.test_clock_offset: superuser-only, for tests

} // namespace idtypes::pg
