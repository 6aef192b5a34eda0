// kapi/soc_sizes.h -- the undocumented size constants public kernels use: DEFAULT_C0_SIZE (32) and TOTAL_UB_SIZE,
// TOTAL_VEC_LOCAL_SIZE, TOTAL_L1_SIZE, TOTAL_L0A/L0B/L0C_SIZE of the simulated SoC (Ascend910B: 192 KiB UB,
// 512 KiB L1, 64 KiB L0A / L0B, 128 KiB L0C) and CACHE_LINE_SIZE (64, not on the 200); hidden in documented-only
// mode.
#ifndef PYASC_SIM_KAPI_SOC_SIZES_H_
#define PYASC_SIM_KAPI_SOC_SIZES_H_

#include <cstdint>

#include "pyasc_sim/kapi/arch.h"  // __CCE_AICORE__

namespace AscendC {

#if !PYASC_SIM_DOCUMENTED_ONLY  // undocumented constants
// DEFAULT_C0_SIZE: bytes of one C0 block (one 32-byte data block), as DataCopyParams counts them.
constexpr int32_t DEFAULT_C0_SIZE = 32;

// ---- buffer sizes of the simulated SoC (Ascend910B) ---------------------------------------------
constexpr int32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 192 * 1024;
constexpr int32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr int32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr int32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr int32_t TOTAL_L0C_SIZE = 128 * 1024;

// CACHE_LINE_SIZE: bytes of one line of the scalar data cache (64), the unit `DataCacheCleanAndInvalid` with
// `CacheLine::SINGLE_CACHE_LINE` writes back / invalidates (page atlasascendc_api_07_0170: an address not 64-byte
// aligned is taken within its aligned line). The SDK declares it (`const uint32_t`) in kernel_utils_constants.h,
// which kernel_operator.h reaches, for `__CCE_AICORE__` 220 / 300 and the M310 -- not for the Atlas inference
// series (200); kernels round an address down to the line with it (sgl-kernel-npu's `cacheWriteThrough`).
#if __CCE_AICORE__ != 200
constexpr uint32_t CACHE_LINE_SIZE = 64;
#endif
#endif

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SOC_SIZES_H_
