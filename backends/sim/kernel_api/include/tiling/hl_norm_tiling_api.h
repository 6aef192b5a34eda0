// tiling/hl_norm_tiling_api.h -- host tiling of Sum, Mean, SoftMax / SimpleSoftMax, SoftmaxFlash / SoftmaxFlashV2,
// LayerNorm, RmsNorm, DeepNorm, LayerNormGrad and LayerNormGradBeta, with the signatures the reference documents:
// GetSumMaxMinTmpSize, GetMeanMaxMinTmpSize, GetSoftMaxMax/MinTmpSize, SoftMaxTilingFunc, GetSoftMaxGradMax/MinTmpSize,
// SoftMaxGradTilingFunc, GetLayerNormMaxMinTmpSize,
// GetLayerNormNDTilingInfo (and the deprecated GetLayerNormNDTillingInfo), GetRmsNormMaxMinTmpSize,
// GetRmsNormTilingInfo, GetSoftMaxFlashV2Min/MaxTmpSize, SoftMaxFlashV2TilingFunc, GetSoftMaxFlashMin/MaxTmpSize,
// SoftMaxFlashTilingFunc, GetDeepNormMaxMinTmpSize, GetDeepNormTilingInfo, GetLayerNormGradMaxMinTmpSize,
// GetLayerNormGradNDTilingInfo, GetLayerNormGradBetaMaxMinTmpSize, GetLayerNormGradBetaNDTilingInfo.  The sizes come
// from pyasc_sim/kapi/hl_tmp_sizes.h, what the kernel side stages in sharedTmpBuffer and checks it against: a buffer
// of the reported minimum works, one byte less is refused.  The tiling functions fill the shape fields the simulator
// reads (and SoftMaxTiling's row split for localWorkSpaceSize); stackBufferSize is recorded. Arguments the reference
// does not allow print a line naming them to stderr and report 0 (false for the bool helpers) or leave the tiling
// zero, which the kernel then refuses.  pyasc_sim.hl_tiling_tmp and pyasc_sim.hl_tiling_norm give the same numbers
// in Python.
#ifndef PYASC_SIM_SDK_TILING_HL_NORM_TILING_API_H_
#define PYASC_SIM_SDK_TILING_HL_NORM_TILING_API_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "kernel_operator.h"  // the kernel-side tiling structs (SoftMaxTiling, LayerNormTiling, DeepNormTiling, ...)
#include "pyasc_sim/kapi/hl_tmp_sizes.h"

namespace optiling {
using ::DeepNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormTiling;
using ::RmsNormTiling;
using ::SoftMaxTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
using ::DeepNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormTiling;
using ::RmsNormTiling;
using ::SoftMaxTiling;
}  // namespace tiling

namespace pyasc_norm_host {
inline bool refuse(const char *api, const char *why) {
    std::fprintf(stderr, "pyasc: AscendC::%s: %s\n", api, why);
    return false;
}
// [m, k] of a softmax source: k the last dim, m the product of the others
struct Rows {
    uint64_t m = 0, k = 0;
};
inline bool flash_shape(const char *api, const ge::Shape &s, uint32_t size1, uint32_t size2, Rows &out) {
    if (s.GetDimNum() == 0) return refuse(api, "srcShape has no dims");
    uint64_t m = 1;
    for (size_t i = 0; i < s.GetDimNum(); ++i) {
        if (s.GetDim(i) <= 0) return refuse(api, "every dim of srcShape must be positive");
        if (i + 1 < s.GetDimNum()) m *= static_cast<uint64_t>(s.GetDim(i));
    }
    if (!((size1 == 2 && size2 == 2) || (size1 == 4 && size2 == 4) || (size1 == 2 && size2 == 4))) {
        return refuse(api, "dataTypeSize1 / dataTypeSize2 must be 2 / 2 (half), 4 / 4 (float) or 2 / 4 (half data, "
                           "float statistics)");
    }
    const uint64_t k = static_cast<uint64_t>(s.GetDim(s.GetDimNum() - 1));
    if (k * size1 % 32 != 0) return refuse(api, "the last dim * dataTypeSize1 must be a multiple of 32 bytes");
    out = Rows{m, k};
    return true;
}
// {B, S, H} (or {B, S, H, originH} for the grads): rows = B * S, h = H
struct Bsh {
    uint64_t b = 0, s = 0, h = 0, oh = 0;
};
inline bool bsh_shape(const char *api, const ge::Shape &shape, uint32_t typeSize, bool allow4, Bsh &out) {
    const size_t n = shape.GetDimNum();
    if (n != 3 && !(allow4 && n == 4)) {
        return refuse(api, allow4 ? "srcShape must be {B, S, H} or {B, S, H, originH}" : "srcShape must be {B, S, H}");
    }
    for (size_t i = 0; i < n; ++i) {
        if (shape.GetDim(i) <= 0) return refuse(api, "every dim of srcShape must be positive");
    }
    if (typeSize != 2 && typeSize != 4) return refuse(api, "typeSize must be 2 (half) or 4 (float)");
    const uint64_t h = static_cast<uint64_t>(shape.GetDim(2));
    if (h * typeSize % 32 != 0) return refuse(api, "H * typeSize must be a multiple of 32 bytes (pad H)");
    const uint64_t oh = n == 4 ? static_cast<uint64_t>(shape.GetDim(3)) : h;
    if (oh > h) return refuse(api, "originH must not exceed H");
    out = Bsh{static_cast<uint64_t>(shape.GetDim(0)), static_cast<uint64_t>(shape.GetDim(1)), h, oh};
    return true;
}
inline uint32_t u32(uint64_t v) { return static_cast<uint32_t>(v); }
}  // namespace pyasc_norm_host

