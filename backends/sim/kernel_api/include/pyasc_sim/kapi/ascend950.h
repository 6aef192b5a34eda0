// Ascend C on the CPU -- basic vector APIs of the Atlas 350 / Ascend 950 only (kernels built with
// soc="Ascend950PR_9599", __CCE_AICORE__ == 310): Neg, AbsSub, ExpSub, Subs, Divs, Ands, Ors,
// Interleave, DeInterleave.  Their pages' product tables mark every other family x, so on the other
// SoCs they stay compile errors naming the SoC that has them (kapi/vector_extra.h).  Semantics and
// prototypes from the public Ascend C reference (CANN 9.0, ascendcopapi pages named per API below).
#ifndef PYASC_SIM_KAPI_ASCEND950_H_
#define PYASC_SIM_KAPI_ASCEND950_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/vector.h"

#if __CCE_AICORE__ == 310

namespace AscendC {

// The template defaults of the CANN 9 flexible-scalar APIs (Subs, Divs, Ands, Ors): the element type
// is deduced from the operands; BinaryConfig::scalarTensorIndex picks the operand a LocalTensor
// single-element scalar stands for (that form is not simulated: pass the scalar by value).
struct BinaryDefaultType {};
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG{};

namespace sim_detail {
template <typename X>
struct local_elem {
    using type = void;
};
template <typename U>
struct local_elem<LocalTensor<U>> {
    using type = U;
};

// dst = f(tensor, scalar) or f(scalar, tensor) for count elements; the scalar converts to T first.
template <typename T, typename S, typename V, typename F>
inline void flex_scalar(const char *api, const LocalTensor<T> &dst, const S &src0, const V &src1, int32_t count,
                        double factor, const pyasc_sim::kapi::SrcLoc &loc, F f) {
    constexpr bool t0 = is_local_tensor<std::decay_t<S>>::value, t1 = is_local_tensor<std::decay_t<V>>::value;
    static_assert(t0 != t1, "the simulator takes Subs / Divs / Ands / Ors with one LocalTensor operand and one "
                            "scalar (the LocalTensor single-element scalar form is not simulated: pass "
                            "tensor.GetValue(idx))");
    if constexpr (t0) {
        static_assert(std::is_same<typename local_elem<std::decay_t<S>>::type, T>::value,
                      "the source LocalTensor has dst's element type");
        const T s = static_cast<T>(src1);
        unary_count(api, dst, src0, count, factor, loc, [s, f](T a) -> T { return f(a, s); });
    } else {
        static_assert(std::is_same<typename local_elem<std::decay_t<V>>::type, T>::value,
                      "the source LocalTensor has dst's element type");
        const T s = static_cast<T>(src0);
        unary_count(api, dst, src1, count, factor, loc, [s, f](T b) -> T { return f(s, b); });
    }
}
}  // namespace sim_detail

// ---- Neg(ISASI): dst = -src.  source: atlasascendc_api_07_00244 (9.0) --------------------------------
template <typename T>
inline void Neg(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Neg, T);
    sim_detail::unary_count("Neg", dst, src, count, 1.0, loc, [](T a) -> T {
        if constexpr (std::is_integral<T>::value) {
            return static_cast<T>(0u - static_cast<std::make_unsigned_t<T>>(a));  // two's complement wrap
        } else {
            return static_cast<T>(-static_cast<float>(a));
        }
    });
}

// ---- AbsSub(ISASI): dst = |src0 - src1|.  source: atlasascendc_api_07_00253 (9.0) --------------------
template <typename T>
inline void AbsSub(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                   const uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(AbsSub, T);
    sim_detail::binary_count("AbsSub", dst, src0, src1, count, 1.0, loc,
                             [](T a, T b) -> T { return sim_detail::sim_abs(static_cast<T>(a - b)); });
}

// ---- ExpSub(ISASI): dst = exp(src0 - src1), the difference and exp in float (a half source is widened
// first).  source: atlasascendc_api_07_00254 (9.0) -------------------------------------------------------
template <typename T, typename U>
inline void ExpSub(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                   const uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ExpSub, T);
    PYASC_SIM_DTYPE_CHECK(ExpSub, U);
    const int64_t n = sim_detail::check_count(count, "ExpSub", loc);
    sim_detail::check_operand(dst, "ExpSub", "dst", n, loc);
    sim_detail::check_operand(src0, "ExpSub", "src0", n, loc);
    sim_detail::check_operand(src1, "ExpSub", "src1", n, loc);
    T *d = dst.ptr();
    const U *a = src0.ptr();
    const U *b = src1.ptr();
    for (int64_t i = 0; i < n; ++i) {
        d[i] = static_cast<T>(sim_detail::exp_calc(static_cast<float>(a[i]) - static_cast<float>(b[i])));
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(n, std::max(sizeof(T), sizeof(U))),
                                                           pyasc_sim::cost::kVectorComplexFactor));
}

