// Ascend C on the CPU -- the math library's Power (lib/math/kernel_operator_power_intf.h), as the reference
// documents it: three kinds, each with or without sharedTmpBuffer and with or without calCount (without calCount
// the whole source tensor):
//   template <typename T, bool isReuseSource = false>
//   void Power(dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1 [, sharedTmpBuffer][, uint32_t calCount])
//   void Power(dst, const LocalTensor<T> &src0, const T &src1Scalar       [, sharedTmpBuffer][, uint32_t calCount])
//   void Power(dst, const T &src0Scalar, const LocalTensor<T> &src1       [, sharedTmpBuffer][, uint32_t calCount])
// T half / float / int32_t.  Floating types: pow in double per element, rounded once to T (the hardware composes
// exp / ln instructions: results can differ in the last bits; a negative base with a non-integral exponent gives
// NaN as pow does).  int32_t: the exact integer power, wrapping modulo 2^32; a negative exponent gives 0 except
// for bases 1 and -1.  No source-location parameter (the prototypes are the documented ones, so NPUKernelBench's
// `PowerAdapter`-style wrappers pass them where a function pointer is expected); a failed check names the API.
#ifndef PYASC_SIM_KAPI_MATH_POWER_H_
#define PYASC_SIM_KAPI_MATH_POWER_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/activation.h"

namespace AscendC {
namespace sim_detail {
template <typename T>
inline T power_of(T base, T expo) {
    if constexpr (std::is_integral<T>::value) {
        if (expo < 0) {
            if (base == 1) return 1;
            if (base == -1) return (expo & 1) ? -1 : 1;
            return 0;
        }
        uint32_t r = 1, b = static_cast<uint32_t>(base);
        for (uint32_t e = static_cast<uint32_t>(expo); e != 0; e >>= 1) {
            if (e & 1u) r *= b;
            b *= b;
        }
        return static_cast<T>(r);
    } else {
        return static_cast<T>(std::pow(pyasc_sim::kapi::to_double(base), pyasc_sim::kapi::to_double(expo)));
    }
}
// The sharedTmpBuffer forms: a buffer below the activations' minimum for this count is an error (kapi/hl_tmp.h).
template <typename T>
inline void power_tmp_check(const LocalTensor<uint8_t> *tmp, uint32_t count) {
    if (tmp != nullptr) {
        HlScratch stage(tmp, pyasc_sim::hl_tmp::activation(count, sizeof(T)), "Power", "GetPowerMaxMinTmpSize",
                        pyasc_sim::kapi::SrcLoc());
    }
}
template <typename T>
inline void power_tt(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                     const LocalTensor<uint8_t> *tmp, uint32_t count) {
    PYASC_SIM_DTYPE_CHECK_NAMED(Relu, T, "AscendC::Power");
    power_tmp_check<T>(tmp, count);
    binary_count("Power", dst, src0, src1, count, pyasc_sim::cost::kVectorComplexFactor * 4,
                 pyasc_sim::kapi::SrcLoc(), [](T a, T b) -> T { return power_of(a, b); });
}
template <typename T>
inline void power_ts(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T s, const LocalTensor<uint8_t> *tmp,
                     uint32_t count) {
    PYASC_SIM_DTYPE_CHECK_NAMED(Relu, T, "AscendC::Power");
    power_tmp_check<T>(tmp, count);
    unary_count("Power", dst, src0, count, pyasc_sim::cost::kVectorComplexFactor * 4, pyasc_sim::kapi::SrcLoc(),
                [s](T a) -> T { return power_of(a, s); });
}
template <typename T>
inline void power_st(const LocalTensor<T> &dst, T s, const LocalTensor<T> &src1, const LocalTensor<uint8_t> *tmp,
                     uint32_t count) {
    PYASC_SIM_DTYPE_CHECK_NAMED(Relu, T, "AscendC::Power");
    power_tmp_check<T>(tmp, count);
    unary_count("Power", dst, src1, count, pyasc_sim::cost::kVectorComplexFactor * 4, pyasc_sim::kapi::SrcLoc(),
                [s](T b) -> T { return power_of(s, b); });
}
template <typename T>
inline uint32_t whole(const LocalTensor<T> &t) {
    return static_cast<uint32_t>(t.GetSize());
}
}  // namespace sim_detail

// Power(dstTensor, src0Tensor, src1Tensor)
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount) {
    sim_detail::power_tt(dst, src0, src1, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer) {
    sim_detail::power_tt(dst, src0, src1, &sharedTmpBuffer, sim_detail::whole(src0));
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                  uint32_t calCount) {
    sim_detail::power_tt(dst, src0, src1, sim_detail::no_tmp(), calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1) {
    sim_detail::power_tt(dst, src0, src1, sim_detail::no_tmp(), sim_detail::whole(src0));
}
// Power(dstTensor, src0Tensor, src1Scalar)
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &src1Scalar,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount) {
    sim_detail::power_ts(dst, src0, src1Scalar, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &src1Scalar,
                  const LocalTensor<uint8_t> &sharedTmpBuffer) {
    sim_detail::power_ts(dst, src0, src1Scalar, &sharedTmpBuffer, sim_detail::whole(src0));
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &src1Scalar, uint32_t calCount) {
    sim_detail::power_ts(dst, src0, src1Scalar, sim_detail::no_tmp(), calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &src1Scalar) {
    sim_detail::power_ts(dst, src0, src1Scalar, sim_detail::no_tmp(), sim_detail::whole(src0));
}
// Power(dstTensor, src0Scalar, src1Tensor)
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &src0Scalar, const LocalTensor<T> &src1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount) {
    sim_detail::power_st(dst, src0Scalar, src1, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &src0Scalar, const LocalTensor<T> &src1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer) {
    sim_detail::power_st(dst, src0Scalar, src1, &sharedTmpBuffer, sim_detail::whole(src1));
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &src0Scalar, const LocalTensor<T> &src1, uint32_t calCount) {
    sim_detail::power_st(dst, src0Scalar, src1, sim_detail::no_tmp(), calCount);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dst, const T &src0Scalar, const LocalTensor<T> &src1) {
    sim_detail::power_st(dst, src0Scalar, src1, sim_detail::no_tmp(), sim_detail::whole(src1));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATH_POWER_H_
