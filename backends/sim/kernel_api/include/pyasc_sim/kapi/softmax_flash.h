// Ascend C on the CPU -- SoftmaxFlashV2 and SoftmaxFlash, the FlashAttention softmax updates
// (lib/activation/softmaxflashv2.h, softmaxflash.h).  Semantics from the public Ascend C reference
// (the pages' Python formulas); math in double per row, rounded once per output element (the hardware
// composes basic instructions: results can differ in the last bits); exp(x - max) of each row is staged in
// float in sharedTmpBuffer (kapi/hl_tmp.h: smaller than GetSoftMaxFlashV2MinTmpSize / GetSoftMaxFlashMinTmpSize
// reports is an error; the forms without it stage in host memory).  The SoftMaxTiling fields the host computes
// are accepted, the shape comes from SoftMaxShapeInfo (or tiling.srcM / srcK when the shape is left empty), as
// in kapi/softmax.h.
#ifndef PYASC_SIM_KAPI_SOFTMAX_FLASH_H_
#define PYASC_SIM_KAPI_SOFTMAX_FLASH_H_

#include <cmath>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/softmax.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// SoftmaxConfig (template parameter of SoftmaxFlashV2): mode SOFTMAX_NORMAL broadcasts each row's
// max / sum over one 32-byte block; SOFTMAX_OUTPUT_WITHOUT_BRC keeps one element per row.
enum class SoftmaxMode : uint8_t { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

// The kernel-side tiling function: fills the shape fields the simulator reads (srcM, srcK, srcSize).
inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo &shapeInfo, const uint32_t dataTypeSize1,
                                                       const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                       const bool isUpdate = false, const bool isBasicBlock = false,
                                                       const bool isDataFormatNZ = false,
                                                       const bool isFlashOutputBrc = false) {
    SoftMaxTiling t{};
    t.srcM = shapeInfo.srcM;
    t.srcK = shapeInfo.srcK;
    t.srcSize = shapeInfo.srcM * shapeInfo.srcK;
    (void)dataTypeSize1, (void)dataTypeSize2, (void)localWorkSpaceSize, (void)isUpdate, (void)isBasicBlock,
        (void)isDataFormatNZ, (void)isFlashOutputBrc;
    return t;
}

