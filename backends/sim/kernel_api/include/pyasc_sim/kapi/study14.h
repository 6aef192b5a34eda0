// Ascend C on the CPU -- APIs round 14's public kernels needed (RecSDK's v220 in_linear_silu_backward, ln_mul,
// norm_multiply_dropout):
// - TQueSync<src, dst>: SetFlag(id) / WaitFlag(id) between two pipes given as template arguments (TQueSync
//   page, atlasascendc_api_07_0180: "the destination pipeline waits for the source pipeline"); the same
//   event as set_flag / wait_flag(src, dst, id).
// - the high-level ReduceSum / ReduceMax / ReduceMin / ReduceMean / ReduceProd with a Pattern::Reduce::AR or
//   RA pattern over a 2-D srcShape {first, last} (ReduceSum page, atlasascendc_api_07_10017: AR reduces the
//   last axis -> first results, RA the first axis -> last results; only AR and RA are documented).  The
//   inner axis of src in UB is padded to 32 bytes when srcInnerPad is true and stored contiguously when it
//   is false.  Math in double per result, rounded once to T (the hardware composes vector instructions: the
//   last bits can differ); sharedTmpBuffer is accepted and not needed.
// - DropOut (RecSDK's norm_multiply_dropout) with DropOutShapeInfo: see below.
#ifndef PYASC_SIM_KAPI_STUDY14_H_
#define PYASC_SIM_KAPI_STUDY14_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/intrinsics.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    void SetFlag(TEventID id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        pyasc_sim::kapi::lowercase_flag<true>(src, dst, static_cast<int>(id), loc);
    }
    void WaitFlag(TEventID id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        pyasc_sim::kapi::lowercase_flag<false>(src, dst, static_cast<int>(id), loc);
    }
};

namespace Pattern {
namespace Reduce {
struct AR {};  // 2-D: the first axis kept (Normal), the last reduced
struct RA {};  // 2-D: the first axis reduced, the last kept
}  // namespace Reduce
}  // namespace Pattern

namespace sim_detail {
enum class PatRed { kSum, kMax, kMin, kMean, kProd };

template <typename T, typename P>
inline void pattern_reduce(PatRed op, const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                           const uint32_t srcShape[], bool srcInnerPad, const SrcLoc &loc) {
    constexpr bool kAR = std::is_same<P, Pattern::Reduce::AR>::value;
    static_assert(kAR || std::is_same<P, Pattern::Reduce::RA>::value,
                  "the simulator's high-level Reduce* takes Pattern::Reduce::AR or RA (the documented patterns)");
    if (srcShape == nullptr) pyasc_sim::kapi::fail("invalid-argument", loc, "%s: srcShape is null", api);
    const uint32_t first = srcShape[0], last = srcShape[1];
    if (first == 0 || last == 0) {
        pyasc_sim::kapi::fail("vector-count", loc, "%s: srcShape {%u, %u} has an empty axis", api, first, last);
    }
    const uint32_t per_block = static_cast<uint32_t>(32 / sizeof(T));
    const uint64_t stride = srcInnerPad ? (static_cast<uint64_t>(last) + per_block - 1) / per_block * per_block : last;
    const uint64_t outs = kAR ? first : last;
    check_operand(src, api, "src", static_cast<int64_t>((first - 1) * stride + last), loc);
    check_operand(dst, api, "dst", static_cast<int64_t>(outs), loc);
    const uint64_t inner = kAR ? last : first;  // elements reduced into each result
    for (uint64_t o = 0; o < outs; ++o) {
        double acc = op == PatRed::kProd ? 1.0 : 0.0;
        for (uint64_t i = 0; i < inner; ++i) {
            const uint64_t idx = kAR ? o * stride + i : i * stride + o;
            const double v = pyasc_sim::kapi::to_double(src.ptr()[idx]);
            if (i == 0 && (op == PatRed::kMax || op == PatRed::kMin)) {
                acc = v;
            } else if (op == PatRed::kMax) {
                acc = std::max(acc, v);
            } else if (op == PatRed::kMin) {
                acc = std::min(acc, v);
            } else if (op == PatRed::kProd) {
                acc *= v;
            } else {
                acc += v;
            }
        }
        if (op == PatRed::kMean) acc /= static_cast<double>(inner);
        dst.ptr()[o] = static_cast<T>(acc);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(first * stride, sizeof(T)), 2.0));
}
}  // namespace sim_detail

#define PYASC_SIM_PATTERN_REDUCE(NAME, OP)                                                                          \
    template <class T, class pattern, bool isReuseSource = false>                                                   \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                              \
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,     \
                     PYASC_SIM_LOC) {                                                                               \
        (void)sharedTmpBuffer;                                                                                      \
        sim_detail::pattern_reduce<T, pattern>(OP, #NAME, dstTensor, srcTensor, srcShape, srcInnerPad, loc);        \
    }                                                                                                               \
    template <class T, class pattern, bool isReuseSource = false>                                                   \
    inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t srcShape[],  \
                     bool srcInnerPad, PYASC_SIM_LOC) {                                                             \
        sim_detail::pattern_reduce<T, pattern>(OP, #NAME, dstTensor, srcTensor, srcShape, srcInnerPad, loc);        \
    }
PYASC_SIM_PATTERN_REDUCE(ReduceSum, sim_detail::PatRed::kSum)
PYASC_SIM_PATTERN_REDUCE(ReduceMax, sim_detail::PatRed::kMax)
PYASC_SIM_PATTERN_REDUCE(ReduceMin, sim_detail::PatRed::kMin)
PYASC_SIM_PATTERN_REDUCE(ReduceMean, sim_detail::PatRed::kMean)
PYASC_SIM_PATTERN_REDUCE(ReduceProd, sim_detail::PatRed::kProd)
#undef PYASC_SIM_PATTERN_REDUCE

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

// ---- MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1> (MatmulCallBackFunc page, atlasascendc_api_07_0618): the
// Matmul template argument MM_CB naming custom CO1 -> GM / GM -> A1 / GM -> B1 copy functions.  CopyB1 is run
// (kapi/matmul.h, "custom CopyB1"): for each baseK x baseN block of B the Matmul calls it with an L1 tensor to fill
// in the NZ layout the cube reads, the block's (row, col) indices along K and N, its useK x useN size and the
// SetUserDefInfo / SetSelfDefineData values, and multiplies with what it wrote.  DataCopyOut and CopyA1 are not
// run: a non-null one is refused at compile time.
using MatmulCopyB1Fn = void (*)(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col, int useK,
                                int useN, const uint64_t tilingPtr, const uint64_t dataPtr);
template <void (*DataCopyOut)(const __gm__ void *gm, const LocalTensor<int8_t> &co1Local,
                              const void *dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t> &aMatrix, const __gm__ void *gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
    static_assert(DataCopyOut == nullptr && CopyA1 == nullptr,
                  "the simulator's Matmul runs a custom CopyB1 only: MatmulCallBackFunc's DataCopyOut and CopyA1 "
                  "must be nullptr");
    static constexpr MatmulCopyB1Fn kCopyB1 = CopyB1;
};

}  // namespace AscendC

// matmul::MatmulCallBackFunc is declared in kapi/matmul.h (lib/matmul_intf.h): a global namespace `matmul`
// here would clash with kernels named matmul.

#endif  // PYASC_SIM_KAPI_STUDY14_H_
