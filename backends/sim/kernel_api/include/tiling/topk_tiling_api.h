// tiling/topk_tiling_api.h -- host tiling of the high-level TopK (TopK Tiling page): GetTopKMaxMinTmpSize (the
// platform / dataTypeSize form and the Atlas 350 form with k, ge::DataType and TopKConfig), TopKTilingFunc into an
// optiling::TopkTiling.  The simulator's TopK (pyasc_sim/kapi/sort.h) sorts in host memory and stages nothing in its
// tmpLocal, so the temporary sizes reported are the simulator's own, not the hardware's (the reference gives no
// formula): minValue 32 bytes (one block, so a buffer sized from it is valid), maxValue the bytes of the input.
// TopKTilingFunc records the shape words (allDataSize, innerDataSize) the kernel side does not read.  Arguments the
// reference does not allow (inner not a positive multiple of 32, outter < 1, k outside 1..inner) print a line naming
// them to stderr and return false.
#ifndef PYASC_SIM_SDK_TILING_TOPK_TILING_API_H_
#define PYASC_SIM_SDK_TILING_TOPK_TILING_API_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kernel_operator.h"  // TopkTiling, TopKMode, TopKConfig
#include "tiling/platform/platform_ascendc.h"
#include "pyasc_sim/kapi/dt_names_begin.h"  // ge::DT_* below, also in an op build

namespace optiling {
using ::TopkTiling;
}  // namespace optiling

namespace pyasc_topk_host {
inline bool shape_ok(const char *api, int32_t inner, int32_t outter, int32_t k) {
    if (inner > 0 && inner % 32 == 0 && outter >= 1 && k >= 1 && k <= inner) return true;
    std::fprintf(stderr, "%s: inner %d, outter %d, k %d: the reference needs inner a positive multiple of 32, outter >= 1 "
                 "and 1 <= k <= inner\n", api, static_cast<int>(inner), static_cast<int>(outter), static_cast<int>(k));
    return false;
}
inline uint32_t elem_bytes(ge::DataType t) {
    switch (t) {
        case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_INT16: case ge::DT_UINT16: return 2;
        case ge::DT_INT8: case ge::DT_UINT8: return 1;
        case ge::DT_INT64: case ge::DT_UINT64: return 8;
        default: return 4;
    }
}
}  // namespace pyasc_topk_host

namespace AscendC {
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t &maxValue, uint32_t &minValue) {
    (void)ascendcPlatform, (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest;
    maxValue = minValue = 0;
    if (!pyasc_topk_host::shape_ok("GetTopKMaxMinTmpSize", inner, outter, 1)) return false;
    minValue = 32;
    maxValue = static_cast<uint32_t>(inner) * static_cast<uint32_t>(outter) * dataTypeSize;
    return true;
}
inline bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest, ge::DataType dataType,
                                 const TopKConfig &config, uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest, (void)config;
    maxValue = minValue = 0;
    if (!pyasc_topk_host::shape_ok("GetTopKMaxMinTmpSize", inner, outter, k)) return false;
    minValue = 32;
    maxValue = static_cast<uint32_t>(inner) * static_cast<uint32_t>(outter) * pyasc_topk_host::elem_bytes(dataType);
    return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC &ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling &topKTiling) {
    (void)ascendcPlatform, (void)dataTypeSize, (void)isInitIndex, (void)mode, (void)isLargest;
    topKTiling = optiling::TopkTiling{};
    if (!pyasc_topk_host::shape_ok("TopKTilingFunc", inner, outter, k)) return false;
    topKTiling.allDataSize = inner * outter;
    topKTiling.innerDataSize = inner;
    topKTiling.tmpLocalSize = 32;
    return true;
}
}  // namespace AscendC

#include "pyasc_sim/kapi/dt_names_end.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_TOPK_TILING_API_H_