namespace sim_detail {

// A high-level API input: bounds, alignment, pipe order and initcheck as a vector source.
template <typename T>
inline void hl_in(const LocalTensor<T> &t, const char *api, const char *name, int64_t elems, const SrcLoc &loc) {
    t.check_aligned(api, name, loc);
    t.check_read(0, elems, api, loc);
}
// A high-level API output: bounds, alignment, pipe order; marked written.
template <typename T>
inline void hl_out(const LocalTensor<T> &t, const char *api, const char *name, int64_t elems, const SrcLoc &loc) {
    t.check_aligned(api, name, loc);
    t.check_vec_dst(0, elems, api, loc);
}

inline SoftMaxShapeInfo flash_shape(const SoftMaxShapeInfo &s, const SoftMaxTiling &tiling) {
    return s.srcM == 0 ? SoftMaxShapeInfo{tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK} : s;
}

// What a flash step writes.  dst (T) = exp(x - max) (V2) or the normalised softmax (V1); sum / max
// (U) the running statistics; expMax (T) exp(inMax - max) (V2) or exp(inMax - max) * inSum / sum (V1);
// reduceMax (U, optional) the max of this block alone.  inSum / inMax are read and expMax written
// only when update (the reference returns no exp_max otherwise).
enum class FlashKind { kV1, kV2 };
template <typename T, typename U>
inline void softmax_flash_rows(FlashKind kind, const char *api, const LocalTensor<T> &dst, const LocalTensor<U> *reduceMax,
                               const LocalTensor<U> &sum, const LocalTensor<U> &max, const LocalTensor<T> &src,
                               const LocalTensor<T> &expMax, const LocalTensor<U> &inSum, const LocalTensor<U> &inMax,
                               bool update, bool brc, const SoftMaxShapeInfo &s, const LocalTensor<uint8_t> *tmp,
                               const SrcLoc &loc) {
    const uint32_t m = s.srcM, k = s.srcK, valid = s.oriSrcK == 0 ? s.srcK : s.oriSrcK;
    if (pyasc_sim::kapi::blk().checks && (k == 0 || valid > k || (k * sizeof(T)) % 32 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "%s: shape {srcM %u, srcK %u, oriSrcK %u}: srcK * sizeof(T) = %zu bytes must be a non-zero "
                              "multiple of 32 and oriSrcK <= srcK (pass SoftMaxShapeInfo{rows, alignedCols, rows, cols})",
                              api, m, k, s.oriSrcK, static_cast<size_t>(k) * sizeof(T));
    }
    const uint32_t per_u = brc ? 32 / sizeof(U) : 1, per_t = brc ? 32 / sizeof(T) : 1;
    const int64_t rows = m;
    // sources first (initcheck / pipe order), then destinations
    hl_in(src, api, "srcTensor", rows * k, loc);
    if (update) {
        hl_in(inSum, api, "inExpSumTensor", rows * per_u, loc);
        hl_in(inMax, api, "inMaxTensor", rows * per_u, loc);
    }
    hl_out(dst, api, "dstTensor", rows * k, loc);
    hl_out(sum, api, "expSumTensor", rows * per_u, loc);
    hl_out(max, api, "maxTensor", rows * per_u, loc);
    if (update) hl_out(expMax, api, "expMaxTensor", rows * per_t, loc);
    if (reduceMax != nullptr) hl_out(*reduceMax, api, "outReduceMax", rows * per_u, loc);
    using pyasc_sim::kapi::to_double;
    // exp(x - max) of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::softmax_flash(m, k), api,
                    kind == FlashKind::kV1 ? "GetSoftMaxFlashMinTmpSize" : "GetSoftMaxFlashV2MinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(k) * 4);
    for (uint32_t r = 0; r < m; ++r) {
        float *e = stage.as<float>() + (r % rows_per) * k;
        const T *x = src.ptr() + static_cast<int64_t>(r) * k;
        double bmax = -INFINITY;
        for (uint32_t i = 0; i < valid; ++i) bmax = std::max(bmax, to_double(x[i]));
        // the running statistics of earlier blocks, read before this row's outputs (they may alias)
        const double in_max = update ? to_double(inMax.ptr()[r * per_u]) : -INFINITY;
        const double in_sum = update ? to_double(inSum.ptr()[r * per_u]) : 0.0;
        const double mx = update ? std::max(in_max, bmax) : bmax;
        double part = 0.0;
        for (uint32_t i = 0; i < valid; ++i) {
            e[i] = static_cast<float>(std::exp(to_double(x[i]) - mx));
            part += e[i];
        }
        const double scale = update ? std::exp(in_max - mx) : 0.0;
        const double total = update ? scale * in_sum + part : part;
        const double em = kind == FlashKind::kV1 ? scale * in_sum / total : scale;
        T *y = dst.ptr() + static_cast<int64_t>(r) * k;
        for (uint32_t i = 0; i < valid; ++i) {
            y[i] = static_cast<T>(kind == FlashKind::kV1 ? static_cast<double>(e[i]) / total : static_cast<double>(e[i]));
        }
        for (uint32_t j = 0; j < per_u; ++j) {
            sum.ptr()[r * per_u + j] = static_cast<U>(total);
            max.ptr()[r * per_u + j] = static_cast<U>(mx);
            if (reduceMax != nullptr) reduceMax->ptr()[r * per_u + j] = static_cast<U>(bmax);
        }
        if (update) {
            for (uint32_t j = 0; j < per_t; ++j) expMax.ptr()[r * per_t + j] = static_cast<T>(em);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(m) * k, sizeof(T)), 12.0));
}

template <bool isDataFormatNZ, const SoftmaxConfig &config>
inline bool flash_v2_brc() {
    static_assert(!isDataFormatNZ,
                  "pyasc_sim: SoftmaxFlashV2 with isDataFormatNZ = true (NZ layout) is not supported by the simulator; "
                  "use the ND layout (see backends/sim/kernel_api/README.md)");
    return config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
}
inline SoftMaxShapeInfo flash_v2_shape(const SoftMaxShapeInfo &s, const SoftMaxTiling &tiling, const SoftmaxConfig &c) {
    SoftMaxShapeInfo r = flash_shape(s, tiling);
    if (c.oriSrcM != 0) r.oriSrcM = c.oriSrcM;
    if (c.oriSrcK != 0) r.oriSrcK = c.oriSrcK;
    return r;
}
}  // namespace sim_detail

// ---- SoftmaxFlashV2 (FlashAttention-2): dst = exp(x - M) unnormalised; without update M = rowmax(x),
// S = rowsum(dst); with update M = max(inMax, rowmax(x)), E = exp(inMax - M), S = E * inSum + rowsum(dst).
#define PYASC_SIM_FLASH_V2_TPL                                                                               \
    template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,      \
              bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
