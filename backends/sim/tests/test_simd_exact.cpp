// The vector loops of pyasc_sim/kapi/simd.h against their scalar definitions, bit for bit -- the AVX-512
// loops where the CPU has AVX-512F, the AVX2 (+ FMA, F16C) loops wherever it has AVX2, so a machine
// without AVX-512 still checks the loops it runs: exp (exp_f32_one; out of place and in place) and ln
// (log_f32_one, also within 1 ulp of double log) over every float bit pattern (argument --all) or a stride through them (default:
// every 61st pattern, plus the ranges around the overflow and underflow edges and the NaNs in
// full); float -> half (the software _Float16 conversion, round to nearest even) over the same
// patterns; half -> float over every half; the three-operand forms (fma3_f32 / fma3_f16: a * b + c
// through double, rounded once, with and without relu) by the AVX-512 and AVX2 loops, out of place
// and in place, over every triple of edge values (NaN payloads, infinities, zeros, subnormals,
// products that overflow or underflow, sums that round to infinity), float patterns at a stride and
// random triples; map1 / map2's AVX2 and AVX-512 clones of the element loops against the baseline
// loop. Exits 1 on the first difference, 0 when they agree; 77 (skipped) without AVX2.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/simd.h"

namespace {

const int kLevel = pyasc_sim::simd::x86_level();  // 2: AVX-512F, 1: AVX2

uint32_t bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

uint16_t bits(half h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}

// Calls chunk(in, n) for the float bit patterns lo, lo + step, ... below hi (64-bit bounds), up to
// 65536 at a time; false as soon as a chunk returns false.
template <class Chunk>
bool for_patterns(uint64_t lo, uint64_t hi, uint64_t step, Chunk &&chunk) {
    constexpr int64_t kChunk = 1 << 16;
    std::vector<float> in(kChunk);
    for (uint64_t b = lo; b < hi;) {
        int64_t n = 0;
        for (; n < kChunk && b < hi; ++n, b += step) {
            const uint32_t v = static_cast<uint32_t>(b);
            std::memcpy(&in[n], &v, 4);
        }
        if (!chunk(in.data(), n)) return false;
    }
    return true;
}

// float -> half over patterns lo, lo + step, ... below hi; false on a difference.
bool check_f32_to_f16(uint64_t lo, uint64_t hi, uint64_t step) {
    std::vector<half> out(1 << 16);
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        if (kLevel == 2) {
            pyasc_sim::simd::f32_to_f16_avx512(out.data(), in, n);
        } else {
            pyasc_sim::simd::f32_to_f16_f16c(out.data(), in, n);
        }
        for (int64_t i = 0; i < n; ++i) {
            const half want = static_cast<half>(in[i]);
            if (bits(out[i]) != bits(want)) {
                std::printf("half(0x%08" PRIx32 "): vector 0x%04x, scalar 0x%04x\n", bits(in[i]), bits(out[i]),
                            bits(want));
                return false;
            }
        }
        return true;
    });
}

// half -> float over every half (n = 65536 + 7: the F16C tail too).
bool check_f16_to_f32() {
    std::vector<half> in(65543);
    std::vector<float> out(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const uint16_t v = static_cast<uint16_t>(i);
        std::memcpy(&in[i], &v, 2);
    }
    if (kLevel == 2) {
        pyasc_sim::simd::f16_to_f32_avx512(out.data(), in.data(), static_cast<int64_t>(in.size()));
    } else {
        pyasc_sim::simd::f16_to_f32_f16c(out.data(), in.data(), static_cast<int64_t>(in.size()));
    }
    for (size_t i = 0; i < in.size(); ++i) {
        if (bits(out[i]) != bits(static_cast<float>(in[i]))) {
            std::printf("float(half 0x%04x): vector 0x%08" PRIx32 ", scalar 0x%08" PRIx32 "\n", bits(in[i]),
                        bits(out[i]), bits(static_cast<float>(in[i])));
            return false;
        }
    }
    return true;
}

