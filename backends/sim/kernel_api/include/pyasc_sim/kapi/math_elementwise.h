// Ascend C on the CPU -- the math library's elementwise functions Acos, Asin, Atan, Cos, Sin, Tan, Cosh, Sinh,
// Erf, Erfc, Log, Log2, Log10, Sign (lib/math/kernel_operator_<name>_intf.h), as the reference documents them:
//   template <typename T, bool isReuseSource = false>
//   void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src[, const LocalTensor<uint8_t> &sharedTmpBuffer],
//             const uint32_t calCount)
// and the whole-tensor forms without calCount (calCount = src.GetSize(): "源操作数Tensor全部参与计算", e.g. the Sin
// page atlasascendc_api_07_0500)
// T half or float.  The prototypes are exactly these (no trailing source-location parameter as the other
// simulated APIs have), so a kernel can pass `Acos<half, false>` where a function pointer of that type is
// expected (the foreach kernels' `TriangleOp<T> *op` template arguments); a failed check names the API but
// not the kernel line.  Math in double per element, rounded once to T (the hardware composes basic
// instructions: results can differ in the last bits); each source value is staged in float in
// sharedTmpBuffer as the activations do (kapi/activation.h, hl_unary: the GetXxxMaxMinTmpSize minimum).
#ifndef PYASC_SIM_KAPI_MATH_ELEMENTWISE_H_
#define PYASC_SIM_KAPI_MATH_ELEMENTWISE_H_

#include <cmath>

#include "pyasc_sim/kapi/activation.h"

namespace AscendC {

#define PYASC_SIM_MATH_ELEMENTWISE(NAME, HELPER, FN)                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, \
                     const uint32_t calCount) {                                                                     \
        PYASC_SIM_DTYPE_CHECK_NAMED(Tanh, T, "AscendC::" #NAME);                                                     \
        sim_detail::hl_unary(#NAME, HELPER, dst, src, calCount, &sharedTmpBuffer, pyasc_sim::kapi::SrcLoc(),        \
                             [](double x) { return FN; });                                                          \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount) {               \
        PYASC_SIM_DTYPE_CHECK_NAMED(Tanh, T, "AscendC::" #NAME);                                                     \
        sim_detail::hl_unary(#NAME, HELPER, dst, src, calCount, sim_detail::no_tmp(), pyasc_sim::kapi::SrcLoc(),    \
                             [](double x) { return FN; });                                                          \
    }                                                                                                               \
    /* the whole-tensor forms ("源操作数Tensor全部参与计算"): calCount = the source's size */                      \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer) { \
        NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, static_cast<uint32_t>(src.GetSize()));                     \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src) {                                        \
        NAME<T, isReuseSource>(dst, src, static_cast<uint32_t>(src.GetSize()));                                     \
    }
PYASC_SIM_MATH_ELEMENTWISE(Acos, "GetAcosMaxMinTmpSize", std::acos(x))
PYASC_SIM_MATH_ELEMENTWISE(Asin, "GetAsinMaxMinTmpSize", std::asin(x))
PYASC_SIM_MATH_ELEMENTWISE(Atan, "GetAtanMaxMinTmpSize", std::atan(x))
PYASC_SIM_MATH_ELEMENTWISE(Cos, "GetCosMaxMinTmpSize", std::cos(x))
PYASC_SIM_MATH_ELEMENTWISE(Sin, "GetSinMaxMinTmpSize", std::sin(x))
PYASC_SIM_MATH_ELEMENTWISE(Tan, "GetTanMaxMinTmpSize", std::tan(x))
PYASC_SIM_MATH_ELEMENTWISE(Cosh, "GetCoshMaxMinTmpSize", std::cosh(x))
PYASC_SIM_MATH_ELEMENTWISE(Sinh, "GetSinhMaxMinTmpSize", std::sinh(x))
PYASC_SIM_MATH_ELEMENTWISE(Erf, "GetErfMaxMinTmpSize", std::erf(x))
PYASC_SIM_MATH_ELEMENTWISE(Erfc, "GetErfcMaxMinTmpSize", std::erfc(x))
// The logarithms (the reference's Log page: base e, 2 and 10).  Log and Log10 take no sharedTmpBuffer; Log2 has
// the four forms the others have; each also has a whole-tensor form (calCount = the source's size).
PYASC_SIM_MATH_ELEMENTWISE(Log2, "GetLog2MaxMinTmpSize", std::log2(x))
// Sign: 1, 0 or -1 by the sign of x (signed zeros give 0); NaN stays NaN.
PYASC_SIM_MATH_ELEMENTWISE(Sign, "GetSignMaxMinTmpSize", (std::isnan(x) ? x : double((x > 0) - (x < 0))))
#undef PYASC_SIM_MATH_ELEMENTWISE

#define PYASC_SIM_MATH_LOG(NAME, FN)                                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t calCount) {                     \
        PYASC_SIM_DTYPE_CHECK_NAMED(Tanh, T, "AscendC::" #NAME);                                                     \
        sim_detail::hl_unary(#NAME, "(no sharedTmpBuffer)", dst, src, calCount, sim_detail::no_tmp(),              \
                             pyasc_sim::kapi::SrcLoc(), [](double x) { return FN; });                              \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src) {                                        \
        NAME<T, isReuseSource>(dst, src, static_cast<uint32_t>(src.GetSize()));                                     \
    }
PYASC_SIM_MATH_LOG(Log, std::log(x))
PYASC_SIM_MATH_LOG(Log10, std::log10(x))
#undef PYASC_SIM_MATH_LOG

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATH_ELEMENTWISE_H_
