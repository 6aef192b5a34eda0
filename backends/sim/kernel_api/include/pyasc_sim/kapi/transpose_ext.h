// Ascend C on the CPU -- the enhanced Transpose: [N,C,H,W] <-> [N,H,W,C] layout conversion in the Unified
// Buffer (Transpose page, atlasascendc_api_07_0199: `Transpose(dst, src, sharedTmpBuffer, transposeParams)` with
// `TransposeParamsExt{nSize, cSize, hSize, wSize, transposeType}`).
//
// * TRANSPOSE_NCHW2NHWC: src holds [nSize, cSize, hSize, wSize], dst gets [nSize, hSize, wSize, cSize];
//   TRANSPOSE_NHWC2NCHW the reverse.  1-, 2- and 4-byte types (the reference's sharedTmpBuffer table lists
//   int8_t / uint8_t, int16_t / uint16_t / half, int32_t / uint32_t / float).
// * Checked as documented: dst and src start 32-byte aligned in VECIN / VECCALC / VECOUT, and (for these two
//   types) do not overlap ("不支持src和dst复用"); both hold nSize * cSize * hSize * wSize elements.
// * sharedTmpBuffer: the reference sizes it per SoC (none on some, (cSize + 2) blocks of 16 x 16 x 2 bytes ...
//   on others); the simulator needs no scratch and neither reads nor writes it (a documented deviation: its
//   contents after the call are unchanged here, scratch data on the NPU).
// * TRANSPOSE_ND2ND_B16 and the other TransposeType values are reported as unsupported.
// Public use: MindSpore ms_custom_ops' generated grid_sample_ms kernel (kernel_api/COMPAT.md, round 16).
#ifndef PYASC_SIM_KAPI_TRANSPOSE_EXT_H_
#define PYASC_SIM_KAPI_TRANSPOSE_EXT_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "pyasc_sim/kapi/confusion_transpose.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

struct TransposeParamsExt {
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_TYPE_NONE;
};

template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const TransposeParamsExt &p, PYASC_SIM_LOC) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "the enhanced Transpose takes 1-, 2- or 4-byte element types");
    (void)sharedTmpBuffer;
    const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    if (!to_nhwc && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "AscendC::Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt) with transposeType %d: "
                              "the simulator implements TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW",
                              static_cast<int>(p.transposeType));
    }
    const int64_t n = p.nSize, c = p.cSize, h = p.hSize, w = p.wSize;
    const int64_t count = n * c * h * w;
    sim_detail::check_operand(dst, "Transpose", "dst", count, loc);
    sim_detail::check_operand(src, "Transpose", "src", count, loc);
    if (count == 0) return;
    const T *s = src.ptr();
    T *d = dst.ptr();
    if (pyasc_sim::kapi::blk().checks && s < d + count && d < s + count) {
        pyasc_sim::kapi::fail("vector-overlap", loc,
                              "AscendC::Transpose with transposeType %s: dst and src overlap (%lld elements each); "
                              "the reference does not allow src and dst to be reused for the NCHW <-> NHWC "
                              "conversions: give dst its own buffer",
                              to_nhwc ? "TRANSPOSE_NCHW2NHWC" : "TRANSPOSE_NHWC2NCHW", static_cast<long long>(count));
    }
    std::vector<T> out(static_cast<size_t>(count));
    for (int64_t in = 0; in < n; ++in) {
        for (int64_t ic = 0; ic < c; ++ic) {
            for (int64_t ihw = 0; ihw < h * w; ++ihw) {
                const int64_t nchw = (in * c + ic) * h * w + ihw;
                const int64_t nhwc = (in * h * w + ihw) * c + ic;
                if (to_nhwc) {
                    out[nhwc] = s[nchw];
                } else {
                    out[nchw] = s[nhwc];
                }
            }
        }
    }
    std::memcpy(d, out.data(), out.size() * sizeof(T));
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(static_cast<uint64_t>((count * sizeof(T) + 255) / 256)));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TRANSPOSE_EXT_H_
