// kapi/hl_reduce_pattern.h -- the high-level ReduceSum / ReduceMax / ReduceMin / ReduceMean / ReduceProd with a
// Pattern::Reduce::AR or RA pattern over a 2-D srcShape {first, last} (ReduceSum page, atlasascendc_api_07_10017:
// AR reduces the last axis -> first results, RA the first axis -> last results; only AR and RA are documented).
// The inner axis of src in UB is padded to 32 bytes when srcInnerPad is true and stored contiguously when it is
// false. Math in double per result, rounded once to T (the hardware composes vector instructions: the last bits
// can differ); sharedTmpBuffer is accepted and not needed.
#ifndef PYASC_SIM_KAPI_HL_REDUCE_PATTERN_H_
#define PYASC_SIM_KAPI_HL_REDUCE_PATTERN_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

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

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HL_REDUCE_PATTERN_H_
