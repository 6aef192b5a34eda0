// Ascend C on the CPU -- BilinearInterpolation (ISASI): gather 8 DataBlocks of src0 by byte offsets,
// scale them by src1 and accumulate over the horizontal iterations.  Written from the public Ascend C
// API reference (asc-devkit docs/api/SIMD-API/基础API/Memory矢量计算/基础算术/BilinearInterpolation(ISASI).md);
// no CANN file was used.
//
// Iteration i = v * hRepeat + h (vertical v < vRepeat, horizontal h < hRepeat) reads the byte offsets
// src0Offset[8 i .. 8 i + 8), each the start of a src0 DataBlock; block k is multiplied element-wise by
// src1[i] (repeatMode false) or src1[8 i + k] (true).  Destination block k of vertical iteration v is
// at element v * vROffset + k * dstBlkStride * 16; h = 0 writes it, later h add to it (the page: "the
// current iteration's result is accumulated with the previous one, the dst address fixed within the
// horizontal iterations"); the page's example ([1..512], [2..17], offsets 0, 32, ..) gives 389, 394, ..
// 4096 this way.  Products and sums round to half per step.  The mask selects elements of the 8 blocks
// (128 lanes); unselected dst lanes keep their value.  Checks: offsets 32-byte aligned and inside src0,
// vROffset in [128, 65535) and 32-byte aligned, operands in bounds and initialised, sharedTmpBuffer of
// the documented size (Atlas A2: src0.GetSize() * 32 + src1.GetSize() * 32 bytes; the inference series
// AI Core: src0Offset.GetSize() * 4).
#ifndef PYASC_SIM_KAPI_BILINEAR_H_
#define PYASC_SIM_KAPI_BILINEAR_H_

#include <cstdint>
#include <vector>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

#if __CCE_AICORE__ == 220 || __CCE_AICORE__ == 200
#define PYASC_SIM_DT_BilinearInterpolation half  // source: asc-devkit BilinearInterpolation(ISASI).md (row T: A2 half, Atlas 推理系列产品AI Core half)
#else
#define PYASC_SIM_DT_BilinearInterpolation PYASC_SIM_DT_UNCHECKED
#endif

