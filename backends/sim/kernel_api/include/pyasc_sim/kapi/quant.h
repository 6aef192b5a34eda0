// Ascend C on the CPU -- the quantization high-level APIs AscendQuant, AscendDequant and AscendAntiQuant
// (lib/quantization/*.h; public reference pages atlasascendc_api_07_0818 / 0820 / 0822).
// Each follows the computation the reference's 实现原理 describes, rounding where its steps round:
// * AscendQuant: src, scale and offset converted to half; x * scale and + offset each rounded to half;
//   the half result rounded to int8_t half-to-even ("四舍六入五成双"), saturating to [-128, 127].
//   Per tensor (scalar scale / offset) or per channel (scale / offset tensors recycled every
//   scaleCount / offsetCount elements).
// * AscendDequant: int32_t src and deqScale converted to float, multiplied in float, rounded once to
//   dstT.  A uint64_t deqScale element carries the float scale in its low 32 bits.  With DequantParams
//   {m, n, calCount}: rows of n int32 (n * 4 bytes a multiple of 32), dst rows of n rounded up to 32
//   bytes of dstT; columns past calCount of each dst row are left as they were (the reference calls
//   them undetermined).  DEQUANT_WITH_SINGLE_ROW treats {1, n, calCount} as {n / calCount, calCount,
//   calCount} when calCount is a multiple of 32 / sizeof(dstT) and divides n.
// * AscendAntiQuant: dst = scale * (src + offset).  half output: src to half, + offset rounded to half,
//   * scale rounded to half; bfloat16_t output: in float, rounded once to bfloat16_t.  Per channel:
//   src [K, N] with offset / scale [K / groupSize, N] (isTranspose false) or src [N, K] with offset /
//   scale [N, K / groupSize] (isTranspose true), the shapes from AntiQuantShapeInfo or, where it is
//   zero, from the tensors' sizes; per tensor: scalar offset / scale.
// Each stages its intermediate per element in sharedTmpBuffer chunk by chunk (kapi/hl_tmp.h): AscendQuant
// the half x * scale + offset, AscendDequant the float product, AscendAntiQuant src + offset in half /
// float; a buffer below the minimum GetAscendQuantMaxMinTmpSize / GetAscendDequantMaxMinTmpSize /
// GetAscendAntiQuantMaxMinTmpSize report (tiling/tiling_api.h, pyasc_sim.hl_tiling_tmp) is an error.
#ifndef PYASC_SIM_KAPI_QUANT_H_
#define PYASC_SIM_KAPI_QUANT_H_

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn, const uint32_t scaleCountIn,
                                const uint32_t workLocalSizeIn)
        : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

#ifndef PYASC_SIM_HAVE_DEQUANT_MODE
#define PYASC_SIM_HAVE_DEQUANT_MODE
enum class DeQuantMode : uint8_t {
    DEQUANT_WITH_SINGLE_ROW = 0,
    DEQUANT_WITH_MULTI_ROW,
};
#endif
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

namespace sim_detail {
// ---- AscendQuant ----------------------------------------------------------------------------------
inline int8_t quant_to_int8(half v) {
    const double r = std::nearbyint(static_cast<double>(v));  // half-to-even (default rounding mode)
    return static_cast<int8_t>(r > 127.0 ? 127.0 : (r < -128.0 ? -128.0 : r));
}
inline half quant_step(half x, half scale, half offset) {
    const half prod = static_cast<half>(static_cast<double>(x) * static_cast<double>(scale));
    return static_cast<half>(static_cast<double>(prod) + static_cast<double>(offset));
}
template <typename T, typename S, typename O>
inline void quant_run(const LocalTensor<int8_t> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> *tmp,
                      const S &scale, const O &offset, uint32_t count, const SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && count > src.GetSize()) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "AscendQuant: calCount %u exceeds srcTensor's %u elements (fix: calCount in [0, "
                              "srcTensor.GetSize()])",
                              count, src.GetSize());
    }
    check_operand(src, "AscendQuant", "src", count, loc);
    check_operand(dst, "AscendQuant", "dst", count, loc);
    const T *x = src.ptr();
    int8_t *y = dst.ptr();
    HlScratch stage(tmp, pyasc_sim::hl_tmp::ascend_quant(count, sizeof(T)), "AscendQuant",
                    "GetAscendQuantMaxMinTmpSize", loc);
    half *st = stage.as<half>();  // one source-wide slot per element holds the half intermediate
    const uint64_t step = stage.chunk(sizeof(T));
    for (uint32_t i0 = 0; i0 < count; i0 += static_cast<uint32_t>(step)) {
        const uint32_t i1 = i0 + step < count ? i0 + static_cast<uint32_t>(step) : count;
        for (uint32_t i = i0; i < i1; ++i) st[i - i0] = quant_step(static_cast<half>(x[i]), scale(i), offset(i));
        for (uint32_t i = i0; i < i1; ++i) y[i] = quant_to_int8(st[i - i0]);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, sizeof(T)), 4.0));
}
template <typename T>
inline void quant_channel_check(const LocalTensor<T> &t, const char *name, uint32_t n, const SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && (n == 0 || n > t.GetSize())) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "AscendQuant: %s count %u must be in [1, %u] (the %s tensor's elements)", name, n,
                              t.GetSize(), name);
    }
    check_operand(t, "AscendQuant", name[0] == 's' ? "src (scale)" : "src (offset)", n, loc);
}
}  // namespace sim_detail

