// The extension's configuration parameters (idtypes.*), defined in module.cpp's _PG_init.
#pragma once

namespace idtypes::pg {

extern int timeid_clock_id_setting; // idtypes.timeid_clock_id: -1 (random per backend) or 0..1023

} // namespace idtypes::pg
