// Ascend C on the CPU -- the bare name `common_func.h` of the CANN devkit's asdops-style kernel headers (kda-
// ascendc's aclab kernels include it from the devkit's include directories). The caller's own `common_func.h` wins:
// this file steps aside for any `common_func.h` further along the include path (#include_next), and only when it
// finds none but itself does it bring in our stand-in, pyasc_sim/asdops/common_func.h.
// No #pragma once, no guard: the kernel API's directory is on the path twice (-iquote and -I, before the caller's
// -I), so each entry steps to the next common_func.h until the last; only when that last one is this file does the
// stand-in come in (once).
#ifndef PYASC_SIM_ASDOPS_COMMON_FUNC_DONE
#if __has_include_next("common_func.h")
#include_next "common_func.h"
#else
#define PYASC_SIM_ASDOPS_COMMON_FUNC_SELF  // the last common_func.h on the include path is this one
#endif
#if defined(PYASC_SIM_ASDOPS_COMMON_FUNC_SELF) && !defined(PYASC_SIM_ASDOPS_COMMON_FUNC_DONE)
#define PYASC_SIM_ASDOPS_COMMON_FUNC_DONE
#include "pyasc_sim/asdops/common_func.h"
#endif
#endif