// per tensor
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    const half s = static_cast<half>(scale), o = static_cast<half>(offset);
    sim_detail::quant_run(dstTensor, srcTensor, &sharedTmpBuffer, [s](uint32_t) { return s; },
                          [o](uint32_t) { return o; }, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    const half s = static_cast<half>(scale), o = static_cast<half>(offset);
    sim_detail::quant_run(dstTensor, srcTensor, sim_detail::no_tmp(),
                          [s](uint32_t) { return s; }, [o](uint32_t) { return o; }, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset,
                        PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize(),
                                          loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset, PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(), loc);
}
// per channel: scale tensor, scalar offset
namespace sim_detail {
template <typename T>
inline void quant_channel(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                          const LocalTensor<uint8_t> *tmp, const LocalTensor<T> &scaleTensor,
                          const LocalTensor<T> *offsetTensor, const T offset, const uint32_t scaleCount,
                          const uint32_t offsetCount, const uint32_t calCount, const SrcLoc &loc) {
    quant_channel_check(scaleTensor, "scale", scaleCount, loc);
    if (offsetTensor != nullptr) quant_channel_check(*offsetTensor, "offset", offsetCount, loc);
    const T *s = scaleTensor.ptr();
    const auto scale = [s, scaleCount](uint32_t i) { return static_cast<half>(s[i % scaleCount]); };
    if (offsetTensor == nullptr) {
        const half o = static_cast<half>(offset);
        quant_run(dstTensor, srcTensor, tmp, scale, [o](uint32_t) { return o; }, calCount, loc);
    } else {
        const T *o = offsetTensor->ptr();
        quant_run(dstTensor, srcTensor, tmp, scale,
                  [o, offsetCount](uint32_t i) { return static_cast<half>(o[i % offsetCount]); }, calCount, loc);
    }
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const LocalTensor<T> &scaleTensor, const T offset,
                        const uint32_t scaleCount, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    sim_detail::quant_channel<T>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset, scaleCount, 0,
                                 calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<T> &scaleTensor, const T offset, const uint32_t scaleCount,
                        const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    sim_detail::quant_channel<T>(dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset, scaleCount, 0, calCount,
                                 loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const LocalTensor<T> &scaleTensor, const T offset,
                        PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                          scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<T> &scaleTensor, const T offset, PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset, scaleTensor.GetSize(),
                                          srcTensor.GetSize(), loc);
}
// per channel: scale and offset tensors
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const LocalTensor<T> &scaleTensor,
                        const LocalTensor<T> &offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                        const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    sim_detail::quant_channel<T>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T{}, scaleCount,
                                 offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<T> &scaleTensor, const LocalTensor<T> &offsetTensor,
                        const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AscendQuant, T);
    sim_detail::quant_channel<T>(dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T{}, scaleCount,
                                 offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const LocalTensor<T> &scaleTensor,
                        const LocalTensor<T> &offsetTensor, PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor,
                                          scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<T> &scaleTensor, const LocalTensor<T> &offsetTensor, PYASC_SIM_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offsetTensor, scaleTensor.GetSize(),
                                          offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}

