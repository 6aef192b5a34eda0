// Ascend C on the CPU -- the bare name `mem.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `mem.h` wins: this file steps
// aside for any `mem.h` further along the include path (#include_next), and only when it finds none but itself
// again does it bring in our stand-in, pyasc_sim/asdops/mem.h. No #pragma once: the second entry is the test.
#ifdef PYASC_SIM_ASDOPS_MEM_ENTERED
#define PYASC_SIM_ASDOPS_MEM_SELF  // reached again further along the path: no other mem.h
#else
#define PYASC_SIM_ASDOPS_MEM_ENTERED
#if __has_include_next("mem.h")
#include_next "mem.h"
#else
#define PYASC_SIM_ASDOPS_MEM_SELF
#endif
#ifdef PYASC_SIM_ASDOPS_MEM_SELF
#include "pyasc_sim/asdops/mem.h"
#endif
#endif
