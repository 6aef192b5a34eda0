// tiling/matrix/matmul_tilingdata.h -- the CANN host header that declares the Matmul tiling struct TCubeTiling for
// host tiling headers (op projects include it next to register/tilingdata_base.h to use
// TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, field)). On the simulator TCubeTiling is the kernel-side struct of
// kernel_tiling/kernel_tiling.h, the same layout the kernel reads with GET_TILING_DATA.
#ifndef PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILINGDATA_H_
#define PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILINGDATA_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_MATRIX_MATMUL_TILINGDATA_H_
