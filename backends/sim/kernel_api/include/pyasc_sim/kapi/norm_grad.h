// Ascend C on the CPU -- DeepNorm, LayerNormGrad, LayerNormGradBeta over [B, S, H]
// (lib/normalization/deepnorm.h, layernormgrad.h, layernormgradbeta.h).  Semantics from the public
// Ascend C reference (its formulas); math in double per row, rounded once per output element (the
// hardware composes basic instructions: results can differ in the last bits).  The per-row intermediates
// (DeepNorm's alpha * x + gx, LayerNormGrad's x - mean and dy * gamma) and LayerNormGradBeta's column sums
// are staged in float in sharedTmpBuffer (kapi/hl_tmp.h: smaller than GetXxxMaxMinTmpSize's minimum is an
// error; the forms without it stage in host memory).  The tiling structs hold the documented fields in the
// documented order, of which the simulator reads the shape (bLength, sLength, hLength, originalHLength).
#ifndef PYASC_SIM_KAPI_NORM_GRAD_H_
#define PYASC_SIM_KAPI_NORM_GRAD_H_

#include <cmath>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/softmax_flash.h"  // sim_detail::hl_in / hl_out
#include "pyasc_sim/kapi/tiling_structs.h"

// ---- kernel-side tiling structs (kernel_tiling/kernel_tiling.h), global and visible in AscendC:: ----
struct DeepNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0, varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0;
    uint32_t loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0;
    uint32_t meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0;
    uint32_t bshCurLength = 0, bsCurLength = 0;
    float lastDimValueBack = 0.0f;
};
struct LayerNormGradTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    uint32_t oneCalSize = 0, nohCalSize = 0, loopNum = 0, tailSize = 0, nohTailSize = 0;
    uint32_t tmpTensorBSHPos = 0, tmpTensorBSHSize = 0, pdVarTensorPos = 0, pdVarTensorSize = 0;
    uint32_t pdMeanTensorPos = 0, pdMeanTensorSize = 0, x1TensorPos = 0, x1TensorSize = 0;
    uint32_t x2TensorPos = 0, x2TensorSize = 0, x3TensorPos = 0, x3TensorSize = 0;
    uint32_t tmpTensorPos = 0, tmpTensorSize = 0, tmpTensor1Pos = 0, tmpTensor1Size = 0;
    uint32_t tmpTensor2Pos = 0, tmpTensor2Size = 0, lastDimValueBack = 0, lastDimValueBackMulTwo = 0;
};
struct LayerNormGradBetaTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    uint32_t bshLength = 0, bsLength = 0, oneCalSize = 0, numberOfTmpBuf = 0, loopRound = 0;
    uint32_t inputTailSize = 0, inputTailPos = 0, bsTailSize = 0, bshCurLength = 0, bsCurLength = 0;
    uint32_t gammaTempTensorPos = 0, betaTempTensorPos = 0, inputDyTmpTensorPos = 0, resForGammaTmpTensorPos = 0;
    uint32_t reserved = 0;
};

namespace AscendC {
using ::DeepNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

#ifndef PYASC_SIM_HAVE_DATA_FORMAT
#define PYASC_SIM_HAVE_DATA_FORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

namespace sim_detail {
// rows = B * S, h = hLength (row stride), valid = originalHLength (or hLength).
struct NormShape {
    uint32_t rows, h, valid;
};
inline NormShape norm_shape(const char *api, uint32_t b, uint32_t s, uint32_t h, uint32_t orig, uint32_t max_h,
                            size_t elem, const SrcLoc &loc) {
    const uint32_t valid = orig == 0 ? h : orig;
    if (pyasc_sim::kapi::blk().checks &&
        (h == 0 || valid > h || (static_cast<size_t>(h) * elem) % 32 != 0 || (max_h != 0 && h > max_h))) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "%s: tiling {bLength %u, sLength %u, hLength %u, originalHLength %u}: need hLength > 0 with "
                              "hLength * sizeof(T) = %zu bytes a multiple of 32, originalHLength <= hLength%s (fill "
                              "the tiling with the host tiling helper)",
                              api, b, s, h, orig, static_cast<size_t>(h) * elem,
                              max_h != 0 ? " and hLength <= 2040 (documented limit)" : "");
    }
    return NormShape{b * s, h, valid};
}
}  // namespace sim_detail

