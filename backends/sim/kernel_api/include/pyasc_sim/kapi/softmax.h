// Ascend C on the CPU -- SoftMax over the last axis (lib/activation/softmax.h).
// Semantics from the public Ascend C reference. float rows are composed as the reference describes the
// API's steps, in float: ReduceMax, Sub of the max, Exp, ReduceSum, Div by the sum -- each step the value
// the simulator's basic instruction gives (ReduceMax's first-extreme scan, the vectorised Exp, ReduceSum's
// pairwise tree), run row by row so a row stays in L1 (softmax_row_f32). Other types: math in double per
// element, rounded once to T (the hardware's float composition can differ in the last bits). exp(x - max) of each row is
// staged in float in sharedTmpBuffer (kapi/hl_tmp.h: smaller than GetSoftMaxMinTmpSize reports is an error;
// the forms without it stage in host memory).
#ifndef PYASC_SIM_KAPI_SOFTMAX_H_
#define PYASC_SIM_KAPI_SOFTMAX_H_

#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/reduce.h"
#include "pyasc_sim/kapi/simd.h"
#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/tiling_structs.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// ---- SoftMax over the last axis ------------------------------------------------------------------
// src/dst: srcM rows of srcK elements (srcK * sizeof(T) a multiple of 32), the first oriSrcK of a
// row valid; sumTensor / maxTensor: one 32-byte block per row holding the row's sum of exp(x - max)
// and max, repeated.  The SoftMaxTiling fields the host computes are accepted, not needed.
struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};
namespace sim_detail {
// One float row of SoftMax as the documented steps compose it: m = ReduceMax(x); e = Exp(x - m) in e;
// s = ReduceSum(e); y = e / s. Returns {s, m}.
inline std::pair<float, float> softmax_row_f32(float *y, float *e, const float *x, uint32_t n) {
    if (n == 0) return {0.0f, -INFINITY};
    const float m = extreme_first<float>(x, n, true, nullptr);
    pyasc_sim::simd::map1(e, x, n, [m](float a) -> float { return a - m; });
    pyasc_sim::simd::exp_f32(e, e, n);
    const float s = pairwise_sum<float>(e, n);
    pyasc_sim::simd::map1(y, e, n, [s](float a) -> float { return a / s; });
    return {s, m};
}

template <typename T, typename U>
inline void softmax_rows(const LocalTensor<T> &dst, const LocalTensor<U> *sum, const LocalTensor<U> *max,
                         const LocalTensor<T> &src, const SoftMaxShapeInfo &s, const LocalTensor<uint8_t> *tmp,
                         const SrcLoc &loc) {
    const uint32_t m = s.srcM, k = s.srcK, valid = s.oriSrcK == 0 ? s.srcK : s.oriSrcK;
    if (pyasc_sim::kapi::blk().checks && (k == 0 || valid > k || (k * sizeof(T)) % 32 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "SoftMax: shape {srcM %u, srcK %u, oriSrcK %u}: srcK * sizeof(T) = %zu bytes must be a "
                              "non-zero multiple of 32 and oriSrcK <= srcK",
                              m, k, s.oriSrcK, static_cast<size_t>(k) * sizeof(T));
    }
    check_operand(src, "SoftMax", "src", static_cast<int64_t>(m) * k, loc);
    check_operand(dst, "SoftMax", "dst", static_cast<int64_t>(m) * k, loc);
    constexpr uint32_t per = 32 / sizeof(U);
    if (sum != nullptr) check_operand(*sum, "SoftMax", "sumTensor", static_cast<int64_t>(m) * per, loc);
    if (max != nullptr) check_operand(*max, "SoftMax", "maxTensor", static_cast<int64_t>(m) * per, loc);
    // exp(x - max) of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::softmax(m, k), "SoftMax", "GetSoftMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(k) * 4);
    for (uint32_t r = 0; r < m; ++r) {
        const T *x = src.ptr() + static_cast<int64_t>(r) * k;
        float *e = stage.as<float>() + (r % rows_per) * k;
        T *y = dst.ptr() + static_cast<int64_t>(r) * k;
        U rowSum{}, rowMax{};
        if constexpr (std::is_same<T, float>::value && std::is_same<U, float>::value) {
            const std::pair<float, float> sm = softmax_row_f32(y, e, x, valid);
            rowSum = sm.first;
            rowMax = sm.second;
        } else {
            double mx = -INFINITY;
            for (uint32_t i = 0; i < valid; ++i) mx = std::max(mx, pyasc_sim::kapi::to_double(x[i]));
            double total = 0.0;
            for (uint32_t i = 0; i < valid; ++i) {
                e[i] = static_cast<float>(std::exp(pyasc_sim::kapi::to_double(x[i]) - mx));
                total += e[i];
            }
            for (uint32_t i = 0; i < valid; ++i) y[i] = static_cast<T>(static_cast<double>(e[i]) / total);
            rowSum = static_cast<U>(total);
            rowMax = static_cast<U>(mx);
        }
        for (uint32_t j = 0; j < per; ++j) {
            if (sum != nullptr) sum->ptr()[r * per + j] = rowSum;
            if (max != nullptr) max->ptr()[r * per + j] = rowMax;
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(m) * k, sizeof(T)), 12.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                    const LocalTensor<T> &src, const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                    PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftMax, T);
    SoftMaxShapeInfo s = softmaxShapeInfo;
    if (s.srcM == 0) s = {tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    sim_detail::softmax_rows(dst, &sumTensor, &maxTensor, src, s, sim_detail::no_tmp(), loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                    const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftMax, T);
    SoftMaxShapeInfo s = softmaxShapeInfo;
    if (s.srcM == 0) s = {tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    sim_detail::softmax_rows(dst, &sumTensor, &maxTensor, src, s, &sharedTmpBuffer, loc);
}
// The form without sum / max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftMax, T);
    SoftMaxShapeInfo s = softmaxShapeInfo;
    if (s.srcM == 0) s = {tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    sim_detail::softmax_rows<T, T>(dst, nullptr, nullptr, src, s, sim_detail::no_tmp(), loc);
}
// The same with the caller's temporary buffer (sharedTmpBuffer, as every SoftMax form has a sibling taking it).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftMax, T);
    SoftMaxShapeInfo s = softmaxShapeInfo;
    if (s.srcM == 0) s = {tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    sim_detail::softmax_rows<T, T>(dst, nullptr, nullptr, src, s, &sharedTmpBuffer, loc);
}

// SimpleSoftMax: dst = exp(src - max) / sum with the per-row max and sum given (one 32-byte block
// per row, as SoftMax produces them).
namespace sim_detail {
template <typename T>
inline void simple_softmax(const LocalTensor<T> &dst, const LocalTensor<T> &inSumTensor,
                           const LocalTensor<T> &inMaxTensor, const LocalTensor<T> &src, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo, const LocalTensor<uint8_t> *tmp,
                           const SrcLoc &loc) {
    SoftMaxShapeInfo s = softmaxShapeInfo;
    if (s.srcM == 0) s = {tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    const uint32_t m = s.srcM, k = s.srcK, valid = s.oriSrcK == 0 ? s.srcK : s.oriSrcK;
    constexpr uint32_t per = 32 / sizeof(T);
    check_operand(src, "SimpleSoftMax", "src", static_cast<int64_t>(m) * k, loc);
    check_operand(dst, "SimpleSoftMax", "dst", static_cast<int64_t>(m) * k, loc);
    check_operand(inSumTensor, "SimpleSoftMax", "inSumTensor", static_cast<int64_t>(m) * per, loc);
    check_operand(inMaxTensor, "SimpleSoftMax", "inMaxTensor", static_cast<int64_t>(m) * per, loc);
    // exp(x - max) of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::softmax(m, k), "SimpleSoftMax", "GetSoftMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(k) * 4);
    for (uint32_t r = 0; r < m; ++r) {
        float *e = stage.as<float>() + (r % rows_per) * k;
        const double mx = pyasc_sim::kapi::to_double(inMaxTensor.ptr()[r * per]);
        const double total = pyasc_sim::kapi::to_double(inSumTensor.ptr()[r * per]);
        for (uint32_t i = 0; i < valid; ++i) {
            const int64_t at = static_cast<int64_t>(r) * k + i;
            e[i] = static_cast<float>(std::exp(pyasc_sim::kapi::to_double(src.ptr()[at]) - mx));
            dst.ptr()[at] = static_cast<T>(static_cast<double>(e[i]) / total);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(m) * k, sizeof(T)), 6.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SimpleSoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &inSumTensor,
                          const LocalTensor<T> &inMaxTensor, const LocalTensor<T> &src, const SoftMaxTiling &tiling,
                          const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SimpleSoftMax, T);
    sim_detail::simple_softmax(dst, inSumTensor, inMaxTensor, src, tiling, softmaxShapeInfo, sim_detail::no_tmp(), loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SimpleSoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &inSumTensor,
                          const LocalTensor<T> &inMaxTensor, const LocalTensor<T> &src,
                          const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                          const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SimpleSoftMax, T);
    sim_detail::simple_softmax(dst, inSumTensor, inMaxTensor, src, tiling, softmaxShapeInfo, &sharedTmpBuffer, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SOFTMAX_H_
