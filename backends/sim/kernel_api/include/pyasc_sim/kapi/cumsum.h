// Ascend C on the CPU -- CumSum, the cumulative sum of a [outter, inner] tensor along its last or first
// axis (lib/math/cumsum.h; public reference page CumSum, atlasascendc_api_07_0605).
// Each output element is the previous output plus one source element, rounded once to T (the
// vector Add the reference's formula chains); with config.outputLastRow the last output row is also
// written to lastRowTensor.  The partial sums are staged in sharedTmpBuffer (kapi/hl_tmp.h) chunk by
// chunk: along the last axis the rows one after another, along the first a column slice of the running
// row; a buffer below GetCumSumMaxMinTmpSize's minimum (one 32-byte block) is an error.  config.algorithm (CumSumAlgorithm, Ascend 950 only) is accepted; the
// simulator adds line by line either way.
#ifndef PYASC_SIM_KAPI_CUMSUM_H_
#define PYASC_SIM_KAPI_CUMSUM_H_

#include <algorithm>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

enum class CumSumAlgorithm {
    CUMSUM_ALGORITHM_LINEBYLINE = 0,
    CUMSUM_ALGORITHM_SKLANSKY = 1
};
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};

struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};

namespace sim_detail {
template <typename T>
inline T cumsum_add(T acc, T x) {
    if constexpr (std::is_same<T, float>::value) {
        return acc + x;  // float + float rounded once
    } else {
        // half + half is exact in double: one rounding to T
        return static_cast<T>(pyasc_sim::kapi::to_double(acc) + pyasc_sim::kapi::to_double(x));
    }
}
template <typename T>
inline void cumsum_rows(const LocalTensor<T> &dst, const LocalTensor<T> *last_row, const LocalTensor<T> &src,
                        const LocalTensor<uint8_t> *tmp, const CumSumInfo &info, bool last_axis, const SrcLoc &loc) {
    const uint32_t m = info.outter, n = info.inner;
    if (pyasc_sim::kapi::blk().checks && (m == 0 || n == 0 || (n * sizeof(T)) % 32 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "CumSum: cumSumInfo {outter %u, inner %u}: need outter >= 1 and inner * sizeof(T) = %zu "
                              "bytes a non-zero multiple of 32 (fix: pad the inner axis to 32 bytes)",
                              m, n, static_cast<size_t>(n) * sizeof(T));
    }
    const int64_t total = static_cast<int64_t>(m) * n;
    check_operand(src, "CumSum", "src", total, loc);
    check_operand(dst, "CumSum", "dst", total, loc);
    if (last_row != nullptr) check_operand(*last_row, "CumSum", "lastRowTensor", n, loc);
    HlScratch stage(tmp, pyasc_sim::hl_tmp::cumsum(m, n, sizeof(T), last_axis), "CumSum",
                    "GetCumSumMaxMinTmpSize", loc);
    T *acc = stage.as<T>();
    const uint64_t step = stage.chunk(sizeof(T));  // partial sums per chunk
    const T *x = src.ptr();
    T *y = dst.ptr();  // src and dst may be the same tensor: each chunk is read before it is written
    if (last_axis) {
        // the rows one after another, chunk by chunk; a row start restarts the sum, a chunk start carries it
        T carry{};
        for (int64_t k0 = 0; k0 < total; k0 += static_cast<int64_t>(step)) {
            const int64_t k1 = k0 + static_cast<int64_t>(step) < total ? k0 + static_cast<int64_t>(step) : total;
            for (int64_t k = k0; k < k1; ++k) {
                const T prev = k == k0 ? carry : acc[k - k0 - 1];
                acc[k - k0] = k % n == 0 ? x[k] : cumsum_add(prev, x[k]);
            }
            carry = acc[k1 - k0 - 1];
            std::copy(acc, acc + (k1 - k0), y + k0);
        }
    } else {
        // column chunks of the running row
        const uint32_t cols = step < n ? static_cast<uint32_t>(step) : n;
        for (uint32_t c0 = 0; c0 < n; c0 += cols) {
            const uint32_t c1 = c0 + cols < n ? c0 + cols : n;
            for (uint32_t r = 0; r < m; ++r) {
                const T *xr = x + static_cast<int64_t>(r) * n;
                for (uint32_t c = c0; c < c1; ++c) acc[c - c0] = r == 0 ? xr[c] : cumsum_add(acc[c - c0], xr[c]);
                std::copy(acc, acc + (c1 - c0), y + static_cast<int64_t>(r) * n + c0);
            }
        }
    }
    if (last_row != nullptr) {
        for (uint32_t c = 0; c < n; ++c) last_row->ptr()[c] = y[static_cast<int64_t>(m - 1) * n + c];
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(total), sizeof(T)), 2.0));
}
}  // namespace sim_detail

template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   LocalTensor<uint8_t> &sharedTmpBuffer, const CumSumInfo &cumSumInfo, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(CumSum, T);
    sim_detail::cumsum_rows(dstTensor, config.outputLastRow ? &lastRowTensor : nullptr, srcTensor, &sharedTmpBuffer,
                            cumSumInfo, config.isLastAxis, loc);
}
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   const CumSumInfo &cumSumInfo, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(CumSum, T);
    sim_detail::cumsum_rows(dstTensor, config.outputLastRow ? &lastRowTensor : nullptr, srcTensor,
                            sim_detail::no_tmp(), cumSumInfo, config.isLastAxis, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CUMSUM_H_