// ---- Subs / Divs / Ands / Ors: the scalar before or after the tensor (count form).
// sources: atlasascendc_api_07_00018 (Subs, 9.0) and the Divs / Ands / Ors pages of the same section ---
#define PYASC_SIM_950_FLEX(NAME, FACTOR, EXPR)                                                                     \
    template <typename T = BinaryDefaultType, bool isSetMask = true,                                               \
              const BinaryConfig &config = DEFAULT_BINARY_CONFIG, typename U, typename S, typename V>              \
    inline std::enable_if_t<sim_detail::is_local_tensor<U>::value> NAME(const U &dst, const S &src0, const V &src1, \
                                                                        const int32_t &count, PYASC_SIM_LOC) {     \
        using E = typename sim_detail::local_elem<U>::type;                                                        \
        static_assert(std::is_same<T, BinaryDefaultType>::value || std::is_same<T, E>::value,                     \
                      "AscendC::" #NAME ": the explicit T is dst's element type");                                 \
        PYASC_SIM_DTYPE_CHECK(NAME, E);                                                                            \
        sim_detail::flex_scalar(#NAME, dst, src0, src1, count, FACTOR, loc, [](E a, E b) -> E { return EXPR; });   \
    }
PYASC_SIM_950_FLEX(Subs, 1.0, static_cast<E>(a - b))
PYASC_SIM_950_FLEX(Divs, pyasc_sim::cost::kVectorComplexFactor, sim_detail::sim_div(a, b))
PYASC_SIM_950_FLEX(Ands, 1.0, static_cast<E>(a & b))
PYASC_SIM_950_FLEX(Ors, 1.0, static_cast<E>(a | b))
#undef PYASC_SIM_950_FLEX

// ---- Interleave: z = src0[0], src1[0], src0[1], src1[1], ... (2 * count elements); dst0 = z[0, count),
// dst1 = z[count, 2 * count).  count is even.  source: atlasascendc_api_07_00036 (9.0; its example:
// src0 1..512, src1 513..1024 -> dst0 1 513 2 ... 768, dst1 257 769 ... 1024) ---------------------------
namespace sim_detail {
inline int64_t even_count(int64_t count, const char *api, const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
    count = check_count(count, api, loc);
    if (count % 2 != 0 && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("invalid-argument", loc, "%s: %s = %lld must be even (the reference's constraint)", api,
                              what, static_cast<long long>(count));
    }
    return count;
}
}  // namespace sim_detail

template <typename T>
inline void Interleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, const int32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Interleave, T);
    const int64_t n = sim_detail::even_count(count, "Interleave", "count", loc);
    for (const LocalTensor<T> *t : {&dst0, &dst1}) sim_detail::check_operand(*t, "Interleave", "dst", n, loc);
    sim_detail::check_operand(src0, "Interleave", "src0", n, loc);
    sim_detail::check_operand(src1, "Interleave", "src1", n, loc);
    std::vector<T> z(static_cast<size_t>(2 * n));  // dst may alias a source: build the result first
    for (int64_t i = 0; i < n; ++i) {
        z[2 * i] = src0.ptr()[i];
        z[2 * i + 1] = src1.ptr()[i];
    }
    std::copy(z.begin(), z.begin() + n, dst0.ptr());
    std::copy(z.begin() + n, z.end(), dst1.ptr());
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(2 * sim_detail::repeats_of(n, sizeof(T)), 1.0));
}

// ---- DeInterleave: the inverse, dst0 = even elements, dst1 = odd elements of src0 ++ src1 (2 * count
// elements), or of src (srcCount elements, one input).  source: atlasascendc_api_07_00037 (9.0) --------
namespace sim_detail {
template <typename T>
inline void deinterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const T *z, int64_t half,
                         const pyasc_sim::kapi::SrcLoc &loc) {
    check_operand(dst0, "DeInterleave", "dst0", half, loc);
    check_operand(dst1, "DeInterleave", "dst1", half, loc);
    std::vector<T> e(static_cast<size_t>(half)), o(static_cast<size_t>(half));
    for (int64_t i = 0; i < half; ++i) {
        e[i] = z[2 * i];
        o[i] = z[2 * i + 1];
    }
    std::copy(e.begin(), e.end(), dst0.ptr());
    std::copy(o.begin(), o.end(), dst1.ptr());
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(2 * repeats_of(half, sizeof(T)), 1.0));
}
}  // namespace sim_detail

template <typename T>
inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                         const LocalTensor<T> &src1, const int32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(DeInterleave, T);
    const int64_t n = sim_detail::even_count(count, "DeInterleave", "count", loc);
    sim_detail::check_operand(src0, "DeInterleave", "src0", n, loc);
    sim_detail::check_operand(src1, "DeInterleave", "src1", n, loc);
    std::vector<T> z(src0.ptr(), src0.ptr() + n);
    z.insert(z.end(), src1.ptr(), src1.ptr() + n);
    sim_detail::deinterleave(dst0, dst1, z.data(), n, loc);
}
template <typename T>
inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src,
                         const int32_t srcCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(DeInterleave, T);
    const int64_t n = sim_detail::even_count(srcCount, "DeInterleave", "srcCount", loc);
    sim_detail::check_operand(src, "DeInterleave", "src", n, loc);
    std::vector<T> z(src.ptr(), src.ptr() + n);
    sim_detail::deinterleave(dst0, dst1, z.data(), n / 2, loc);
}

}  // namespace AscendC

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_ASCEND950_H_
