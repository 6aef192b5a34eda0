// Ascend C on the CPU -- the bare name `hardware.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `hardware.h` wins: this file
// steps aside for any `hardware.h` further along the include path (#include_next), and only when it finds none but
// itself does it bring in our stand-in, pyasc_sim/asdops/hardware.h.
// No #pragma once, no guard: the kernel API's directory is on the path twice (-iquote and -I, before the caller's
// -I), so each entry steps to the next hardware.h until the last; only when that last one is this file does the
// stand-in come in (once).
#ifndef PYASC_SIM_ASDOPS_HARDWARE_DONE
#if __has_include_next("hardware.h")
#include_next "hardware.h"
#else
#define PYASC_SIM_ASDOPS_HARDWARE_SELF  // the last hardware.h on the include path is this one
#endif
#if defined(PYASC_SIM_ASDOPS_HARDWARE_SELF) && !defined(PYASC_SIM_ASDOPS_HARDWARE_DONE)
#define PYASC_SIM_ASDOPS_HARDWARE_DONE
#include "pyasc_sim/asdops/hardware.h"
#endif
#endif
