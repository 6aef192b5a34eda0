// AI CPU kernels of the elementwise ops, for every dtype (the built-in ops use them where the
// AI Core has no kernel): binary arithmetic, comparisons, unary math, cast and where.
// Operands are contiguous, of the output's shape and (except cast's source and where's
// condition) of the kernel's dtype: the glue broadcasts and casts them first, as for AI Core kernels.
//   binary_<op>_<dt>(x, y, out, n)   compare_<op>_<dt>(x, y, out bool, n)
//   unary_<op>_<dt>(x, out, n)       cast_<src>_<dst>(x, out, n)       where_<dt>(cond, x, y, out, n)
#include "aicpu_common.h"

using namespace pyasc_aicpu;

namespace {

template <typename W>
W wrap_add(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) return a + b;
    else return static_cast<W>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename W>
W wrap_sub(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) return a - b;
    else return static_cast<W>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename W>
W wrap_mul(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) return a * b;
    else return static_cast<W>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// NumPy's maximum / minimum: a NaN operand wins.
template <typename W>
W maximum(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<W>::quiet_NaN();
    }
    return a > b ? a : b;
}
template <typename W>
W minimum(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<W>::quiet_NaN();
    }
    return a < b ? a : b;
}

template <typename W>
W power(W x, W y) {
    if constexpr (std::is_floating_point<W>::value) {
        return std::pow(x, y);
    } else {
        if (y < 0) {  // truncated toward zero, like the AI Core kernel (the reference refuses these)
            if (x == 1) return 1;
            if constexpr (std::is_signed<W>::value) {
                if (x == -1) return (y & 1) ? -1 : 1;
            }
            return 0;
        }
        uint64_t base = static_cast<uint64_t>(x), result = 1;
        uint64_t e = static_cast<uint64_t>(y);
        while (e) {  // binary exponentiation, wrapping like NumPy's integer power
            if (e & 1) result *= base;
            base *= base;
            e >>= 1;
        }
        return static_cast<W>(result);
    }
}

template <typename W>
W divide(W a, W b) {
    if constexpr (std::is_floating_point<W>::value) return a / b;
    else return b == 0 ? W(0) : static_cast<W>(a / b);  // integer division is never launched
}

template <typename T, typename F>
uint32_t binary(void *raw, F f) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    const T *y = a.ptr<T>(1);
    T *out = a.ptr<T>(2);
    const int64_t n = a.i64(3);
    for (int64_t i = 0; i < n; ++i) out[i] = store<T>(f(Traits<T>::load(x[i]), Traits<T>::load(y[i])));
    return 0;
}

template <typename T, typename F>
uint32_t compare(void *raw, F f) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    const T *y = a.ptr<T>(1);
    uint8_t *out = a.ptr<uint8_t>(2);
    const int64_t n = a.i64(3);
    for (int64_t i = 0; i < n; ++i) out[i] = f(Traits<T>::load(x[i]), Traits<T>::load(y[i])) ? 1 : 0;
    return 0;
}

template <typename T, typename F>
uint32_t unary(void *raw, F f) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    T *out = a.ptr<T>(1);
    const int64_t n = a.i64(2);
    for (int64_t i = 0; i < n; ++i) out[i] = store<T>(f(Traits<T>::load(x[i])));
    return 0;
}

template <typename S, typename D>
uint32_t cast(void *raw) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const S *x = a.ptr<S>(0);
    D *out = a.ptr<D>(1);
    const int64_t n = a.i64(2);
    for (int64_t i = 0; i < n; ++i) out[i] = store<D>(Traits<S>::load(x[i]));
    return 0;
}

template <typename T>
uint32_t where(void *raw) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const uint8_t *c = a.ptr<uint8_t>(0);
    const T *x = a.ptr<T>(1);
    const T *y = a.ptr<T>(2);
    T *out = a.ptr<T>(3);
    const int64_t n = a.i64(4);
    for (int64_t i = 0; i < n; ++i) out[i] = c[i] ? x[i] : y[i];
    return 0;
}

template <typename W> W neg(W x) { return wrap_sub(W(0), x); }
template <typename W> W absolute(W x) {
    if constexpr (std::is_floating_point<W>::value) return std::fabs(x);
    else if constexpr (std::is_signed<W>::value) return x < 0 ? neg(x) : x;
    else return x;
}
template <typename W> W relu(W x) {
    if constexpr (std::is_floating_point<W>::value) { if (std::isnan(x)) return x; }
    return x > W(0) ? x : W(0);
}
inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double gelu(double x) {
    const double k = std::sqrt(2.0 / 3.14159265358979323846);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
inline double silu(double x) { return x / (1.0 + std::exp(-x)); }

}  // namespace