#define PYASC_SIM_FLASH_V2(D, U, TMP)                                                                           \
    sim_detail::softmax_flash_rows<D, U>(sim_detail::FlashKind::kV2, "SoftmaxFlashV2", dstTensor, nullptr,   \
                                         expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor,   \
                                         inMaxTensor, isUpdate, sim_detail::flash_v2_brc<isDataFormatNZ, config>(), \
                                         sim_detail::flash_v2_shape(softmaxShapeInfo, tiling, config), TMP, loc)
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &expSumTensor,
                           const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<T> &inExpSumTensor,
                           const LocalTensor<T> &inMaxTensor, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, T);
    PYASC_SIM_FLASH_V2(T, T, sim_detail::no_tmp());
}
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &expSumTensor,
                           const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<T> &inExpSumTensor,
                           const LocalTensor<T> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, T);
    PYASC_SIM_FLASH_V2(T, T, &sharedTmpBuffer);
}
// Mixed precision: half data, float statistics (expMaxTensor half).
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<half> &dstTensor, const LocalTensor<float> &expSumTensor,
                           const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                           const LocalTensor<half> &expMaxTensor, const LocalTensor<float> &inExpSumTensor,
                           const LocalTensor<float> &inMaxTensor, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, half);
    PYASC_SIM_FLASH_V2(half, float, sim_detail::no_tmp());
}
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<half> &dstTensor, const LocalTensor<float> &expSumTensor,
                           const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                           const LocalTensor<half> &expMaxTensor, const LocalTensor<float> &inExpSumTensor,
                           const LocalTensor<float> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, half);
    PYASC_SIM_FLASH_V2(half, float, &sharedTmpBuffer);
}
#undef PYASC_SIM_FLASH_V2
// With outReduceMax (this block's own row max; non-broadcast mode, as documented; Atlas A2 / A3).
#define PYASC_SIM_FLASH_V2_RED(TMP)                                                                          \
    sim_detail::softmax_flash_rows<T, T>(sim_detail::FlashKind::kV2, "SoftmaxFlashV2", dstTensor,            \
                                         isUpdate ? &outReduceMax : nullptr, expSumTensor, maxTensor, srcTensor, \
                                         expMaxTensor, inExpSumTensor, inMaxTensor, isUpdate,                 \
                                         sim_detail::flash_v2_brc<isDataFormatNZ, config>(),                  \
                                         sim_detail::flash_v2_shape(softmaxShapeInfo, tiling, config), TMP, loc)
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &outReduceMax,
                           const LocalTensor<T> &expSumTensor, const LocalTensor<T> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<T> &inExpSumTensor, const LocalTensor<T> &inMaxTensor,
                           const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, T);
    PYASC_SIM_FLASH_V2_RED(sim_detail::no_tmp());
}
PYASC_SIM_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &outReduceMax,
                           const LocalTensor<T> &expSumTensor, const LocalTensor<T> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<T> &inExpSumTensor, const LocalTensor<T> &inMaxTensor,
                           const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlashV2, T);
    PYASC_SIM_FLASH_V2_RED(&sharedTmpBuffer);
}
#undef PYASC_SIM_FLASH_V2_RED
#undef PYASC_SIM_FLASH_V2_TPL

// ---- SoftmaxFlash (deprecated by the reference in favour of V2): dst is the normalised softmax;
// with isUpdate M = max(inMax, rowmax(x)), S = exp(inMax - M) * inSum + rowsum(exp(x - M)),
// dst = exp(x - M) / S, expMax = exp(inMax - M) * inSum / S (the factor for the earlier output).
#define PYASC_SIM_FLASH_V1(T, U, TMP)                                                                        \
    sim_detail::softmax_flash_rows<T, U>(sim_detail::FlashKind::kV1, "SoftmaxFlash", dstTensor, nullptr, sumTensor, \
                                         maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, isUpdate, \
                                         true, sim_detail::flash_shape(softmaxShapeInfo, tiling), TMP, loc)
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                         const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                         const LocalTensor<T> &inSumTensor, const LocalTensor<T> &inMaxTensor, const SoftMaxTiling &tiling,
                         bool isUpdate = false, const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlash, T);
    PYASC_SIM_FLASH_V1(T, T, sim_detail::no_tmp());
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                         const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                         const LocalTensor<T> &inSumTensor, const LocalTensor<T> &inMaxTensor,
                         const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlash, T);
    PYASC_SIM_FLASH_V1(T, T, &sharedTmpBuffer);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                         const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                         const LocalTensor<half> &expMaxTensor, const LocalTensor<float> &inSumTensor,
                         const LocalTensor<float> &inMaxTensor, const SoftMaxTiling &tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlash, half);
    PYASC_SIM_FLASH_V1(half, float, sim_detail::no_tmp());
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                         const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                         const LocalTensor<half> &expMaxTensor, const LocalTensor<float> &inSumTensor,
                         const LocalTensor<float> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                         const SoftMaxTiling &tiling, bool isUpdate = false, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                         PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(SoftmaxFlash, half);
    PYASC_SIM_FLASH_V1(half, float, &sharedTmpBuffer);
}
#undef PYASC_SIM_FLASH_V1

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SOFTMAX_FLASH_H_
