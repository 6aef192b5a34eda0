// Ascend C on the CPU -- LayerNorm over the last axis of [B, S, H] (lib/normalization/layernorm.h).
// Semantics from the public Ascend C reference. float LayerNorm is composed in float as the reference's
// implementation section lists its vector steps (layer_norm_row_f32), each the bits of the simulator's basic
// instruction of that name; otherwise (other types, RmsNorm) math in double per element, rounded once to T
// (the hardware composes basic instructions: results can differ in the last bits).  Each row's x - mean
// (LayerNorm) or x * x (RmsNorm) is staged in float in sharedTmpBuffer (kapi/hl_tmp.h: smaller than
// GetLayerNormMaxMinTmpSize / GetRmsNormMaxMinTmpSize reports is an error; the forms without it stage in host
// memory).
#ifndef PYASC_SIM_KAPI_NORMALIZATION_H_
#define PYASC_SIM_KAPI_NORMALIZATION_H_

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

// ---- LayerNorm over the last axis of [B, S, H] ---------------------------------------------------
// output = (x - mean) / sqrt(variance + epsilon) * gamma + beta over the first originalHLength of
// each row of hLength elements; outputMean / outputVariance: B * S values (biased variance).
namespace sim_detail {
// One float row of LayerNorm as the reference's steps compose it, n = the row's valid length: mean =
// ReduceSum(Muls(x, 1/n)); d = Sub(x, mean); variance = ReduceSum(Muls(Mul(d, d), 1/n)); rstd =
// Exp(Muls(Ln(Adds(variance, eps)), -0.5)); y = Add(Mul(Mul(d, rstd), gamma), beta). d (the staged x - mean)
// in d, y's row doubles as the squares' space. Returns {mean, variance}.
inline std::pair<float, float> layer_norm_row_f32(float *y, float *d, const float *x, const float *gamma,
                                                  const float *beta, float eps, uint32_t n) {
    if (n == 0) return {0.0f, 0.0f};
    const float inv = 1.0f / static_cast<float>(n);
    pyasc_sim::simd::map1(d, x, n, [inv](float a) -> float { return a * inv; });
    const float mean = pairwise_sum<float>(d, n);
    pyasc_sim::simd::map1(d, x, n, [mean](float a) -> float { return a - mean; });
    pyasc_sim::simd::map1(y, d, n, [inv](float a) -> float {
        const float sq = a * a;
        return sq * inv;
    });
    const float var = pairwise_sum<float>(y, n);
    const float rstd = pyasc_sim::simd::exp_f32_one(pyasc_sim::simd::log_f32_one(var + eps) * -0.5f);
    pyasc_sim::simd::map1(y, d, n, [rstd](float a) -> float { return a * rstd; });
    pyasc_sim::simd::map2(y, y, gamma, n, [](float a, float g) -> float { return a * g; });
    pyasc_sim::simd::map2(y, y, beta, n, [](float a, float b) -> float { return a + b; });
    return {mean, var};
}

template <typename T>
inline void layer_norm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                       const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                       const LocalTensor<T> &beta, const LocalTensor<uint8_t> *tmp, const T epsilon,
                       const LayerNormTiling &tiling, const SrcLoc &loc) {
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    const uint32_t valid = tiling.originalHLength == 0 ? h : tiling.originalHLength;
    if (pyasc_sim::kapi::blk().checks && (h == 0 || valid > h)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "LayerNorm: tiling {bLength %u, sLength %u, hLength %u, originalHLength %u}: need hLength "
                              "> 0 and originalHLength <= hLength (fill it with the host tiling helper)",
                              tiling.bLength, tiling.sLength, h, tiling.originalHLength);
    }
    sim_detail::check_operand(inputX, "LayerNorm", "inputX", static_cast<int64_t>(rows) * h, loc);
    sim_detail::check_operand(output, "LayerNorm", "output", static_cast<int64_t>(rows) * h, loc);
    sim_detail::check_operand(gamma, "LayerNorm", "gamma", valid, loc);
    sim_detail::check_operand(beta, "LayerNorm", "beta", valid, loc);
    outputMean.check(0, rows, "LayerNorm writes outputMean", loc);
    outputVariance.check(0, rows, "LayerNorm writes outputVariance", loc);
    const double eps = pyasc_sim::kapi::to_double(epsilon);
    // x - mean of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::layernorm(rows, h), "LayerNorm", "GetLayerNormMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(h) * 4);
    for (uint32_t r = 0; r < rows; ++r) {
        const T *x = inputX.ptr() + static_cast<int64_t>(r) * h;
        float *d = stage.as<float>() + (r % rows_per) * h;
        if constexpr (std::is_same<T, float>::value) {
            const std::pair<float, float> mv = layer_norm_row_f32(output.ptr() + static_cast<int64_t>(r) * h, d, x,
                                                                  gamma.ptr(), beta.ptr(), epsilon, valid);
            outputMean.ptr()[r] = mv.first;
            outputVariance.ptr()[r] = mv.second;
            continue;
        }
        double mean = 0.0, var = 0.0;
        for (uint32_t i = 0; i < valid; ++i) mean += pyasc_sim::kapi::to_double(x[i]);
        mean /= valid;
        for (uint32_t i = 0; i < valid; ++i) {
            d[i] = static_cast<float>(pyasc_sim::kapi::to_double(x[i]) - mean);
            var += static_cast<double>(d[i]) * d[i];
        }
        var /= valid;
        const double inv = 1.0 / std::sqrt(var + eps);
        T *y = output.ptr() + static_cast<int64_t>(r) * h;
        for (uint32_t i = 0; i < valid; ++i) {
            y[i] = static_cast<T>(static_cast<double>(d[i]) * inv * pyasc_sim::kapi::to_double(gamma.ptr()[i]) +
                                  pyasc_sim::kapi::to_double(beta.ptr()[i]));
        }
        outputMean.ptr()[r] = static_cast<T>(mean);
        outputVariance.ptr()[r] = static_cast<T>(var);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(rows) * h, sizeof(T)), 10.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon,
                      LayerNormTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNorm, T);
    sim_detail::layer_norm<T>(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling,
                              loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const T epsilon, LayerNormTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNorm, T);
    sim_detail::layer_norm<T>(output, outputMean, outputVariance, inputX, gamma, beta, sim_detail::no_tmp(), epsilon,
                              tiling, loc);
}

