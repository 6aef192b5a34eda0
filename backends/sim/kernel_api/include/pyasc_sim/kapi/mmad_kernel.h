// Ascend C on the CPU -- Mmad's blocked micro-kernel: C (Nz) = init + A (Zz) x B (Zn), every output
// the sum over k in order, from +0, of A[m, k] * B[k, n] in double, then init added and the result
// rounded once to the destination type (the values of sim_detail::mmad_reference, bit for bit).
//
// Each fractal is converted to double once (F16C for half), B is packed as 16-column panels
// (K x 16, row-major) and A is read in place from its converted fractals; an MR x 16 register block
// (AVX-512: 8 x 16, AVX2: 2 x 16, baseline: 2 x 16) runs over K. The products of half / bfloat16 /
// float / 8- and 16-bit integer elements are exact in double (at most 48 significant bits), so a
// fused multiply-add rounds exactly as the separate multiply and add of the reference
// (-ffp-contract=off elsewhere): the FMA and non-FMA paths give the same bits. Non-finite inputs
// (Inf / NaN in the used part of A or B) take the reference loop, whose zero-skip and NaN payloads
// this kernel does not model. The ISA is picked by the CPU at run time, so shipped (portable)
// kernels get the wide version too.
#ifndef PYASC_SIM_KAPI_MMAD_KERNEL_H_
#define PYASC_SIM_KAPI_MMAD_KERNEL_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/simd.h"

namespace pyasc_sim {
namespace mmad {

// Significant bits of an element type (integers: all their bits); 64 for types this kernel leaves
// to the reference.
template <typename T>
constexpr int value_bits() {
    if constexpr (std::is_same<T, half>::value) {
        return 11;
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        return 8;
    } else if constexpr (std::is_same<T, float>::value) {
        return 24;
    } else if constexpr (std::is_integral<T>::value && sizeof(T) <= 2) {
        return static_cast<int>(sizeof(T) * 8);
    } else {
        return 64;
    }
}
// True when every product of an A and a B element is exact in double.
template <typename A, typename B>
constexpr bool exact_products() {
    return value_bits<A>() + value_bits<B>() <= 53;
}

// d[i] = double(s[i]) for i < n (exact).
template <typename T>
inline void to_f64(double *__restrict__ d, const T *__restrict__ s, uint64_t n) {
    if constexpr (std::is_same<T, half>::value) {
        float tmp[256];
        for (uint64_t i = 0; i < n; i += 256) {
            const uint64_t m = n - i < 256 ? n - i : 256;
            simd::f16_to_f32(tmp, s + i, static_cast<int64_t>(m));
            for (uint64_t j = 0; j < m; ++j) d[i + j] = static_cast<double>(tmp[j]);
        }
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
        for (uint64_t i = 0; i < n; ++i) {
            const uint32_t bits = static_cast<uint32_t>(s[i].bits) << 16;
            float f;
            std::memcpy(&f, &bits, 4);
            d[i] = static_cast<double>(f);
        }
    } else {
        for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<double>(s[i]);
    }
}

// True when p[0..n) holds no Inf or NaN (x * 0 is 0 for finite x, NaN otherwise; 8 lanes vectorise).
inline bool all_finite(const double *p, uint64_t n) {
    double acc[8] = {};
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int j = 0; j < 8; ++j) acc[j] += p[i + j] * 0.0;
    }
    // the tail (< 8 elements) counted from 0 in 32 bits: the form `for (; i < n; ++i)` made g++ 12 -O2 warn
    // -Waggressive-loop-optimizations ("iteration 2^61 - 1 invokes undefined behavior") in kernels including this
    const uint32_t rest = static_cast<uint32_t>(n - i);
    for (uint32_t j = 0; j < rest; ++j) acc[0] += p[i + j] * 0.0;
    bool ok = true;
    for (int j = 0; j < 8; ++j) ok = ok && acc[j] == 0.0;
    return ok;
}

#if defined(__x86_64__)
// ---- the operand preparation with AVX-512 (half and float operands) ------------------------------
// The same doubles as to_f64 and the packing loops of blocked() (conversions are exact, only the
// layout moves): 16 elements at a time instead of the baseline's scalar transposition.

// 8 elements of a half / float array as doubles (the masked conversion: see micro_avx512_t).
template <typename T>
__attribute__((target("avx512f,f16c"), always_inline)) inline __m512d load8_pd(const T *s) {
    if constexpr (std::is_same<T, half>::value) {
        return _mm512_mask_cvtps_pd(_mm512_setzero_pd(), 0xFF,
                                    _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(s))));
    } else {
        return _mm512_mask_cvtps_pd(_mm512_setzero_pd(), 0xFF, _mm256_loadu_ps(s));
    }
}

