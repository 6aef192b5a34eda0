// Ascend C on the CPU -- Pad / UnPad of a [height, width] tensor along its width (lib/pad/pad.h; public
// reference pages Pad atlasascendc_api_07_0849 and UnPad atlasascendc_api_07_0851).
// Pad: src is tiling.srcHeight rows of tiling.srcWidth elements (compact), of which the first
// tiling.srcOriWidth are valid; dst has rows of srcOriWidth + padParams.rightPad elements, which must be
// srcWidth rounded up to 32 bytes: the valid columns are copied, the rest filled with padParams.padValue
// (an int32_t, converted to T).  UnPad: src rows of tiling.srcWidth elements (32-byte aligned), dst rows of
// srcWidth - unPadParams.rightPad elements (compact).  leftPad is documented as not in effect ("当前暂不生效"):
// accepted and ignored.  The source rows are staged in sharedTmpBuffer before dst is written (dst may be
// the source buffer; kapi/hl_tmp.h): one row at least, GetPadMaxMinTmpSize / GetUnPadMaxMinTmpSize's minimum.
#ifndef PYASC_SIM_KAPI_PAD_H_
#define PYASC_SIM_KAPI_PAD_H_

#include <algorithm>
#include <vector>

#include "pyasc_sim/kapi/pad_tiling.h"
#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// PadParams / UnPadParams: the documented structs (kernel_struct_pad in the SDK).
#ifndef PYASC_SIM_HAVE_PAD_PARAMS
#define PYASC_SIM_HAVE_PAD_PARAMS
struct PadParams {
    PadParams() {}
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    UnPadParams() {}
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
#endif

namespace sim_detail {
template <typename T>
inline void pad_rows(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> *tmp,
                     const PadParams &p, const PadTiling &t, const SrcLoc &loc) {
    constexpr uint32_t per_block = 32 / sizeof(T);
    const uint32_t h = t.srcHeight, w = t.srcWidth, valid = t.srcOriWidth;
    const uint32_t aligned = (w + per_block - 1) / per_block * per_block;
    const uint32_t out_w = valid + p.rightPad;
    if (pyasc_sim::kapi::blk().checks &&
        (h == 0 || w == 0 || valid == 0 || valid > w || p.rightPad >= per_block || out_w != aligned ||
         (w == aligned && valid == w))) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "Pad: tiling {srcHeight %u, srcWidth %u, srcOriWidth %u}, padParams.rightPad %u: need "
                              "srcOriWidth <= srcWidth, rightPad * sizeof(T) < 32 bytes and srcOriWidth + rightPad == "
                              "srcWidth rounded up to 32 bytes (%u elements); a width already 32-byte aligned with "
                              "every column valid is not padded (fix: set rightPad = %u, or fill the tiling from "
                              "srcShape / oriSrcShape)",
                              h, w, valid, p.rightPad, aligned, aligned > valid ? aligned - valid : 0u);
    }
    check_operand(src, "Pad", "src", static_cast<int64_t>(h) * w, loc);
    check_operand(dst, "Pad", "dst", static_cast<int64_t>(h) * out_w, loc);
    HlScratch stage(tmp, pyasc_sim::hl_tmp::pad_rows(h, w, sizeof(T)), "Pad", "GetPadMaxMinTmpSize", loc);
    T *in = stage.as<T>();
    const T fill = static_cast<T>(p.padValue);
    T *y = dst.ptr();
    // chunks of source rows from the last: dst rows are wider, so a dst chunk only covers source rows
    // already staged (dst may alias src)
    const uint32_t rows = static_cast<uint32_t>(stage.chunk(static_cast<uint64_t>(w) * sizeof(T)));
    for (uint32_t r1 = h; r1 > 0;) {
        const uint32_t r0 = r1 > rows ? r1 - rows : 0;
        std::copy(src.ptr() + static_cast<int64_t>(r0) * w, src.ptr() + static_cast<int64_t>(r1) * w, in);
        for (uint32_t r = r0; r < r1; ++r) {
            for (uint32_t c = 0; c < out_w; ++c) {
                y[static_cast<int64_t>(r) * out_w + c] = c < valid ? in[static_cast<int64_t>(r - r0) * w + c] : fill;
            }
        }
        r1 = r0;
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(h) * out_w, sizeof(T)), 2.0));
}
template <typename T>
inline void unpad_rows(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> *tmp,
                       const UnPadParams &p, const UnPadTiling &t, const SrcLoc &loc) {
    constexpr uint32_t per_block = 32 / sizeof(T);
    const uint32_t h = t.srcHeight, w = t.srcWidth;
    if (pyasc_sim::kapi::blk().checks &&
        (h == 0 || w == 0 || w % per_block != 0 || p.rightPad == 0 || p.rightPad >= per_block)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "UnPad: tiling {srcHeight %u, srcWidth %u}, unPadParams.rightPad %u: need srcWidth * "
                              "sizeof(T) a non-zero multiple of 32 bytes and 0 < rightPad * sizeof(T) < 32 bytes (fix: "
                              "UnPad only removes columns of a 32-byte aligned width)",
                              h, w, p.rightPad);
    }
    const uint32_t out_w = w - p.rightPad;
    check_operand(src, "UnPad", "src", static_cast<int64_t>(h) * w, loc);
    check_operand(dst, "UnPad", "dst", static_cast<int64_t>(h) * out_w, loc);
    HlScratch stage(tmp, pyasc_sim::hl_tmp::pad_rows(h, w, sizeof(T)), "UnPad", "GetUnPadMaxMinTmpSize", loc);
    T *in = stage.as<T>();
    T *y = dst.ptr();
    // chunks of source rows from the first: dst rows are narrower (dst may alias src)
    const uint32_t rows = static_cast<uint32_t>(stage.chunk(static_cast<uint64_t>(w) * sizeof(T)));
    for (uint32_t r0 = 0; r0 < h; r0 += rows) {
        const uint32_t r1 = r0 + rows < h ? r0 + rows : h;
        std::copy(src.ptr() + static_cast<int64_t>(r0) * w, src.ptr() + static_cast<int64_t>(r1) * w, in);
        for (uint32_t r = r0; r < r1; ++r) {
            for (uint32_t c = 0; c < out_w; ++c) {
                y[static_cast<int64_t>(r) * out_w + c] = in[static_cast<int64_t>(r - r0) * w + c];
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(h) * w, sizeof(T)), 2.0));
}
}  // namespace sim_detail

template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                const LocalTensor<uint8_t> &sharedTmpBuffer, PadTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Pad, T);
    sim_detail::pad_rows(dstTensor, srcTensor, &sharedTmpBuffer, padParams, tiling, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                PadTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Pad, T);
    sim_detail::pad_rows(dstTensor, srcTensor, sim_detail::no_tmp(), padParams, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  LocalTensor<uint8_t> &sharedTmpBuffer, UnPadTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(UnPad, T);
    sim_detail::unpad_rows(dstTensor, srcTensor, &sharedTmpBuffer, unPadParams, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  UnPadTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(UnPad, T);
    sim_detail::unpad_rows(dstTensor, srcTensor, sim_detail::no_tmp(), unPadParams, tiling, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_PAD_H_
