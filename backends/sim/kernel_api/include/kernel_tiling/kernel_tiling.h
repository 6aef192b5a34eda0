// kernel_tiling/kernel_tiling.h -- the SDK path of the kernel-side tiling structs of the high-level
// APIs (TCubeTiling for Matmul, SoftMaxTiling, ...) and the tiling macros (GET_TILING_DATA, ...)
// on the simulator.  Includes pyasc_sim's high-level tiling structs when it has them.
#ifndef PYASC_SIM_SDK_KERNEL_TILING_H_
#define PYASC_SIM_SDK_KERNEL_TILING_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#if __has_include("pyasc_sim/kapi/tiling_structs.h")
#include "pyasc_sim/kapi/tiling_structs.h"
#endif
#if __has_include("pyasc_sim/kapi/pad_tiling.h")
#include "pyasc_sim/kapi/pad_tiling.h"
#endif
#if __has_include("pyasc_sim/kapi/mc2_tiling.h")
#include "pyasc_sim/kapi/mc2_tiling.h"  // Mc2InitTiling / Mc2CcTiling (MC2 communication tiling)
#endif
#if __has_include("pyasc_sim/kapi/matmul_tiling.h")
#include "pyasc_sim/kapi/matmul_tiling.h"
#endif

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_KERNEL_TILING_H_