// ---- AscendDequant --------------------------------------------------------------------------------
namespace sim_detail {
template <typename S>
inline float dequant_scale(S s) {
    if constexpr (std::is_same<S, uint64_t>::value) {
        const uint32_t bits = static_cast<uint32_t>(s & 0xFFFFFFFFull);
        float f;
        std::memcpy(&f, &bits, sizeof(f));
        return f;
    } else {
        return static_cast<float>(pyasc_sim::kapi::to_double(s));
    }
}
inline float dequant_product(int32_t x, float scale) {
    return static_cast<float>(x) * scale;  // int32 -> float (RINT), one float multiply
}
template <typename D, typename S, DeQuantMode mode>
inline void dequant_rows(const LocalTensor<D> &dst, const LocalTensor<int32_t> &src, const LocalTensor<S> *scales,
                         S scalar, const LocalTensor<uint8_t> *tmp, DequantParams p, const SrcLoc &loc) {
    constexpr uint32_t dst_block = 32 / sizeof(D);
    if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount != 0 && p.calCount % dst_block == 0 &&
        p.n % p.calCount == 0) {
        p = DequantParams{p.n / p.calCount, p.calCount, p.calCount};
    }
    const bool bad = p.m == 0 || p.n == 0 || (p.n * sizeof(int32_t)) % 32 != 0 || p.calCount > p.n ||
                     (scales != nullptr && p.calCount > scales->GetSize());
    if (pyasc_sim::kapi::blk().checks && bad) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "AscendDequant: params {m %u, n %u, calCount %u}%s: need m, n >= 1, n * 4 bytes a multiple "
                              "of 32 and calCount <= n%s (fix: pad each int32 row to 32 bytes)",
                              p.m, p.n, p.calCount, scales != nullptr ? " with a deqScale tensor" : "",
                              scales != nullptr ? " and <= deqScale's elements" : "");
    }
    const uint32_t n_dst = (p.n + dst_block - 1) / dst_block * dst_block;
    check_operand(src, "AscendDequant", "src", static_cast<int64_t>(p.m) * p.n, loc);
    if (scales != nullptr) check_operand(*scales, "AscendDequant", "src (deqScale)", p.calCount, loc);
    dst.check_aligned("AscendDequant", "dst", loc);
    dst.check(0, static_cast<int64_t>(p.m) * n_dst, "AscendDequant", loc);
    HlScratch stage(tmp, pyasc_sim::hl_tmp::ascend_dequant(static_cast<uint64_t>(p.m) * p.n), "AscendDequant",
                    "GetAscendDequantMaxMinTmpSize", loc);
    float *st = stage.as<float>();  // the float products of one chunk
    const uint64_t step = stage.chunk(sizeof(float));
    const uint64_t work = static_cast<uint64_t>(p.m) * p.calCount;
    for (uint64_t k0 = 0; k0 < work; k0 += step) {
        const uint64_t k1 = k0 + step < work ? k0 + step : work;
        for (uint64_t k = k0; k < k1; ++k) {
            const uint64_t r = k / p.calCount, c = k % p.calCount;
            const float s = dequant_scale(scales != nullptr ? scales->ptr()[c] : scalar);
            st[k - k0] = dequant_product(src.ptr()[r * p.n + c], s);
        }
        for (uint64_t k = k0; k < k1; ++k) {
            const uint64_t r = k / p.calCount, c = k % p.calCount;
            dst.ptr()[r * n_dst + c] = static_cast<D>(st[k - k0]);  // rounded once to dstT
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(p.m) * p.n, 4), 3.0));
}
template <typename D, typename S>
inline void dequant_count(const LocalTensor<D> &dst, const LocalTensor<int32_t> &src, const LocalTensor<S> &scales,
                          const LocalTensor<uint8_t> *tmp, uint32_t count, const SrcLoc &loc) {
    const uint32_t k = scales.GetSize();
    if (pyasc_sim::kapi::blk().checks && (k == 0 || count > src.GetSize() || count % k != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "AscendDequant: calCount %u must be in [0, srcTensor.GetSize() = %u] and a multiple of "
                              "deqScale's %u elements",
                              count, src.GetSize(), k);
    }
    check_operand(src, "AscendDequant", "src", count, loc);
    check_operand(scales, "AscendDequant", "src (deqScale)", k, loc);
    check_operand(dst, "AscendDequant", "dst", count, loc);
    HlScratch stage(tmp, pyasc_sim::hl_tmp::ascend_dequant(count), "AscendDequant", "GetAscendDequantMaxMinTmpSize",
                    loc);
    float *st = stage.as<float>();
    const uint64_t step = stage.chunk(sizeof(float));
    for (uint32_t i0 = 0; i0 < count; i0 += static_cast<uint32_t>(step)) {
        const uint32_t i1 = i0 + step < count ? i0 + static_cast<uint32_t>(step) : count;
        for (uint32_t i = i0; i < i1; ++i) st[i - i0] = dequant_product(src.ptr()[i], dequant_scale(scales.ptr()[i % k]));
        for (uint32_t i = i0; i < i1; ++i) dst.ptr()[i] = static_cast<D>(st[i - i0]);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(count, 4), 3.0));
}
}  // namespace sim_detail

