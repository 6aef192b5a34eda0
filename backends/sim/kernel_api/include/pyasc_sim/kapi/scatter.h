// Ascend C on the CPU -- Scatter (ISASI): src elements written to dst at byte offsets
// dstBaseAddr + dstOffset[i] (the inverse of Gather).  Atlas inference series AI Core only (the page
// marks Atlas A2 x).  Written from the public Ascend C API reference (asc-devkit
// docs/api/SIMD-API/基础API/Memory矢量计算/离散与聚合/Scatter(ISASI).md; atlasascendc_api_07_0235.html);
// no CANN file was used.
//
// Count form: for i < count, dst bytes [base + dstOffset[i], + sizeof(T)) = src[i].
// Mask forms: repeat r reads 8 DataBlocks of src starting r * srcRepStride blocks in; its mask-selected
// element j goes to base + dstOffset[r * (256 / sizeof(T)) + j] (the page does not spell out how the
// offset tensor advances per repeat; the simulator gives every element slot of a repeat its own offset).
// Checks: offsets aligned to sizeof(T) and inside dst, duplicate offsets (documented as unpredictable)
// reported, dst / src / dstOffset bounds and initcheck.
#ifndef PYASC_SIM_KAPI_SCATTER_H_
#define PYASC_SIM_KAPI_SCATTER_H_

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

#if __CCE_AICORE__ == 200
#define PYASC_SIM_DT_Scatter uint16_t, uint32_t, float, half  // source: asc-devkit Scatter(ISASI).md (row T, Atlas 推理系列产品AI Core)
#elif __CCE_AICORE__ == 220
#define PYASC_SIM_DT_Scatter ::pyasc_sim::kapi::dtypes::not_on_this_soc  // source: asc-devkit Scatter(ISASI).md (A2: 不支持)
#else
#define PYASC_SIM_DT_Scatter PYASC_SIM_DT_UNCHECKED
#endif

namespace AscendC {
namespace sim_detail {

// Writes src element at `si` to dst byte offset base + off[oi], for each (si, oi) pair `each` yields.
template <typename T, typename Each>
inline void scatter_pairs(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                          uint32_t base, uint64_t n, Each each, const pyasc_sim::kapi::SrcLoc &loc) {
    const bool checks = pyasc_sim::kapi::blk().checks;
    dst.check_aligned("Scatter", "dst", loc);
    src.check_aligned("Scatter", "src", loc);
    dstOffset.check_aligned("Scatter", "dstOffset", loc);
    // Sources first (offsets, elements, alignment, duplicates), then the writes.
    std::vector<std::pair<uint64_t, uint64_t>> pairs;  // (src element, dst byte offset)
    pairs.reserve(static_cast<size_t>(n));
    std::unordered_map<uint64_t, uint64_t> seen;
    if (checks) seen.reserve(static_cast<size_t>(n));
    for (uint64_t k = 0; k < n; ++k) {
        uint64_t si = 0, oi = 0;
        if (!each(k, si, oi)) continue;
        if (checks) {
            dstOffset.check_read(static_cast<int64_t>(oi), 1, "Scatter", loc);
            src.check_read(static_cast<int64_t>(si), 1, "Scatter", loc);
        }
        const uint64_t off = static_cast<uint64_t>(base) + dstOffset.ptr()[oi];
        if (checks) {
            if (off % sizeof(T) != 0) {
                pyasc_sim::kapi::fail("ub-alignment", loc,
                                      "Scatter: dstOffset[%llu] = %u (+ dstBaseAddr %u) is not a multiple of the "
                                      "%zu-byte element size; offsets are in bytes",
                                      static_cast<unsigned long long>(oi), dstOffset.ptr()[oi], base, sizeof(T));
            }
            const auto ins = seen.emplace(off, oi);
            if (!ins.second) {
                pyasc_sim::kapi::fail("scatter-duplicate", loc,
                                      "Scatter: dstOffset[%llu] and dstOffset[%llu] both address byte %llu of dst; "
                                      "the reference says repeated offsets give unpredictable results",
                                      static_cast<unsigned long long>(ins.first->second),
                                      static_cast<unsigned long long>(oi), static_cast<unsigned long long>(off));
            }
        }
        pairs.emplace_back(si, off);
    }
    for (const auto &p : pairs) {
        if (checks) dst.check_vec_dst(static_cast<int64_t>(p.second / sizeof(T)), 1, "Scatter", loc);
        std::memcpy(reinterpret_cast<uint8_t *>(dst.ptr()) + p.second, src.ptr() + p.first, sizeof(T));
    }
}

}  // namespace sim_detail

template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                    const uint32_t dstBaseAddr, const uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Scatter, T);
    sim_detail::scatter_pairs(dst, src, dstOffset, dstBaseAddr, count,
                              [](uint64_t k, uint64_t &si, uint64_t &oi) {
                                  si = oi = k;
                                  return true;
                              },
                              loc);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(count, sizeof(T)), 2.0));
}

namespace sim_detail {
template <typename T>
inline void scatter_repeat(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                           uint32_t base, const Mask &m, uint8_t repeatTime, uint8_t srcRepStride,
                           const pyasc_sim::kapi::SrcLoc &loc) {
    PYASC_SIM_DTYPE_CHECK(Scatter, T);
    constexpr uint32_t epr = 256 / sizeof(T);
    const uint64_t n = static_cast<uint64_t>(repeatTime) * epr;
    scatter_pairs(dst, src, dstOffset, base, n,
                  [&](uint64_t k, uint64_t &si, uint64_t &oi) {
                      const uint64_t r = k / epr;
                      const uint32_t j = static_cast<uint32_t>(k % epr);
                      if (!m.test(j)) return false;
                      si = r * srcRepStride * (32 / sizeof(T)) + j;
                      oi = k;
                      return true;
                  },
                  loc);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTime, 2.0));
}
}  // namespace sim_detail

template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                    const uint8_t srcRepStride, PYASC_SIM_LOC) {
    sim_detail::scatter_repeat(dst, src, dstOffset, dstBaseAddr,
                               sim_detail::mask_of<true>(mask, 256 / sizeof(T), "Scatter", loc), repeatTime,
                               srcRepStride, loc);
}
template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                    const uint8_t srcRepStride, PYASC_SIM_LOC) {
    sim_detail::scatter_repeat(dst, src, dstOffset, dstBaseAddr,
                               sim_detail::mask_of<true>(mask, 256 / sizeof(T), "Scatter", loc), repeatTime,
                               srcRepStride, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SCATTER_H_
