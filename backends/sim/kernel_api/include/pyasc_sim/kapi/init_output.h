// Ascend C on the CPU -- InitOutput<T>(gm, size[, value]): the earlier spelling of InitGlobalMemory
// (InitGlobalMemory page, atlasascendc_api_07_0891: "initialise Global Memory to a value; used to zero a workspace
// or an output"; the page's own sample class is still named KernelInitOutput).  Public kernels of the
// prompt-flash-attention family (sgl-kernel-npu block_sparse_attention) call it with a GlobalTensor temporary
// (gm[offset]) and an element count, the value defaulting to 0.  Same semantics and checks as InitGlobalMemory
// (size elements written from gm's address, bounds-checked against the GlobalTensor's size and the allocation),
// except that, undocumented, it carries no "before InitBuffer" restriction: kernels call it mid-computation.
#ifndef PYASC_SIM_KAPI_INIT_OUTPUT_H_
#define PYASC_SIM_KAPI_INIT_OUTPUT_H_

#include <type_traits>

#include "pyasc_sim/kapi/tiling.h"

namespace AscendC {

template <typename T>
inline void InitOutput(const GlobalTensor<T> &gm, const uint64_t size,
                       const typename std::enable_if<true, T>::type value = T(0),
                       pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    GlobalTensor<T> target = gm;
    InitGlobalMemory(target, size, value, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_INIT_OUTPUT_H_
