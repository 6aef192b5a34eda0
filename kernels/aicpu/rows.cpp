// AI CPU kernels of the row ops, for the dtypes the AI Core lacks: reductions (int64 accumulators
// for integer and bool sums), softmax / log_softmax, layer_norm / rms_norm and matmul.
// Inputs are contiguous; the glue moves the reduced axes last (a (rows, cols) view), as for the
// AI Core kernels.
//   reduce_<op>_<dt>(x, out, rows, cols)          softmax_<dt> / log_softmax_<dt>(x, out, rows, cols)
//   layer_norm_<dt>(x, w, b, out, rows, cols, has_w, has_b, eps)   rms_norm_<dt>(x, w, out, rows, cols, has_w, eps)
//   matmul_<dt>(a, b, out, batch, m, k, n)
#include <algorithm>
#include <vector>

#include "aicpu_common.h"

using namespace pyasc_aicpu;

namespace {

// The sum's result dtype: integers and bool sum to int64 (as the golden model), floats to themselves.
template <typename T> struct SumOut { using type = typename std::conditional<Traits<T>::is_float, T, int64_t>::type; };

template <typename T>
uint32_t reduce_sum(void *raw, bool mean) {
    using O = typename SumOut<T>::type;
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    O *out = a.ptr<O>(1);
    const int64_t rows = a.i64(2), cols = a.i64(3);
    for (int64_t r = 0; r < rows; ++r) {
        const T *row = x + r * cols;
        if constexpr (Traits<T>::is_float) {
            double s = 0.0;  // floats sum in double and round once, as the golden model
            for (int64_t c = 0; c < cols; ++c) s += Traits<T>::load(row[c]);
            out[r] = store<O>(mean ? s / static_cast<double>(cols) : s);
        } else {
            uint64_t s = 0;  // int64 accumulator (wraps like NumPy's int64 sum)
            for (int64_t c = 0; c < cols; ++c) s += static_cast<uint64_t>(Traits<T>::load(row[c]));
            out[r] = static_cast<O>(s);
        }
    }
    return 0;
}

template <typename T>
uint32_t reduce_extreme(void *raw, bool is_max) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    T *out = a.ptr<T>(1);
    const int64_t rows = a.i64(2), cols = a.i64(3);
    if (cols <= 0) return 1;  // the meta function refuses empty reductions: never launched
    for (int64_t r = 0; r < rows; ++r) {
        const T *row = x + r * cols;
        auto best = Traits<T>::load(row[0]);
        T pick = row[0];
        for (int64_t c = 1; c < cols; ++c) {
            const auto v = Traits<T>::load(row[c]);
            if constexpr (Traits<T>::is_float) {
                if (std::isnan(best)) break;  // NaN propagates
                if (std::isnan(v)) { best = v; pick = row[c]; break; }
            }
            if (is_max ? v > best : v < best) { best = v; pick = row[c]; }
        }
        out[r] = pick;
    }
    return 0;
}

template <typename T>
uint32_t softmax(void *raw, bool log) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *x = a.ptr<T>(0);
    T *out = a.ptr<T>(1);
    const int64_t rows = a.i64(2), cols = a.i64(3);
    std::vector<double> e(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
        const T *row = x + r * cols;
        double mx = -std::numeric_limits<double>::infinity();
        bool nan = false;
        for (int64_t c = 0; c < cols; ++c) {
            const double v = Traits<T>::load(row[c]);
            nan = nan || std::isnan(v);
            mx = v > mx ? v : mx;
        }
        double sum = 0.0;
        for (int64_t c = 0; c < cols; ++c) {
            e[c] = Traits<T>::load(row[c]) - (nan ? std::numeric_limits<double>::quiet_NaN() : mx);
            sum += std::exp(e[c]);
        }
        const double lsum = std::log(sum);
        for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = store<T>(log ? e[c] - lsum : std::exp(e[c]) / sum);
    }
    return 0;
}