#define PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT)                                                                  \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendDequant, dstT, "AscendC::AscendDequant (dstT, the dst element type)");   \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendDequantScale, scaleT, "AscendC::AscendDequant (scaleT, the deqScale type)")
#define PYASC_SIM_DEQUANT_SCALAR_CHECKS(dstT, scaleT)                                                          \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendDequant, dstT, "AscendC::AscendDequant (dstT, the dst element type)");   \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendDequantScalar, scaleT, "AscendC::AscendDequant (scaleT of a scalar deqScale)")

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          DequantParams params, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_rows<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT{}, &sharedTmpBuffer, params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, DequantParams params, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_rows<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, scaleT{}, sim_detail::no_tmp(), params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_count(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, calCount, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_count(dstTensor, srcTensor, deqScale, sim_detail::no_tmp(), calCount, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_count(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_CHECKS(dstT, scaleT);
    sim_detail::dequant_count(dstTensor, srcTensor, deqScale, sim_detail::no_tmp(), srcTensor.GetSize(), loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const scaleT deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer, DequantParams params,
                          PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_SCALAR_CHECKS(dstT, scaleT);
    sim_detail::dequant_rows<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, deqScale, &sharedTmpBuffer, params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const scaleT deqScale, DequantParams params, PYASC_SIM_LOC) {
    PYASC_SIM_DEQUANT_SCALAR_CHECKS(dstT, scaleT);
    sim_detail::dequant_rows<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, deqScale, sim_detail::no_tmp(), params, loc);
}
#undef PYASC_SIM_DEQUANT_CHECKS
#undef PYASC_SIM_DEQUANT_SCALAR_CHECKS

// ---- AscendAntiQuant ------------------------------------------------------------------------------
namespace sim_detail {
// the compute type: half for a half output, float for bfloat16_t (rounded once at the end)
template <typename O>
using antiquant_stage_t = typename std::conditional<std::is_same<O, half>::value, half, float>::type;
template <typename I, typename O>
inline antiquant_stage_t<O> antiquant_add(I x, O offset, bool with_offset) {
    if constexpr (std::is_same<O, half>::value) {
        half v = static_cast<half>(x);  // int8 -> half is exact
        if (with_offset) v = static_cast<half>(static_cast<double>(v) + static_cast<double>(offset));
        return v;
    } else {
        float v = static_cast<float>(x);
        if (with_offset) v = v + static_cast<float>(pyasc_sim::kapi::to_double(offset));
        return v;
    }
}
template <typename O>
inline O antiquant_mul(antiquant_stage_t<O> v, O scale) {
    if constexpr (std::is_same<O, half>::value) {
        return static_cast<half>(static_cast<double>(v) * static_cast<double>(scale));
    } else {
        return static_cast<O>(v * static_cast<float>(pyasc_sim::kapi::to_double(scale)));  // rounded once from float
    }
}
template <typename I, typename O, bool isTranspose>
inline void antiquant_run(const LocalTensor<O> &dst, const LocalTensor<I> &src, const LocalTensor<O> *offset,
                          const LocalTensor<O> *scale, O offset_s, O scale_s, const LocalTensor<uint8_t> *tmp,
                          uint32_t K, const AntiQuantShapeInfo &info, const SrcLoc &loc) {
    const uint32_t total = src.GetSize();
    const bool channel = scale != nullptr;
    if (pyasc_sim::kapi::blk().checks && (K == 0 || total % K != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "AscendAntiQuant: K %u must be non-zero and divide srcTensor's %u elements (src is [K, N] "
                              "with isTranspose false, [N, K] with isTranspose true)",
                              K, total);
    }
    const uint32_t N = K == 0 ? 0 : total / K;
    const uint32_t rows = isTranspose ? N : K, cols = isTranspose ? K : N;
    // offset / scale shapes: [groups, N] (not transposed) or [N, groups] (transposed)
    uint32_t oh = 0, ow = 0, sh = 0, sw = 0;
    if (channel) {
        const auto fill = [&](uint32_t h, uint32_t w, uint32_t size, uint32_t &hh, uint32_t &ww) {
            if (h != 0 && w != 0) {
                hh = h, ww = w;
            } else if (isTranspose) {
                hh = rows, ww = rows == 0 ? 0 : size / rows;
            } else {
                ww = cols, hh = cols == 0 ? 0 : size / cols;
            }
        };
        fill(info.scaleHeight, info.scaleWidth, scale->GetSize(), sh, sw);
        if (offset != nullptr) fill(info.offsetHeight, info.offsetWidth, offset->GetSize(), oh, ow);
        const auto bad = [&](uint32_t h, uint32_t w) {
            return isTranspose ? (h != rows || w == 0 || cols % w != 0) : (w != cols || h == 0 || rows % h != 0);
        };
        if (pyasc_sim::kapi::blk().checks && (bad(sh, sw) || (offset != nullptr && bad(oh, ow)))) {
            pyasc_sim::kapi::fail("vector-count", loc,
                                  "AscendAntiQuant: src is [%u, %u] (K %u, isTranspose %d); scale [%u, %u], offset "
                                  "[%u, %u]: per channel the %s must match src and the other axis divide it into groups "
                                  "(fix: set AntiQuantShapeInfo)",
                                  rows, cols, K, isTranspose ? 1 : 0, sh, sw, oh, ow,
                                  isTranspose ? "height" : "width");
        }
        check_operand(*scale, "AscendAntiQuant", "src (scale)", static_cast<int64_t>(sh) * sw, loc);
        if (offset != nullptr) check_operand(*offset, "AscendAntiQuant", "src (offset)", static_cast<int64_t>(oh) * ow, loc);
    }
    check_operand(src, "AscendAntiQuant", "src", total, loc);
    check_operand(dst, "AscendAntiQuant", "dst", total, loc);
    using St = antiquant_stage_t<O>;
    HlScratch stage(tmp, pyasc_sim::hl_tmp::ascend_antiquant(total, sizeof(I), sizeof(St)), "AscendAntiQuant",
                    "GetAscendAntiQuantMaxMinTmpSize", loc);
    St *st = stage.as<St>();  // src + offset of one chunk, in the compute type
    const uint64_t step = stage.chunk(sizeof(St));
    const bool with_offset = !channel || offset != nullptr;
    // the offset (which) or scale of element k = i * cols + j
    const auto param = [&](uint64_t k, bool which) -> O {
        if (!channel) return which ? offset_s : scale_s;
        const uint64_t i = k / cols, j = k % cols;
        const LocalTensor<O> *t = which ? offset : scale;
        const uint32_t h = which ? oh : sh, w = which ? ow : sw;
        return isTranspose ? t->ptr()[i * w + j / (cols / w)] : t->ptr()[(i / (rows / h)) * w + j];
    };
    for (uint64_t k0 = 0; k0 < total; k0 += step) {
        const uint64_t k1 = k0 + step < total ? k0 + step : total;
        for (uint64_t k = k0; k < k1; ++k) {
            st[k - k0] = antiquant_add<I, O>(src.ptr()[k], with_offset && offset != nullptr ? param(k, true) : offset_s,
                                             with_offset);
        }
        for (uint64_t k = k0; k < k1; ++k) dst.ptr()[k] = antiquant_mul<O>(st[k - k0], param(k, false));
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(total, sizeof(O)), 3.0));
}
}  // namespace sim_detail

#define PYASC_SIM_ANTIQUANT_CHECKS(I, O)                                                                           \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendAntiQuant, O, "AscendC::AscendAntiQuant (OutputDataType)");                 \
    PYASC_SIM_DTYPE_CHECK_NAMED(AscendAntiQuantSrc, I, "AscendC::AscendAntiQuant (InputDataType)")

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &offset, const LocalTensor<OutputDataType> &scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, OutputDataType{},
                                                                          OutputDataType{}, &sharedTmpBuffer, K, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &scale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                            const uint32_t K, const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, &scale, OutputDataType{},
                                                                          OutputDataType{}, &sharedTmpBuffer, K, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &offset, const LocalTensor<OutputDataType> &scale,
                            const uint32_t K, const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, OutputDataType{},
                                                                          OutputDataType{}, sim_detail::no_tmp(), K, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const OutputDataType offset, const OutputDataType scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                          &sharedTmpBuffer, K, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const OutputDataType scale, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    // no offset: dst = scale * src
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, OutputDataType{},
                                                                          scale, &sharedTmpBuffer, K, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst, const LocalTensor<InputDataType> &src,
                            const OutputDataType offset, const OutputDataType scale, const uint32_t K,
                            const AntiQuantShapeInfo &shapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_ANTIQUANT_CHECKS(InputDataType, OutputDataType);
    sim_detail::antiquant_run<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                          sim_detail::no_tmp(), K, shapeInfo, loc);
}
#undef PYASC_SIM_ANTIQUANT_CHECKS

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_QUANT_H_