// ---- DeepNorm: z = alpha * x + gx; dst = (z - mean) / sqrt(var + epsilon) * gamma + beta per row of
// [B, S, H]; meanLocal / rstdLocal: B * S values, the mean and the biased variance of z (the
// reference names the second output rstd and documents it as the variance, 方差: the simulator writes
// the documented variance).  H <= 2040.
namespace sim_detail {
template <typename T>
inline void deep_norm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                      const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                      const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> *tmp, const T alpha, const T epsilon,
                      const DeepNormTiling &tiling, const SrcLoc &loc) {
    using pyasc_sim::kapi::to_double;
    const char *api = "DeepNorm";
    const auto sh = sim_detail::norm_shape(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                           2040, sizeof(T), loc);
    const int64_t n = static_cast<int64_t>(sh.rows) * sh.h;
    sim_detail::hl_in(srcLocal, api, "srcLocal", n, loc);
    sim_detail::hl_in(gxLocal, api, "gxLocal", n, loc);
    sim_detail::hl_in(betaLocal, api, "betaLocal", sh.valid, loc);
    sim_detail::hl_in(gammaLocal, api, "gammaLocal", sh.valid, loc);
    sim_detail::hl_out(dstLocal, api, "dstLocal", n, loc);
    sim_detail::hl_out(meanLocal, api, "meanLocal", sh.rows, loc);
    sim_detail::hl_out(rstdLocal, api, "rstdLocal", sh.rows, loc);
    const double a = to_double(alpha), eps = to_double(epsilon);
    // z = alpha * x + gx of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::deepnorm(sh.rows, sh.h), api, "GetDeepNormMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(sh.h) * 4);
    for (uint32_t r = 0; r < sh.rows; ++r) {
        const int64_t at = static_cast<int64_t>(r) * sh.h;
        float *z = stage.as<float>() + (r % rows_per) * sh.h;
        double mean = 0.0, var = 0.0;
        for (uint32_t i = 0; i < sh.valid; ++i) {
            z[i] = static_cast<float>(a * to_double(srcLocal.ptr()[at + i]) + to_double(gxLocal.ptr()[at + i]));
            mean += z[i];
        }
        mean /= sh.valid;
        for (uint32_t i = 0; i < sh.valid; ++i) var += (z[i] - mean) * (z[i] - mean);
        var /= sh.valid;
        const double inv = 1.0 / std::sqrt(var + eps);
        for (uint32_t i = 0; i < sh.valid; ++i) {
            dstLocal.ptr()[at + i] =
                static_cast<T>((z[i] - mean) * inv * to_double(gammaLocal.ptr()[i]) + to_double(betaLocal.ptr()[i]));
        }
        meanLocal.ptr()[r] = static_cast<T>(mean);
        rstdLocal.ptr()[r] = static_cast<T>(var);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(n), sizeof(T)), 12.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> &sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(DeepNorm, T);
    static_assert(!(isReuseSrc && std::is_same<T, half>::value),
                  "pyasc_sim: DeepNorm: isReuseSrc = true is documented for float input only, not half");
    sim_detail::deep_norm<T>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, &sharedTmpBuffer,
                             alpha, epsilon, tiling, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const T alpha, const T epsilon, DeepNormTiling &tiling,
                     PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(DeepNorm, T);
    static_assert(!(isReuseSrc && std::is_same<T, half>::value),
                  "pyasc_sim: DeepNorm: isReuseSrc = true is documented for float input only, not half");
    sim_detail::deep_norm<T>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                             sim_detail::no_tmp(), alpha, epsilon, tiling, loc);
}

// ---- LayerNormGrad: with rstd = (variance + epsilon)^-0.5 and d = x - mean per row of H,
//   pd_xl = dy * gamma
//   pd_var = sum(-0.5 * pd_xl * d * rstd^3)
//   pd_mean = sum(-pd_xl * rstd) + pd_var / H * sum(-2 d)
//   outputPdX = pd_xl * rstd + pd_var * 2 / H * d + pd_mean / H;  resForGamma = d * rstd
// (H = originalHLength; variance / mean: B * S values, as LayerNorm writes them).
namespace sim_detail {
template <typename T>
inline void layer_norm_grad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                            const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                            const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                            const LocalTensor<T> &inputGamma, const LocalTensor<uint8_t> *tmp, T epsilon,
                            const LayerNormGradTiling &tiling, const LayerNormGradShapeInfo &shapeInfo,
                            const SrcLoc &loc) {
    using pyasc_sim::kapi::to_double;
    const char *api = "LayerNormGrad";
    if (shapeInfo.dataFormat != DataFormat::ND) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LayerNormGrad: shapeInfo.dataFormat %d: the reference supports DataFormat::ND only "
                              "(pass {DataFormat::ND} or leave shapeInfo out)",
                              static_cast<int>(shapeInfo.dataFormat));
    }
    const auto sh = sim_detail::norm_shape(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                           0, sizeof(T), loc);
    const int64_t n = static_cast<int64_t>(sh.rows) * sh.h;
    sim_detail::hl_in(inputDy, api, "inputDy", n, loc);
    sim_detail::hl_in(inputX, api, "inputX", n, loc);
    sim_detail::hl_in(inputVariance, api, "inputVariance", sh.rows, loc);
    sim_detail::hl_in(inputMean, api, "inputMean", sh.rows, loc);
    sim_detail::hl_in(inputGamma, api, "inputGamma", sh.valid, loc);
    sim_detail::hl_out(outputPdX, api, "outputPdX", n, loc);
    sim_detail::hl_out(resForGamma, api, "resForGamma", n, loc);
    const double eps = to_double(epsilon), hn = static_cast<double>(sh.valid);
    // x - mean and dy * gamma of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::layernorm_grad(sh.rows, sh.h), api, "GetLayerNormGradMaxMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(sh.h) * 8);
    for (uint32_t r = 0; r < sh.rows; ++r) {
        const int64_t at = static_cast<int64_t>(r) * sh.h;
        float *d = stage.as<float>() + (r % rows_per) * 2 * sh.h;
        float *xl = d + sh.h;
        const double mean = to_double(inputMean.ptr()[r]);
        const double rstd = 1.0 / std::sqrt(to_double(inputVariance.ptr()[r]) + eps);
        double pd_var = 0.0, s_xl = 0.0, s_d = 0.0;
        for (uint32_t i = 0; i < sh.valid; ++i) {
            d[i] = static_cast<float>(to_double(inputX.ptr()[at + i]) - mean);
            xl[i] = static_cast<float>(to_double(inputDy.ptr()[at + i]) * to_double(inputGamma.ptr()[i]));
            const double di = d[i], xi = xl[i];
            pd_var += -0.5 * xi * di * rstd * rstd * rstd;
            s_xl += -xi * rstd;
            s_d += -2.0 * di;
        }
        const double pd_mean = s_xl + pd_var / hn * s_d;
        for (uint32_t i = 0; i < sh.valid; ++i) {
            const double di = d[i], xi = xl[i];
            outputPdX.ptr()[at + i] = static_cast<T>(xi * rstd + pd_var * 2.0 / hn * di + pd_mean / hn);
            resForGamma.ptr()[at + i] = static_cast<T>(di * rstd);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(n), sizeof(T)), 16.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, const LocalTensor<uint8_t> &sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling &tiling, const LayerNormGradShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNormGrad, T);
    sim_detail::layer_norm_grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                   &sharedTmpBuffer, epsilon, tiling, shapeInfo, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, T epsilon, LayerNormGradTiling &tiling,
                          const LayerNormGradShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNormGrad, T);
    sim_detail::layer_norm_grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                   sim_detail::no_tmp(), epsilon, tiling, shapeInfo, loc);
}

