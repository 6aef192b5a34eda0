// Ascend C on the CPU -- the kernel type (KERNEL_TASK_TYPE_DEFAULT) and mixed cube/vector kernels.
//
// On a 910B one AI Core is one cube core (AIC) and two vector cores (AIV).  A kernel declared
// KERNEL_TYPE_MIX_AIC_1_2 (or 1_1) runs, for each of its numBlocks blocks, one AIC and two (one)
// AIV, all executing the same kernel function and telling themselves apart with ASCEND_IS_AIC /
// ASCEND_IS_AIV (or GetSubBlockIdx / GetTaskRation).  The simulator runs the block's first core
// as the AIC; when it executes KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) the block's AIV
// start on threads of their own and run the kernel from its beginning (the declaration is the
// kernel's first statement in public code, as the documentation shows it).
#ifndef PYASC_SIM_KAPI_MIX_H_
#define PYASC_SIM_KAPI_MIX_H_

#include "pyasc_sim/kapi/arch.h"
#include "pyasc_sim/kapi/state.h"

enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};
static_assert(KERNEL_TYPE_MIX_AIC_1_2 == 5 && KERNEL_TYPE_AIC_ONLY == 1,
              "kapi/core_usage.h's inferred_task_type() returns these values");

namespace pyasc_sim {
namespace kapi {

constexpr int kCoreVector = 0;  // a vector-only kernel: each block is one AIV
constexpr int kCoreAIC = 1;
constexpr int kCoreAIV = 2;     // an AIV of a mixed kernel

// KERNEL_TASK_TYPE_DEFAULT(type) executed by a core.
inline void declare_task_type(int type) {
    BlockState &b = blk();
    if (b.task_type_set) return;  // an AIV of a mixed block (started knowing its type) or a repeat
    b.task_type_set = true;
    switch (type) {
        case KERNEL_TYPE_MIX_AIC_1_2:
        case KERNEL_TYPE_MIX_AIC_1_1: {
            const uint32_t ratio = type == KERNEL_TYPE_MIX_AIC_1_2 ? 2u : 1u;
            b.mixed = true;
            b.mix_aiv = ratio;
            b.core_kind = kCoreAIC;
            b.ratio = 1;
            b.sub_idx = 0;
            b.block_idx = b.group;
            if (b.spawn_subcores != nullptr) b.spawn_subcores(b.spawn_self, ratio);
            break;
        }
        case KERNEL_TYPE_AIC_ONLY:
        case KERNEL_TYPE_MIX_AIC_1_0: b.core_kind = kCoreAIC; break;
        default: break;  // vector cores only (AIV_ONLY, MIX_AIV_1_0, AICORE, ...)
    }
}

// The AIC of a mixed launch, or (outside mixed launches) a core set to AIC by the CPU-debug
// host API's SetKernelMode(KernelMode::AIC_MODE) (core_type_slot, arch.h).
inline bool core_is_aic() {
    const int kind = blk().core_kind;
    if (kind == kCoreAIC) return true;
    if (kind == kCoreAIV) return false;
    return core_type_slot() == ::AscendC::AIC;
}

}  // namespace kapi
}  // namespace pyasc_sim

// Both task-type macros end their own statement: the NPU toolchain accepts them with or without a trailing `;`
// (RecSDK's in_linear_silu writes `KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)` straight before
// `REGIST_MATMUL_OBJ(...)`); with the `;` the kernel adds, the extra one is an empty statement.
#define KERNEL_TASK_TYPE_DEFAULT(value) ::pyasc_sim::kapi::declare_task_type(static_cast<int>(value));
// KERNEL_TASK_TYPE(key, value): the type of tiling key `key` only (the "设置Kernel类型" page: KERNEL_TASK_TYPE_DEFAULT
// for every key, KERNEL_TASK_TYPE for one key), so a kernel listing the types of several keys runs with the one of
// the key it was built for (TILING_KEY_IS, kapi/tiling.h; expanded where the kernel uses it).  The first
// declaration executed for the key decides: public kernels list the keyed types before the default.
#define KERNEL_TASK_TYPE(key, value) \
    ((TILING_KEY_IS(key)) ? ::pyasc_sim::kapi::declare_task_type(static_cast<int>(value)) : (void)0);

// Which core runs this code, used as  `if ASCEND_IS_AIV { ... }`  (the documented spelling
// without parentheses); the op-project headers may define these first.
#ifndef ASCEND_IS_AIC
#define ASCEND_IS_AIC (::pyasc_sim::kapi::core_is_aic())
#endif
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (!::pyasc_sim::kapi::core_is_aic())
#endif
#ifndef ASCEND_IS_NOT_AIC
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)
#endif
#ifndef ASCEND_IS_NOT_AIV
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#endif

#endif  // PYASC_SIM_KAPI_MIX_H_
