// Ascend C on the CPU -- CumSum, the cumulative sum of a [outter, inner] tensor along its last or first
// axis (lib/math/cumsum.h; public reference page CumSum, atlasascendc_api_07_0605).
// Each output element is the previous output plus one source element, rounded once to T (the
// vector Add the reference's formula chains); with config.outputLastRow the last output row is also
// written to lastRowTensor.  The partial sums are staged in sharedTmpBuffer (kapi/hl_tmp.h): rows at a
// time along the last axis, the running row along the first; a buffer below GetCumSumMaxMinTmpSize's
// minimum (one row) is an error.  config.algorithm (CumSumAlgorithm, Ascend 950 only) is accepted; the
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
    const T *x = src.ptr();
    T *y = dst.ptr();  // src and dst may be the same tensor: each chunk is read before it is written
    if (last_axis) {
        const uint64_t rows = stage.chunk(static_cast<uint64_t>(n) * sizeof(T));
        for (uint32_t r0 = 0; r0 < m; r0 += static_cast<uint32_t>(rows)) {
            const uint32_t r1 = r0 + rows < m ? r0 + static_cast<uint32_t>(rows) : m;
            for (uint32_t r = r0; r < r1; ++r) {
                T *a = acc + static_cast<int64_t>(r - r0) * n;
                const T *xr = x + static_cast<int64_t>(r) * n;
                for (uint32_t c = 0; c < n; ++c) a[c] = c == 0 ? xr[0] : cumsum_add(a[c - 1], xr[c]);
            }
            std::copy(acc, acc + static_cast<int64_t>(r1 - r0) * n, y + static_cast<int64_t>(r0) * n);
        }
    } else {
        for (uint32_t r = 0; r < m; ++r) {  // acc: the running row
            const T *xr = x + static_cast<int64_t>(r) * n;
            for (uint32_t c = 0; c < n; ++c) acc[c] = r == 0 ? xr[c] : cumsum_add(acc[c], xr[c]);
            std::copy(acc, acc + n, y + static_cast<int64_t>(r) * n);
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
