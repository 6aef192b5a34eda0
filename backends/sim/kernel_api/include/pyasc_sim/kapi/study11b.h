// Ascend C on the CPU -- what the eleventh public-kernel study (helper study11b) needed
// (kernel_api/COMPAT.md, "Round 11 (study11b)").
//
// * DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl: the SDK functions behind DataCopyPad, on raw
//   `__ubuf__` / `__gm__` pointers. They are not documented API, but the NPU compiler sees them
//   (kernel_operator.h brings them in) and public kernels call them to move bytes with another
//   element type than the tensors' (a int64 index tensor copied as uint32 words). Both prototypes
//   are accepted: (DataCopyExtParams, DataCopyPadExtParams<T>) and the older
//   (DataCopyParams, DataCopyPadParams); they run as DataCopyPad on a UB view of the pointer, so the
//   same alignment, bounds and race checks apply.
// * float16_t: the NPU toolchain's name for half, next to float32_t (kapi/study10.h); public kernels
//   declare tensors and scalars of it with only kernel_operator.h included (global, as float32_t).
#ifndef PYASC_SIM_KAPI_STUDY11B_H_
#define PYASC_SIM_KAPI_STUDY11B_H_

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/study10.h"

using float16_t = half;

namespace AscendC {

template <typename T>
inline void DataCopyPadGm2UBImpl(T *dst, T *src, const DataCopyExtParams &p, const DataCopyPadExtParams<T> &pad,
                                 pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(src);
    DataCopyPad(pyasc_sim::kapi::ub_view(dst), g, p, pad, loc);
}

template <typename T>
inline void DataCopyPadGm2UBImpl(T *dst, T *src, const DataCopyParams &p, const DataCopyPadParams &pad,
                                 pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(src);
    DataCopyPad(pyasc_sim::kapi::ub_view(dst), g, p, pad, loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(T *dst, T *src, const DataCopyExtParams &p,
                                 pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(dst);
    DataCopyPad(g, pyasc_sim::kapi::ub_view(src), p, loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(T *dst, T *src, const DataCopyParams &p,
                                 pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(dst);
    DataCopyPad(g, pyasc_sim::kapi::ub_view(src), p, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_STUDY11B_H_
