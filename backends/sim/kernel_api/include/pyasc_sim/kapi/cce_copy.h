// Ascend C on the CPU -- the CCE general data-move intrinsics and get_imm (kernel_api/COMPAT.md, round 15 study15c).
//
// Older operator code (PaddlePaddle's custom-device Ascend C kernels, early CANN samples) moves data with the
// CCE intrinsics the NPU compiler declares without any header, so g++ needs a declaration even where the call
// sits in a template that is never instantiated (two-phase lookup of a non-dependent call):
//
// * copy_gm_to_ubuf(__ubuf__ void *dst, __gm__ void *src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
//   uint16_t srcGap, uint16_t dstGap): reference page "copy_gm_to_ubuf" (cceintrinsicapi 0068), pipe MTE2;
//   nBurst bursts of lenBurst 32-byte blocks, gaps between bursts in 32-byte blocks (the "general data move"
//   parameter table). Run as DataCopy(LocalTensor, GlobalTensor, DataCopyParams{nBurst, lenBurst, srcGap,
//   dstGap}) on bytes, so the same checks apply (UB bounds and 32-byte alignment, GM reads).
// * copy_ubuf_to_gm(__gm__ void *dst, __ubuf__ void *src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
//   uint16_t srcGap, uint16_t dstGap[, bm_t byteMode]): page "copy_ubuf_to_gm" (cceintrinsicapi 0069), pipe MTE3.
//   BM_DISABLE (the default): as above, DataCopy(GlobalTensor, LocalTensor, DataCopyParams). BM_ENABLE: the
//   burst length counts bytes (the UB side still reads whole 32-byte blocks, the padding is dropped): run as
//   DataCopyPad with DataCopyExtParams{nBurst, lenBurst bytes, srcGap blocks, dstGap bytes}.
// * get_imm(imm): the toolchain's immediate-operand builtin. Public code uses it to form raw Unified Buffer
//   addresses (`(__ubuf__ T *)get_imm(0)`: UB offset 0), so in a running block it returns the host address of
//   that offset in the block's Unified Buffer (a deviation for any other use of the value: documented in the
//   kernel API reference). Outside a block it returns imm unchanged.
// The `sid` argument (stream id, 0 in all documented uses) is accepted and ignored.
#ifndef PYASC_SIM_KAPI_CCE_COPY_H_
#define PYASC_SIM_KAPI_CCE_COPY_H_

#include <cstdint>

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/pad_copy_builtins.h"  // pyasc_sim::kapi::ub_view

// byteMode of copy_ubuf_to_gm (reference "byteMode参数说明": BM_DISABLE 0, BM_ENABLE 1).
#ifndef PYASC_SIM_HAVE_BM_T
#define PYASC_SIM_HAVE_BM_T
enum bm_t : uint8_t { BM_DISABLE = 0, BM_ENABLE = 1 };
#endif

namespace pyasc_sim {
namespace kapi {
inline AscendC::GlobalTensor<uint8_t> gm_bytes(void *p) {
    AscendC::GlobalTensor<uint8_t> g;
    g.SetGlobalBuffer(static_cast<uint8_t *>(p));
    return g;
}
}  // namespace kapi
}  // namespace pyasc_sim

inline void copy_gm_to_ubuf(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    AscendC::DataCopy(pyasc_sim::kapi::ub_view(static_cast<uint8_t *>(dst)), pyasc_sim::kapi::gm_bytes(src),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

inline void copy_ubuf_to_gm(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, bm_t byteMode = BM_DISABLE,
                            pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    if (byteMode == BM_ENABLE) {
        AscendC::DataCopyPad(pyasc_sim::kapi::gm_bytes(dst), pyasc_sim::kapi::ub_view(static_cast<uint8_t *>(src)),
                             AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), loc);
        return;
    }
    AscendC::DataCopy(pyasc_sim::kapi::gm_bytes(dst), pyasc_sim::kapi::ub_view(static_cast<uint8_t *>(src)),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

inline uint64_t get_imm(uint64_t imm) {
    if (pyasc_sim::kapi::current_block_ptr() == nullptr) return imm;
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pyasc_sim::kapi::blk().memory(pyasc_sim::kapi::kUB))) + imm;
}

#endif  // PYASC_SIM_KAPI_CCE_COPY_H_
