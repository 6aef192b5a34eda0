// tiling/confusion_transpose_tiling_api.h -- host tiling of ConfusionTranspose (reference page "Transpose
// Tiling" / "ConfusionTranspose Tiling"): GetConfusionTransposeTilingInfo / GetTransposeTilingInfo,
// GetConfusionTransposeOnlyTilingInfo, GetConfusionTransposeMaxMinTmpSize / GetTransposeMaxMinTmpSize.
// srcShape is [B, N, S, H/N] for the scenarios 1-6 and [H, W] for scenario 7, as the page states.  The
// 18 params are laid out as the simulator's ConfusionTranspose reads them (kapi/confusion_transpose.h):
// scenarios 1-6 param0 blockSize, param1 B, param2 N, param3 S, param4 H/N, param17 the scenario;
// scenario 7 ConfusionTransposeOnlyTiling's blockSize, height, width, highBlock, stride, repeat.  The
// simulator's re-layout needs no temporary buffer: the MaxMin helpers report 0 / 0 (the reference's "no
// temporary space needed").  Bad arguments print a line to stderr and leave the tiling zero, which the
// kernel then refuses.  pyasc_sim.hl_tiling_norm.confusion_transpose_tiling gives the same params in Python.
#ifndef PYASC_SIM_SDK_TILING_CONFUSION_TRANSPOSE_TILING_API_H_
#define PYASC_SIM_SDK_TILING_CONFUSION_TRANSPOSE_TILING_API_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "kernel_operator.h"  // ::ConfusionTransposeTiling

namespace optiling {
using ::ConfusionTransposeTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
using ::ConfusionTransposeTiling;
}  // namespace tiling

inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t &maxValue,
                                               uint32_t &minValue) {
    (void)srcShape;
    (void)typeSize;
    (void)transposeTypeIn;
    maxValue = minValue = 0;
}
inline void GetTransposeMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t &maxValue, uint32_t &minValue) {
    GetConfusionTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, ::ConfusionTransposeTiling &tiling) {
    (void)stackBufferSize;
    tiling = ::ConfusionTransposeTiling{};
    const int64_t h = srcShape.GetDim(0), w = srcShape.GetDim(1);
    if (srcShape.GetDimNum() != 2 || h <= 0 || w <= 0 || h % 16 != 0 || w % 16 != 0 ||
        (typeSize != 1 && typeSize != 2 && typeSize != 4)) {
        std::fprintf(stderr, "pyasc: AscendC::GetConfusionTransposeOnlyTilingInfo: srcShape must be [H, W] with H and W "
                             "positive multiples of 16 and typeSize 1, 2 or 4\n");
        return;
    }
    const uint32_t block = 32 / typeSize;
    tiling.param0 = block;
    tiling.param1 = static_cast<uint32_t>(h);
    tiling.param2 = static_cast<uint32_t>(w);
    tiling.param3 = static_cast<uint32_t>(h / 16);
    tiling.param4 = static_cast<uint32_t>(h) * block * typeSize / 32;
    tiling.param5 = static_cast<uint32_t>(w) / block;
}

inline void GetConfusionTransposeTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            ::ConfusionTransposeTiling &tiling) {
    if (transposeTypeIn == 7) {
        GetConfusionTransposeOnlyTilingInfo(srcShape, stackBufferSize, typeSize, tiling);
        return;
    }
    tiling = ::ConfusionTransposeTiling{};
    if (transposeTypeIn < 1 || transposeTypeIn > 7) {
        std::fprintf(stderr, "pyasc: AscendC::GetConfusionTransposeTilingInfo: transposeTypeIn %u is not in [1, 7]\n",
                     transposeTypeIn);
        return;
    }
    if (srcShape.GetDimNum() != 4 || typeSize == 0 || typeSize > 4) {
        std::fprintf(stderr, "pyasc: AscendC::GetConfusionTransposeTilingInfo: scenario %u takes srcShape [B, N, S, "
                             "H/N] and typeSize 1, 2 or 4\n", transposeTypeIn);
        return;
    }
    tiling.param0 = 32 / typeSize;
    tiling.param1 = static_cast<uint32_t>(srcShape.GetDim(0));
    tiling.param2 = static_cast<uint32_t>(srcShape.GetDim(1));
    tiling.param3 = static_cast<uint32_t>(srcShape.GetDim(2));
    tiling.param4 = static_cast<uint32_t>(srcShape.GetDim(3));
    tiling.param17 = transposeTypeIn;
}
inline void GetTransposeTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, ::ConfusionTransposeTiling &tiling) {
    GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
}  // namespace AscendC

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_CONFUSION_TRANSPOSE_TILING_API_H_