// ---- SoftmaxFlashV2 / SoftmaxFlash -------------------------------------------------------------------------
// isUpdate, isBasicBlock, isFlashOutputBrc / isReuseSource do not change what the simulator stages.
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate, (void)isBasicBlock, (void)isFlashOutputBrc;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax_flash(r.m, r.k).min_bytes);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate, (void)isBasicBlock, (void)isFlashOutputBrc;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax_flash(r.m, r.k).max_bytes);
}
namespace pyasc_norm_host {
// the rows one localWorkSpaceSize holds (at least the minimum), split into rangeM passes and a tail
inline void flash_tiling(const char *api, const char *helper, const ge::Shape &srcShape, uint32_t size1,
                         uint32_t size2, uint32_t localWorkSpaceSize, bool brc, ::SoftMaxTiling &t) {
    t = ::SoftMaxTiling{};
    Rows r;
    if (!flash_shape(api, srcShape, size1, size2, r)) return;
    const auto range = pyasc_sim::hl_tmp::softmax_flash(r.m, r.k);
    if (localWorkSpaceSize < range.min_bytes) {
        std::fprintf(stderr, "pyasc: AscendC::%s: localWorkSpaceSize %u is less than the %llu bytes %s reports\n", api,
                     localWorkSpaceSize, static_cast<unsigned long long>(range.min_bytes), helper);
        return;
    }
    const uint64_t per = brc ? 32 / size2 : 1;
    uint64_t split = localWorkSpaceSize / (r.k * 4);
    if (split > r.m) split = r.m;
    const uint64_t tail = r.m % split;
    t.srcM = u32(r.m), t.srcK = u32(r.k), t.srcSize = u32(r.m * r.k);
    t.outMaxM = u32(r.m), t.outMaxK = u32(per), t.outMaxSize = u32(r.m * per);
    t.splitM = u32(split), t.splitK = u32(r.k), t.splitSize = u32(split * r.k);
    t.reduceM = u32(split), t.reduceK = u32(per), t.reduceSize = u32(split * per);
    t.rangeM = u32(r.m / split), t.tailM = u32(tail), t.tailSplitSize = u32(tail * r.k);
    t.tailReduceSize = u32(tail * per);
}
}  // namespace pyasc_norm_host
// optiling::SoftMaxTiling and AscendC::tiling::SoftMaxTiling are the one kernel-side struct on the simulator
inline void SoftMaxFlashV2TilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     ::SoftMaxTiling &softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate, (void)isBasicBlock;
    pyasc_norm_host::flash_tiling("SoftMaxFlashV2TilingFunc", "GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1,
                                  dataTypeSize2, localWorkSpaceSize, !isFlashOutputBrc, softmaxFlashTiling);
}
// SoftmaxFlash (deprecated by the reference): dataTypeSize is that of the data and of the statistics
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate, (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxFlashMinTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax_flash(r.m, r.k).min_bytes);
}
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate, (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxFlashMaxTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax_flash(r.m, r.k).max_bytes);
}
inline void SoftMaxFlashTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, ::SoftMaxTiling &softmaxFlashTiling,
                                   const bool isUpdate = false) {
    (void)isUpdate;
    pyasc_norm_host::flash_tiling("SoftMaxFlashTilingFunc", "GetSoftMaxFlashMinTmpSize", srcShape, dataTypeSize,
                                  dataTypeSize, localWorkSpaceSize, true, softmaxFlashTiling);
}

