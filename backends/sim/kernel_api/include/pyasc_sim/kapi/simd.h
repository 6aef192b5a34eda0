// Ascend C on the CPU -- the fast paths of the vector instructions: element loops the compiler
// vectorises (restrict-qualified, contiguous) and hardware half <-> float conversions.
//
// Every fast path computes exactly what the general element loop computes, element by element
// (same operation, same rounding; kernels build with -ffp-contract=off): only the speed changes.
// Overlapping operands other than "dst is exactly a source" (in-place) take the general loop.
#ifndef PYASC_SIM_KAPI_SIMD_H_
#define PYASC_SIM_KAPI_SIMD_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PYASC_SIM_X86 1
#endif

#include "pyasc_sim/kapi/base.h"

namespace pyasc_sim {
namespace simd {

// True when byte ranges [p, p + n * sizeof(A)) and [q, q + m * sizeof(B)) overlap.
template <typename A, typename B>
inline bool overlap(const A *p, int64_t n, const B *q, int64_t m) {
    const auto a0 = reinterpret_cast<uintptr_t>(p), b0 = reinterpret_cast<uintptr_t>(q);
    const auto a1 = a0 + static_cast<uintptr_t>(n) * sizeof(A), b1 = b0 + static_cast<uintptr_t>(m) * sizeof(B);
    return a0 < b1 && b0 < a1;
}

#ifdef PYASC_SIM_X86
inline int x86_level() {  // 2: AVX-512F, 1: AVX2, 0: the baseline
    static const int level = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
    return level;
}
#endif

// Element types whose operations give the same bits at every vector width (IEEE float / double
// arithmetic, integers): map1 / map2 run them in an AVX-512 (else AVX2) clone of the loop where the
// CPU has it (the shipped kernels are built for the portable baseline). 16-bit float types stay on the
// baseline loop (their arithmetic rounds through float: no wider clone needed for them).
template <typename T>
constexpr bool kWideSimd = std::is_same<T, float>::value || std::is_same<T, double>::value || std::is_integral<T>::value;

// The element loops, once per instruction set: map1_r etc. for the build's baseline, and
// clones for AVX-512F and AVX2 (x86) that the dispatchers below pick at run time.
#define PYASC_SIM_MAP_LOOPS(SUFFIX, ATTR)                                                                    \
    template <typename D, typename A, typename F>                                                          \
    ATTR inline void map1_r##SUFFIX(D *__restrict__ d, const A *__restrict__ a, int64_t n, F f) {          \
        for (int64_t i = 0; i < n; ++i) d[i] = f(a[i]);                                                    \
    }                                                                                                      \
    template <typename D, typename F>                                                                      \
    ATTR inline void map1_inplace##SUFFIX(D *__restrict__ d, int64_t n, F f) {                             \
        for (int64_t i = 0; i < n; ++i) d[i] = f(d[i]);                                                    \
    }                                                                                                      \
    template <typename D, typename A, typename B, typename F>                                              \
    ATTR inline void map2_r##SUFFIX(D *__restrict__ d, const A *__restrict__ a, const B *__restrict__ b,   \
                                    int64_t n, F f) {                                                      \
        for (int64_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);                                              \
    }                                                                                                      \
    template <typename D, typename B, typename F>                                                          \
    ATTR inline void map2_inplace_a##SUFFIX(D *__restrict__ d, const B *__restrict__ b, int64_t n, F f) {  \
        for (int64_t i = 0; i < n; ++i) d[i] = f(d[i], b[i]);                                              \
    }                                                                                                      \
    template <typename D, typename A, typename F>                                                          \
    ATTR inline void map2_inplace_b##SUFFIX(D *__restrict__ d, const A *__restrict__ a, int64_t n, F f) {  \
        for (int64_t i = 0; i < n; ++i) d[i] = f(a[i], d[i]);                                              \
    }
PYASC_SIM_MAP_LOOPS(, )
#ifdef PYASC_SIM_X86
PYASC_SIM_MAP_LOOPS(_avx512, __attribute__((target("avx512f"))))
PYASC_SIM_MAP_LOOPS(_avx2, __attribute__((target("avx2"))))
#endif
#undef PYASC_SIM_MAP_LOOPS
template <typename D, typename F>
inline void map2_inplace_ab(D *__restrict__ d, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(d[i], d[i]);
}

// d[i] = f(a[i]) for i < n: vectorised unless the operands partly overlap.
template <typename D, typename A, typename F>
inline void map1(D *d, const A *a, int64_t n, F f) {
    if (static_cast<const void *>(d) == static_cast<const void *>(a) && sizeof(D) == sizeof(A)) {
        if constexpr (std::is_same<D, A>::value) {
#ifdef PYASC_SIM_X86
            if constexpr (kWideSimd<D>) {
                const int level = x86_level();
                if (level == 2) return map1_inplace_avx512(d, n, f);
                if (level == 1) return map1_inplace_avx2(d, n, f);
            }
#endif
            map1_inplace(d, n, f);
            return;
        }
    } else if (!overlap(d, n, a, n)) {
#ifdef PYASC_SIM_X86
        if constexpr (kWideSimd<D> && kWideSimd<A>) {
            const int level = x86_level();
            if (level == 2) return map1_r_avx512(d, a, n, f);
            if (level == 1) return map1_r_avx2(d, a, n, f);
        }
#endif
        map1_r(d, a, n, f);
        return;
    }
    for (int64_t i = 0; i < n; ++i) d[i] = f(a[i]);
}

