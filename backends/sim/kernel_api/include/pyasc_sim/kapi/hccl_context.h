// Ascend C on the CPU -- the HCCL context of computation-communication (MC2) kernels: SetHcclContext<index>,
// GetHcclContext<index>, HCCL_GROUP_ID_0 / HCCL_GROUP_ID_1.
//
// The reference ("HCCL Context" chapter: SetHcclContext, atlasascendc_api_07_1218; GetHcclContext,
// atlasascendc_api_07_1219) describes two per-domain slots holding the address of a communication domain's
// context (message area) in GM: `template <uint32_t index> void SetHcclContext(__gm__ uint8_t *context)`
// stores it, `template <uint32_t index> __gm__ uint8_t *GetHcclContext()` returns it; index is the domain
// ID and only 0 and 1 exist ("当前最多只支持2个通信域").  On the NPU the op framework fills the slots for an
// op whose definition names its domains with HcclGroup; the layout of what the address points to belongs to
// the HCCL library, not to Ascend C.
//
// The simulator has no HCCL runtime, so nothing fills the slots for a launch: each core starts with both
// slots empty (GetHcclContext returns nullptr until the kernel calls SetHcclContext) and SetHcclContext
// sets the calling core's slot.  A kernel (or a test harness in front of one) that places a context of its
// own in GM and sets it reads it back as on the NPU.  An index other than 0 / 1 is a compile error naming
// the index, as the documented constraint says.  Public MC2 kernels (sgl-kernel-npu's deepep ops, round 20
// s20f) read the context as `GetHcclContext<HCCL_GROUP_ID_0>()`.
#ifndef PYASC_SIM_KAPI_HCCL_CONTEXT_H_
#define PYASC_SIM_KAPI_HCCL_CONTEXT_H_

#include <cstdint>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/state.h"

namespace AscendC {

// The domain IDs the reference's examples pass as `index`.
constexpr uint32_t HCCL_GROUP_ID_0 = 0;
constexpr uint32_t HCCL_GROUP_ID_1 = 1;

template <uint32_t index>
inline void SetHcclContext(__gm__ uint8_t *context) {
    static_assert(index < 2, "AscendC::SetHcclContext<index>: only communication domains 0 and 1 exist "
                             "(HCCL_GROUP_ID_0 / HCCL_GROUP_ID_1)");
    pyasc_sim::kapi::blk().hccl_context[index] = context;
}

template <uint32_t index>
inline __gm__ uint8_t *GetHcclContext() {
    static_assert(index < 2, "AscendC::GetHcclContext<index>: only communication domains 0 and 1 exist "
                             "(HCCL_GROUP_ID_0 / HCCL_GROUP_ID_1)");
    return pyasc_sim::kapi::blk().hccl_context[index];
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HCCL_CONTEXT_H_