// ---- binary arithmetic -------------------------------------------------------------------------
#define BINARY(op, expr, dtname, T) \
    PYASC_AICPU_EXPORT uint32_t binary_##op##_##dtname(void *args) { \
        using W = Traits<T>::Wide; \
        return binary<T>(args, [](W a, W b) { return expr; }); \
    }
#define BINARY_ALL(dtname, T) \
    BINARY(add, wrap_add(a, b), dtname, T) BINARY(sub, wrap_sub(a, b), dtname, T) \
    BINARY(mul, wrap_mul(a, b), dtname, T) BINARY(maximum, maximum(a, b), dtname, T) \
    BINARY(minimum, minimum(a, b), dtname, T) BINARY(pow, power(a, b), dtname, T)
PYASC_AICPU_NUMERIC(BINARY_ALL)
#define BINARY_DIV(dtname, T) BINARY(div, divide(a, b), dtname, T)
PYASC_AICPU_FLOATS(BINARY_DIV)

// ---- comparisons ---------------------------------------------------------------------------------
#define COMPARE(op, expr, dtname, T) \
    PYASC_AICPU_EXPORT uint32_t compare_##op##_##dtname(void *args) { \
        using W = Traits<T>::Wide; \
        return compare<T>(args, [](W a, W b) { return expr; }); \
    }
#define COMPARE_ALL(dtname, T) \
    COMPARE(eq, a == b, dtname, T) COMPARE(ne, a != b, dtname, T) COMPARE(lt, a < b, dtname, T) \
    COMPARE(le, a <= b, dtname, T) COMPARE(gt, a > b, dtname, T) COMPARE(ge, a >= b, dtname, T)
PYASC_AICPU_ALL(COMPARE_ALL)

// ---- unary -------------------------------------------------------------------------------------
#define UNARY(op, expr, dtname, T) \
    PYASC_AICPU_EXPORT uint32_t unary_##op##_##dtname(void *args) { \
        using W = Traits<T>::Wide; \
        return unary<T>(args, [](W x) { return static_cast<W>(expr); }); \
    }
#define UNARY_NUMERIC(dtname, T) UNARY(abs, absolute(x), dtname, T) UNARY(relu, relu(x), dtname, T)
PYASC_AICPU_NUMERIC(UNARY_NUMERIC)
#define UNARY_SIGNED(dtname, T) UNARY(neg, neg(x), dtname, T)
PYASC_AICPU_SIGNED_INTS(UNARY_SIGNED)
PYASC_AICPU_FLOATS(UNARY_SIGNED)
#define UNARY_FLOAT(dtname, T) \
    UNARY(exp, std::exp(x), dtname, T) UNARY(log, std::log(x), dtname, T) UNARY(sqrt, std::sqrt(x), dtname, T) \
    UNARY(rsqrt, 1.0 / std::sqrt(x), dtname, T) UNARY(sigmoid, sigmoid(x), dtname, T) \
    UNARY(tanh, std::tanh(x), dtname, T) UNARY(gelu, gelu(x), dtname, T) UNARY(silu, silu(x), dtname, T)
PYASC_AICPU_FLOATS(UNARY_FLOAT)

// ---- cast: every pair --------------------------------------------------------------------------
#define CAST_TO(dname, D, sname, S) \
    PYASC_AICPU_EXPORT uint32_t cast_##sname##_##dname(void *args) { return cast<S, D>(args); }
#define CAST_FROM(sname, S) \
    CAST_TO(bool, Bool, sname, S) CAST_TO(uint8, uint8_t, sname, S) CAST_TO(int8, int8_t, sname, S) \
    CAST_TO(int16, int16_t, sname, S) CAST_TO(int32, int32_t, sname, S) CAST_TO(int64, int64_t, sname, S) \
    CAST_TO(float16, Half, sname, S) CAST_TO(bfloat16, BFloat16, sname, S) CAST_TO(float32, float, sname, S) \
    CAST_TO(float64, double, sname, S)
PYASC_AICPU_ALL(CAST_FROM)

// ---- where -------------------------------------------------------------------------------------
#define WHERE(dtname, T) PYASC_AICPU_EXPORT uint32_t where_##dtname(void *args) { return where<T>(args); }
PYASC_AICPU_ALL(WHERE)
