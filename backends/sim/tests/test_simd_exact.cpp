// The AVX-512 loops of pyasc_sim/kapi/simd.h against their scalar definitions, bit for bit: exp (also in place, and the AVX2 + FMA loop)
// (exp_f32_one) and ln (log_f32_one, also within 1 ulp of double log) over every float bit pattern (argument --all) or a stride through them (default:
// every 61st pattern, plus the ranges around the overflow and underflow edges and the NaNs in
// full); float -> half (the software _Float16 conversion, round to nearest even) over the same
// patterns; half -> float over every half. Exits 1 on the first difference, 0 when they agree;
// 77 (skipped) without AVX-512F.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "pyasc_sim/kapi/simd.h"

namespace {

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
        pyasc_sim::simd::f32_to_f16_avx512(out.data(), in, n);
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
    pyasc_sim::simd::f16_to_f32_avx512(out.data(), in.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i) {
        if (bits(out[i]) != bits(static_cast<float>(in[i]))) {
            std::printf("float(half 0x%04x): vector 0x%08" PRIx32 ", scalar 0x%08" PRIx32 "\n", bits(in[i]),
                        bits(out[i]), bits(static_cast<float>(in[i])));
            return false;
        }
    }
    return true;
}

// ln over patterns lo, lo + step, ... below hi: the AVX-512 loop against log_f32_one bit for bit,
// and log_f32_one within 1 ulp of double log (finite positive x); false on a difference.
bool check_log(uint64_t lo, uint64_t hi, uint64_t step) {
    std::vector<float> out(1 << 16);
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        pyasc_sim::simd::log_f32_avx512(out.data(), in, n);
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
// in-place form; false on a difference.
bool check(uint64_t lo, uint64_t hi, uint64_t step) {
    std::vector<float> out(1 << 16), inplace(1 << 16), avx2(1 << 16);
    const bool fma = pyasc_sim::simd::has_fma();
    return for_patterns(lo, hi, step, [&](const float *in, int64_t n) {
        pyasc_sim::simd::exp_f32_avx512(out.data(), in, n);
        std::memcpy(inplace.data(), in, static_cast<size_t>(n) * sizeof(float));
        pyasc_sim::simd::exp_f32_avx512_inplace(inplace.data(), n);
        if (fma) {
            pyasc_sim::simd::exp_f32_avx2(avx2.data(), in, n);  // the AVX2 + FMA loop (valgrind's level)
        } else {
            std::memcpy(avx2.data(), out.data(), static_cast<size_t>(n) * sizeof(float));
        }
        for (int64_t i = 0; i < n; ++i) {
            const float want = pyasc_sim::simd::exp_f32_one(in[i]);  // this file's baseline build: fmaf
            if (bits(out[i]) != bits(want) || bits(inplace[i]) != bits(want) || bits(avx2[i]) != bits(want)) {
                std::printf("exp(0x%08" PRIx32 "): vector 0x%08" PRIx32 ", in place 0x%08" PRIx32 ", AVX2 0x%08" PRIx32
                            ", scalar 0x%08" PRIx32 "\n",
                            bits(in[i]), bits(out[i]), bits(inplace[i]), bits(avx2[i]), bits(want));
                return false;
            }
        }
        return true;
    });
}

}  // namespace

int main(int argc, char **argv) {
    if (pyasc_sim::simd::x86_level() < 2) {
        std::printf("no AVX-512F on this CPU: skipped\n");
        return 77;
    }
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
    return ok && cvt ? 0 : 1;
}
