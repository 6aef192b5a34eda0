// Reports the architecture macros and the core type a kernel sees (SDK header paths included as
// public kernels include them).
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

#if __CCE_AICORE__ >= 220
constexpr int32_t PATH = 220;  // the Atlas A2 code path
#else
constexpr int32_t PATH = 0;
#endif

extern "C" __global__ __aicore__ void arch_macros(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    if (AscendC::GetBlockIdx() != 0) {
        return;
    }
    o.SetValue(0, __CCE_AICORE__);
    o.SetValue(1, __NPU_ARCH__);
#if defined(__DAV_C220_VEC__)
    o.SetValue(2, 1);
#else
    o.SetValue(2, 0);
#endif
#if defined(__DAV_C220_CUBE__)
    o.SetValue(3, 1);
#else
    o.SetValue(3, 0);
#endif
    int32_t aiv = 0;
    int32_t aic = 0;
    if ASCEND_IS_AIV {
        aiv = 1;
    }
    if ASCEND_IS_AIC {
        aic = 1;
    }
    o.SetValue(4, aiv);
    o.SetValue(5, aic);
    o.SetValue(6, PATH);
#if defined(ASCENDC_CPU_DEBUG) && defined(__CCE_KT_TEST__)
    o.SetValue(7, 1);
#else
    o.SetValue(7, 0);
#endif
}