// d[i] = f(a[i], b[i]) for i < n: vectorised unless dst partly overlaps a source.
template <typename T, typename F>
inline void map2(T *d, const T *a, const T *b, int64_t n, F f) {
    const bool da = d == a, db = d == b;
#ifdef PYASC_SIM_X86
    if constexpr (kWideSimd<T>) {
        const int level = x86_level();
        if (level == 2) {
            if (da && db) return map1_inplace_avx512(d, n, [f](T x) { return f(x, x); });
            if (da && !overlap(d, n, b, n)) return map2_inplace_a_avx512(d, b, n, f);
            if (db && !overlap(d, n, a, n)) return map2_inplace_b_avx512(d, a, n, f);
            if (!da && !db && !overlap(d, n, a, n) && !overlap(d, n, b, n)) return map2_r_avx512(d, a, b, n, f);
        } else if (level == 1) {
            if (da && db) return map1_inplace_avx2(d, n, [f](T x) { return f(x, x); });
            if (da && !overlap(d, n, b, n)) return map2_inplace_a_avx2(d, b, n, f);
            if (db && !overlap(d, n, a, n)) return map2_inplace_b_avx2(d, a, n, f);
            if (!da && !db && !overlap(d, n, a, n) && !overlap(d, n, b, n)) return map2_r_avx2(d, a, b, n, f);
        }
    }
#endif
    if (da && db) {
        map2_inplace_ab(d, n, f);
    } else if (da && !overlap(d, n, b, n)) {
        map2_inplace_a(d, b, n, f);
    } else if (db && !overlap(d, n, a, n)) {
        map2_inplace_b(d, a, n, f);
    } else if (!da && !db && !overlap(d, n, a, n) && !overlap(d, n, b, n)) {
        map2_r(d, a, b, n, f);
    } else {
        for (int64_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
    }
}

// ---- half <-> float ------------------------------------------------------------------------------
// Round to nearest even (the software conversion of _Float16 and F16C's imm8 = 0 agree bit for bit,
// NaNs included: tests/test_sim_fastpath.py checks every half and the float rounding boundaries).
// Kernels built for the host ISA (-march=native) use F16C inline; portable builds check the CPU once
// and call an F16C (AVX-512 where present) function compiled for it, else the software loop.
inline void f16_to_f32_soft(float *__restrict__ d, const half *__restrict__ s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
inline void f32_to_f16_soft(half *__restrict__ d, const float *__restrict__ s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<half>(s[i]);
}

#ifdef PYASC_SIM_X86
__attribute__((target("avx,f16c"))) inline void f16_to_f32_f16c(float *__restrict__ d, const half *__restrict__ s,
                                                                  int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i))));
    }
    for (; i < n; ++i) {
        uint16_t b;
        std::memcpy(&b, s + i, 2);
        d[i] = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(b)));
    }
}
__attribute__((target("avx,f16c"))) inline void f32_to_f16_f16c(half *__restrict__ d, const float *__restrict__ s,
                                                                  int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(d + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    for (; i < n; ++i) {
        const uint16_t b = static_cast<uint16_t>(
            _mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(s[i]), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 0));
        std::memcpy(d + i, &b, 2);
    }
}
// The same conversions 16 lanes at a time (vcvtps2ph / vcvtph2ps zmm: the same rounding and NaN
// handling as the 8-lane F16C forms), the tails through F16C. Full-mask maskz forms: see exp_f32_avx512.
__attribute__((target("avx512f,f16c"))) inline void f16_to_f32_avx512(float *__restrict__ d,
                                                                       const half *__restrict__ s, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        _mm512_storeu_ps(d + i, _mm512_maskz_cvtph_ps(0xFFFF, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + i))));
    }
    f16_to_f32_f16c(d + i, s + i, n - i);
}
__attribute__((target("avx512f,f16c"))) inline void f32_to_f16_avx512(half *__restrict__ d,
                                                                       const float *__restrict__ s, int64_t n) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + i),
                            _mm512_maskz_cvtps_ph(0xFFFF, _mm512_loadu_ps(s + i),
                                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    f32_to_f16_f16c(d + i, s + i, n - i);
}
inline bool has_f16c() {
#ifdef __F16C__
    return true;
#else
    static const bool yes = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
    return yes;
#endif
}
#endif

