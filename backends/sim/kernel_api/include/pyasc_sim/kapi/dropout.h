// kapi/dropout.h -- DropOut (RecSDK's norm_multiply_dropout) with DropOutShapeInfo.
#ifndef PYASC_SIM_KAPI_DROPOUT_H_
#define PYASC_SIM_KAPI_DROPOUT_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

// ---- DropOut (DropOut page, atlasascendc_api_07_0862): dst = mask ? src * (1 / keepProb) : 0 over a
// [firstAxis, srcLastAxis] ND tensor.  dropOutMode 1 / 2: byte mask (one uint8_t per element, nonzero keeps),
// rows maskLastAxis bytes apart (1, padded "dirty" rows) or contiguous (2); 3 / 4: bit mask (bit i of byte j
// keeps element 8 j + i, the bit order of Select's mask), contiguous (3) or rows maskLastAxis bytes apart (4);
// 0 infers the mode from the shape (maskLastAxis == srcLastAxis: 2, * 8 == srcLastAxis: 3, > srcLastAxis: 1,
// else 4).  sharedTmpBuffer and isInitBitMode are accepted and not needed.
struct DropOutShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
namespace sim_detail {
template <typename T>
inline void drop_out(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &mask,
                     float keepProb, const DropOutShapeInfo &info, uint32_t mode, const SrcLoc &loc) {
    static_assert(std::is_same<T, float>::value || std::is_same<T, half>::value,
                  "DropOut takes half or float (the documented types)");
    const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
    if (!(keepProb > 0.0f) || keepProb > 1.0f) {
        pyasc_sim::kapi::fail("invalid-argument", loc, "DropOut: keepProb %g is outside (0, 1]",
                              static_cast<double>(keepProb));
    }
    if (rows == 0 || cols == 0 || mcols == 0 || mode > 4) {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "DropOut: info {firstAxis %u, srcLastAxis %u, maskLastAxis %u} / dropOutMode %u: the "
                              "axes must be non-zero and the mode 0..4",
                              rows, cols, mcols, mode);
    }
    if (mode == 0) mode = mcols == cols ? 2 : mcols * 8 == cols ? 3 : mcols > cols ? 1 : 4;
    const bool bits = mode >= 3;
    if ((mode == 1 && mcols < cols) || (mode == 4 && mcols * 8 < cols) || (bits && cols % 8 != 0)) {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "DropOut mode %u: maskLastAxis %u does not cover srcLastAxis %u (bit modes need "
                              "srcLastAxis a multiple of 8)",
                              mode, mcols, cols);
    }
    const uint64_t n = static_cast<uint64_t>(rows) * cols;
    const uint64_t mask_bytes = mode == 2 ? n : mode == 3 ? n / 8 : static_cast<uint64_t>(rows) * mcols;
    check_operand(src, "DropOut", "src", static_cast<int64_t>(n), loc);
    check_operand(mask, "DropOut", "src mask", static_cast<int64_t>(mask_bytes), loc);
    check_operand(dst, "DropOut", "dst", static_cast<int64_t>(n), loc);
    const float scale = 1.0f / keepProb;
    const uint8_t *m = mask.ptr();
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t c = 0; c < cols; ++c) {
            const uint64_t e = r * cols + c;
            bool keep;
            if (mode == 2) {
                keep = m[e] != 0;
            } else if (mode == 1) {
                keep = m[r * mcols + c] != 0;
            } else {
                const uint64_t bit = mode == 3 ? e : r * mcols * 8 + c;
                keep = ((m[bit / 8] >> (bit % 8)) & 1u) != 0;
            }
            dst.ptr()[e] = keep ? static_cast<T>(static_cast<float>(src.ptr()[e]) * scale) : static_cast<T>(0.0f);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(n, sizeof(T)), 3.0));
}
}  // namespace sim_detail
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &maskLocal, const float keepProb, const DropOutShapeInfo &info,
                    PYASC_SIM_LOC) {
    sim_detail::drop_out(dstLocal, srcLocal, maskLocal, keepProb, info, dropOutMode, loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &maskLocal, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const float keepProb, const DropOutShapeInfo &info, PYASC_SIM_LOC) {
    (void)sharedTmpBuffer;
    sim_detail::drop_out(dstLocal, srcLocal, maskLocal, keepProb, info, dropOutMode, loc);
}
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_DROPOUT_H_