// ---- LayerNormGradBeta: outputPdGamma[h] = sum over B * S of inputDy * resForGamma, outputPdBeta[h]
// = sum over B * S of inputDy (H values each; resForGamma as LayerNormGrad writes it).
namespace sim_detail {
template <typename T>
inline void layer_norm_grad_beta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                                 const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                                 const LocalTensor<uint8_t> *tmp, const LayerNormGradBetaTiling &tiling,
                                 const SrcLoc &loc) {
    using pyasc_sim::kapi::to_double;
    const char *api = "LayerNormGradBeta";
    const auto sh = sim_detail::norm_shape(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                           0, sizeof(T), loc);
    const int64_t n = static_cast<int64_t>(sh.rows) * sh.h;
    sim_detail::hl_in(resForGamma, api, "resForGamma", n, loc);
    sim_detail::hl_in(inputDy, api, "inputDy", n, loc);
    sim_detail::hl_out(outputPdGamma, api, "outputPdGamma", sh.valid, loc);
    sim_detail::hl_out(outputPdBeta, api, "outputPdBeta", sh.valid, loc);
    // float column sums, a slice of columns at a time: the slice's dy * resForGamma sums, then its dy sums
    HlScratch stage(tmp, pyasc_sim::hl_tmp::layernorm_grad_beta(sh.h), api, "GetLayerNormGradBetaMaxMinTmpSize", loc);
    const uint32_t cols = static_cast<uint32_t>(stage.chunk(8));
    for (uint32_t c0 = 0; c0 < sh.valid; c0 += cols) {
        const uint32_t w = sh.valid - c0 < cols ? sh.valid - c0 : cols;
        float *g = stage.as<float>(), *b = g + w;
        for (uint32_t i = 0; i < w; ++i) g[i] = b[i] = 0.0f;
        for (uint32_t r = 0; r < sh.rows; ++r) {
            const int64_t at = static_cast<int64_t>(r) * sh.h + c0;
            for (uint32_t i = 0; i < w; ++i) {
                const float dy = static_cast<float>(to_double(inputDy.ptr()[at + i]));
                g[i] += dy * static_cast<float>(to_double(resForGamma.ptr()[at + i]));
                b[i] += dy;
            }
        }
        for (uint32_t i = 0; i < w; ++i) {
            outputPdGamma.ptr()[c0 + i] = static_cast<T>(g[i]);
            outputPdBeta.ptr()[c0 + i] = static_cast<T>(b[i]);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(n), sizeof(T)), 4.0));
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              const LocalTensor<uint8_t> &sharedTmpBuffer, const LayerNormGradBetaTiling &tiling,
                              PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNormGradBeta, T);
    sim_detail::layer_norm_grad_beta<T>(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling,
                                        loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              const LayerNormGradBetaTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LayerNormGradBeta, T);
    sim_detail::layer_norm_grad_beta<T>(outputPdGamma, outputPdBeta, resForGamma, inputDy, sim_detail::no_tmp(), tiling,
                                        loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_NORM_GRAD_H_