// ln over patterns lo, lo + step, ... below hi: the AVX-512 loop (else the dispatching log_f32, the
// compiler's loop of the scalar code) against log_f32_one bit for bit,
// and log_f32_one within 1 ulp of double log (finite positive x); false on a difference.
bool check_log(uint64_t lo, uint64_t hi, uint64_t step) {
    std::vector<float> out(1 << 16);
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        if (kLevel == 2) {
            pyasc_sim::simd::log_f32_avx512(out.data(), in, n);
        } else {
            pyasc_sim::simd::log_f32(out.data(), in, n);
        }
        for (int64_t i = 0; i < n; ++i) {
            const float want = pyasc_sim::simd::log_f32_one(in[i]);
            if (bits(out[i]) != bits(want)) {
                std::printf("ln(0x%08" PRIx32 "): vector 0x%08" PRIx32 ", scalar 0x%08" PRIx32 "\n", bits(in[i]),
                            bits(out[i]), bits(want));
                return false;
            }
            if (in[i] > 0.0f && std::isfinite(in[i]) && in[i] != 1.0f) {
                const double exact = std::log(static_cast<double>(in[i]));
                const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(exact)) - 23);
                if (std::fabs(static_cast<double>(want) - exact) >= ulp) {
                    std::printf("ln(0x%08" PRIx32 ") = 0x%08" PRIx32 ": %.3f ulp from the exact value\n", bits(in[i]),
                                bits(want), std::fabs(static_cast<double>(want) - exact) / ulp);
                    return false;
                }
            }
        }
        return true;
    });
}

// exp over patterns lo, lo + step, ... below hi (64-bit bounds), by the AVX-512 loop and its
// in-place form (with AVX-512F), the AVX2 + FMA loop and its in-place form (with AVX2 and FMA: also
// valgrind's level), and the dispatching exp_f32 in place; false on a difference.
bool check(uint64_t lo, uint64_t hi, uint64_t step) {
    std::vector<float> out(1 << 16), inplace(1 << 16), avx2(1 << 16), avx2_inplace(1 << 16), dispatched(1 << 16);
    const bool fma = pyasc_sim::simd::has_fma();
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        const size_t bytes = static_cast<size_t>(n) * sizeof(float);
        std::memcpy(dispatched.data(), in, bytes);
        pyasc_sim::simd::exp_f32(dispatched.data(), dispatched.data(), n);
        // a loop's out-of-place and in-place forms into o and ip; without the CPU feature, the dispatched results
        auto run = [&](bool have, void (*loop)(float *, const float *, int64_t), void (*loop_inplace)(float *, int64_t),
                       std::vector<float> &o, std::vector<float> &ip) {
            const float *src = have ? in : dispatched.data();
            std::memcpy(o.data(), src, bytes);
            std::memcpy(ip.data(), src, bytes);
            if (have) {
                loop(o.data(), in, n);
                loop_inplace(ip.data(), n);
            }
        };
        run(kLevel == 2, pyasc_sim::simd::exp_f32_avx512, pyasc_sim::simd::exp_f32_avx512_inplace, out, inplace);
        run(fma, pyasc_sim::simd::exp_f32_avx2, pyasc_sim::simd::exp_f32_avx2_inplace, avx2, avx2_inplace);
        for (int64_t i = 0; i < n; ++i) {
            const float want = pyasc_sim::simd::exp_f32_one(in[i]);  // this file's baseline build: fmaf
            if (bits(out[i]) != bits(want) || bits(inplace[i]) != bits(want) || bits(avx2[i]) != bits(want) ||
                bits(avx2_inplace[i]) != bits(want) || bits(dispatched[i]) != bits(want)) {
                std::printf("exp(0x%08" PRIx32 "): AVX-512 0x%08" PRIx32 ", in place 0x%08" PRIx32 ", AVX2 0x%08" PRIx32
                            ", in place 0x%08" PRIx32 ", exp_f32 in place 0x%08" PRIx32 ", scalar 0x%08" PRIx32 "\n",
                            bits(in[i]), bits(out[i]), bits(inplace[i]), bits(avx2[i]), bits(avx2_inplace[i]),
                            bits(dispatched[i]), bits(want));
                return false;
            }
        }
        return true;
    });
}


// ---- the three-operand forms -----------------------------------------------------------------------
float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// The definition (kapi/vector_more.h fma_round<float>, and its relu as FusedMulAddRelu), written
// out: the product a * b exact in double, one rounding to double, one to float; a NaN result is the
// first NaN of a, b (else the default NaN of 0 * inf), then c, quieted (0x00400000 set), narrowed.
float fma3_ref(float a, float b, float c, bool relu) {
    float r;
    const float nan_ab = std::isnan(a) ? a : b;
    if (std::isnan(a) || std::isnan(b)) {
        r = from_bits(bits(nan_ab) | 0x00400000u);
    } else if ((std::isinf(a) && b == 0.0f) || (a == 0.0f && std::isinf(b))) {
        r = from_bits(0xffc00000u);
    } else if (std::isnan(c)) {
        r = from_bits(bits(c) | 0x00400000u);
    } else {
        r = static_cast<float>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c));
    }
    return relu ? (r > 0.0f ? r : 0.0f) : r;
}

