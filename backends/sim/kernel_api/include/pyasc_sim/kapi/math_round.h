// Ascend C on the CPU -- the math library's rounding functions Floor, Ceil and Trunc.
//
// Documented prototypes (high-level math API): `template <typename T, bool isReuseSource = false>
// Floor(dst, src, sharedTmpBuffer, calCount)` and `Floor(dst, src, calCount)` (the framework
// allocates the temporary), for half / float; same for Ceil and Trunc. Each element becomes an
// integral value in the source's format (Floor(-2.4) = -3, Ceil(-2.4) = -2, Trunc(-2.4) = -2).
// The temporary buffer is not needed on the CPU; the operands get the usual sanitizer checks.
#ifndef PYASC_SIM_KAPI_MATH_ROUND_H_
#define PYASC_SIM_KAPI_MATH_ROUND_H_

#include <cmath>

#include "pyasc_sim/kapi/vector.h"

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
#undef PYASC_SIM_ROUNDING

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATH_ROUND_H_
