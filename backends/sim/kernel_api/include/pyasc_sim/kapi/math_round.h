// Ascend C on the CPU -- the math library's rounding functions Floor, Ceil, Trunc and Round, and Fmod.
//
// Documented prototypes (high-level math API): `template <typename T, bool isReuseSource = false>
// Floor(dst, src, sharedTmpBuffer, calCount)` and `Floor(dst, src, calCount)` (the framework
// allocates the temporary), for half / float; same for Ceil, Trunc and Round. Each element becomes an
// integral value in the source's format (Floor(-2.4) = -3, Ceil(-2.4) = -2, Trunc(-2.4) = -2).
// Round rounds to the nearest integer (Round page, atlasascendc_api_07_0581: Round(3.5) = 4.0,
// Round(-3.4) = -3.0) and breaks ties to the even neighbour, as the SDK's adv_api/math/round.h says
// ("round half to even"): Round(2.5) = 2, Round(-0.5) = -0; infinities and NaN pass through.
// The temporary buffer is not needed on the CPU; the operands get the usual sanitizer checks.
#ifndef PYASC_SIM_KAPI_MATH_ROUND_H_
#define PYASC_SIM_KAPI_MATH_ROUND_H_

#include <cmath>

#include "pyasc_sim/kapi/vector.h"

namespace pyasc_sim::kapi {
// Nearest integer, ties to even, independent of the floating-point environment's rounding mode; keeps the
// sign of a zero result (-0.4 -> -0) as the hardware's round-to-nearest conversion does.
inline double round_half_even(double v) {
    if (!std::isfinite(v)) return v;
    const double f = std::floor(v);
    const double d = v - f;  // exact for |v| < 2^53: both are doubles of the same binade or below
    double r = f;
    if (d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0.0)) r = f + 1.0;
    return r == 0.0 ? std::copysign(0.0, v) : r;
}
}  // namespace pyasc_sim::kapi

namespace AscendC {

#define PYASC_SIM_ROUNDING(NAME, FN)                                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, \
                     const uint32_t calCount, PYASC_SIM_LOC) {                                                      \
        (void)sharedTmpBuffer;                                                                                      \
        sim_detail::unary_count(#NAME, dst, src, calCount, pyasc_sim::cost::kVectorComplexFactor, loc,              \
                                [](T a) -> T { return static_cast<T>(FN(pyasc_sim::kapi::to_double(a))); });        \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount, PYASC_SIM_LOC) { \
        sim_detail::unary_count(#NAME, dst, src, calCount, pyasc_sim::cost::kVectorComplexFactor, loc,              \
                                [](T a) -> T { return static_cast<T>(FN(pyasc_sim::kapi::to_double(a))); });        \
    }
PYASC_SIM_ROUNDING(Floor, std::floor)
PYASC_SIM_ROUNDING(Ceil, std::ceil)
PYASC_SIM_ROUNDING(Trunc, std::trunc)
PYASC_SIM_ROUNDING(Round, pyasc_sim::kapi::round_half_even)
#undef PYASC_SIM_ROUNDING

// Fmod (math library, page atlasascendc_api_07_0608, Atlas A2 / A3 / 350): dst = a - Trunc(a / b) * b per element
// (Fmod(2.0, 1.5) = 0.5, Fmod(-3.0, 1.1) = -0.8), with or without sharedTmpBuffer and calCount, for half / float.
// The formula is evaluated in float as written -- the quotient rounded to float, truncated, multiplied and
// subtracted with one rounding each (no fused multiply-add) -- and the result rounded once to T; b = 0 gives NaN.
namespace sim_detail {
template <typename T>
inline T fmod_of(T a, T b) {
    const float x = static_cast<float>(pyasc_sim::kapi::to_double(a));
    const float y = static_cast<float>(pyasc_sim::kapi::to_double(b));
    const float q = std::trunc(x / y);
    const float p = q * y;
    return static_cast<T>(x - p);
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                 const uint32_t calCount, PYASC_SIM_LOC) {
    sim_detail::binary_count("Fmod", dst, src0, src1, calCount, pyasc_sim::cost::kVectorComplexFactor * 3, loc,
                             [](T a, T b) -> T { return sim_detail::fmod_of(a, b); });
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, PYASC_SIM_LOC) {
    (void)sharedTmpBuffer;  // the simulator needs no scratch: the form without it
    Fmod<T, isReuseSource>(dst, src0, src1, calCount, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATH_ROUND_H_
