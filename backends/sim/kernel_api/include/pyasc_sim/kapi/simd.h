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

template <typename D, typename A, typename F>
inline void map1_r(D *__restrict__ d, const A *__restrict__ a, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(a[i]);
}
template <typename D, typename F>
inline void map1_inplace(D *__restrict__ d, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(d[i]);
}
template <typename D, typename A, typename B, typename F>
inline void map2_r(D *__restrict__ d, const A *__restrict__ a, const B *__restrict__ b, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
}
template <typename D, typename B, typename F>
inline void map2_inplace_a(D *__restrict__ d, const B *__restrict__ b, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(d[i], b[i]);
}
template <typename D, typename A, typename F>
inline void map2_inplace_b(D *__restrict__ d, const A *__restrict__ a, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(a[i], d[i]);
}
template <typename D, typename F>
inline void map2_inplace_ab(D *__restrict__ d, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(d[i], d[i]);
}

// d[i] = f(a[i]) for i < n: vectorised unless the operands partly overlap.
template <typename D, typename A, typename F>
inline void map1(D *d, const A *a, int64_t n, F f) {
    if (static_cast<const void *>(d) == static_cast<const void *>(a) && sizeof(D) == sizeof(A)) {
        if constexpr (std::is_same<D, A>::value) {
            map1_inplace(d, n, f);
            return;
        }
    } else if (!overlap(d, n, a, n)) {
        map1_r(d, a, n, f);
        return;
    }
    for (int64_t i = 0; i < n; ++i) d[i] = f(a[i]);
}

// d[i] = f(a[i], b[i]) for i < n: vectorised unless dst partly overlaps a source.
template <typename T, typename F>
inline void map2(T *d, const T *a, const T *b, int64_t n, F f) {
    const bool da = d == a, db = d == b;
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
// and call an F16C function compiled for it, else the software loop.
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
    if (has_f16c() && !overlap(d, n, s, n)) return f16_to_f32_f16c(d, s, n);
#endif
    if (!overlap(d, n, s, n)) return f16_to_f32_soft(d, s, n);
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
// d[i] = half(s[i]), rounded to nearest even.
inline void f32_to_f16(half *d, const float *s, int64_t n) {
#ifdef PYASC_SIM_X86
    if (has_f16c() && !overlap(d, n, s, n)) return f32_to_f16_f16c(d, s, n);
#endif
    if (!overlap(d, n, s, n)) return f32_to_f16_soft(d, s, n);
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<half>(s[i]);
}

// ---- exp(float) ----------------------------------------------------------------------------------
// e^x for a float x, computed in double and rounded once to float: x = k ln2 + r (|r| <= ln2 / 2,
// k ln2 subtracted in two exact parts), e^r by its Taylor polynomial to degree 13 (truncation error
// < 2^-52 relative), scaled by 2^k through the exponent bits. The double result is within ~2^-50 of
// e^x, so the float result is the correctly rounded one except when e^x lies within 2^-50 relative
// of a rounding midpoint: error <= 0.5 ulp + 2^-26 ulp, never more than 1 ulp from glibc's expf
// (which is not correctly rounded either; the two differ in ~4e-5 of all floats). Overflow gives
// +Inf (x > 88.72...), underflow rounds to the subnormals or +0, NaN stays NaN (its quiet payload).
// A branch-free loop the compiler vectorises.
__attribute__((always_inline)) inline float exp_f32_one(float x) {
    const double xd = x;
    double xc = xd < -104.0 ? -104.0 : xd;  // e^-104 < half the smallest subnormal; NaN passes
    xc = xc > 89.0 ? 89.0 : xc;             // e^89 > FLT_MAX: rounds to +Inf
    const double t = xc * 0x1.71547652b82fep0 + 0x1.8p52;  // k in the low bits
    const double kd = t - 0x1.8p52;
    const double r = (xc - kd * 0x1.62e42fefa3800p-1) - kd * 0x1.ef35793c76730p-45;
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    uint64_t u;
    __builtin_memcpy(&u, &t, 8);
    u = (u + 1023) << 52;  // 2^k
    double scale;
    __builtin_memcpy(&scale, &u, 8);
    return static_cast<float>(p * scale);
}
__attribute__((always_inline)) inline void exp_f32_loop(float *__restrict__ d, const float *__restrict__ s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = exp_f32_one(s[i]);
}
#ifdef PYASC_SIM_X86
__attribute__((target("avx512f"))) inline void exp_f32_avx512(float *__restrict__ d, const float *__restrict__ s,
                                                               int64_t n) {
    exp_f32_loop(d, s, n);
}
__attribute__((target("avx2"))) inline void exp_f32_avx2(float *__restrict__ d, const float *__restrict__ s,
                                                          int64_t n) {
    exp_f32_loop(d, s, n);
}
inline int x86_level() {  // 2: AVX-512F, 1: AVX2, 0: the baseline
    static const int level = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
    return level;
}
#endif
inline void exp_f32_restrict(float *__restrict__ d, const float *__restrict__ s, int64_t n) {
#ifdef PYASC_SIM_X86
    const int level = x86_level();
    if (level == 2) return exp_f32_avx512(d, s, n);
    if (level == 1) return exp_f32_avx2(d, s, n);
#endif
    exp_f32_loop(d, s, n);
}
// d[i] = exp(s[i]) (in place allowed).
inline void exp_f32(float *d, const float *s, int64_t n) {
    if (d == s || !overlap(d, n, s, n)) {
        // in place: each element is read before it is written, in chunks through a small buffer
        if (d == s) {
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

}  // namespace simd
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_SIMD_H_
