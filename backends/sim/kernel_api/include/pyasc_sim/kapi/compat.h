// Ascend C on the CPU -- spellings the NPU compiler accepts that plain C++ would not find.
//
// GetTPipePtr() is callable unqualified without `using namespace AscendC` (public kernels do so), and
// so is the lowercase pipe_barrier(pipe) (a compiler intrinsic on the NPU, in the global namespace;
// e.g. vllm-ascend's LoRA kernels call it from templates without the using-directive). Both are
// using-declarations of the AscendC functions, so calls after `using namespace AscendC` stay unambiguous.
#ifndef PYASC_SIM_KAPI_COMPAT_H_
#define PYASC_SIM_KAPI_COMPAT_H_

#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/sync.h"

using AscendC::GetTPipePtr;
using AscendC::sim_detail::pipe_barrier;

#endif  // PYASC_SIM_KAPI_COMPAT_H_
