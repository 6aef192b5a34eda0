// Ascend C on the CPU -- the bare name `common_func.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `common_func.h` wins: this file steps
// aside for any `common_func.h` further along the include path (#include_next), and only when it finds none but itself
// again does it bring in our stand-in, pyasc_sim/asdops/common_func.h. No #pragma once: the second entry is the test.
#ifdef PYASC_SIM_ASDOPS_COMMON_FUNC_ENTERED
#define PYASC_SIM_ASDOPS_COMMON_FUNC_SELF  // reached again further along the path: no other common_func.h
#else
#define PYASC_SIM_ASDOPS_COMMON_FUNC_ENTERED
#if __has_include_next("common_func.h")
#include_next "common_func.h"
#else
#define PYASC_SIM_ASDOPS_COMMON_FUNC_SELF
#endif
#ifdef PYASC_SIM_ASDOPS_COMMON_FUNC_SELF
#include "pyasc_sim/asdops/common_func.h"
#endif
#endif
