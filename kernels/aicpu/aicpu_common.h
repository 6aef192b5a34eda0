// What pyasc's AI CPU kernels share: the entry-function ABI and the element types.
//
// An AI CPU kernel is a plain C++ function over device memory, exported as
//     extern "C" uint32_t <name>(void *args)
// loaded with aclrtBinaryLoadFromFile + ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE and launched on a
// stream like an AI Core kernel (one task). `args` is the launch's argument blob, 8 bytes per
// argument: device addresses and integers as uint64, float scalars as their double's bits.
// It returns 0, or a nonzero error code (reported as ACL_ERROR_RT_AICPU_EXCEPTION).
//
// Element types are the storage of pyasc's dtypes; every value is computed through the widest
// type of its kind (int64_t, uint64_t or double) and stored back with the dtype's own rules.
#ifndef PYASC_AICPU_COMMON_H_
#define PYASC_AICPU_COMMON_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace pyasc_aicpu {

struct Args {
    const uint64_t *slot;
    template <typename T>
    T *ptr(int i) const { return reinterpret_cast<T *>(static_cast<uintptr_t>(slot[i])); }
    int64_t i64(int i) const { return static_cast<int64_t>(slot[i]); }
    double f64(int i) const {
        double d;
        std::memcpy(&d, &slot[i], sizeof(d));
        return d;
    }
};

// bool as stored (one byte, 0 or 1), and the 16-bit floats as their bits.
struct Bool { uint8_t v; };
struct Half { uint16_t bits; };
struct BFloat16 { uint16_t bits; };

inline double half_to_double(uint16_t h) {
    const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (exp == 0) v = std::ldexp(static_cast<double>(man), -24);
    else if (exp == 31) v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else v = std::ldexp(static_cast<double>(man | 0x400), exp - 25);
    return sign ? -v : v;
}

// IEEE binary16 nearest to d (ties to even), from the double itself (one rounding, as NumPy).
inline uint16_t double_to_half(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof(b));
    const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000u);
    if (std::isnan(d)) return static_cast<uint16_t>(sign | 0x7e00u);
    const double a = std::fabs(d);
    if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
    if (a < std::ldexp(1.0, -14)) {  // subnormal: a multiple of 2^-24
        const double q = std::nearbyint(a * 16777216.0);  // ties to even (default rounding mode)
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));
    }
    int e;
    const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    double q = std::nearbyint(std::ldexp(m, 11));  // 11 significant bits
    if (q >= 2048.0) {
        q /= 2.0;
        ++e;
    }
    const int exp = e - 1 + 15;
    if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | (exp << 10) | (static_cast<uint16_t>(q) & 0x3ffu));
}

inline double bf16_to_double(uint16_t h) {
    const uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

// bfloat16 nearest to the float (ties to even), as ml_dtypes converts (doubles go through float).
inline uint16_t float_to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40u);
    const uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>((u + rounding) >> 16);
}

// The kind of arithmetic a storage type computes in.
template <typename T> struct Traits {
    using Wide = typename std::conditional<std::is_floating_point<T>::value, double,
                 typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type>::type;
    static constexpr bool is_float = std::is_floating_point<T>::value;
    static Wide load(T v) { return static_cast<Wide>(v); }
};
template <> struct Traits<Bool> {
    using Wide = int64_t;
    static constexpr bool is_float = false;
    static Wide load(Bool v) { return v.v != 0; }
};
template <> struct Traits<Half> {
    using Wide = double;
    static constexpr bool is_float = true;
    static Wide load(Half v) { return half_to_double(v.bits); }
};
template <> struct Traits<BFloat16> {
    using Wide = double;
    static constexpr bool is_float = true;
    static Wide load(BFloat16 v) { return bf16_to_double(v.bits); }
};

// A float to an integer dtype as the golden model converts: truncate toward zero; NaN -> 0;
// +inf and values above the range -> the max; -inf and values below -> the min.
template <typename D>
D saturate(double f) {
    if (std::isnan(f)) return D(0);
    const double t = std::trunc(f);
    if (t >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    if (t <= static_cast<double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    return static_cast<D>(t);
}

// Stores a wide value: integers wrap (NumPy's astype), floats round to nearest even.
template <typename D> struct Store {
    static D from_int(int64_t v) { return static_cast<D>(v); }
    static D from_uint(uint64_t v) { return static_cast<D>(v); }
    static D from_float(double v) {
        if constexpr (std::is_floating_point<D>::value) return static_cast<D>(v);
        else return saturate<D>(v);
    }
};
template <> struct Store<Bool> {
    static Bool from_int(int64_t v) { return Bool{static_cast<uint8_t>(v != 0)}; }
    static Bool from_uint(uint64_t v) { return Bool{static_cast<uint8_t>(v != 0)}; }
    static Bool from_float(double v) { return Bool{static_cast<uint8_t>(v != 0.0)}; }
};
template <> struct Store<Half> {
    static Half from_int(int64_t v) { return Half{double_to_half(static_cast<double>(v))}; }
    static Half from_uint(uint64_t v) { return Half{double_to_half(static_cast<double>(v))}; }
    static Half from_float(double v) { return Half{double_to_half(v)}; }
};
template <> struct Store<BFloat16> {
    static BFloat16 from_int(int64_t v) { return BFloat16{float_to_bf16(static_cast<float>(v))}; }
    static BFloat16 from_uint(uint64_t v) { return BFloat16{float_to_bf16(static_cast<float>(v))}; }
    static BFloat16 from_float(double v) { return BFloat16{float_to_bf16(static_cast<float>(v))}; }
};

// D from the wide value of a T (any pair of dtypes: the cast op's rules).
template <typename D, typename W>
D store(W w) {
    if constexpr (std::is_floating_point<W>::value) return Store<D>::from_float(w);
    else if constexpr (std::is_signed<W>::value) return Store<D>::from_int(w);
    else return Store<D>::from_uint(w);
}

}  // namespace pyasc_aicpu

// X(name, type) for every pyasc dtype, and its subsets.
#define PYASC_AICPU_ALL(X) \
    X(bool, ::pyasc_aicpu::Bool) X(uint8, uint8_t) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) \
    X(int64, int64_t) X(float16, ::pyasc_aicpu::Half) X(bfloat16, ::pyasc_aicpu::BFloat16) X(float32, float) \
    X(float64, double)
#define PYASC_AICPU_NUMERIC(X) \
    X(uint8, uint8_t) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t) \
    X(float16, ::pyasc_aicpu::Half) X(bfloat16, ::pyasc_aicpu::BFloat16) X(float32, float) X(float64, double)
#define PYASC_AICPU_INTS(X) X(uint8, uint8_t) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t)
#define PYASC_AICPU_SIGNED_INTS(X) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t)
#define PYASC_AICPU_FLOATS(X) \
    X(float16, ::pyasc_aicpu::Half) X(bfloat16, ::pyasc_aicpu::BFloat16) X(float32, float) X(float64, double)

#define PYASC_AICPU_EXPORT extern "C" __attribute__((visibility("default")))

#endif  // PYASC_AICPU_COMMON_H_
