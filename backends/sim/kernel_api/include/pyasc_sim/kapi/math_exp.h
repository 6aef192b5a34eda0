// Ascend C on the CPU -- the math library's Exp (the reference's high-level Exp page, next to the basic API of
// the same name), as documented:
//   template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
//   void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src[, const LocalTensor<uint8_t> &sharedTmpBuffer],
//            const uint32_t calCount)
// T half or float.  With taylorExpandLevel 0 the result is e^x; otherwise x is split into its integer part
// a = floor(x) and its fraction b = x - a, and the result is e^a * (1 + b + b^2 / 2! + ... + b^n / n!) with
// n = taylorExpandLevel terms, as the page's formula says (few terms: the documented truncation error shows).
// Evaluated in double per element from the source staged in float, rounded once to T (the hardware composes
// basic instructions: results can differ in the last bits).  The basic API Exp<T>(dst, src, count) stays as it
// is: these templates need taylorExpandLevel, which a call cannot deduce, so they only match when it is given.
#ifndef PYASC_SIM_KAPI_MATH_EXP_H_
#define PYASC_SIM_KAPI_MATH_EXP_H_

#include <cmath>
#include <cstdint>

#include "pyasc_sim/kapi/activation.h"

namespace AscendC {

namespace sim_detail {
// e^x by the reference's split: e^floor(x) times the Taylor polynomial of e^frac(x) with `terms` terms
inline double exp_taylor(double x, unsigned terms) {
    if (terms == 0 || !std::isfinite(x)) return std::exp(x);
    const double a = std::floor(x), b = x - a;
    double sum = 1.0, term = 1.0;
    for (unsigned k = 1; k <= terms; ++k) {
        term *= b / k;
        sum += term;
    }
    return std::exp(a) * sum;
}
}  // namespace sim_detail

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(Tanh, T, "AscendC::Exp (math library)");
    sim_detail::hl_unary("Exp", "GetExpMaxMinTmpSize", dst, src, calCount, &sharedTmpBuffer, loc,
                         [](double x) { return sim_detail::exp_taylor(x, taylorExpandLevel); });
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(Tanh, T, "AscendC::Exp (math library)");
    sim_detail::hl_unary("Exp", "GetExpMaxMinTmpSize", dst, src, calCount, sim_detail::no_tmp(), loc,
                         [](double x) { return sim_detail::exp_taylor(x, taylorExpandLevel); });
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATH_EXP_H_
