// Ascend C on the CPU -- fp8_e4m3fn_t, the 8-bit float element type of the Atlas 350 / Ascend 950 (kernels built with
// soc="Ascend950PR_9599"; vllm-ascend's gather_mla_prefill / flash_attn_c8_prepare keep FP8 KV caches in it).
//
// The E4M3FN format (the reference's data-type page; the OCP FP8 E4M3 encoding): 1 sign bit, 4 exponent bits with bias
// 7, 3 mantissa bits; exponent 0 holds the subnormals (m * 2^-9), no infinities, S.1111.111 is NaN, so the largest
// finite magnitude is 448. fp8_e4m3fn_t -> float is exact; float -> fp8_e4m3fn_t rounds to nearest even, a magnitude
// that rounds above 448 (and NaN / infinity) becomes NaN (no saturation). Arithmetic goes through float, as with
// bfloat16_t. Only the conversions and copies exist: the simulator's basic vector APIs have no fp8 rows (a call on
// fp8 tensors is a dtype-table error), the Reg / MicroAPI register Cast converts it (kapi/reg_simd_convert.h).
#ifndef PYASC_SIM_KAPI_FP8_H_
#define PYASC_SIM_KAPI_FP8_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/base.h"

#if __CCE_AICORE__ == 310

struct fp8_e4m3fn_t {
    uint8_t bits;

    fp8_e4m3fn_t() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic<U>::value || std::is_same<U, half>::value ||
                                                      std::is_same<U, bfloat16_t>::value>>
    fp8_e4m3fn_t(U v) : bits(from_float(static_cast<float>(v))) {}  // NOLINT: implicit like a built-in type
    operator float() const { return to_float(bits); }
    static fp8_e4m3fn_t from_bits(uint8_t b) {
        fp8_e4m3fn_t r;
        r.bits = b;
        return r;
    }
    static float to_float(uint8_t b) {
        const float sign = (b & 0x80u) ? -1.0f : 1.0f;
        const int e = (b >> 3) & 0xF, m = b & 7;
        if (e == 15 && m == 7) return std::nanf("");
        if (e == 0) return sign * std::ldexp(static_cast<float>(m), -9);
        return sign * std::ldexp(1.0f + static_cast<float>(m) / 8.0f, e - 7);
    }
    static uint8_t from_float(float f) {
        const uint8_t sign = std::signbit(f) ? 0x80u : 0u;
        if (std::isnan(f) || std::isinf(f)) return static_cast<uint8_t>(sign | 0x7Fu);
        const float a = std::fabs(f);
        if (a < 0.015625f) {  // below 2^-6: subnormal steps of 2^-9 (8 steps reach the smallest normal, bits 8)
            return static_cast<uint8_t>(sign | static_cast<uint8_t>(std::nearbyint(std::ldexp(a, 9))));
        }
        int k;
        const float fr = std::frexp(a, &k);  // a = fr * 2^k, fr in [0.5, 1)
        int e = k - 1;                       // a = (fr * 2) * 2^e
        float r = std::nearbyint(fr * 16.0f);  // 1.mmm scaled by 8, in [8, 16]
        if (r >= 16.0f) {
            r = 8.0f;
            ++e;
        }
        const int be = e + 7, m = static_cast<int>(r) - 8;
        if (be > 15 || (be == 15 && m == 7)) return static_cast<uint8_t>(sign | 0x7Fu);  // above 448: NaN
        return static_cast<uint8_t>(sign | (be << 3) | m);
    }
};

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_FP8_H_
