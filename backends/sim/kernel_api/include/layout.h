// Ascend C on the CPU -- the bare name `layout.h` of the CANN devkit's asdops-style kernel headers (kda-ascendc's
// aclab kernels include it from the devkit's include directories). The caller's own `layout.h` wins: this file steps
// aside for any `layout.h` further along the include path (#include_next), and only when it finds none but itself
// does it bring in our stand-in, pyasc_sim/asdops/layout.h.
// No #pragma once, no guard: the kernel API's directory is on the path twice (-iquote and -I, before the caller's
// -I), so each entry steps to the next layout.h until the last; only when that last one is this file does the stand-
// in come in (once).
#ifndef PYASC_SIM_ASDOPS_LAYOUT_DONE
#if __has_include_next("layout.h")
#include_next "layout.h"
#else
#define PYASC_SIM_ASDOPS_LAYOUT_SELF  // the last layout.h on the include path is this one
#endif
#if defined(PYASC_SIM_ASDOPS_LAYOUT_SELF) && !defined(PYASC_SIM_ASDOPS_LAYOUT_DONE)
#define PYASC_SIM_ASDOPS_LAYOUT_DONE
#include "pyasc_sim/asdops/layout.h"
#endif
#endif
