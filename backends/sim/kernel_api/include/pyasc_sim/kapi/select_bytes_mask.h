// Ascend C on the CPU -- SelectWithBytesMask (SelectWithBytesMask page, atlasascendc_api_07_0858 / 0859):
//     SelectWithBytesMask<T, U, isReuseMask>(dst, src0Tensor, src1Scalar, mask, sharedTmpBuffer, info)
//     SelectWithBytesMask<T, U, isReuseMask>(dst, src0Scalar, src1Tensor, mask, sharedTmpBuffer, info)
// Over a [info.firstAxis, info.srcLastAxis] ND source, element (i, j) of dst is src0 where the mask's value
// (not bit) at (i, j) is 0, else src1; the mask is [firstAxis, maskLastAxis] with maskLastAxis >= srcLastAxis and
// its extra columns ignored.  The page's constraints are checked (`invalid-argument`): the source's last axis is
// 32-byte aligned, the mask's last axis is 32-byte aligned and a multiple of 16 elements, and covers the source's.
// T: half / float; U: the mask element (bool / uint8_t / int8_t / half / ... -- a value compared with 0).
// sharedTmpBuffer and isReuseMask (whether the API may overwrite the mask in place) change no value here: the
// mask is left unchanged.
#ifndef PYASC_SIM_KAPI_SELECT_BYTES_MASK_H_
#define PYASC_SIM_KAPI_SELECT_BYTES_MASK_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

namespace sim_detail {
template <typename T, typename U>
inline void select_with_bytes_mask(const LocalTensor<T> &dst, const LocalTensor<T> *srcTensor, T scalar,
                                   bool tensorIsSrc0, const LocalTensor<U> &mask,
                                   const SelectWithBytesMaskShapeInfo &info, const pyasc_sim::kapi::SrcLoc &loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "SelectWithBytesMask takes half or float sources (the documented types)");
    const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
    if (rows == 0 || cols == 0 || mcols < cols || (cols * sizeof(T)) % 32 != 0 || (mcols * sizeof(U)) % 32 != 0 ||
        mcols % 16 != 0) {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "SelectWithBytesMask: info {firstAxis %u, srcLastAxis %u, maskLastAxis %u}: the source's "
                              "last axis must be 32-byte aligned (%u bytes), the mask's 32-byte aligned (%u bytes), a "
                              "multiple of 16 elements and >= srcLastAxis (the page's constraints)",
                              rows, cols, mcols, static_cast<unsigned>(cols * sizeof(T)),
                              static_cast<unsigned>(mcols * sizeof(U)));
    }
    const int64_t n = static_cast<int64_t>(rows) * cols;
    check_operand(*srcTensor, "SelectWithBytesMask", "src", n, loc);
    check_operand(mask, "SelectWithBytesMask", "src mask", static_cast<int64_t>(rows) * mcols, loc);
    check_operand(dst, "SelectWithBytesMask", "dst", n, loc);
    const T *s = srcTensor->ptr();
    const U *m = mask.ptr();
    T *d = dst.ptr();
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t c = 0; c < cols; ++c) {
            const bool pick1 = static_cast<float>(m[r * mcols + c]) != 0.0f;  // nonzero: take src1
            const T tv = s[r * cols + c];
            d[r * cols + c] = tensorIsSrc0 ? (pick1 ? scalar : tv) : (pick1 ? tv : scalar);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(static_cast<uint64_t>(n), sizeof(T)), 4.0));
}
}  // namespace sim_detail

template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info,
                                pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    (void)sharedTmpBuffer;
    sim_detail::select_with_bytes_mask(dst, &src0, src1, true, mask, info, loc);
}

template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info,
                                pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    (void)sharedTmpBuffer;
    sim_detail::select_with_bytes_mask(dst, &src1, src0, false, mask, info, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SELECT_BYTES_MASK_H_
