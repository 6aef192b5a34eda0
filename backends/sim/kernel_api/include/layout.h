// Ascend C on the CPU -- the bare name `layout.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `layout.h` wins: this file steps
// aside for any `layout.h` further along the include path (#include_next), and only when it finds none but itself
// again does it bring in our stand-in, pyasc_sim/asdops/layout.h. No #pragma once: the second entry is the test.
#ifdef PYASC_SIM_ASDOPS_LAYOUT_ENTERED
#define PYASC_SIM_ASDOPS_LAYOUT_SELF  // reached again further along the path: no other layout.h
#else
#define PYASC_SIM_ASDOPS_LAYOUT_ENTERED
#if __has_include_next("layout.h")
#include_next "layout.h"
#else
#define PYASC_SIM_ASDOPS_LAYOUT_SELF
#endif
#ifdef PYASC_SIM_ASDOPS_LAYOUT_SELF
#include "pyasc_sim/asdops/layout.h"
#endif
#endif