// d[i] = float(s[i]) (exact).
inline void f16_to_f32(float *d, const half *s, int64_t n) {
#ifdef PYASC_SIM_X86
    if (has_f16c() && !overlap(d, n, s, n)) {
        return x86_level() == 2 ? f16_to_f32_avx512(d, s, n) : f16_to_f32_f16c(d, s, n);
    }
#endif
    if (!overlap(d, n, s, n)) return f16_to_f32_soft(d, s, n);
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
// d[i] = half(s[i]), rounded to nearest even.
inline void f32_to_f16(half *d, const float *s, int64_t n) {
#ifdef PYASC_SIM_X86
    if (has_f16c() && !overlap(d, n, s, n)) {
        return x86_level() == 2 ? f32_to_f16_avx512(d, s, n) : f32_to_f16_f16c(d, s, n);
    }
#endif
    if (!overlap(d, n, s, n)) return f32_to_f16_soft(d, s, n);
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<half>(s[i]);
}

// ---- exp(float) ----------------------------------------------------------------------------------
// e^x for a float x, in float arithmetic with fused multiply-adds (one rounding each, so every
// build -- scalar, AVX2 + FMA, AVX-512, or the C library's fmaf where the CPU has no FMA -- gives the
// same bits): x = k ln2 + r with k = round(x / ln2) and |r| <= ln2 / 2 (+ one rounding), r = (x -
// k ln2_hi) - k ln2_lo with ln2_hi = float(ln2) (the first fused step is exact: k ln2_hi and x are
// multiples of 2^-25 near each other and |x - k ln2_hi| < 2^-1), e^r = 1 + (r + r^2 q(r)) with q a
// degree-4 near-minimax polynomial of (e^r - 1 - r) / r^2 on [-0.348, 0.348] (float coefficients;
// e^r's relative truncation < 2^-27.9), scaled by 2^k in two exact steps (2^(k/2) twice: no overflow
// of the scale at k = 128, one rounding for subnormal results). Error bound: < 1.03 ulp of the exact
// e^x (max 1.009 ulp over every float in [-110, 90] against double exp, measured by a scratch sweep;
// tests/test_sim_fastpath.py checks a dense sample); the hardware documents no tighter bound for
// Exp, and torch's float32 tolerance is ~11 ulp. Overflow gives +Inf (x > 88.72...), underflow
// rounds to the subnormals or +0, NaN stays NaN (its quiet payload). Branch-free.
// -ln2 in two parts (negated constants, not a negated k: a NaN keeps its sign through the fused steps)
constexpr float kExpInvLn2 = 0x1.715476p0f, kExpNegLn2Hi = -0x1.62e430p-1f, kExpNegLn2Lo = 0x1.05c610p-29f;
constexpr float kExpQ0 = 0x1.fffffcp-2f, kExpQ1 = 0x1.555490p-3f, kExpQ2 = 0x1.5558fcp-5f;
constexpr float kExpQ3 = 0x1.123b94p-7f, kExpQ4 = 0x1.6a2164p-10f;
__attribute__((always_inline)) inline float exp_f32_one(float x) {
    float xc = x < -104.0f ? -104.0f : x;  // e^-104 < half the smallest subnormal; NaN passes
    xc = xc > 89.0f ? 89.0f : xc;          // e^89 > FLT_MAX: rounds to +Inf
    const float t = xc * kExpInvLn2 + 0x1.8p23f;  // k = round(x / ln2) in the low mantissa bits
    const float kf = t - 0x1.8p23f;
    const float r = __builtin_fmaf(kf, kExpNegLn2Lo, __builtin_fmaf(kf, kExpNegLn2Hi, xc));
    float q = __builtin_fmaf(kExpQ4, r, kExpQ3);
    q = __builtin_fmaf(q, r, kExpQ2);
    q = __builtin_fmaf(q, r, kExpQ1);
    q = __builtin_fmaf(q, r, kExpQ0);
    const float p = 1.0f + __builtin_fmaf(r * r, q, r);
    int32_t ti;
    __builtin_memcpy(&ti, &t, 4);
    const int32_t k = ti - 0x4B400000;  // the rounded integer (NaN: any value; p is NaN)
    const int32_t k1 = k >> 1, k2 = k - k1;
    const int32_t b1 = (k1 + 127) << 23, b2 = (k2 + 127) << 23;  // 2^k1, 2^k2: k in [-150, 128]
    float s1, s2;
    __builtin_memcpy(&s1, &b1, 4);
    __builtin_memcpy(&s2, &b2, 4);
    return (p * s1) * s2;
}
__attribute__((always_inline)) inline void exp_f32_loop(float *__restrict__ d, const float *__restrict__ s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = exp_f32_one(s[i]);
}
#ifdef PYASC_SIM_X86
inline bool has_fma() {
    static const bool yes = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
    return yes;
}
// exp_f32_one's operations in the same order, 16 lanes at a time, in 14 vector operations per 16
// elements, with the same bits for every float (checked over every float:
// backends/sim/tests/test_simd_exact.cpp):
// * the clamps are vmaxps / vminps with x second (an x that is NaN passes, as in the scalar
//   comparisons): a third fewer instructions than the compiler's masked compares and blends;
// * the scaling by 2^k is one vscalefps (p * 2^kf rounded once): (p * 2^k1) * 2^k2 is exact in its
//   first step (|k1| <= 75, p in [0.7, 1.5)), so both round the exact p * 2^k once -- the same bits
//   for normal, subnormal, overflowing and NaN results;
// * k = round(x / ln2) is one vrndscaleps of the rounded product (the scalar code's add and subtract
//   of 1.5 * 2^23 round it to nearest even too, |x / ln2| < 2^22);
// * the fused multiply-adds are the scalar code's (fmaf: one rounding, as vfmadd).
// (A one-instruction clamp, vrangeps copysign(min(|x|, 104), x), is not used: it turns a quiet NaN
// into 104.)
// exp of N registers side by side, step by step: each step is independent across the registers, so
// the core overlaps their dependency chains (the scheduler does not reach far enough ahead to
// overlap the next iteration's). Every N does the same operations per lane in the same order: the
// same bits (backends/sim/tests/test_simd_exact.cpp).
template <int N>
__attribute__((target("avx512f,fma"), always_inline)) inline void exp_ps_avx512_n(__m512 *v) {
    const __m512 lo = _mm512_set1_ps(-104.0f), hi = _mm512_set1_ps(89.0f);
    const __m512 inv_ln2 = _mm512_set1_ps(kExpInvLn2);
    const __m512 neg_ln2_hi = _mm512_set1_ps(kExpNegLn2Hi), neg_ln2_lo = _mm512_set1_ps(kExpNegLn2Lo);
    const __m512 q4 = _mm512_set1_ps(kExpQ4), q3 = _mm512_set1_ps(kExpQ3), q2 = _mm512_set1_ps(kExpQ2);
    const __m512 q1 = _mm512_set1_ps(kExpQ1), q0 = _mm512_set1_ps(kExpQ0), one = _mm512_set1_ps(1.0f);
    const __mmask16 all = 0xFFFF;  // full-mask maskz forms: GCC 12's unmasked ones read an "undefined" register
                                   // that -Wmaybe-uninitialized reports
    __m512 kf[N], r[N], q[N];
    for (int u = 0; u < N; ++u) v[u] = _mm512_maskz_min_ps(all, hi, _mm512_maskz_max_ps(all, lo, v[u]));
    // kf = rint(xc / ln2 rounded): t - shift of the scalar code is exactly round-to-nearest-even of the
    // product (|product| < 2^22), which vrndscaleps computes in one instruction (checked over every float)
    for (int u = 0; u < N; ++u) {
        kf[u] = _mm512_maskz_roundscale_ps(all, _mm512_mul_ps(v[u], inv_ln2), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    for (int u = 0; u < N; ++u) r[u] = _mm512_fmadd_ps(kf[u], neg_ln2_lo, _mm512_fmadd_ps(kf[u], neg_ln2_hi, v[u]));
    for (int u = 0; u < N; ++u) q[u] = _mm512_fmadd_ps(q4, r[u], q3);
    for (int u = 0; u < N; ++u) q[u] = _mm512_fmadd_ps(q[u], r[u], q2);
    for (int u = 0; u < N; ++u) q[u] = _mm512_fmadd_ps(q[u], r[u], q1);
    for (int u = 0; u < N; ++u) q[u] = _mm512_fmadd_ps(q[u], r[u], q0);
    for (int u = 0; u < N; ++u) q[u] = _mm512_add_ps(one, _mm512_fmadd_ps(_mm512_mul_ps(r[u], r[u]), q[u], r[u]));
    for (int u = 0; u < N; ++u) v[u] = _mm512_maskz_scalef_ps(all, q[u], kf[u]);  // p * 2^k, one rounding
}
constexpr int kExpLanes = 4;
__attribute__((target("avx512f,fma"), always_inline)) inline __m512 exp_ps_avx512(const __m512 x) {
    __m512 v = x;
    exp_ps_avx512_n<1>(&v);
    return v;
}
__attribute__((target("avx512f,fma"), always_inline)) inline void exp_ps_avx512_x4(__m512 *v) {
    exp_ps_avx512_n<kExpLanes>(v);
}
__attribute__((target("avx512f,fma"))) inline void exp_f32_avx512(float *__restrict__ d, const float *__restrict__ s,
                                                               int64_t n) {
    int64_t i = 0;
    for (; i + 16 * kExpLanes <= n; i += 16 * kExpLanes) {
        __m512 v[kExpLanes];
        for (int u = 0; u < kExpLanes; ++u) v[u] = _mm512_loadu_ps(s + i + 16 * u);
        exp_ps_avx512_x4(v);
        for (int u = 0; u < kExpLanes; ++u) _mm512_storeu_ps(d + i + 16 * u, v[u]);
    }
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, exp_ps_avx512(_mm512_loadu_ps(s + i)));
    for (; i < n; ++i) d[i] = exp_f32_one(s[i]);
}
// The same in place (each 64 elements are read, then overwritten): no staging copy.
__attribute__((target("avx512f,fma"))) inline void exp_f32_avx512_inplace(float *d, int64_t n) {
    int64_t i = 0;
    for (; i + 16 * kExpLanes <= n; i += 16 * kExpLanes) {
        __m512 v[kExpLanes];
        for (int u = 0; u < kExpLanes; ++u) v[u] = _mm512_loadu_ps(d + i + 16 * u);
        exp_ps_avx512_x4(v);
        for (int u = 0; u < kExpLanes; ++u) _mm512_storeu_ps(d + i + 16 * u, v[u]);
    }
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, exp_ps_avx512(_mm512_loadu_ps(d + i)));
    for (; i < n; ++i) d[i] = exp_f32_one(d[i]);
}
// exp_f32_one's operations in the same order, 8 lanes at a time with AVX2 + FMA (no AVX-512: no
// vscalefps, no vrndscaleps), N registers side by side as exp_ps_avx512_n, with the same bits for
// every float (backends/sim/tests/test_simd_exact.cpp, which runs this loop wherever the CPU has AVX2
// and FMA):
// * the clamps are vmaxps / vminps with x second, as exp_ps_avx512_n;
// * k = round(x / ln2) is one vroundps of the rounded product (the scalar add and subtract of
//   1.5 * 2^23 round it to nearest even, |x / ln2| < 2^22), converted to an integer exactly (vcvtps2dq);
// * the scale is the scalar code's (p * 2^k1) * 2^k2 with k1 = k >> 1, k2 = k - k1, the powers of two
//   built from k's bits as there. A NaN x gives a NaN p (its quiet payload) and scales whose low 23
//   bits are zero (never a NaN), so the NaN passes unchanged through both products, as in the scalar
//   code, whatever k the conversion of the NaN gave.
// The compiler's vectorisation of exp_f32_one (its blends for the clamps and the 2^k bits) takes about
// twice the instructions per element.
template <int N>
__attribute__((target("avx2,fma"), always_inline)) inline void exp_ps_avx2_n(__m256 *v) {
    const __m256 lo = _mm256_set1_ps(-104.0f), hi = _mm256_set1_ps(89.0f);
    const __m256 inv_ln2 = _mm256_set1_ps(kExpInvLn2);
    const __m256 neg_ln2_hi = _mm256_set1_ps(kExpNegLn2Hi), neg_ln2_lo = _mm256_set1_ps(kExpNegLn2Lo);
    const __m256 q4 = _mm256_set1_ps(kExpQ4), q3 = _mm256_set1_ps(kExpQ3), q2 = _mm256_set1_ps(kExpQ2);
    const __m256 q1 = _mm256_set1_ps(kExpQ1), q0 = _mm256_set1_ps(kExpQ0), one = _mm256_set1_ps(1.0f);
    const __m256i bias = _mm256_set1_epi32(127);
    __m256 kf[N], r[N], q[N];
    for (int u = 0; u < N; ++u) v[u] = _mm256_min_ps(hi, _mm256_max_ps(lo, v[u]));
    for (int u = 0; u < N; ++u) {
        kf[u] = _mm256_round_ps(_mm256_mul_ps(v[u], inv_ln2), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    for (int u = 0; u < N; ++u) r[u] = _mm256_fmadd_ps(kf[u], neg_ln2_lo, _mm256_fmadd_ps(kf[u], neg_ln2_hi, v[u]));
    for (int u = 0; u < N; ++u) q[u] = _mm256_fmadd_ps(q4, r[u], q3);
    for (int u = 0; u < N; ++u) q[u] = _mm256_fmadd_ps(q[u], r[u], q2);
    for (int u = 0; u < N; ++u) q[u] = _mm256_fmadd_ps(q[u], r[u], q1);
    for (int u = 0; u < N; ++u) q[u] = _mm256_fmadd_ps(q[u], r[u], q0);
    for (int u = 0; u < N; ++u) q[u] = _mm256_add_ps(one, _mm256_fmadd_ps(_mm256_mul_ps(r[u], r[u]), q[u], r[u]));
    for (int u = 0; u < N; ++u) {
        const __m256i k = _mm256_cvtps_epi32(kf[u]);
        const __m256i k1 = _mm256_srai_epi32(k, 1), k2 = _mm256_sub_epi32(k, k1);
        const __m256 s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k1, bias), 23));
        const __m256 s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k2, bias), 23));
        v[u] = _mm256_mul_ps(_mm256_mul_ps(q[u], s1), s2);
    }
}
// 32 elements a step (four registers), then 8, then the scalar code; d == s allowed (each step reads
// its elements before it writes them): the in-place form needs no staging copy.
__attribute__((target("avx2,fma"))) inline void exp_f32_avx2_any(float *d, const float *s, int64_t n) {
    int64_t i = 0;
    for (; i + 8 * kExpLanes <= n; i += 8 * kExpLanes) {
        __m256 v[kExpLanes];
        for (int u = 0; u < kExpLanes; ++u) v[u] = _mm256_loadu_ps(s + i + 8 * u);
        exp_ps_avx2_n<kExpLanes>(v);
        for (int u = 0; u < kExpLanes; ++u) _mm256_storeu_ps(d + i + 8 * u, v[u]);
    }
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(s + i);
        exp_ps_avx2_n<1>(&v);
        _mm256_storeu_ps(d + i, v);
    }
    for (; i < n; ++i) d[i] = exp_f32_one(s[i]);
}
inline void exp_f32_avx2(float *__restrict__ d, const float *__restrict__ s, int64_t n) { exp_f32_avx2_any(d, s, n); }
inline void exp_f32_avx2_inplace(float *d, int64_t n) { exp_f32_avx2_any(d, d, n); }
#endif
inline void exp_f32_restrict(float *__restrict__ d, const float *__restrict__ s, int64_t n) {
#ifdef PYASC_SIM_X86
    const int level = x86_level();
    if (level == 2) return exp_f32_avx512(d, s, n);
    if (level == 1 && has_fma()) return exp_f32_avx2(d, s, n);
#endif
    exp_f32_loop(d, s, n);
}
// d[i] = exp(s[i]) (in place allowed).
inline void exp_f32(float *d, const float *s, int64_t n) {
    if (d == s || !overlap(d, n, s, n)) {
        // in place: each element is read before it is written, in chunks through a small buffer
        if (d == s) {
#ifdef PYASC_SIM_X86
            const int level = x86_level();
            if (level == 2) return exp_f32_avx512_inplace(d, n);
            if (level == 1 && has_fma()) return exp_f32_avx2_inplace(d, n);
#endif
            float tmp[1024];
            for (int64_t i = 0; i < n; i += 1024) {
                const int64_t m = n - i < 1024 ? n - i : 1024;
                exp_f32_restrict(tmp, s + i, m);
                std::memcpy(d + i, tmp, static_cast<size_t>(m) * sizeof(float));
            }
            return;
        }
        return exp_f32_restrict(d, s, n);
    }
    for (int64_t i = 0; i < n; ++i) d[i] = exp_f32_one(s[i]);
}

