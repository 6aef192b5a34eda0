// Ascend C on the CPU -- our stand-in for `layout.h` of the CANN devkit's asdops-style kernel headers (see
// hardware.h here). The kernels studied with it (kda-ascendc aclab k2_m1 / k2_min) use no name of their own from it,
// so it declares nothing beyond the architecture tag.
#ifndef PYASC_SIM_ASDOPS_LAYOUT_H_
#define PYASC_SIM_ASDOPS_LAYOUT_H_
#include "pyasc_sim/asdops/hardware.h"
#endif  // PYASC_SIM_ASDOPS_LAYOUT_H_