template <typename T>
uint32_t norm(void *raw, bool layer) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const int base = layer ? 3 : 2;
    const T *x = a.ptr<T>(0);
    const T *w = a.ptr<T>(1);
    const T *b = layer ? a.ptr<T>(2) : nullptr;
    T *out = a.ptr<T>(base);
    const int64_t rows = a.i64(base + 1), cols = a.i64(base + 2);
    const bool has_w = a.i64(base + 3) != 0;
    const bool has_b = layer && a.i64(base + 4) != 0;
    const double eps = a.f64(layer ? base + 5 : base + 4);
    for (int64_t r = 0; r < rows; ++r) {
        const T *row = x + r * cols;
        double mean = 0.0;
        if (layer) {
            for (int64_t c = 0; c < cols; ++c) mean += Traits<T>::load(row[c]);
            mean /= static_cast<double>(cols);
        }
        double sq = 0.0;
        for (int64_t c = 0; c < cols; ++c) {
            const double d = Traits<T>::load(row[c]) - mean;
            sq += d * d;
        }
        const double inv = std::sqrt(sq / static_cast<double>(cols) + eps);
        for (int64_t c = 0; c < cols; ++c) {
            double y = (Traits<T>::load(row[c]) - mean) / inv;
            if (has_w) y *= Traits<T>::load(w[c]);
            if (has_b) y += Traits<T>::load(b[c]);
            out[r * cols + c] = store<T>(y);
        }
    }
    return 0;
}

template <typename T>
uint32_t matmul(void *raw) {
    const Args a{static_cast<const uint64_t *>(raw)};
    const T *A = a.ptr<T>(0);
    const T *B = a.ptr<T>(1);
    T *out = a.ptr<T>(2);
    const int64_t batch = a.i64(3), m = a.i64(4), k = a.i64(5), n = a.i64(6);
    using W = typename Traits<T>::Wide;
    using Acc = typename std::conditional<Traits<T>::is_float, double, uint64_t>::type;
    std::vector<Acc> acc(static_cast<size_t>(n));
    for (int64_t p = 0; p < batch; ++p) {
        const T *ap = A + p * m * k;
        const T *bp = B + p * k * n;
        T *op = out + p * m * n;
        for (int64_t i = 0; i < m; ++i) {
            std::fill(acc.begin(), acc.end(), Acc(0));
            for (int64_t q = 0; q < k; ++q) {
                const Acc av = static_cast<Acc>(Traits<T>::load(ap[i * k + q]));
                const T *brow = bp + q * n;
                for (int64_t j = 0; j < n; ++j) acc[j] += av * static_cast<Acc>(Traits<T>::load(brow[j]));
            }
            for (int64_t j = 0; j < n; ++j) op[i * n + j] = store<T>(static_cast<W>(acc[j]));
        }
    }
    return 0;
}

}  // namespace

#define SUM(dtname, T) \
    PYASC_AICPU_EXPORT uint32_t reduce_sum_##dtname(void *args) { return reduce_sum<T>(args, false); } \
    PYASC_AICPU_EXPORT uint32_t reduce_max_##dtname(void *args) { return reduce_extreme<T>(args, true); } \
    PYASC_AICPU_EXPORT uint32_t reduce_min_##dtname(void *args) { return reduce_extreme<T>(args, false); }
PYASC_AICPU_ALL(SUM)

#define FLOAT_ROWS(dtname, T) \
    PYASC_AICPU_EXPORT uint32_t reduce_mean_##dtname(void *args) { return reduce_sum<T>(args, true); } \
    PYASC_AICPU_EXPORT uint32_t softmax_##dtname(void *args) { return softmax<T>(args, false); } \
    PYASC_AICPU_EXPORT uint32_t log_softmax_##dtname(void *args) { return softmax<T>(args, true); } \
    PYASC_AICPU_EXPORT uint32_t layer_norm_##dtname(void *args) { return norm<T>(args, true); } \
    PYASC_AICPU_EXPORT uint32_t rms_norm_##dtname(void *args) { return norm<T>(args, false); }
PYASC_AICPU_FLOATS(FLOAT_ROWS)

#define MATMUL(dtname, T) PYASC_AICPU_EXPORT uint32_t matmul_##dtname(void *args) { return matmul<T>(args); }
PYASC_AICPU_NUMERIC(MATMUL)