// ---- ln(float) -----------------------------------------------------------------------------------
// ln x for a float x, in float arithmetic: x = 2^k m with m in [sqrt(2)/2, sqrt(2)) (subnormals
// scaled by 2^23 first), f = m - 1, s = f / (2 + f), and ln(1 + f) = 2 atanh(s) = f - s (f - R) with
// R = 2 atanh(s) / s - 2 = z (2/3 + z (2/5 + z (2/7 + z (2/9 + z 2/11)))), z = s^2 (|s| < 0.1716:
// truncation below 2^-33 relative), evaluated as f - (f^2/2 - s (f^2/2 + R)) and k ln2 added in two
// parts (k * 0x1.62e4p-1 is exact). Error bound: < 1 ulp of the exact ln x (max 0.835 ulp over every
// positive float against double log: backends/sim/tests/test_simd_exact.cpp --all); glibc's logf,
// used before, is within 0.82 ulp, and the hardware documents no tighter bound for Ln. Special
// values as glibc's logf: ln(+-0) = -Inf, ln(+Inf) = +Inf, a NaN stays NaN (quieted, its payload),
// x < 0 gives the default NaN (0xFFC00000). Branch-free: the compiler vectorises it, and the
// scalar and AVX-512 loops give the same bits (no FMA: -ffp-contract=off).
__attribute__((always_inline)) inline float log_f32_one(float x) {
    uint32_t ix;
    __builtin_memcpy(&ix, &x, 4);
    const bool sub = ix < 0x00800000u;  // +0 and the positive subnormals: scaled into the normals
    const float xs = sub ? x * 0x1p23f : x;
    uint32_t iy;
    __builtin_memcpy(&iy, &xs, 4);
    iy += 0x3F800000u - 0x3F3504F3u;  // m >= sqrt(2)/2 moves to the next binade: k + 1
    const int32_t k = static_cast<int32_t>(iy >> 23) - 0x7F - (sub ? 23 : 0);
    iy = (iy & 0x007FFFFFu) + 0x3F3504F3u;
    float m;
    __builtin_memcpy(&m, &iy, 4);
    const float f = m - 1.0f;
    const float s = f / (2.0f + f);
    const float z = s * s;
    float q = 2.0f / 11.0f;
    q = q * z + 2.0f / 9.0f;
    q = q * z + 2.0f / 7.0f;
    q = q * z + 2.0f / 5.0f;
    q = q * z + 2.0f / 3.0f;
    const float R = z * q;
    const float hfsq = 0.5f * f * f;
    const float dk = static_cast<float>(k);
    float r = dk * 0x1.62e4p-1f - ((hfsq - (s * (hfsq + R) + dk * 0x1.7f7d1cp-20f)) - f);
    const uint32_t a = ix & 0x7FFFFFFFu;
    const uint32_t dnan_bits = 0xFFC00000u, ninf_bits = 0xFF800000u;
    float dnan, ninf;
    __builtin_memcpy(&dnan, &dnan_bits, 4);
    __builtin_memcpy(&ninf, &ninf_bits, 4);
    r = ix > 0x7F800000u ? (a > 0x7F800000u ? x + x : dnan) : r;  // a NaN (quieted), or x < 0
    r = a == 0 ? ninf : r;
    r = ix == 0x7F800000u ? x : r;
    return r;
}
__attribute__((always_inline)) inline void log_f32_loop(float *__restrict__ d, const float *__restrict__ s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = log_f32_one(s[i]);
}
#ifdef PYASC_SIM_X86
// log_f32_one's operations in the same order, 16 lanes at a time (the same bits: checked over every
// float by backends/sim/tests/test_simd_exact.cpp).
__attribute__((target("avx512f"))) inline void log_f32_avx512(float *__restrict__ d, const float *__restrict__ s,
                                                               int64_t n) {
    const __mmask16 all = 0xFFFF;  // full-mask maskz forms: see exp_f32_avx512
    const __m512i min_normal = _mm512_set1_epi32(0x00800000), shift = _mm512_set1_epi32(0x3F800000 - 0x3F3504F3);
    const __m512i mant = _mm512_set1_epi32(0x007FFFFF), sqrt_half = _mm512_set1_epi32(0x3F3504F3);
    const __m512i bias = _mm512_set1_epi32(0x7F), sub_k = _mm512_set1_epi32(23), abs_mask = _mm512_set1_epi32(0x7FFFFFFF);
    const __m512i inf_bits = _mm512_set1_epi32(0x7F800000), zero_i = _mm512_setzero_si512();
    const __m512 two23 = _mm512_set1_ps(0x1p23f), one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f);
    const __m512 c11 = _mm512_set1_ps(2.0f / 11.0f), c9 = _mm512_set1_ps(2.0f / 9.0f), c7 = _mm512_set1_ps(2.0f / 7.0f);
    const __m512 c5 = _mm512_set1_ps(2.0f / 5.0f), c3 = _mm512_set1_ps(2.0f / 3.0f), half_ = _mm512_set1_ps(0.5f);
    const __m512 ln2_hi = _mm512_set1_ps(0x1.62e4p-1f), ln2_lo = _mm512_set1_ps(0x1.7f7d1cp-20f);
    const __m512 dnan = _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(0xFFC00000u)));
    const __m512 ninf = _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(0xFF800000u)));
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 x = _mm512_loadu_ps(s + i);
        const __m512i ix = _mm512_castps_si512(x);
        const __mmask16 sub = _mm512_cmplt_epu32_mask(ix, min_normal);
        const __m512 xs = _mm512_mask_mul_ps(x, sub, x, two23);
        __m512i iy = _mm512_add_epi32(_mm512_castps_si512(xs), shift);
        __m512i k = _mm512_sub_epi32(_mm512_maskz_srli_epi32(all, iy, 23), bias);
        k = _mm512_mask_sub_epi32(k, sub, k, sub_k);
        iy = _mm512_add_epi32(_mm512_and_si512(iy, mant), sqrt_half);
        const __m512 f = _mm512_sub_ps(_mm512_castsi512_ps(iy), one);
        const __m512 sv = _mm512_div_ps(f, _mm512_add_ps(two, f));
        const __m512 z = _mm512_mul_ps(sv, sv);
        __m512 q = _mm512_add_ps(_mm512_mul_ps(c11, z), c9);
        q = _mm512_add_ps(_mm512_mul_ps(q, z), c7);
        q = _mm512_add_ps(_mm512_mul_ps(q, z), c5);
        q = _mm512_add_ps(_mm512_mul_ps(q, z), c3);
        const __m512 R = _mm512_mul_ps(z, q);
        const __m512 hfsq = _mm512_mul_ps(_mm512_mul_ps(half_, f), f);
        const __m512 dk = _mm512_maskz_cvtepi32_ps(all, k);
        const __m512 inner = _mm512_add_ps(_mm512_mul_ps(sv, _mm512_add_ps(hfsq, R)), _mm512_mul_ps(dk, ln2_lo));
        __m512 r = _mm512_sub_ps(_mm512_mul_ps(dk, ln2_hi), _mm512_sub_ps(_mm512_sub_ps(hfsq, inner), f));
        const __m512i a = _mm512_and_si512(ix, abs_mask);
        const __mmask16 bad = _mm512_cmpgt_epu32_mask(ix, inf_bits);
        const __mmask16 nan = _mm512_cmpgt_epu32_mask(a, inf_bits);
        r = _mm512_mask_blend_ps(bad, r, _mm512_mask_blend_ps(nan, dnan, _mm512_add_ps(x, x)));
        r = _mm512_mask_blend_ps(_mm512_cmpeq_epi32_mask(a, zero_i), r, ninf);
        r = _mm512_mask_blend_ps(_mm512_cmpeq_epi32_mask(ix, inf_bits), r, x);
        _mm512_storeu_ps(d + i, r);
    }
    for (; i < n; ++i) d[i] = log_f32_one(s[i]);
}
#endif
// d[i] = ln(s[i]) (in place allowed: each element is read before it is written).
inline void log_f32(float *d, const float *s, int64_t n) {
    if (d != s && overlap(d, n, s, n)) {
        for (int64_t i = 0; i < n; ++i) d[i] = log_f32_one(s[i]);
        return;
    }
#ifdef PYASC_SIM_X86
    if (x86_level() == 2) {
        if (d != s) return log_f32_avx512(d, s, n);
        float tmp[1024];
        for (int64_t i = 0; i < n; i += 1024) {
            const int64_t m = n - i < 1024 ? n - i : 1024;
            log_f32_avx512(tmp, s + i, m);
            std::memcpy(d + i, tmp, static_cast<size_t>(m) * sizeof(float));
        }
        return;
    }
#endif
    if (d != s) return log_f32_loop(d, s, n);
    for (int64_t i = 0; i < n; ++i) d[i] = log_f32_one(s[i]);
}