// d[i] = double(s[i]) for i < n.
template <typename T>
__attribute__((target("avx512f,f16c"))) inline void to_f64_avx512(double *__restrict__ d, const T *__restrict__ s,
                                                                   uint64_t n) {
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm512_storeu_pd(d + i, load8_pd(s + i));
    if (i < n) to_f64(d + i, s + i, n - i);
}

// r[0..8) <- its transpose (r[i][j] <-> r[j][i]).
__attribute__((target("avx512f"), always_inline)) inline void transpose8x8_pd(__m512d *r) {
    const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const __m512i lo4 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi4 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    __m512d t[8], u[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm512_maskz_unpacklo_pd(0xFF, r[2 * i], r[2 * i + 1]);      // r_a[0] r_b[0] r_a[2] r_b[2] ...
        t[2 * i + 1] = _mm512_maskz_unpackhi_pd(0xFF, r[2 * i], r[2 * i + 1]);  // r_a[1] r_b[1] r_a[3] r_b[3] ...
    }
    for (int h = 0; h < 2; ++h) {  // rows 4h .. 4h + 3: columns {0,4}, {2,6} (even), {1,5}, {3,7} (odd)
        for (int o = 0; o < 2; ++o) {
            u[4 * h + 2 * o] = _mm512_permutex2var_pd(t[4 * h + o], lo2, t[4 * h + 2 + o]);
            u[4 * h + 2 * o + 1] = _mm512_permutex2var_pd(t[4 * h + o], hi2, t[4 * h + 2 + o]);
        }
    }
    // u[0]: column 0 (rows 0-3) | column 4, u[1]: 2 | 6, u[2]: 1 | 5, u[3]: 3 | 7 (u[4..8): rows 4-7)
    const int col_of[4] = {0, 2, 1, 3};
    for (int q = 0; q < 4; ++q) {
        r[col_of[q]] = _mm512_permutex2var_pd(u[q], lo4, u[4 + q]);
        r[col_of[q] + 4] = _mm512_permutex2var_pd(u[q], hi4, u[4 + q]);
    }
}

// One B fractal (stored transposed: element (k, n) at s[n * c0 + k], 16 x c0) into its panel rows:
// dst[kk * 16 + n] = double(B[kk, n]) for kk < kc (kc <= c0), n < 16, zero for n >= cols.
template <typename T>
__attribute__((target("avx512f,f16c"))) inline void pack_b_fractal_avx512(double *__restrict__ dst,
                                                                           const T *__restrict__ s, uint64_t kc,
                                                                           uint64_t cols) {
    constexpr uint64_t c0 = 32 / sizeof(T);
    __m512d r[2][c0 / 8][8];  // [n / 8][k / 8][n % 8]: n row, 8 k values
    for (uint64_t n = 0; n < 16; ++n) {
        for (uint64_t k8 = 0; k8 < c0 / 8; ++k8) r[n / 8][k8][n % 8] = load8_pd(s + n * c0 + k8 * 8);
    }
    for (uint64_t n8 = 0; n8 < 2; ++n8) {
        for (uint64_t k8 = 0; k8 < c0 / 8; ++k8) transpose8x8_pd(r[n8][k8]);  // now [n8][k8][k % 8]: 8 n values
    }
    const __mmask8 m0 = cols >= 8 ? 0xFF : static_cast<__mmask8>((1u << cols) - 1);
    const __mmask8 m1 = cols >= 16 ? 0xFF : cols <= 8 ? 0 : static_cast<__mmask8>((1u << (cols - 8)) - 1);
    for (uint64_t kk = 0; kk < kc; ++kk) {
        _mm512_storeu_pd(dst + kk * 16, _mm512_maskz_mov_pd(m0, r[0][kk / 8][kk % 8]));
        _mm512_storeu_pd(dst + kk * 16 + 8, _mm512_maskz_mov_pd(m1, r[1][kk / 8][kk % 8]));
    }
}