// ---- Sum / Mean: n values a row; the maximum equals the minimum, as documented ------------------------------
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t &maxSize,
                                uint32_t &minSize) {
    (void)isReuseSource;
    maxSize = minSize = 0;
    if (n == 0 || (typeSize != 2 && typeSize != 4)) {
        pyasc_norm_host::refuse("GetSumMaxMinTmpSize", "need n > 0 and typeSize 2 (half) or 4 (float)");
        return;
    }
    maxSize = minSize = pyasc_norm_host::u32(pyasc_sim::hl_tmp::row_reduce(n).min_bytes);
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t &maxSize, uint32_t &minSize) {
    (void)isReuseSource;
    maxSize = minSize = 0;
    if (n == 0 || (srcTypeSize != 2 && srcTypeSize != 4) || (accTypeSize != 2 && accTypeSize != 4) ||
        accTypeSize < srcTypeSize) {
        pyasc_norm_host::refuse("GetMeanMaxMinTmpSize",
                                "need n > 0, srcTypeSize 2 or 4 and accTypeSize 2 or 4, not smaller than srcTypeSize");
        return;
    }
    maxSize = minSize = pyasc_norm_host::u32(pyasc_sim::hl_tmp::row_reduce(n).min_bytes);
}

// ---- SoftMax / SimpleSoftMax: dataTypeSize of the data and of sum / max ----------------------------------
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax(r.m, r.k).max_bytes);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax(r.m, r.k).min_bytes);
}
inline void SoftMaxTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              ::SoftMaxTiling &softmaxTiling) {
    pyasc_norm_host::flash_tiling("SoftMaxTilingFunc", "GetSoftMaxMinTmpSize", srcShape, dataTypeSize, dataTypeSize,
                                  localWorkSpaceSize, true, softmaxTiling);
}

// ---- SoftmaxGrad / SoftmaxGradFront: grad * src of a row staged in float, as SoftMax (isFront does not change it) --
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront, (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax(r.m, r.k).max_bytes);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront, (void)isReuseSource;
    pyasc_norm_host::Rows r;
    if (!pyasc_norm_host::flash_shape("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, dataTypeSize, r)) return 0;
    return pyasc_norm_host::u32(pyasc_sim::hl_tmp::softmax(r.m, r.k).min_bytes);
}
inline void SoftMaxGradTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, ::SoftMaxTiling &softmaxGradTiling,
                                  const bool isFront = false) {
    (void)isFront;
    pyasc_norm_host::flash_tiling("SoftMaxGradTilingFunc", "GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize,
                                  dataTypeSize, localWorkSpaceSize, true, softmaxGradTiling);
}