// ---- a * b + c, rounded once (the three-operand forms MulAddDst / FusedMulAdd / FusedMulAddRelu) ----
// The definition (kapi/vector_more.h fma_round): float(double(a) * double(b) + double(c)) -- the
// product of two floats is exact in double, the sum is rounded once to double and that to float;
// with relu, r > 0 ? r : +0 (a NaN or -0 result gives +0). NaNs propagate in the written order: the
// product is a's NaN if a is one, else b's, the sum the product's NaN if it is one (a NaN operand or
// the default NaN of 0 * inf), else c's (each quieted; the payload's low bits dropped by the narrowing).
// (Plain `x * y` leaves that to the compiler, which may swap the operands of a product or sum of two
// NaNs: the operand that would lose is replaced by the NaN that wins, so the order no longer matters.)
// (The product being exact, a contracted fused multiply-add gives the same bits too.)
// The vector loops do the same operations per lane in the same order: vcvtps2pd (exact), vmulpd
// (exact), vaddpd (one rounding), vcvtpd2ps (one rounding, the current rounding mode as cvtsd2ss);
// 16 lanes whose results hold a NaN are computed again with the NaN selections (an unordered compare
// and a blend each: without a NaN anywhere they change nothing); the relu is a compare greater-than
// (ordered) and a zeroing. The same bits as the scalar code for every input, NaNs, infinities and
// subnormals included (backends/sim/tests/test_simd_exact.cpp). Operands may be d itself (each
// element is read before it is written) but not partly overlap it: the callers check. Speed (round
// 23, one core, 6144-float operands in L1/L2): ~0.26-0.33 ns per element against ~0.36-0.5 for the
// compiler's loop of the scalar code -- the double conversions bound it; a float Mul then Add over
// the same operands takes ~0.12-0.2.
__attribute__((always_inline)) inline double fma3_f64_one(double x, double y, double z) {
    y = x != x ? x : y;
    const double p = x * y;
    z = p != p ? p : z;
    return p + z;
}
__attribute__((always_inline)) inline float fma3_f32_one(float a, float b, float c, bool relu) {
    const float r = static_cast<float>(fma3_f64_one(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c)));
    return relu ? (r > 0.0f ? r : 0.0f) : r;
}
#ifdef PYASC_SIM_X86
// 8 lanes with the NaN selections (any input).
__attribute__((target("avx512f"), always_inline)) inline __m256 fma3_ps_avx512_nan(const float *a, const float *b,
                                                                                  const float *c) {
    const __mmask8 all = 0xFF;  // full-mask maskz forms: see exp_f32_avx512
    const __m512d x = _mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(a));
    const __m512d y = _mm512_mask_mov_pd(_mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(b)), _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), x);
    const __m512d p = _mm512_mul_pd(x, y);
    const __m512d z = _mm512_mask_mov_pd(_mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(c)), _mm512_cmp_pd_mask(p, p, _CMP_UNORD_Q), p);
    return _mm512_maskz_cvtpd_ps(all, _mm512_add_pd(p, z));
}
// 8 lanes without them: the same bits when no lane's result is a NaN (then no operand, product or sum
// was one: a NaN propagates), which the caller checks.
__attribute__((target("avx512f"), always_inline)) inline __m256 fma3_ps_avx512_plain(const float *a, const float *b,
                                                                                    const float *c) {
    const __mmask8 all = 0xFF;
    const __m512d p = _mm512_mul_pd(_mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(a)), _mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(b)));
    return _mm512_maskz_cvtpd_ps(all, _mm512_add_pd(p, _mm512_maskz_cvtps_pd(all, _mm256_loadu_ps(c))));
}
__attribute__((target("avx512f"), always_inline)) inline __m512 join_ps(__m256 lo, __m256 hi) {
    return _mm512_castpd_ps(_mm512_maskz_insertf64x4(0xFF, _mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}
template <bool kRelu>
__attribute__((target("avx512f"))) inline void fma3_f32_avx512_t(float *d, const float *a, const float *b,
                                                                   const float *c, int64_t n) {
    const __m512 zero = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {  // 8 floats per 512-bit register of doubles, two per step
        __m512 r = join_ps(fma3_ps_avx512_plain(a + i, b + i, c + i), fma3_ps_avx512_plain(a + i + 8, b + i + 8, c + i + 8));
        if (_mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q) != 0) {  // a NaN somewhere: the selections decide its payload
            r = join_ps(fma3_ps_avx512_nan(a + i, b + i, c + i), fma3_ps_avx512_nan(a + i + 8, b + i + 8, c + i + 8));
        }
        if (kRelu) r = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(r, zero, _CMP_GT_OQ), r);
        _mm512_storeu_ps(d + i, r);
    }
    for (; i < n; ++i) d[i] = fma3_f32_one(a[i], b[i], c[i], kRelu);
}
__attribute__((target("avx2"), always_inline)) inline __m128 fma3_ps_avx2_nan(const float *a, const float *b,
                                                                              const float *c) {
    const __m256d x = _mm256_cvtps_pd(_mm_loadu_ps(a));
    const __m256d y = _mm256_blendv_pd(_mm256_cvtps_pd(_mm_loadu_ps(b)), x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
    const __m256d p = _mm256_mul_pd(x, y);
    const __m256d z = _mm256_blendv_pd(_mm256_cvtps_pd(_mm_loadu_ps(c)), p, _mm256_cmp_pd(p, p, _CMP_UNORD_Q));
    return _mm256_cvtpd_ps(_mm256_add_pd(p, z));
}
__attribute__((target("avx2"), always_inline)) inline __m128 fma3_ps_avx2_plain(const float *a, const float *b,
                                                                                const float *c) {
    const __m256d p = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(a)), _mm256_cvtps_pd(_mm_loadu_ps(b)));
    return _mm256_cvtpd_ps(_mm256_add_pd(p, _mm256_cvtps_pd(_mm_loadu_ps(c))));
}
template <bool kRelu>
__attribute__((target("avx2"))) inline void fma3_f32_avx2_t(float *d, const float *a, const float *b, const float *c,
                                                              int64_t n) {
    const __m256 zero = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {  // 4 floats per 256-bit register of doubles, two per step (as the AVX-512 loop)
        __m256 r = _mm256_set_m128(fma3_ps_avx2_plain(a + i + 4, b + i + 4, c + i + 4), fma3_ps_avx2_plain(a + i, b + i, c + i));
        if (_mm256_movemask_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)) != 0) {
            r = _mm256_set_m128(fma3_ps_avx2_nan(a + i + 4, b + i + 4, c + i + 4), fma3_ps_avx2_nan(a + i, b + i, c + i));
        }
        if (kRelu) r = _mm256_and_ps(_mm256_cmp_ps(r, zero, _CMP_GT_OQ), r);
        _mm256_storeu_ps(d + i, r);
    }
    for (; i < n; ++i) d[i] = fma3_f32_one(a[i], b[i], c[i], kRelu);
}
inline void fma3_f32_avx512(float *d, const float *a, const float *b, const float *c, int64_t n, bool relu) {
    return relu ? fma3_f32_avx512_t<true>(d, a, b, c, n) : fma3_f32_avx512_t<false>(d, a, b, c, n);
}
inline void fma3_f32_avx2(float *d, const float *a, const float *b, const float *c, int64_t n, bool relu) {
    return relu ? fma3_f32_avx2_t<true>(d, a, b, c, n) : fma3_f32_avx2_t<false>(d, a, b, c, n);
}
#endif
// True when every source is d itself or lies apart from it (the vector loops' condition).
template <typename T>
inline bool fma3_operands_ok(const T *d, const T *a, const T *b, const T *c, int64_t n) {
    return (a == d || !overlap(d, n, a, n)) && (b == d || !overlap(d, n, b, n)) && (c == d || !overlap(d, n, c, n));
}
// d[i] = fma3_f32_one(a[i], b[i], c[i], relu) for i < n by the widest vector loop the CPU has; false
// (nothing written) when there is none or an operand partly overlaps d: the caller's loop runs.
inline bool fma3_f32(float *d, const float *a, const float *b, const float *c, int64_t n, bool relu) {
#ifdef PYASC_SIM_X86
    const int level = x86_level();
    if (level == 0 || !fma3_operands_ok(d, a, b, c, n)) return false;
    if (level == 2) {
        fma3_f32_avx512(d, a, b, c, n, relu);
    } else {
        fma3_f32_avx2(d, a, b, c, n, relu);
    }
    return true;
#else
    (void)d, (void)a, (void)b, (void)c, (void)n, (void)relu;
    return false;
#endif
}
// The same for half operands: fma_round<half> is half(float(double(a) * double(b) + double(c))) (the
// halves widened exactly), i.e. the float loop on the widened operands, then float -> half (round to
// nearest even; F16C and the software conversion agree bit for bit). The relu is applied before
// the narrowing: r > 0 ? half(r) : +0 equals h = half(r), h > 0 ? h : +0 for every float r (a
// positive r that rounds to +0 gives +0 either way). 512 elements at a time through float buffers.
inline bool fma3_f16(half *d, const half *a, const half *b, const half *c, int64_t n, bool relu) {
#ifdef PYASC_SIM_X86
    if (x86_level() == 0 || !has_f16c() || !fma3_operands_ok(d, a, b, c, n)) return false;
    constexpr int64_t kStep = 512;
    float fa[kStep], fb[kStep], fc[kStep];
    for (int64_t i = 0; i < n; i += kStep) {
        const int64_t m = n - i < kStep ? n - i : kStep;
        f16_to_f32(fa, a + i, m);
        f16_to_f32(fb, b + i, m);
        f16_to_f32(fc, c + i, m);
        fma3_f32(fa, fa, fb, fc, m, relu);
        f32_to_f16(d + i, fa, m);
    }
    return true;
#else
    (void)d, (void)a, (void)b, (void)c, (void)n, (void)relu;
    return false;
#endif
}

}  // namespace simd
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_SIMD_H_
