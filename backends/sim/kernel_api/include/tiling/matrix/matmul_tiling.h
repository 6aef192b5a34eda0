// tiling/matrix/matmul_tiling.h -- the CANN host header of the Matmul tiling API (namespace matmul_tiling:
// MatmulApiTiling, MultiCoreMatmulTiling, ...), included by op projects' host tiling headers. On the simulator it
// brings TCubeTiling (tiling/matrix/matmul_tilingdata.h), platform_ascendc::PlatformAscendC and the matmul_tiling
// names (tiling/matmul_host_tiling.h); the tiling computation itself is host code and is not provided (a kernel
// build never calls it; pyasc_sim.hl_tiling.matmul_tiling fills TCubeTiling from Python).
#ifndef PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILING_H_
#define PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILING_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "tiling/matrix/matmul_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/matmul_host_tiling.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILING_H_