// The vector loops over n triples (a, b, c), every loop and aliasing the callers allow: out of place
// by AVX-512 and AVX2, and in place with d = a, d = b, d = c; each against fma3_ref bit for bit.
bool check_fma3_triples(const float *a, const float *b, const float *c, int64_t n) {
    std::vector<float> out(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
    const bool avx2 = __builtin_cpu_supports("avx2");
    for (int relu = 0; relu < 2; ++relu) {
        for (int variant = 0; variant < 5; ++variant) {
            float *d = out.data();
            const float *pa = a, *pb = b, *pc = c;
            if (variant >= 2) {  // in place: d is the operand's copy
                const float *src = variant == 2 ? a : variant == 3 ? b : c;
                std::memcpy(d, src, static_cast<size_t>(n) * sizeof(float));
                (variant == 2 ? pa : variant == 3 ? pb : pc) = d;
            }
            if (variant == 1 || kLevel < 2) {  // without AVX-512F: the AVX2 loop in every variant
                if (!avx2) continue;
                pyasc_sim::simd::fma3_f32_avx2(d, pa, pb, pc, n, relu != 0);
            } else {
                pyasc_sim::simd::fma3_f32_avx512(d, pa, pb, pc, n, relu != 0);
            }
            for (int64_t i = 0; i < n; ++i) {
                const float want = fma3_ref(a[i], b[i], c[i], relu != 0);
                const float scalar = pyasc_sim::simd::fma3_f32_one(a[i], b[i], c[i], relu != 0);  // fma_round's code
                if (bits(out[i]) != bits(want) || bits(scalar) != bits(want)) {
                    std::printf("fma3%s(0x%08" PRIx32 ", 0x%08" PRIx32 ", 0x%08" PRIx32 ") variant %d: vector 0x%08" PRIx32
                                ", scalar 0x%08" PRIx32 "\n",
                                relu ? "_relu" : "", bits(a[i]), bits(b[i]), bits(c[i]), variant, bits(out[i]),
                                bits(want));
                    return false;
                }
            }
        }
    }
    // the dispatching entry point (what the kernel API calls) too
    if (!pyasc_sim::simd::fma3_f32(tmp.data(), a, b, c, n, false)) return false;
    for (int64_t i = 0; i < n; ++i) {
        if (bits(tmp[i]) != bits(fma3_ref(a[i], b[i], c[i], false))) return false;
    }
    return true;
}

const uint32_t kFmaEdges[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0x3f7fffffu, 0x40400000u, 0xc0400000u,
    0x00800000u, 0x80800000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00400000u,  // normals' edge, subnormals
    0x7f7fffffu, 0xff7fffffu, 0x7f000000u, 0x5f800000u, 0xdf800000u, 0x5f7fffffu,               // FLT_MAX, 2^127, 2^64
    0x1f800000u, 0x9f800000u, 0x1a000000u, 0x33800000u, 0x2f800000u, 0x73800000u,               // 2^-64, 2^-75, 2^-24, 2^-32, 2^104
    0x7f800000u, 0xff800000u,                                                                   // infinities
    0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffd54321u, 0x7f800001u, 0xff8abcdeu, 0x7fa00000u,  // quiet and signalling NaNs
    0x4b000001u, 0xcb000000u, 0x33000001u, 0x34000000u,                                         // rounding ties and near-ties
};

bool check_fma3_edges() {
    const size_t k = sizeof(kFmaEdges) / sizeof(kFmaEdges[0]);
    std::vector<float> a, b, c;
    for (size_t i = 0; i < k; ++i) {
        for (size_t j = 0; j < k; ++j) {
            for (size_t l = 0; l < k; ++l) {
                a.push_back(from_bits(kFmaEdges[i]));
                b.push_back(from_bits(kFmaEdges[j]));
                c.push_back(from_bits(kFmaEdges[l]));
            }
        }
    }
    // sums that round across FLT_MAX (to +-inf or to FLT_MAX), exact cancellations (+0 / -0), results
    // in the subnormals, and double -> float ties: a * b + c with a * b = c's neighbours
    const float near_max[] = {from_bits(0x7f7fffffu), from_bits(0x7f7ffffeu), from_bits(0x73000000u), from_bits(0x72ffffffu)};
    for (float x : near_max) {
        for (float y : near_max) {
            for (float s : {1.0f, -1.0f}) {
                a.push_back(x), b.push_back(s), c.push_back(y);
                a.push_back(-x), b.push_back(s), c.push_back(-y);
            }
        }
    }
    std::mt19937 rng(23);
    for (int i = 0; i < 200000; ++i) {
        const float x = from_bits(rng()), y = from_bits(rng());
        const float p = static_cast<float>(static_cast<double>(x) * static_cast<double>(y));
        uint32_t pb = bits(p) ^ 0x80000000u;  // -(x y) and its neighbours: the sum is tiny, exact or a tie
        pb += static_cast<uint32_t>(static_cast<int>(rng() % 5) - 2);
        a.push_back(x), b.push_back(y), c.push_back(from_bits(pb));
        const float e = from_bits((rng() & 0x807fffffu) | 0x3f000000u);  // [0.5, 1) of either sign
        a.push_back(e), b.push_back(from_bits((rng() & 0x807fffffu) | 0x3f000000u)), c.push_back(from_bits(rng()));
    }
    return check_fma3_triples(a.data(), b.data(), c.data(), static_cast<int64_t>(a.size()));
}

// a over float patterns lo, lo + step, ... below hi, with b and c random patterns and random values
// near 1 (every third triple an edge for b or c).
bool check_fma3_patterns(uint64_t lo, uint64_t hi, uint64_t step) {
    std::mt19937 rng(static_cast<uint32_t>(lo ^ step));
    std::vector<float> b(1 << 16), c(1 << 16);
    const size_t k = sizeof(kFmaEdges) / sizeof(kFmaEdges[0]);
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            const uint32_t r = rng();
            b[i] = i % 3 == 0 ? from_bits(kFmaEdges[r % k]) : i % 3 == 1 ? from_bits(rng()) : from_bits((r & 0x807fffffu) | 0x3f800000u);
            c[i] = i % 3 == 2 ? from_bits(kFmaEdges[(r >> 8) % k]) : from_bits(rng());
        }
        return check_fma3_triples(in, b.data(), c.data(), n);
    });
}

