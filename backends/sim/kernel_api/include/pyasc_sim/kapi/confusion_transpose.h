// Ascend C on the CPU -- ConfusionTranspose (lib/transpose/confusion_transpose.h): data re-layout on
// the Unified Buffer selected by TransposeType.  Semantics from the public Ascend C reference.  The
// simulator implements scenario 7, TRANSPOSE_ND2ND_ONLY ([H, W] -> [W, H], H and W multiples of 16,
// read from the tiling as ConfusionTransposeOnlyTiling lays it out: param1 = height, param2 = width);
// the NZ scenarios 1-6 and the other types end the block with an `unsupported` error naming the type.
// sharedTmpBuffer is accepted and not needed.
#ifndef PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_
#define PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_

#include "pyasc_sim/kapi/softmax_flash.h"  // sim_detail::hl_in / hl_out

// Kernel-side tiling struct (kernel_tiling/kernel_tiling.h): 18 uint32 fields whose meaning depends on
// the scenario; GetConfusionTransposeTilingInfo fills them on the host.
struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0;
    uint32_t param6 = 0, param7 = 0, param8 = 0, param9 = 0, param10 = 0, param11 = 0;
    uint32_t param12 = 0, param13 = 0, param14 = 0, param15 = 0, param16 = 0, param17 = 0;
};

namespace AscendC {
using ::ConfusionTransposeTiling;

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// The documented values, in order (shared with the enhanced Transpose's TransposeParamsExt).
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ConfusionTranspose, T);
    (void)sharedTmpBuffer;
    const char *api = "ConfusionTranspose";
    if (transposeType != TransposeType::TRANSPOSE_ND2ND_ONLY) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "ConfusionTranspose: TransposeType %d is not supported by the pyasc simulator (it implements "
                              "TRANSPOSE_ND2ND_ONLY = 7, the [H, W] -> [W, H] transpose; the NZ scenarios 1-6 are not "
                              "modelled); see backends/sim/kernel_api/README.md",
                              static_cast<int>(transposeType));
    }
    const uint32_t h = tiling.param1, w = tiling.param2;
    if (pyasc_sim::kapi::blk().checks && (h == 0 || w == 0 || h % 16 != 0 || w % 16 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose TRANSPOSE_ND2ND_ONLY: tiling height %u (param1) x width %u (param2): "
                              "both must be non-zero multiples of 16 (fill the tiling with GetConfusionTransposeTilingInfo "
                              "or as ConfusionTransposeOnlyTiling lays it out)",
                              h, w);
    }
    const int64_t n = static_cast<int64_t>(h) * w;
    sim_detail::hl_in(srcTensor, api, "srcTensor", n, loc);
    sim_detail::hl_out(dstTensor, api, "dstTensor", n, loc);
    if (pyasc_sim::kapi::blk().checks && dstTensor.ptr() < srcTensor.ptr() + n && srcTensor.ptr() < dstTensor.ptr() + n) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose: dstTensor and srcTensor overlap (%lld elements each); the transpose "
                              "needs separate buffers",
                              static_cast<long long>(n));
    }
    for (uint32_t r = 0; r < h; ++r) {
        for (uint32_t c = 0; c < w; ++c) {
            dstTensor.ptr()[static_cast<int64_t>(c) * h + r] = srcTensor.ptr()[static_cast<int64_t>(r) * w + c];
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(n), sizeof(T)), 2.0));
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               TransposeType transposeType, ConfusionTransposeTiling &tiling, PYASC_SIM_LOC) {
    ConfusionTranspose<T>(dstTensor, srcTensor, LocalTensor<uint8_t>(), transposeType, tiling, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_
