// Ascend C on the CPU -- spellings the NPU compiler accepts that plain C++ would not find.
//
// GetTPipePtr() is callable unqualified without `using namespace AscendC` (public kernels do so).
#ifndef PYASC_SIM_KAPI_COMPAT_H_
#define PYASC_SIM_KAPI_COMPAT_H_

#include "pyasc_sim/kapi/pipe.h"

using AscendC::GetTPipePtr;

#endif  // PYASC_SIM_KAPI_COMPAT_H_