// fma3_f16 against half(fma3_ref(float(a), float(b), float(c))) -- fma_round<half> -- for every half
// a with random halves b and c, and every triple of half edges; also in place (d = b).
bool check_fma3_f16() {
    const uint16_t edges[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
                              0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7e12, 0x7c01, 0x3c01, 0x5bff, 0x1400, 0x3555};
    std::vector<half> a, b, c;
    auto h = [](uint16_t v) {
        half x;
        std::memcpy(&x, &v, 2);
        return x;
    };
    std::mt19937 rng(16);
    for (uint32_t v = 0; v < 65536; ++v) {
        a.push_back(h(static_cast<uint16_t>(v)));
        b.push_back(h(static_cast<uint16_t>(rng())));
        c.push_back(h(static_cast<uint16_t>(rng())));
    }
    for (uint16_t x : edges) {
        for (uint16_t y : edges) {
            for (uint16_t z : edges) a.push_back(h(x)), b.push_back(h(y)), c.push_back(h(z));
        }
    }
    const int64_t n = static_cast<int64_t>(a.size());
    std::vector<half> out(a.size());
    for (int relu = 0; relu < 2; ++relu) {
        for (int inplace = 0; inplace < 2; ++inplace) {
            if (inplace) out = b;
            if (!pyasc_sim::simd::fma3_f16(out.data(), a.data(), inplace ? out.data() : b.data(), c.data(), n, relu != 0)) {
                std::printf("fma3_f16: no vector path\n");
                return false;
            }
            for (int64_t i = 0; i < n; ++i) {
                const half r = static_cast<half>(
                    fma3_ref(static_cast<float>(a[i]), static_cast<float>(b[i]), static_cast<float>(c[i]), false));
                const half want = relu ? (r > static_cast<half>(0.0f) ? r : static_cast<half>(0.0f)) : r;
                if (bits(out[i]) != bits(want)) {
                    std::printf("fma3_f16%s(0x%04x, 0x%04x, 0x%04x): vector 0x%04x, scalar 0x%04x\n", relu ? "_relu" : "",
                                bits(a[i]), bits(b[i]), bits(c[i]), bits(out[i]), bits(want));
                    return false;
                }
            }
        }
    }
    return true;
}

