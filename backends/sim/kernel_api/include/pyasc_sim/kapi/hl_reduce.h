// Ascend C on the CPU -- high-level reductions Sum and Mean over the last axis (lib/reduce/*.h).
// Semantics from the public Ascend C reference; math in double per element, rounded once to T (the
// hardware composes basic instructions: results can differ in the last bits).  Each row's n source values
// are staged in float in sharedTmpBuffer before they are summed (kapi/hl_tmp.h: smaller than
// GetSumMaxMinTmpSize / GetMeanMaxMinTmpSize reports is an error; the forms without it stage in host memory).
#ifndef PYASC_SIM_KAPI_HL_REDUCE_H_
#define PYASC_SIM_KAPI_HL_REDUCE_H_

#include <cmath>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// ---- Sum / Mean over the last axis: `outter` rows of `inner` elements (inner * sizeof(T) a
// multiple of 32 bytes), the first n of each row reduced; dst[r] = the row's sum (mean). ---------
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
namespace sim_detail {
template <typename D, typename T>
inline void row_sums(const char *api, const LocalTensor<D> &dst, const LocalTensor<T> &src, uint32_t outter,
                     uint32_t inner, uint32_t n, bool mean, const LocalTensor<uint8_t> *tmp, const SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && (n == 0 || n > inner || (inner * sizeof(T)) % 32 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "%s: params {outter %u, inner %u, n %u}: need 1 <= n <= inner and inner * sizeof(T) = "
                              "%zu bytes a multiple of 32",
                              api, outter, inner, n, static_cast<size_t>(inner) * sizeof(T));
    }
    check_operand(src, api, "src", static_cast<int64_t>(outter) * inner, loc);
    dst.check_aligned(api, "dst", loc);
    dst.check(0, outter, api, loc);
    // the row's n values in float (exact for half and float sources), then summed
    HlScratch stage(tmp, pyasc_sim::hl_tmp::row_reduce(n), api, mean ? "GetMeanMaxMinTmpSize" : "GetSumMaxMinTmpSize",
                    loc);
    float *xs = stage.as<float>();
    const uint64_t per = stage.chunk(4);
    for (uint32_t r = 0; r < outter; ++r) {
        double acc = 0.0;
        for (uint32_t i = 0; i < n; ++i) {
            xs[i % per] = static_cast<float>(pyasc_sim::kapi::to_double(src.ptr()[static_cast<int64_t>(r) * inner + i]));
            acc += xs[i % per];
        }
        dst.ptr()[r] = static_cast<D>(mean ? acc / n : acc);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(outter) * inner, sizeof(T)), 2.0));
}
}  // namespace sim_detail
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                const SumParams &sumParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Sum, T);
    sim_detail::row_sums("Sum", dst, src, sumParams.outter, sumParams.inner, sumParams.n, false, &sharedTmpBuffer, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const SumParams &sumParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Sum, T);
    sim_detail::row_sums("Sum", dst, src, sumParams.outter, sumParams.inner, sumParams.n, false, sim_detail::no_tmp(),
                         loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const MeanParams &meanParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Mean, T);
    sim_detail::row_sums("Mean", dst, src, meanParams.outter, meanParams.inner, meanParams.n, true, &sharedTmpBuffer,
                         loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T> &dst, const LocalTensor<T> &src, const MeanParams &meanParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Mean, T);
    sim_detail::row_sums("Mean", dst, src, meanParams.outter, meanParams.inner, meanParams.n, true,
                         sim_detail::no_tmp(), loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HL_REDUCE_H_
