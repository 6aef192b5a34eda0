// tiling/tiling_api.h -- the host tiling API header an op project's tiling header includes next to
// register/tilingdata_base.h (for TCubeTiling / SoftMaxTiling fields). On the simulator it brings the
// tiling-struct macros and the high-level APIs' tiling structs, ge::Shape / ge::DataType, and the
// temporary-buffer helpers of CumSum, Pad / UnPad and the quantization APIs (tiling/hl_tmp_size_api.h), those and the
// tiling of SoftmaxFlash(V2), DeepNorm, LayerNormGrad(Beta) (tiling/hl_norm_tiling_api.h) and ConfusionTranspose's
// tiling (tiling/confusion_transpose_tiling_api.h), platform_ascendc::PlatformAscendC and the matmul_tiling names
// host tiling headers declare functions over (tiling/matmul_host_tiling.h); the other host
// tiling functions are not provided (a kernel build never calls them); TopK's host tiling (GetTopKMaxMinTmpSize,
// TopKTilingFunc) is in tiling/topk_tiling_api.h.
#ifndef PYASC_SIM_SDK_TILING_TILING_API_H_
#define PYASC_SIM_SDK_TILING_TILING_API_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/hl_tmp_size_api.h"
#include "tiling/confusion_transpose_tiling_api.h"
#include "tiling/hl_norm_tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/matmul_host_tiling.h"
#include "tiling/topk_tiling_api.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_TILING_API_H_
