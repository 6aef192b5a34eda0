// tiling/hl_tmp_size_api.h -- host helpers reporting the sharedTmpBuffer sizes of Sigmoid, Silu, Tanh, Gelu /
// FasterGelu (GetSigmoidMaxMinTmpSize, GetSiluTmpSize, GetTanhMaxMinTmpSize, GetGeluMaxMinTmpSize / MaxTmpSize /
// MinTmpSize), CumSum, Pad / UnPad (with
// PadTilingFunc / UnPadTilingFunc), AscendQuant, AscendDequant and AscendAntiQuant (GetXxxMaxMinTmpSize,
// GetXxxTmpBufferFactorSize; signatures as the reference documents them). The sizes come from pyasc_sim/kapi/hl_tmp_sizes.h, the formula the kernel side
// checks the buffer against, so a buffer of the reported minimum works on the simulator and one byte less
// is refused. Arguments the reference does not allow (a CumSum shape that is not 2-D, a typeSize the API
// does not take, ...) print a line naming them to stderr and report 0 / 0, as CANN's helpers log and return.
// pyasc_sim.hl_tiling_tmp gives the same numbers in Python.
#ifndef PYASC_SIM_SDK_TILING_HL_TMP_SIZE_API_H_
#define PYASC_SIM_SDK_TILING_HL_TMP_SIZE_API_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>
#include <cstdio>

#include "graph/tensor.h"
#include "pyasc_sim/kapi/hl_tmp_sizes.h"
#include "pyasc_sim/kapi/pad_tiling.h"
#include "pyasc_sim/kapi/dt_names_begin.h"  // ge::DT_* below, also in an op build

namespace optiling {
using ::PadTiling;
using ::UnPadTiling;
}  // namespace optiling

namespace AscendC {
namespace pyasc_host_detail {
inline bool refuse(const char *api, const char *why) {
    std::fprintf(stderr, "pyasc: AscendC::%s: %s\n", api, why);
    return false;
}
inline void put(const pyasc_sim::hl_tmp::Range &r, uint32_t &maxValue, uint32_t &minValue) {
    maxValue = static_cast<uint32_t>(r.max_bytes);
    minValue = static_cast<uint32_t>(r.min_bytes);
}
inline uint64_t elems(const ge::Shape &s) {
    const int64_t n = s.GetShapeSize();
    return n > 0 ? static_cast<uint64_t>(n) : 0;
}
inline bool antiquant_types(const char *api, ge::DataType in, ge::DataType out) {
    if (in != ge::DT_INT8) return refuse(api, "inputDataType must be ge::DT_INT8 (the simulated input type)");
    if (out != ge::DT_FLOAT16 && out != ge::DT_BF16) {
        return refuse(api, "outputDataType must be ge::DT_FLOAT16 or ge::DT_BF16");
    }
    return true;
}
}  // namespace pyasc_host_detail

// ---- CumSum: srcShape {outter, inner}, typeSize 2 (half) or 4 (float), inner * typeSize a multiple of 32 ----
inline void GetCumSumMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    const char *api = "GetCumSumMaxMinTmpSize";
    if (srcShape.GetDimNum() != 2) {
        pyasc_host_detail::refuse(api, "srcShape must be 2-D {outter, inner}");
        return;
    }
    if (typeSize != 2 && typeSize != 4) {
        pyasc_host_detail::refuse(api, "typeSize must be 2 (half) or 4 (float)");
        return;
    }
    const int64_t outter = srcShape.GetDim(0), inner = srcShape.GetDim(1);
    if (outter <= 0 || inner <= 0 || (inner * typeSize) % 32 != 0) {
        pyasc_host_detail::refuse(api, "need outter, inner > 0 and inner * typeSize a multiple of 32 bytes");
        return;
    }
    pyasc_host_detail::put(pyasc_sim::hl_tmp::cumsum(static_cast<uint64_t>(outter), static_cast<uint64_t>(inner),
                                                     typeSize, isLastAxis),
                           maxValue, minValue);
}

