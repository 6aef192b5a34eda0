// Ascend C on the CPU -- our stand-in for `common_func.h` of the CANN devkit's asdops-style kernel headers (see
// hardware.h here). The kernels studied with it (kda-ascendc aclab k2_m1 / k2_min) use no name of their own from it,
// so it brings in the buffer header only.
#ifndef PYASC_SIM_ASDOPS_COMMON_FUNC_H_
#define PYASC_SIM_ASDOPS_COMMON_FUNC_H_
#include "pyasc_sim/asdops/mem.h"
#endif  // PYASC_SIM_ASDOPS_COMMON_FUNC_H_