// Equal bits, or (floating point) both NaN where both operands were: for two NaN operands the
// element loops' `a + b` leaves to the compiler which payload wins (it may swap the operands of a
// commutative operation, and its SSE2 and AVX encodings name them in different orders), in every build
// alike (the three-operand forms choose explicitly: fma3_f64_one).
template <typename T>
bool same_element(T got, T want, T a, T b) {
    if (std::memcmp(&got, &want, sizeof(T)) == 0) return true;
    if constexpr (std::is_floating_point<T>::value) {
        return std::isnan(a) && std::isnan(b) && std::isnan(got) && std::isnan(want);
    } else {
        return false;
    }
}

// map1 / map2's clones against the baseline loop (map1_r etc., this file's baseline build) over float
// patterns at a stride with random second operands: float add / mul / div / max, int32 and double
// forms, out of place and in place; and the dispatching map1 / map2 (what the kernel API calls) in
// place. False on a difference.
template <typename T, typename F2>
bool check_map_one(const char *what, const std::vector<T> &a, const std::vector<T> &b, F2 f) {
    const int64_t n = static_cast<int64_t>(a.size());
    std::vector<T> want(a.size()), got(a.size());
    pyasc_sim::simd::map2_r(want.data(), a.data(), b.data(), n, f);
    for (int form = 0; form < 5; ++form) {
        if (form == 0) {
            pyasc_sim::simd::map2_r_avx2(got.data(), a.data(), b.data(), n, f);
        } else if (form == 1) {
            got = a;
            pyasc_sim::simd::map2_inplace_a_avx2(got.data(), b.data(), n, f);
        } else if (form == 2) {
            got = b;
            pyasc_sim::simd::map2_inplace_b_avx2(got.data(), a.data(), n, f);
        } else if (form == 3) {
            got = a;
            pyasc_sim::simd::map2(got.data(), got.data(), b.data(), n, f);
        } else {
            if (kLevel < 2) continue;
            pyasc_sim::simd::map2_r_avx512(got.data(), a.data(), b.data(), n, f);
        }
        for (int64_t i = 0; i < n; ++i) {
            if (!same_element(got[i], want[i], a[i], b[i])) {
                std::printf("map2 %s: form %d differs from the baseline loop at %" PRId64 "\n", what, form, i);
                return false;
            }
        }
    }
    // unary: f(x, 3) through map1_r / map1_inplace
    auto g = [f](T x) { return f(x, static_cast<T>(3)); };
    pyasc_sim::simd::map1_r(want.data(), a.data(), n, g);
    pyasc_sim::simd::map1_r_avx2(got.data(), a.data(), n, g);
    bool same = std::memcmp(got.data(), want.data(), a.size() * sizeof(T)) == 0;
    got = a;
    pyasc_sim::simd::map1_inplace_avx2(got.data(), n, g);
    same = same && std::memcmp(got.data(), want.data(), a.size() * sizeof(T)) == 0;
    got = a;
    pyasc_sim::simd::map1(got.data(), got.data(), n, g);
    same = same && std::memcmp(got.data(), want.data(), a.size() * sizeof(T)) == 0;
    if (!same) std::printf("map1 %s: differs from the baseline loop\n", what);
    return same;
}

