// Ascend C on the CPU -- the bare name `mem.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's aclab
// kernels include it from the devkit's include directories). The caller's own `mem.h` wins: this file steps aside
// for any `mem.h` further along the include path (#include_next), and only when it finds none but itself does it
// bring in our stand-in, pyasc_sim/asdops/mem.h.
// No #pragma once, no guard: the kernel API's directory is on the path twice (-iquote and -I, before the caller's
// -I), so each entry steps to the next mem.h until the last; only when that last one is this file does the stand-in
// come in (once).
#ifndef PYASC_SIM_ASDOPS_MEM_DONE
#if __has_include_next("mem.h")
#include_next "mem.h"
#else
#define PYASC_SIM_ASDOPS_MEM_SELF  // the last mem.h on the include path is this one
#endif
#if defined(PYASC_SIM_ASDOPS_MEM_SELF) && !defined(PYASC_SIM_ASDOPS_MEM_DONE)
#define PYASC_SIM_ASDOPS_MEM_DONE
#include "pyasc_sim/asdops/mem.h"
#endif
#endif
