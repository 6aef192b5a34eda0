// Ascend C on the CPU -- the bare name `hardware.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `hardware.h` wins: this file steps
// aside for any `hardware.h` further along the include path (#include_next), and only when it finds none but itself
// again does it bring in our stand-in, pyasc_sim/asdops/hardware.h. No #pragma once: the second entry is the test.
#ifdef PYASC_SIM_ASDOPS_HARDWARE_ENTERED
#define PYASC_SIM_ASDOPS_HARDWARE_SELF  // reached again further along the path: no other hardware.h
#else
#define PYASC_SIM_ASDOPS_HARDWARE_ENTERED
#if __has_include_next("hardware.h")
#include_next "hardware.h"
#else
#define PYASC_SIM_ASDOPS_HARDWARE_SELF
#endif
#ifdef PYASC_SIM_ASDOPS_HARDWARE_SELF
#include "pyasc_sim/asdops/hardware.h"
#endif
#endif