// ---- RmsNorm over the last axis of [B, S, H]: dst = x / sqrt(mean(x^2) + epsilon) * gamma over the
// first originalHLength of each row of hLength elements ---------------------------------------------
namespace sim_detail {
template <typename T>
inline void rms_norm(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<T> &gammaTensor,
                     const LocalTensor<uint8_t> *tmp, const T epsilon, const RmsNormTiling &tiling, const SrcLoc &loc) {
    const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength;
    const uint32_t valid = tiling.originalHLength == 0 ? h : tiling.originalHLength;
    if (pyasc_sim::kapi::blk().checks && (h == 0 || valid > h)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "RmsNorm: tiling {bLength %u, sLength %u, hLength %u, originalHLength %u}: need hLength > "
                              "0 and originalHLength <= hLength (fill it with the host tiling helper)",
                              tiling.bLength, tiling.sLength, h, tiling.originalHLength);
    }
    sim_detail::check_operand(srcTensor, "RmsNorm", "src", static_cast<int64_t>(rows) * h, loc);
    sim_detail::check_operand(dstTensor, "RmsNorm", "dst", static_cast<int64_t>(rows) * h, loc);
    sim_detail::check_operand(gammaTensor, "RmsNorm", "gamma", valid, loc);
    const double eps = pyasc_sim::kapi::to_double(epsilon);
    // x * x of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::rmsnorm(rows, h), "RmsNorm", "GetRmsNormMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(h) * 4);
    for (uint32_t r = 0; r < rows; ++r) {
        const T *x = srcTensor.ptr() + static_cast<int64_t>(r) * h;
        float *x2 = stage.as<float>() + (r % rows_per) * h;
        double sq = 0.0;
        for (uint32_t i = 0; i < valid; ++i) {
            x2[i] = static_cast<float>(pyasc_sim::kapi::to_double(x[i]) * pyasc_sim::kapi::to_double(x[i]));
            sq += x2[i];
        }
        const double inv = 1.0 / std::sqrt(sq / valid + eps);
        T *y = dstTensor.ptr() + static_cast<int64_t>(r) * h;
        for (uint32_t i = 0; i < valid; ++i) {
            y[i] = static_cast<T>(pyasc_sim::kapi::to_double(x[i]) * inv * pyasc_sim::kapi::to_double(gammaTensor.ptr()[i]));
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(rows) * h, sizeof(T)), 8.0));
}
}  // namespace sim_detail
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<T> &gammaTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon, const RmsNormTiling &tiling,
                    PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(RmsNorm, T);
    sim_detail::rms_norm<T>(dstTensor, srcTensor, gammaTensor, &sharedTmpBuffer, epsilon, tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const LocalTensor<T> &gammaTensor,
                    const T epsilon, const RmsNormTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(RmsNorm, T);
    sim_detail::rms_norm<T>(dstTensor, srcTensor, gammaTensor, sim_detail::no_tmp(), epsilon, tiling, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_NORMALIZATION_H_
