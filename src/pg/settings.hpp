// The extension's configuration parameters (idtypes.*), defined in module.cpp's _PG_init.
#pragma once

namespace idtypes::pg {

enum ClockBackwardSetting { clock_backward_wait, clock_backward_error };
extern int clock_backward_setting;     // idtypes.clock_backward: wait | error
extern int clock_backward_max_wait_ms; // idtypes.clock_backward_max_wait
extern int test_clock_offset_ms;       // idtypes.test_clock_offset: superuser-only, for tests

// The identities generators use when no argument gives one. Each raises 22023, naming the setting and its
// value, when the setting holds a value that could not be checked when it was set (it was set before
// idtypes was loaded) and is out of range: generating with another identity instead would be silently wrong.
int tbsl_machine_id_setting(); // idtypes.tbsl_machine_id: 0..99
int timeid_clock_id_setting(); // idtypes.timeid_clock_id: -1 (the server's random clock id) or 0..1023

} // namespace idtypes::pg