// ---- Pad / UnPad: srcShape [height, width], typeSize 2 or 4; PadTilingFunc / UnPadTilingFunc fill the shape
// fields the simulator reads (srcHeight, srcWidth, srcOriWidth; the NPU's loop-split fields stay 0) -----------
namespace pyasc_host_detail {
inline bool pad_shape(const char *api, const ge::Shape &srcShape, uint32_t typeSize) {
    if (srcShape.GetDimNum() != 2 || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0) {
        return refuse(api, "srcShape must be 2-D [height, width] with both positive");
    }
    if (typeSize != 2 && typeSize != 4) return refuse(api, "typeSize must be 2 or 4 (Pad / UnPad's element types)");
    return true;
}
}  // namespace pyasc_host_detail
inline void GetPadMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                uint32_t &minValue) {
    maxValue = minValue = 0;
    if (!pyasc_host_detail::pad_shape("GetPadMaxMinTmpSize", srcShape, typeSize)) return;
    pyasc_host_detail::put(pyasc_sim::hl_tmp::pad_rows(static_cast<uint64_t>(srcShape.GetDim(0)),
                                                       static_cast<uint64_t>(srcShape.GetDim(1)), typeSize),
                           maxValue, minValue);
}
// ascendcPlatform (platform_ascendc::PlatformAscendC) does not change the simulator's size
template <typename Platform>
inline void GetUnPadMaxMinTmpSize(const Platform &ascendcPlatform, const ge::Shape &srcShape, const uint32_t typeSize,
                                  uint32_t &maxValue, uint32_t &minValue) {
    (void)ascendcPlatform;
    maxValue = minValue = 0;
    if (!pyasc_host_detail::pad_shape("GetUnPadMaxMinTmpSize", srcShape, typeSize)) return;
    pyasc_host_detail::put(pyasc_sim::hl_tmp::pad_rows(static_cast<uint64_t>(srcShape.GetDim(0)),
                                                       static_cast<uint64_t>(srcShape.GetDim(1)), typeSize),
                           maxValue, minValue);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, ::PadTiling &tiling) {
    (void)stackBufferSize;
    tiling = ::PadTiling{};
    if (!pyasc_host_detail::pad_shape("PadTilingFunc", srcShape, typeSize)) return;
    if (oriSrcShape.GetDimNum() != 2 || oriSrcShape.GetDim(1) <= 0 || oriSrcShape.GetDim(1) > srcShape.GetDim(1)) {
        pyasc_host_detail::refuse("PadTilingFunc", "oriSrcShape must be 2-D with 0 < width <= srcShape's width");
        return;
    }
    tiling.srcHeight = static_cast<uint32_t>(srcShape.GetDim(0));
    tiling.srcWidth = static_cast<uint32_t>(srcShape.GetDim(1));
    tiling.srcOriWidth = static_cast<uint32_t>(oriSrcShape.GetDim(1));
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            ::UnPadTiling &tiling) {
    (void)stackBufferSize;
    tiling = ::UnPadTiling{};
    if (!pyasc_host_detail::pad_shape("UnPadTilingFunc", srcShape, typeSize)) return;
    tiling.srcHeight = static_cast<uint32_t>(srcShape.GetDim(0));
    tiling.srcWidth = static_cast<uint32_t>(srcShape.GetDim(1));
}

// ---- AscendQuant: srcShape of the source elements, typeSize 2 (half) or 4 (float) ----------------------------
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                        uint32_t &minValue) {
    maxValue = minValue = 0;
    if (typeSize != 2 && typeSize != 4) {
        pyasc_host_detail::refuse("GetAscendQuantMaxMinTmpSize", "typeSize must be 2 (half) or 4 (float)");
        return;
    }
    pyasc_host_detail::put(pyasc_sim::hl_tmp::ascend_quant(pyasc_host_detail::elems(srcShape), typeSize), maxValue,
                           minValue);
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t &maxLiveNodeCount, uint32_t &extraBuf) {
    maxLiveNodeCount = pyasc_sim::hl_tmp::kAscendQuantLiveNodes;
    extraBuf = 0;
}

