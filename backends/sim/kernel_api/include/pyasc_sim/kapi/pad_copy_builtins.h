// kapi/pad_copy_builtins.h -- the raw-pointer forms of DataCopyPad public kernels call:
// * copy_ubuf_to_gm_align_b8/b16/b32 and copy_gm_to_ubuf_align_b8/b16/b32: the CCE data-move builtins behind
//   DataCopyPad (dst, src, sid, nBurst, lenBurst in bytes, left / right padding counts, srcGap, dstGap), run as
//   DataCopyPad with DataCopyExtParams{nBurst, lenBurst, srcGap, dstGap} (UB gaps in 32-byte blocks, GM gaps in
//   bytes) on 8/16/32-bit elements, so the same checks apply. The pointers are untyped.
// * DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl: the SDK functions behind DataCopyPad, on raw `__ubuf__` /
//   `__gm__` pointers (undocumented, but the NPU compiler sees them and public kernels call them to move bytes
//   with another element type than the tensors'). Both prototypes: (DataCopyExtParams, DataCopyPadExtParams<T>)
//   and the older (DataCopyParams, DataCopyPadParams); run as DataCopyPad on a UB view of the pointer.
#ifndef PYASC_SIM_KAPI_PAD_COPY_BUILTINS_H_
#define PYASC_SIM_KAPI_PAD_COPY_BUILTINS_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/tensor.h"

// ---- copy_ubuf_to_gm_align_* / copy_gm_to_ubuf_align_* ---------------------------------------------
namespace pyasc_sim {
namespace kapi {
template <int bits>
using uint_of_bits = std::conditional_t<bits == 8, uint8_t, std::conditional_t<bits == 16, uint16_t, uint32_t>>;
template <typename T>
AscendC::LocalTensor<T> ub_view(T *p) {
    BlockState &b = blk();
    uint8_t *base = b.memory(kUB);
    uint8_t *end = base + b.capacity[kUB];
    uint8_t *at = reinterpret_cast<uint8_t *>(p);
    const uint32_t n = (at >= base && at < end) ? static_cast<uint32_t>((end - at) / sizeof(T)) : 0;
    return AscendC::LocalTensor<T>(p, n, AscendC::TPosition::VECCALC, base, end);
}
template <typename T>
void copy_ub_to_gm_align(T *dst, T *src, uint16_t nBurst, uint32_t lenBurst, uint32_t srcGap, uint32_t dstGap,
                         const SrcLoc &loc) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(dst);
    AscendC::DataCopyPad(g, ub_view(src), AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), loc);
}
template <typename T>
void copy_gm_to_ub_align(T *dst, T *src, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad,
                         uint32_t srcGap, uint32_t dstGap, const SrcLoc &loc) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(src);
    AscendC::DataCopyPad(ub_view(dst), g, AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0),
                         AscendC::DataCopyPadExtParams<T>(leftPad != 0 || rightPad != 0, leftPad, rightPad, T(0)), loc);
}
}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_COPY_ALIGN(bits)                                                                                     \
    inline void copy_ubuf_to_gm_align_b##bits(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst, \
                                              uint8_t /*leftPaddingNum*/, uint8_t /*rightPaddingNum*/, uint32_t srcGap, \
                                              uint32_t dstGap, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { \
        using E = pyasc_sim::kapi::uint_of_bits<bits>;                                                                 \
        pyasc_sim::kapi::copy_ub_to_gm_align(static_cast<E *>(dst), static_cast<E *>(src), nBurst, lenBurst, srcGap,    \
                                             dstGap, loc);                                                             \
    }                                                                                                                  \
    inline void copy_gm_to_ubuf_align_b##bits(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst, \
                                              uint8_t leftPaddingNum, uint8_t rightPaddingNum, uint32_t srcGap,         \
                                              uint32_t dstGap, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { \
        using E = pyasc_sim::kapi::uint_of_bits<bits>;                                                                 \
        pyasc_sim::kapi::copy_gm_to_ub_align(static_cast<E *>(dst), static_cast<E *>(src), nBurst, lenBurst,            \
                                             leftPaddingNum, rightPaddingNum, srcGap, dstGap, loc);                    \
    }
PYASC_SIM_COPY_ALIGN(8)
PYASC_SIM_COPY_ALIGN(16)
PYASC_SIM_COPY_ALIGN(32)
#undef PYASC_SIM_COPY_ALIGN

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

#endif  // PYASC_SIM_KAPI_PAD_COPY_BUILTINS_H_