namespace AscendC {
namespace sim_detail {

template <typename T>
inline void bilinear(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src0Offset,
                     const LocalTensor<T> &src1, const Mask &m, uint8_t hRepeat, bool repeatMode,
                     uint16_t dstBlkStride, uint16_t vROffset, uint8_t vRepeat,
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const pyasc_sim::kapi::SrcLoc &loc) {
    PYASC_SIM_DTYPE_CHECK(BilinearInterpolation, T);
    static_assert(sizeof(T) == 2, "AscendC::BilinearInterpolation takes half");
    constexpr const char *api = "BilinearInterpolation";
    constexpr uint32_t epb = 32 / sizeof(T);
    const bool checks = pyasc_sim::kapi::blk().checks;
    const uint32_t iters = static_cast<uint32_t>(hRepeat) * vRepeat;
    if (checks) {
        if (hRepeat == 0 || vRepeat == 0) {
            pyasc_sim::kapi::fail("vector-count", loc, "%s: hRepeat %u and vRepeat %u must be in [1, 255]", api,
                                  static_cast<unsigned>(hRepeat), static_cast<unsigned>(vRepeat));
        }
        if (vRepeat > 1 && (vROffset < 128 || (vROffset * sizeof(T)) % 32 != 0)) {
            pyasc_sim::kapi::fail("vector-count", loc,
                                  "%s: vROffset %u must be in [128, 65535) with vROffset * sizeof(T) a multiple of 32",
                                  api, static_cast<unsigned>(vROffset));
        }
#if __CCE_AICORE__ == 200
        const int64_t need = static_cast<int64_t>(src0Offset.GetSize()) * 4;
        const char *rule = "src0Offset.GetSize() * 4 bytes on the Atlas inference series AI Core";
#else
        const int64_t need = static_cast<int64_t>(src0.GetSize()) * 32 + static_cast<int64_t>(src1.GetSize()) * 32;
        const char *rule = "src0.GetSize() * 32 + src1.GetSize() * 32 bytes on Atlas A2";
#endif
        if (static_cast<int64_t>(sharedTmpBuffer.GetSize()) < need) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "%s: sharedTmpBuffer holds %u bytes, the reference asks for %lld (%s)", api,
                                  sharedTmpBuffer.GetSize(), static_cast<long long>(need), rule);
        }
        sharedTmpBuffer.check_bounds(0, need, "BilinearInterpolation sharedTmpBuffer", loc);
        dst.check_aligned(api, "dst", loc);
        src0.check_aligned(api, "src0", loc);
        src1.check_aligned(api, "src1", loc);
        src0Offset.check_aligned(api, "src0Offset", loc);
        src0Offset.check_read(0, static_cast<int64_t>(iters) * 8, api, loc);
        src1.check_read(0, static_cast<int64_t>(iters) * (repeatMode ? 8 : 1), api, loc);
    }
    // Reads: every selected block of src0, before any write (dst may not overlap the sources).
    std::vector<float> acc(static_cast<size_t>(vRepeat) * 8 * epb, 0.0f);
    for (uint32_t v = 0; v < vRepeat; ++v) {
        for (uint32_t h = 0; h < hRepeat; ++h) {
            const uint32_t i = v * hRepeat + h;
            for (uint32_t k = 0; k < 8; ++k) {
                const uint32_t off = src0Offset.ptr()[8 * i + k];
                if (checks) {
                    if (off % 32 != 0) {
                        pyasc_sim::kapi::fail("ub-alignment", loc,
                                              "%s: src0Offset[%u] = %u is not a multiple of 32; each offset is the "
                                              "byte start of a src0 DataBlock",
                                              api, 8 * i + k, off);
                    }
                    src0.check_bytes(off, 32, "BilinearInterpolation reads", loc);
                }
                const T *blk = reinterpret_cast<const T *>(reinterpret_cast<const uint8_t *>(src0.ptr()) + off);
                const float w = pyasc_sim::kapi::to_double(src1.ptr()[repeatMode ? 8 * i + k : i]);
                for (uint32_t e = 0; e < epb; ++e) {
                    float &a = acc[(static_cast<size_t>(v) * 8 + k) * epb + e];
                    const float p = static_cast<float>(static_cast<T>(static_cast<float>(blk[e]) * w));
                    a = h == 0 ? p : static_cast<float>(static_cast<T>(a + p));
                }
            }
        }
    }
    for (uint32_t v = 0; v < vRepeat; ++v) {
        for (uint32_t k = 0; k < 8; ++k) {
            const int64_t at = static_cast<int64_t>(v) * vROffset + static_cast<int64_t>(k) * dstBlkStride * epb;
            bool any = false;
            for (uint32_t e = 0; e < epb; ++e) any = any || m.test(k * epb + e);
            if (!any) continue;
            if (checks) dst.check_vec_dst(at, epb, api, loc);
            for (uint32_t e = 0; e < epb; ++e) {
                if (m.test(k * epb + e)) dst.ptr()[at + e] = static_cast<T>(acc[(static_cast<size_t>(v) * 8 + k) * epb + e]);
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(iters, 2.0));
}

}  // namespace sim_detail

template <typename T>
inline void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<uint32_t> &src0Offset, const LocalTensor<T> &src1, uint64_t mask[],
                                  uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                  uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    sim_detail::bilinear(dst, src0, src0Offset, src1, sim_detail::mask_of<true>(mask, 256 / sizeof(T), "BilinearInterpolation", loc),
                         hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer, loc);
}
template <typename T>
inline void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<uint32_t> &src0Offset, const LocalTensor<T> &src1, uint64_t mask,
                                  uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                  uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    sim_detail::bilinear(dst, src0, src0Offset, src1, sim_detail::mask_of<true>(mask, 256 / sizeof(T), "BilinearInterpolation", loc),
                         hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_BILINEAR_H_