// all_finite with 8 lanes x 4 accumulators.
__attribute__((target("avx512f"))) inline bool all_finite_avx512(const double *p, uint64_t n) {
    const __m512d zero = _mm512_setzero_pd();
    __m512d a0 = zero, a1 = zero, a2 = zero, a3 = zero;
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a0 = _mm512_add_pd(a0, _mm512_mul_pd(_mm512_loadu_pd(p + i), zero));
        a1 = _mm512_add_pd(a1, _mm512_mul_pd(_mm512_loadu_pd(p + i + 8), zero));
        a2 = _mm512_add_pd(a2, _mm512_mul_pd(_mm512_loadu_pd(p + i + 16), zero));
        a3 = _mm512_add_pd(a3, _mm512_mul_pd(_mm512_loadu_pd(p + i + 24), zero));
    }
    const __m512d a = _mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3));
    return _mm512_cmp_pd_mask(a, zero, _CMP_EQ_OQ) == 0xFF && all_finite(p + i, n - i);
}
#endif

// out (MR x 16, row-major) = sum over k < K of a[i, k] * b[k, 0..16): a row i's element k at
// a[(k / c0) * fs + i * c0 + k % c0] (A's converted Zz fractals), b row k at b[k * 16].
using MicroKernel = void (*)(const double *a, uint64_t fs, uint64_t c0, const double *b, uint64_t K, double *out);

template <int MR>
inline void micro_generic(const double *a, uint64_t fs, uint64_t c0, const double *b, uint64_t K, double *out) {
    typedef double v2 __attribute__((vector_size(16)));
    v2 c[MR][8] = {};
    for (uint64_t k0 = 0; k0 < K; k0 += c0, a += fs) {
        const uint64_t kc = K - k0 < c0 ? K - k0 : c0;
        for (uint64_t kk = 0; kk < kc; ++kk, b += 16) {
            v2 bv[8];
            __builtin_memcpy(bv, b, sizeof(bv));
            for (int i = 0; i < MR; ++i) {
                const double av = a[i * c0 + kk];
                for (int v = 0; v < 8; ++v) c[i][v] += av * bv[v];
            }
        }
    }
    __builtin_memcpy(out, c, sizeof(c));
}

#if defined(__x86_64__)
// The AVX-512 block; with kFloatOut it also does Mmad's epilogue for a float C: C rows (16 floats,
// 16 apart) become float(init + sum), init the old C (accumulate: init16 null) or init16[0..16).
template <bool kFloatOut>
__attribute__((target("avx512f"))) inline void micro_avx512_t(const double *a, uint64_t fs, uint64_t c0,
                                                               const double *b, uint64_t K, double *out, float *cf,
                                                               const double *init16) {
    constexpr int MR = 8;
    __m512d c[MR][2];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) c[i][0] = c[i][1] = _mm512_setzero_pd();
    for (uint64_t k0 = 0; k0 < K; k0 += c0, a += fs) {
        const uint64_t kc = K - k0 < c0 ? K - k0 : c0;
        const double *ak = a;
        for (uint64_t kk = 0; kk < kc; ++kk, b += 16, ++ak) {
            const __m512d b0 = _mm512_loadu_pd(b), b1 = _mm512_loadu_pd(b + 8);
#pragma GCC unroll 8
            for (int i = 0; i < MR; ++i) {
                const __m512d av = _mm512_set1_pd(ak[i * c0]);
                c[i][0] = _mm512_fmadd_pd(av, b0, c[i][0]);
                c[i][1] = _mm512_fmadd_pd(av, b1, c[i][1]);
            }
        }
    }
    if constexpr (kFloatOut) {
        (void)out;
        // the masked conversions with a zero pass-through (the unmasked ones trip GCC 12's
        // -Wmaybe-uninitialized on their undefined pass-through); all lanes convert, as unmasked
        const __m512d z = _mm512_setzero_pd();
        const __m256 zf = _mm256_setzero_ps();
        const __m512d i0 = init16 ? _mm512_loadu_pd(init16) : _mm512_setzero_pd();
        const __m512d i1 = init16 ? _mm512_loadu_pd(init16 + 8) : _mm512_setzero_pd();
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
            float *row = cf + i * 16;
            const __m512d o0 = init16 ? i0 : _mm512_mask_cvtps_pd(z, 0xff, _mm256_loadu_ps(row));
            const __m512d o1 = init16 ? i1 : _mm512_mask_cvtps_pd(z, 0xff, _mm256_loadu_ps(row + 8));
            _mm256_storeu_ps(row, _mm512_mask_cvtpd_ps(zf, 0xff, _mm512_add_pd(o0, c[i][0])));
            _mm256_storeu_ps(row + 8, _mm512_mask_cvtpd_ps(zf, 0xff, _mm512_add_pd(o1, c[i][1])));
        }
    } else {
        (void)cf;
        (void)init16;
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
            _mm512_storeu_pd(out + i * 16, c[i][0]);
            _mm512_storeu_pd(out + i * 16 + 8, c[i][1]);
        }
    }
}
inline void micro_avx512(const double *a, uint64_t fs, uint64_t c0, const double *b, uint64_t K, double *out) {
    micro_avx512_t<false>(a, fs, c0, b, K, out, nullptr, nullptr);
}
inline void micro_avx512_f32(const double *a, uint64_t fs, uint64_t c0, const double *b, uint64_t K, float *cf,
                             const double *init16) {
    micro_avx512_t<true>(a, fs, c0, b, K, nullptr, cf, init16);
}
__attribute__((target("avx2,fma"))) inline void micro_avx2(const double *a, uint64_t fs, uint64_t c0,
                                                            const double *b, uint64_t K, double *out) {
    constexpr int MR = 2;
    __m256d c[MR][4];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) c[i][0] = c[i][1] = c[i][2] = c[i][3] = _mm256_setzero_pd();
    for (uint64_t k0 = 0; k0 < K; k0 += c0, a += fs) {
        const uint64_t kc = K - k0 < c0 ? K - k0 : c0;
        for (uint64_t kk = 0; kk < kc; ++kk, b += 16) {
            __m256d bv[4];
#pragma GCC unroll 4
            for (int v = 0; v < 4; ++v) bv[v] = _mm256_loadu_pd(b + 4 * v);
#pragma GCC unroll 2
            for (int i = 0; i < MR; ++i) {
                const __m256d av = _mm256_broadcast_sd(a + i * c0 + kk);
#pragma GCC unroll 4
                for (int v = 0; v < 4; ++v) c[i][v] = _mm256_fmadd_pd(av, bv[v], c[i][v]);
            }
        }
    }
