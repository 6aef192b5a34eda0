// The AVX-512 loops of pyasc_sim/kapi/simd.h against their scalar definitions, bit for bit: exp
// (exp_f32_one) over every float bit pattern (argument --all) or a stride through them (default:
// every 61st pattern, plus the ranges around the overflow and underflow edges and the NaNs in
// full); float -> half (the software _Float16 conversion, round to nearest even) over the same
// patterns; half -> float over every half. Exits 1 on the first difference, 0 when they agree;
// 77 (skipped) without AVX-512F.
#include <cinttypes>
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

// float -> half over patterns lo, lo + step, ... below hi; false on a difference.
bool check_f32_to_f16(uint64_t lo, uint64_t hi, uint64_t step) {
    constexpr int64_t kChunk = 1 << 16;
    std::vector<float> in(kChunk);
    std::vector<half> out(kChunk);
    for (uint64_t b = lo; b < hi;) {
        int64_t n = 0;
        for (; n < kChunk && b < hi; ++n, b += step) {
            const uint32_t v = static_cast<uint32_t>(b);
            std::memcpy(&in[n], &v, 4);
        }
        pyasc_sim::simd::f32_to_f16_avx512(out.data(), in.data(), n);
        for (int64_t i = 0; i < n; ++i) {
            const half want = static_cast<half>(in[i]);
            if (bits(out[i]) != bits(want)) {
                std::printf("half(0x%08" PRIx32 "): vector 0x%04x, scalar 0x%04x\n", bits(in[i]), bits(out[i]),
                            bits(want));
                return false;
            }
        }
    }
    return true;
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

// exp over patterns lo, lo + step, ... below hi (64-bit bounds); false on a difference.
bool check(uint64_t lo, uint64_t hi, uint64_t step) {
    constexpr int64_t kChunk = 1 << 16;
    std::vector<float> in(kChunk), out(kChunk);
    for (uint64_t b = lo; b < hi;) {
        int64_t n = 0;
        for (; n < kChunk && b < hi; ++n, b += step) {
            const uint32_t v = static_cast<uint32_t>(b);
            std::memcpy(&in[n], &v, 4);
        }
        pyasc_sim::simd::exp_f32_avx512(out.data(), in.data(), n);
        for (int64_t i = 0; i < n; ++i) {
            const float want = pyasc_sim::simd::exp_f32_one(in[i]);
            if (bits(out[i]) != bits(want)) {
                std::printf("exp(0x%08" PRIx32 "): vector 0x%08" PRIx32 ", scalar 0x%08" PRIx32 "\n", bits(in[i]),
                            bits(out[i]), bits(want));
                return false;
            }
        }
    }
    return true;
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