// ---- LayerNorm (srcShape {B, S, H} or {B, S, H, originH}) and RmsNorm (srcShape {B, S, H}, originSrcShape) ----
// isReuseSource / isBasicBlock do not change what the simulator stages (isBasicBlock's shape rule is checked).
inline void GetLayerNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormMaxMinTmpSize", srcShape, typeSize, true, d)) return;
    const auto r = pyasc_sim::hl_tmp::layernorm(d.b * d.s, d.h);
    maxValue = pyasc_norm_host::u32(r.max_bytes);
    minValue = pyasc_norm_host::u32(r.min_bytes);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, ::LayerNormTiling &tiling) {
    (void)isReuseSource, (void)stackBufferSize;
    using pyasc_norm_host::u32;
    tiling = ::LayerNormTiling{};
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormNDTilingInfo", srcShape, typeSize, true, d)) return;
    const uint64_t rows = d.b * d.s, n = rows * d.h;
    tiling.bLength = u32(d.b), tiling.sLength = u32(d.s), tiling.hLength = u32(d.h), tiling.originalHLength = u32(d.oh);
    tiling.inputXSize = u32(n), tiling.meanVarSize = u32(rows), tiling.loopRound = 1, tiling.inputRoundSize = u32(n);
    tiling.meanVarRoundSize = u32(rows), tiling.bshCurLength = u32(n), tiling.bsCurLength = u32(rows);
    tiling.lastDimValueBack = 1.0f / static_cast<float>(d.oh);
}
// the spelling of earlier releases (deprecated by the reference)
inline void GetLayerNormNDTillingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, ::LayerNormTiling &tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}
namespace pyasc_norm_host {
inline bool rmsnorm_shape(const char *api, const ge::Shape &srcShape, uint32_t typeSize, bool isBasicBlock, Bsh &d) {
    if (!bsh_shape(api, srcShape, typeSize, false, d)) return false;
    if (isBasicBlock && (d.h % 64 != 0 || d.b * d.s % 8 != 0)) {
        return refuse(api, "isBasicBlock needs H a multiple of 64 and B * S a multiple of 8");
    }
    return true;
}
}  // namespace pyasc_norm_host
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                    uint32_t &minValue, const bool isBasicBlock = false) {
    maxValue = minValue = 0;
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::rmsnorm_shape("GetRmsNormMaxMinTmpSize", srcShape, typeSize, isBasicBlock, d)) return false;
    const auto r = pyasc_sim::hl_tmp::rmsnorm(d.b * d.s, d.h);
    maxValue = pyasc_norm_host::u32(r.max_bytes);
    minValue = pyasc_norm_host::u32(r.min_bytes);
    return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape &srcShape, const ge::Shape &originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize, ::RmsNormTiling &tiling,
                                 const bool isBasicBlock = false) {
    using pyasc_norm_host::u32;
    tiling = ::RmsNormTiling{};
    const char *api = "GetRmsNormTilingInfo";
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::rmsnorm_shape(api, srcShape, typeSize, isBasicBlock, d)) return false;
    if (originSrcShape.GetDimNum() != 3 || originSrcShape.GetDim(2) <= 0 ||
        static_cast<uint64_t>(originSrcShape.GetDim(2)) > d.h) {
        return pyasc_norm_host::refuse(api, "originSrcShape must be {B, S, originH} with 0 < originH <= H");
    }
    const uint64_t oh = static_cast<uint64_t>(originSrcShape.GetDim(2));
    if (stackBufferByteSize < pyasc_sim::hl_tmp::rmsnorm(d.b * d.s, d.h).min_bytes) {
        return pyasc_norm_host::refuse(api, "stackBufferByteSize is less than GetRmsNormMaxMinTmpSize's minimum");
    }
    const uint64_t rows = d.b * d.s;
    tiling.bLength = u32(d.b), tiling.sLength = u32(d.s), tiling.hLength = u32(d.h), tiling.originalHLength = u32(oh);
    tiling.reciprocalOfHLength = 1.0f / static_cast<float>(oh);
    tiling.mainBshLength = u32(rows * d.h), tiling.mainBsLength = u32(rows), tiling.mainBsLengthAlign = u32((rows + 7) / 8 * 8);
    tiling.loopRound = 1;
    return true;
}