#pragma GCC unroll 2
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v) _mm256_storeu_pd(out + i * 16 + 4 * v, c[i][v]);
    }
}
#endif

// The micro-kernel for this CPU and its row count (MR, which divides 16).
// fn_f32 (optional): the same block with the float epilogue, for whole MR x 16 tiles of a float C.
using MicroKernelF32 = void (*)(const double *a, uint64_t fs, uint64_t c0, const double *b, uint64_t K, float *cf,
                                const double *init16);
struct Kernel {
    MicroKernel fn;
    uint64_t mr;
    MicroKernelF32 fn_f32 = nullptr;
};
inline Kernel pick_kernel() {
#if defined(__x86_64__)
    static const int level = __builtin_cpu_supports("avx512f")                                       ? 2
                             : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1
                                                                                                  : 0;
    if (level == 2) return {micro_avx512, 8, micro_avx512_f32};
    if (level == 1) return {micro_avx2, 2};
#endif
    return {micro_generic<2>, 2};
}

// C (Nz: fractal (mi, ni) at ni * mb + mi, 16 x 16 row-major) = init + A x B for the m x n x k of
// Mmad, A in Zz fractals (16 x c0, (mi, ki) at mi * kb + ki), B in Zn fractals (c0 x 16 stored
// transposed, (ki, ni) at ki * nb + ni); init(m, n) is C's old value (accumulate) or bias(n).
// Returns false (C untouched) when A or B holds an Inf or NaN in the part the product uses.
// `force` picks a micro-kernel (tests pin each one against the reference); default: pick_kernel().
template <typename Dst, typename A, typename B, typename BiasF>
inline bool blocked(Dst *pc, const A *pa, const B *pb, uint64_t M, uint64_t N, uint64_t K, bool accumulate,
                    BiasF bias, const Kernel *force = nullptr) {
    static_assert(exact_products<A, B>(), "the blocked Mmad needs products that are exact in double");
    constexpr uint64_t c0 = 32 / sizeof(A);
    constexpr uint64_t fa = 16 * c0;  // elements in one fractal
    const uint64_t mb = (M + 15) / 16, kb = (K + c0 - 1) / c0, nb = (N + 15) / 16;
    const Kernel uk = force ? *force : pick_kernel();
    thread_local std::vector<double> adv, bpv;
    // A: the fractals as doubles, in place; rows >= M and columns >= K zeroed (they are not data)
    adv.resize(mb * kb * fa);
    double *__restrict__ ad = adv.data();
#if defined(__x86_64__)
    // half / float operands: the same doubles and panels with AVX-512 where the CPU has it
    constexpr bool kWidePrep = (std::is_same<A, half>::value || std::is_same<A, float>::value) &&
                               (std::is_same<B, half>::value || std::is_same<B, float>::value);
    // (a forced micro-kernel other than the AVX-512 one keeps the baseline preparation too, so the
    // pinned variants of tests/test_sim_mmad_pin.py check both preparations against the reference)
    const bool wide = kWidePrep && simd::x86_level() == 2 && simd::has_f16c() && (force == nullptr || force->mr == 8);
#else
    const bool wide = false;
#endif
    if (wide) {
#if defined(__x86_64__)
        if constexpr (kWidePrep) to_f64_avx512(ad, pa, mb * kb * fa);
#endif
    } else {
        to_f64(ad, pa, mb * kb * fa);
    }
    const uint64_t mTail = M - (mb - 1) * 16, kTail = K - (kb - 1) * c0;
    for (uint64_t mi = 0; mi < mb; ++mi) {
        const uint64_t rows = mi + 1 == mb ? mTail : 16;
        for (uint64_t ki = 0; ki < kb; ++ki) {
            double *f = ad + (mi * kb + ki) * fa;
            if (ki + 1 == kb && kTail < c0) {
                for (uint64_t r = 0; r < rows; ++r) std::memset(f + r * c0 + kTail, 0, (c0 - kTail) * sizeof(double));
            }
            if (rows < 16) std::memset(f + rows * c0, 0, (16 - rows) * c0 * sizeof(double));
        }
    }
    // B: panel ni holds rows k < K of columns ni * 16 .. + 16 (columns >= N zero)
    bpv.resize(nb * K * 16);
    double *__restrict__ bp = bpv.data();
    double tmp[fa];
    for (uint64_t ki = 0; ki < kb; ++ki) {
        const uint64_t kc = ki + 1 == kb ? kTail : c0;
        for (uint64_t ni = 0; ni < nb; ++ni) {
            const uint64_t cols = N - ni * 16 < 16 ? N - ni * 16 : 16;
            double *dst = bp + (ni * K + ki * c0) * 16;
#if defined(__x86_64__)
            if constexpr (kWidePrep) {
                if (wide) {
                    pack_b_fractal_avx512(dst, pb + (ki * nb + ni) * fa, kc, cols);
                    continue;
                }
            }
#endif
            to_f64(tmp, pb + (ki * nb + ni) * fa, fa);
            for (uint64_t kk = 0; kk < kc; ++kk) {
                for (uint64_t nn = 0; nn < 16; ++nn) dst[kk * 16 + nn] = tmp[nn * c0 + kk];
                for (uint64_t nn = cols; nn < 16; ++nn) dst[kk * 16 + nn] = 0.0;
            }
        }
    }
#if defined(__x86_64__)
    if (wide) {
        if (!all_finite_avx512(ad, mb * kb * fa) || !all_finite_avx512(bp, nb * K * 16)) return false;
    } else if (!all_finite(ad, mb * kb * fa) || !all_finite(bp, nb * K * 16)) {
        return false;
    }
#else
    if (!all_finite(ad, mb * kb * fa) || !all_finite(bp, nb * K * 16)) return false;
#endif
    double out[16 * 16];
    const uint64_t rowEnd = (M + uk.mr - 1) / uk.mr * uk.mr;
    for (uint64_t ni = 0; ni < nb; ++ni) {
        const uint64_t cols = N - ni * 16 < 16 ? N - ni * 16 : 16;
        const double *panel = bp + ni * K * 16;
        double init16[16];
        if (!accumulate) {
            for (uint64_t j = 0; j < 16; ++j) init16[j] = j < cols ? bias(ni * 16 + j) : 0.0;
        }
        for (uint64_t r0 = 0; r0 < rowEnd; r0 += uk.mr) {
            const uint64_t mi = r0 / 16, ro = r0 % 16;
            if constexpr (std::is_same<Dst, float>::value) {
                if (uk.fn_f32 && cols == 16 && M - r0 >= uk.mr) {
                    uk.fn_f32(ad + mi * kb * fa + ro * c0, fa, c0, panel, K, pc + (ni * mb + mi) * 256 + ro * 16,
                              accumulate ? nullptr : init16);
                    continue;
                }
            }
            uk.fn(ad + mi * kb * fa + ro * c0, fa, c0, panel, K, out);
            const uint64_t rows = M - r0 < uk.mr ? M - r0 : uk.mr;
            Dst *cf = pc + (ni * mb + mi) * 256 + ro * 16;
            for (uint64_t i = 0; i < rows; ++i) {
                for (uint64_t j = 0; j < cols; ++j) {
                    Dst &o = cf[i * 16 + j];
                    const double init = accumulate ? kapi::to_double(o) : init16[j];
                    o = static_cast<Dst>(init + out[i * 16 + j]);
                }
            }
        }
    }
    return true;
}

}  // namespace mmad
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_MMAD_KERNEL_H_
