// Ascend C on the CPU -- spellings MindSpore Lite's ascend_native Matmul kernel needed (kernel_api/COMPAT.md,
// round 15 study15c); the kernel declares only a few AscendC names with using-declarations and calls these
// without qualification, as the NPU compiler accepts:
//
// * GetSysWorkSpacePtr(): callable unqualified (a using-declaration of AscendC::GetSysWorkSpacePtr, like
//   GetTPipePtr in compat.h), so calls after `using namespace AscendC` stay unambiguous.
// * set_atomic_none(): the CCE intrinsic behind SetAtomicNone (DataCopy to GM stores again instead of
//   accumulating); global, as the compiler declares it.
#ifndef PYASC_SIM_KAPI_STUDY15C_H_
#define PYASC_SIM_KAPI_STUDY15C_H_

#include "pyasc_sim/kapi/tiling.h"
#include "pyasc_sim/kapi/xcore.h"

using AscendC::GetSysWorkSpacePtr;

inline void set_atomic_none() { AscendC::SetAtomicNone(); }

#endif  // PYASC_SIM_KAPI_STUDY15C_H_