// ---- AscendDequant: srcShape {m, n} (or {count}) of int32_t, typeSize 4 ----------------------------------------
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                          uint32_t &minValue) {
    maxValue = minValue = 0;
    if (typeSize != 4) {
        pyasc_host_detail::refuse("GetAscendDequantMaxMinTmpSize", "typeSize must be 4 (srcTensor is int32_t)");
        return;
    }
    pyasc_host_detail::put(pyasc_sim::hl_tmp::ascend_dequant(pyasc_host_detail::elems(srcShape)), maxValue, minValue);
}
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape &srcShape, uint32_t &maxLiveNodeCount,
                                                uint32_t &extraBuf) {
    (void)srcShape;
    maxLiveNodeCount = pyasc_sim::hl_tmp::kAscendDequantLiveNodes;
    extraBuf = 0;
}
// the form of the reference's example (no srcShape)
inline void GetAscendDequantTmpBufferFactorSize(uint32_t &maxLiveNodeCount, uint32_t &extraBuf) {
    GetAscendDequantTmpBufferFactorSize(ge::Shape(), maxLiveNodeCount, extraBuf);
}

// ---- AscendAntiQuant: srcShape of the int8_t source; scaleShape and isTranspose do not change the size --------
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape &srcShape, const ge::Shape &scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t &maxValue, uint32_t &minValue) {
    (void)scaleShape;
    (void)isTranspose;
    maxValue = minValue = 0;
    if (!pyasc_host_detail::antiquant_types("GetAscendAntiQuantMaxMinTmpSize", inputDataType, outputDataType)) return;
    const uint32_t stage =
        pyasc_sim::hl_tmp::ascend_antiquant_stage_bytes(2, outputDataType == ge::DT_BF16);
    pyasc_host_detail::put(pyasc_sim::hl_tmp::ascend_antiquant(pyasc_host_detail::elems(srcShape), 1, stage),
                           maxValue, minValue);
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape &srcShape, const ge::Shape &scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t maxValue = 0, minValue = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, maxValue,
                                    minValue);
    return maxValue;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape &srcShape, const ge::Shape &scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t maxValue = 0, minValue = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, maxValue,
                                    minValue);
    return minValue;
}
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape &srcShape, const ge::Shape &scaleShape,
                                                  bool isTranspose, ge::DataType inputDataType,
                                                  ge::DataType outputDataType, uint32_t &maxLiveNodeCount,
                                                  uint32_t &extraBuf) {
    (void)srcShape;
    (void)scaleShape;
    (void)isTranspose;
    maxLiveNodeCount = extraBuf = 0;
    if (!pyasc_host_detail::antiquant_types("GetAscendAntiQuantTmpBufferFactorSize", inputDataType, outputDataType)) {
        return;
    }
    // staged bytes per element / sizeof(int8_t)
    maxLiveNodeCount = pyasc_sim::hl_tmp::ascend_antiquant_stage_bytes(2, outputDataType == ge::DT_BF16);
    extraBuf = 0;
}
// ---- Sigmoid, Silu, Tanh, Gelu / FasterGelu: srcShape of the source, typeSize 2 (half) or 4 (float) -----------
namespace pyasc_host_detail {
inline bool activation_sizes(const char *api, const ge::Shape &srcShape, uint32_t typeSize, uint32_t &maxValue,
                             uint32_t &minValue) {
    maxValue = minValue = 0;
    if (typeSize != 2 && typeSize != 4) return refuse(api, "typeSize must be 2 (half) or 4 (float)");
    put(pyasc_sim::hl_tmp::activation(elems(srcShape), typeSize), maxValue, minValue);
    return true;
}
}  // namespace pyasc_host_detail
inline void GetSigmoidMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    pyasc_host_detail::activation_sizes("GetSigmoidMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline void GetTanhMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    pyasc_host_detail::activation_sizes("GetTanhMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline void GetSiluTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t &maxValue, uint32_t &minValue) {
    (void)isReuseSource;
    pyasc_host_detail::activation_sizes("GetSiluTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline void GetGeluMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                 uint32_t &minValue) {
    pyasc_host_detail::activation_sizes("GetGeluMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape &srcShape, const uint32_t typeSize) {
    uint32_t maxValue = 0, minValue = 0;
    pyasc_host_detail::activation_sizes("GetGeluMaxTmpSize", srcShape, typeSize, maxValue, minValue);
    return maxValue;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize) {
    uint32_t maxValue = 0, minValue = 0;
    pyasc_host_detail::activation_sizes("GetGeluMinTmpSize", srcShape, typeSize, maxValue, minValue);
    return minValue;
}
}  // namespace AscendC
#include "pyasc_sim/kapi/dt_names_end.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_HL_TMP_SIZE_API_H_