// ---- DeepNorm: srcShape {B, S, H} (H <= 2040), originSrcShape {B, S, originH} -----------------------------
namespace pyasc_norm_host {
inline bool deepnorm_shape(const char *api, const ge::Shape &srcShape, uint32_t typeSize, bool isReuseSource,
                           bool isBasicBlock, Bsh &d) {
    if (!bsh_shape(api, srcShape, typeSize, false, d)) return false;
    if (d.h > 2040) return refuse(api, "H must not exceed 2040 (the documented limit)");
    if (isReuseSource && typeSize != 4) return refuse(api, "isReuseSource = true is documented for float only");
    if (isBasicBlock && (d.h % 64 != 0 || d.b * d.s % 8 != 0)) {
        return refuse(api, "isBasicBlock needs H a multiple of 64 and B * S a multiple of 8");
    }
    return true;
}
}  // namespace pyasc_norm_host
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t &maxValue, uint32_t &minValue) {
    maxValue = minValue = 0;
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::deepnorm_shape("GetDeepNormMaxMinTmpSize", srcShape, typeSize, isReuseSource, isBasicBlock,
                                         d)) {
        return false;
    }
    const auto r = pyasc_sim::hl_tmp::deepnorm(d.b * d.s, d.h);
    maxValue = pyasc_norm_host::u32(r.max_bytes);
    minValue = pyasc_norm_host::u32(r.min_bytes);
    return true;
}
inline bool GetDeepNormTilingInfo(const ge::Shape &srcShape, const ge::Shape &originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, ::DeepNormTiling &tiling) {
    using pyasc_norm_host::u32;
    tiling = ::DeepNormTiling{};
    const char *api = "GetDeepNormTilingInfo";
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::deepnorm_shape(api, srcShape, typeSize, isReuseSource, isBasicBlock, d)) return false;
    if (originSrcShape.GetDimNum() != 3 || originSrcShape.GetDim(0) != srcShape.GetDim(0) ||
        originSrcShape.GetDim(1) != srcShape.GetDim(1) || originSrcShape.GetDim(2) <= 0 ||
        static_cast<uint64_t>(originSrcShape.GetDim(2)) > d.h) {
        return pyasc_norm_host::refuse(api, "originSrcShape must be {B, S, originH} with 0 < originH <= H");
    }
    const uint64_t oh = static_cast<uint64_t>(originSrcShape.GetDim(2));
    if (isBasicBlock && oh != d.h) return pyasc_norm_host::refuse(api, "isBasicBlock needs originH equal to H");
    const uint64_t rows = d.b * d.s, n = rows * d.h;
    tiling.bLength = u32(d.b), tiling.sLength = u32(d.s), tiling.hLength = u32(d.h), tiling.originalHLength = u32(oh);
    tiling.inputXSize = u32(n), tiling.meanVarSize = u32(rows), tiling.tmpBufSize = stackBufferSize;
    tiling.loopRound = 1, tiling.inputRoundSize = u32(n), tiling.meanVarRoundSize = u32(rows);
    tiling.bshCurLength = u32(n), tiling.bsCurLength = u32(rows);
    tiling.lastDimValueBack = 1.0f / static_cast<float>(oh);
    return true;
}

// ---- LayerNormGrad / LayerNormGradBeta: srcShape {B, S, H} or {B, S, H, originH} ---------------------------
// isReuseSource does not change what the simulator stages.
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormGradMaxMinTmpSize", srcShape, typeSize, true, d)) return;
    const auto r = pyasc_sim::hl_tmp::layernorm_grad(d.b * d.s, d.h);
    maxValue = pyasc_norm_host::u32(r.max_bytes);
    minValue = pyasc_norm_host::u32(r.min_bytes);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         ::LayerNormGradTiling &tiling) {
    (void)isReuseSource;
    using pyasc_norm_host::u32;
    tiling = ::LayerNormGradTiling{};
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormGradNDTilingInfo", srcShape, typeSize, true, d)) return;
    tiling.stackBufferSize = stackBufferSize;
    tiling.bLength = u32(d.b), tiling.sLength = u32(d.s), tiling.hLength = u32(d.h), tiling.originalHLength = u32(d.oh);
    tiling.oneCalSize = u32(d.b * d.s * d.h), tiling.nohCalSize = u32(d.b * d.s), tiling.loopNum = 1;
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize, true, d)) return;
    const auto r = pyasc_sim::hl_tmp::layernorm_grad_beta(d.h);
    maxValue = pyasc_norm_host::u32(r.max_bytes);
    minValue = pyasc_norm_host::u32(r.min_bytes);
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             ::LayerNormGradBetaTiling &tiling) {
    (void)isReuseSource;
    using pyasc_norm_host::u32;
    tiling = ::LayerNormGradBetaTiling{};
    pyasc_norm_host::Bsh d;
    if (!pyasc_norm_host::bsh_shape("GetLayerNormGradBetaNDTilingInfo", srcShape, typeSize, true, d)) return;
    const uint64_t rows = d.b * d.s, n = rows * d.h;
    tiling.stackBufferSize = stackBufferSize;
    tiling.bLength = u32(d.b), tiling.sLength = u32(d.s), tiling.hLength = u32(d.h), tiling.originalHLength = u32(d.oh);
    tiling.bshLength = u32(n), tiling.bsLength = u32(rows), tiling.oneCalSize = u32(n), tiling.loopRound = 1;
    tiling.bshCurLength = u32(n), tiling.bsCurLength = u32(rows);
}
}  // namespace AscendC

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_HL_NORM_TILING_API_H_
