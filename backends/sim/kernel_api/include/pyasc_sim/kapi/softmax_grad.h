// Ascend C on the CPU -- SoftmaxGrad and SoftmaxGradFront, the softmax backward pass over the last axis
// (lib/activation/softmaxgrad.h).  Semantics from the public Ascend C reference (the pages' Python formulas):
//   s = rowsum(grad * src);  SoftmaxGrad: dst = (grad - s) * src, or with isFront = true dst = s;
//   SoftmaxGradFront: dst = s.
// s is written as one 32-byte block per row (the reference's broadcast to [m, 32 / sizeof(T)]).  The row
// product grad * src is staged in float in sharedTmpBuffer (kapi/hl_tmp.h: smaller than
// GetSoftMaxGradMinTmpSize reports is an error; the forms without it stage in host memory); the row sum is
// taken in double and every output rounded once to T (the hardware composes basic instructions: results can
// differ in the last bits).  The SoftMaxTiling fields the host computes are accepted, the shape comes from
// SoftMaxShapeInfo (or tiling.srcM / srcK when it is left empty), as in kapi/softmax.h.  Only the first
// oriSrcK columns of a row are read and written; isDataFormatNZ = true is a compile error (ND only here).
#ifndef PYASC_SIM_KAPI_SOFTMAX_GRAD_H_
#define PYASC_SIM_KAPI_SOFTMAX_GRAD_H_

#include "pyasc_sim/kapi/hl_tmp.h"
#include "pyasc_sim/kapi/softmax_flash.h"  // SoftMaxShapeInfo, sim_detail::hl_in / hl_out / flash_shape

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace sim_detail {
// front: write only the row sums (one 32-byte block per row) instead of (grad - s) * src.
template <typename T>
inline void softmax_grad_rows(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &grad,
                              const LocalTensor<T> &src, bool front, const SoftMaxShapeInfo &shape,
                              const SoftMaxTiling &tiling, const LocalTensor<uint8_t> *tmp, const SrcLoc &loc) {
    const SoftMaxShapeInfo s = flash_shape(shape, tiling);
    const uint32_t m = s.srcM, k = s.srcK, valid = s.oriSrcK == 0 ? s.srcK : s.oriSrcK;
    if (pyasc_sim::kapi::blk().checks && (k == 0 || valid > k || (k * sizeof(T)) % 32 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "%s: shape {srcM %u, srcK %u, oriSrcK %u}: srcK * sizeof(T) = %zu bytes must be a "
                              "non-zero multiple of 32 and oriSrcK <= srcK",
                              api, m, k, s.oriSrcK, static_cast<size_t>(k) * sizeof(T));
    }
    constexpr uint32_t per = 32 / sizeof(T);
    const int64_t elems = static_cast<int64_t>(m) * k;
    hl_in(grad, api, "gradTensor", elems, loc);
    hl_in(src, api, "srcTensor", elems, loc);
    hl_out(dst, api, "dstTensor", front ? static_cast<int64_t>(m) * per : elems, loc);
    // grad * src of a row in float, rows cycling through the chunk the buffer holds
    HlScratch stage(tmp, pyasc_sim::hl_tmp::softmax(m, k), api, "GetSoftMaxGradMinTmpSize", loc);
    const uint64_t rows_per = stage.chunk(static_cast<uint64_t>(k) * 4);
    for (uint32_t r = 0; r < m; ++r) {
        const int64_t row = static_cast<int64_t>(r) * k;
        float *p = stage.as<float>() + (r % rows_per) * k;
        double total = 0.0;
        for (uint32_t i = 0; i < valid; ++i) {
            p[i] = static_cast<float>(pyasc_sim::kapi::to_double(grad.ptr()[row + i]) *
                                      pyasc_sim::kapi::to_double(src.ptr()[row + i]));
            total += p[i];
        }
        if (front) {
            for (uint32_t j = 0; j < per; ++j) dst.ptr()[static_cast<int64_t>(r) * per + j] = static_cast<T>(total);
            continue;
        }
        // read both inputs of an element before its output is written (dst may alias grad or src)
        for (uint32_t i = 0; i < valid; ++i) {
            const double g = pyasc_sim::kapi::to_double(grad.ptr()[row + i]);
            const double x = pyasc_sim::kapi::to_double(src.ptr()[row + i]);
            dst.ptr()[row + i] = static_cast<T>((g - total) * x);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(m) * k, sizeof(T)), 5.0));
}
}  // namespace sim_detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling, bool isFront = false,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(SoftMax, T, "AscendC::SoftmaxGrad");
    static_assert(!isDataFormatNZ, "pyasc_sim: SoftmaxGrad with isDataFormatNZ = true (NZ data) is not simulated");
    sim_detail::softmax_grad_rows("SoftmaxGrad", dstTensor, gradTensor, srcTensor, isFront, softmaxShapeInfo, tiling,
                                  sim_detail::no_tmp(), loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                        const SoftMaxTiling &tiling, bool isFront = false,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(SoftMax, T, "AscendC::SoftmaxGrad");
    static_assert(!isDataFormatNZ, "pyasc_sim: SoftmaxGrad with isDataFormatNZ = true (NZ data) is not simulated");
    sim_detail::softmax_grad_rows("SoftmaxGrad", dstTensor, gradTensor, srcTensor, isFront, softmaxShapeInfo, tiling,
                                  &sharedTmpBuffer, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                             const SoftMaxShapeInfo &softmaxShapeInfo = {}, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(SoftMax, T, "AscendC::SoftmaxGradFront");
    static_assert(!isDataFormatNZ, "pyasc_sim: SoftmaxGradFront with isDataFormatNZ = true (NZ data) is not simulated");
    sim_detail::softmax_grad_rows("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, true, softmaxShapeInfo, tiling,
                                  sim_detail::no_tmp(), loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                             const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                             PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(SoftMax, T, "AscendC::SoftmaxGradFront");
    static_assert(!isDataFormatNZ, "pyasc_sim: SoftmaxGradFront with isDataFormatNZ = true (NZ data) is not simulated");
    sim_detail::softmax_grad_rows("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, true, softmaxShapeInfo, tiling,
                                  &sharedTmpBuffer, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SOFTMAX_GRAD_H_