bool check_maps() {
    std::mt19937 rng(31);
    std::vector<float> fa, fb;
    for (uint64_t v = 0; v < (1ull << 32); v += 65521) {  // every 65521st pattern: NaNs, infinities, subnormals
        fa.push_back(from_bits(static_cast<uint32_t>(v)));
        fb.push_back(from_bits(rng()));
    }
    for (uint32_t e : kFmaEdges) {
        for (uint32_t e2 : kFmaEdges) fa.push_back(from_bits(e)), fb.push_back(from_bits(e2));
    }
    std::vector<int32_t> ia(fa.size()), ib(fa.size());
    std::vector<double> da(fa.size()), db(fa.size());
    for (size_t i = 0; i < fa.size(); ++i) {
        ia[i] = static_cast<int32_t>(rng()), ib[i] = static_cast<int32_t>(rng() | 1u);
        da[i] = static_cast<double>(fa[i]) * 1.25, db[i] = static_cast<double>(fb[i]);
    }
    return check_map_one("float add", fa, fb, [](float x, float y) { return x + y; }) &&
           check_map_one("float mul", fa, fb, [](float x, float y) { return x * y; }) &&
           check_map_one("float div", fa, fb, [](float x, float y) { return x / y; }) &&
           check_map_one("float max", fa, fb, [](float x, float y) { return x > y ? x : y; }) &&
           check_map_one("int32 add", ia, ib, [](int32_t x, int32_t y) { return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y)); }) &&
           check_map_one("int32 mul", ia, ib, [](int32_t x, int32_t y) { return static_cast<int32_t>(static_cast<uint32_t>(x) * static_cast<uint32_t>(y)); }) &&
           check_map_one("double sub", da, db, [](double x, double y) { return x - y; });
}
}  // namespace

int main(int argc, char **argv) {
    if (kLevel < 1) {
        std::printf("no AVX2 on this CPU: skipped\n");
        return 77;
    }
    std::printf("checking the %s loops\n", kLevel == 2 ? "AVX-512F and AVX2" : "AVX2 (no AVX-512F on this CPU)");
    const bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
    bool ok = check(0, 1ull << 32, all ? 1 : 61);
    if (!all) {
        const float edges[][2] = {{80.0f, 90.0f}, {-90.0f, -80.0f}, {-110.0f, -100.0f}};
        for (const auto &e : edges) {
            const uint64_t a = bits(e[0]), b = bits(e[1]);
            ok = ok && check(a < b ? a : b, (a < b ? b : a) + 1, 1);
        }
        ok = ok && check(0x7f800000u, 0x80000000u, 1) && check(0xff800000u, 1ull << 32, 1);  // inf, NaNs
    }
    std::printf(ok ? "exp: vector and scalar agree\n" : "exp: MISMATCH\n");
    // ln: the subnormals, the binade edges around 1 and the specials in full
    bool ln = check_log(0, 1ull << 32, all ? 1 : 61);
    if (!all) {
        ln = ln && check_log(0, 0x00800001u, 7) && check_log(0x3f000000u, 0x3f900000u, 3) &&
             check_log(0x7f800000u, 0x80000001u, 1) && check_log(0xff800000u, 1ull << 32, 1);
    }
    const float specials[][2] = {{0.0f, -INFINITY}, {-0.0f, -INFINITY}, {INFINITY, INFINITY}, {1.0f, 0.0f}};
    for (const auto &sp : specials) ln = ln && bits(pyasc_sim::simd::log_f32_one(sp[0])) == bits(sp[1]);
    ln = ln && bits(pyasc_sim::simd::log_f32_one(-1.0f)) == 0xFFC00000u;  // x < 0: the default NaN
    std::printf(ln ? "ln: vector and scalar agree, within 1 ulp\n" : "ln: MISMATCH\n");
    ok = ok && ln;
    bool cvt = check_f32_to_f16(0, 1ull << 32, all ? 1 : 499) && check_f16_to_f32();
    if (!all) {  // around half's overflow (65520) and subnormal / underflow edges, both signs
        const uint64_t ranges[][2] = {{0x477fe000u, 0x47800001u}, {0x33000000u, 0x33800001u}, {0x387fc000u, 0x38800001u}};
        for (const auto &r : ranges) {
            cvt = cvt && check_f32_to_f16(r[0], r[1], 1) && check_f32_to_f16(r[0] | 0x80000000u, r[1] | 0x80000000u, 1);
        }
        cvt = cvt && check_f32_to_f16(0x7f800000u, 0x80000000u, 1);  // inf, NaNs
    }
    std::printf(cvt ? "half conversions: vector and scalar agree\n" : "half conversions: MISMATCH\n");
    const bool fma3 = check_fma3_edges() && check_fma3_patterns(0, 1ull << 32, all ? 1 : 251) && check_fma3_f16();
    std::printf(fma3 ? "a * b + c (three-operand forms): vector and scalar agree\n"
                     : "a * b + c (three-operand forms): MISMATCH\n");
    const bool maps = check_maps();
    std::printf(maps ? "map1 / map2 clones: the baseline loop's bits\n" : "map1 / map2 clones: MISMATCH\n");
    return ok && cvt && fma3 && maps ? 0 : 1;
}
