// Ascend C on the CPU -- high-level activations: Sigmoid, Silu, Swish, Gelu, FasterGelu, Tanh
// (SDK paths lib/activation/*.h forward here; kernel_operator.h includes it too).
// Semantics from the public Ascend C reference; math in double per element, rounded once to T (the
// hardware composes basic instructions: results can differ in the last bits).  Sigmoid, Silu, Tanh, Gelu and
// FasterGelu stage each source value in float in sharedTmpBuffer (see hl_unary); SwiGLU's buffer is unused.
#ifndef PYASC_SIM_KAPI_ACTIVATION_H_
#define PYASC_SIM_KAPI_ACTIVATION_H_

#include <cmath>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace sim_detail {
// Each source value is staged in float (exact for half and float) in a chunk of sharedTmpBuffer, the function
// evaluated from there (kapi/hl_tmp.h: a buffer below GetXxxMaxMinTmpSize's minimum is an error).
template <typename T, typename F>
inline void hl_unary(const char *api, const char *helper, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     uint32_t count, const LocalTensor<uint8_t> *tmp, const SrcLoc &loc, F f) {
    HlScratch stage(tmp, pyasc_sim::hl_tmp::activation(count, sizeof(T)), api, helper, loc);
    float *xs = stage.as<float>();
    const uint64_t per = stage.chunk(4);
    uint64_t at = 0;
    unary_count(api, dst, src, count, pyasc_sim::cost::kVectorComplexFactor * 4, loc, [f, xs, per, &at](T a) -> T {
        float &x = xs[at++ % per];
        x = static_cast<float>(pyasc_sim::kapi::to_double(a));
        return static_cast<T>(f(static_cast<double>(x)));
    });
}
inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
// tanh form of GELU, as the reference documents it: x * sigmoid(2 * sqrt(2 / pi) * (x + 0.044715 x^3))
inline double gelu(double x) { return x * sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x)); }
inline double faster_gelu(double x) { return x * sigmoid(1.702 * x); }
}  // namespace sim_detail

#define PYASC_SIM_ACTIVATION(NAME, HELPER, FN, CHECK)                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, \
                     const uint32_t calCount, PYASC_SIM_LOC) {                                                      \
        CHECK;                                                                                                      \
        sim_detail::hl_unary(#NAME, HELPER, dst, src, calCount, &sharedTmpBuffer, loc, [](double x) { return FN; }); \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount, PYASC_SIM_LOC) { \
        CHECK;                                                                                                      \
        sim_detail::hl_unary(#NAME, HELPER, dst, src, calCount, sim_detail::no_tmp(), loc,                          \
                             [](double x) { return FN; });                                                          \
    }                                                                                                               \
    /* the documented prototypes exactly (no source location), for `Sigmoid<half, false>` named as a function   */ \
    /* pointer; U is deduced as uint32_t there, and in a call the form above (uint32_t, more specialised) wins  */ \
    template <typename T, bool isReuseSource = false, typename U,                                                   \
              typename = std::enable_if_t<std::is_same<U, uint32_t>::value>>                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, \
                     const U calCount) {                                                                            \
        NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount, pyasc_sim::kapi::SrcLoc());                     \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false, typename U,                                                   \
              typename = std::enable_if_t<std::is_same<U, uint32_t>::value>>                                        \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U calCount) {                      \
        NAME<T, isReuseSource>(dst, src, static_cast<uint32_t>(calCount), pyasc_sim::kapi::SrcLoc());               \
    }
PYASC_SIM_ACTIVATION(Sigmoid, "GetSigmoidMaxMinTmpSize", sim_detail::sigmoid(x), PYASC_SIM_DTYPE_CHECK(Sigmoid, T))
PYASC_SIM_ACTIVATION(Silu, "GetSiluTmpSize", x * sim_detail::sigmoid(x), PYASC_SIM_DTYPE_CHECK(Silu, T))
PYASC_SIM_ACTIVATION(Tanh, "GetTanhMaxMinTmpSize", std::tanh(x), PYASC_SIM_DTYPE_CHECK(Tanh, T))
PYASC_SIM_ACTIVATION(FasterGelu, "GetGeluMaxMinTmpSize", sim_detail::faster_gelu(x),
                     PYASC_SIM_DTYPE_CHECK(FasterGelu, T))
#undef PYASC_SIM_ACTIVATION

// Gelu<T, highPrecision, highPerformance>: the template flags choose hardware algorithms; same math here.
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const uint32_t dataSize, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Gelu, T);
    sim_detail::hl_unary("Gelu", "GetGeluMaxMinTmpSize", dst, src, dataSize, &sharedTmpBuffer, loc,
                         [](double x) { return sim_detail::gelu(x); });
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dataSize, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Gelu, T);
    sim_detail::hl_unary("Gelu", "GetGeluMaxMinTmpSize", dst, src, dataSize, sim_detail::no_tmp(), loc,
                         [](double x) { return sim_detail::gelu(x); });
}
// Swish: x * sigmoid(beta * x)
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t dataSize,
                  const pyasc_sim::kapi::ident_t<T> &scalarValue, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Swish, T);
    const double beta = pyasc_sim::kapi::to_double(static_cast<T>(scalarValue));
    sim_detail::hl_unary("Swish", "GetSwishTmpSize", dst, src, dataSize, sim_detail::no_tmp(), loc,
                         [beta](double x) { return x * sim_detail::sigmoid(beta * x); });
}

// SwiGLU: dst = src0 * Swish(src1) = src0 * src1 / (1 + exp(-beta * src1)); without calCount
// the whole of src0 (its GetSize()) is computed.
namespace sim_detail {
template <typename T>
inline void swiglu(const LocalTensor<T> &dst, const LocalTensor<T> &s0, const LocalTensor<T> &s1, double beta,
                   uint32_t count, const SrcLoc &loc) {
    binary_count("SwiGLU", dst, s0, s1, count, pyasc_sim::cost::kVectorComplexFactor * 4, loc, [beta](T a, T b) -> T {
        const double x = pyasc_sim::kapi::to_double(b);
        return static_cast<T>(pyasc_sim::kapi::to_double(a) * x * sigmoid(beta * x));
    });
}
}  // namespace sim_detail
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                   PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SwiGLU, T);
    (void)sharedTmpBuffer;
    sim_detail::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SwiGLU, T);
    (void)sharedTmpBuffer;
    sim_detail::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SwiGLU, T);
    sim_detail::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SwiGLU, T);
    sim_detail::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize(), loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_ACTIVATION_H_
