// A mixed cube/vector kernel (KERNEL_TYPE_MIX_AIC_1_2) in public style: each AI Core's AIC
// publishes a scale (2 + its block) to GM and signals its two AIV with CrossCoreSetFlag (mode 2);
// each AIV waits for the flag and writes y = scale * x on its 64-element chunk.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t CHUNK = 64;

extern "C" __global__ __aicore__ void mix_scale(GM_ADDR x, GM_ADDR y, GM_ADDR scales)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<float> sGm;
    sGm.SetGlobalBuffer((__gm__ float *)scales, GetBlockNum());
    if ASCEND_IS_AIC {
        sGm.SetValue(GetBlockIdx(), 2.0f + GetBlockIdx());
#ifndef MIX_FORGET_FLAG  // defined by the test of the deadlock report
        CrossCoreSetFlag<0x2, PIPE_FIX>(3);
#endif
        return;
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(3);
        const float s = sGm.GetValue(GetBlockIdx() / GetTaskRation());
        GlobalTensor<float> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * CHUNK, CHUNK);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * CHUNK, CHUNK);
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> inQ;
        TQue<QuePosition::VECOUT, 1> outQ;
        pipe.InitBuffer(inQ, 1, CHUNK * sizeof(float));
        pipe.InitBuffer(outQ, 1, CHUNK * sizeof(float));
        LocalTensor<float> a = inQ.AllocTensor<float>();
        DataCopy(a, xGm, CHUNK);
        inQ.EnQue(a);
        a = inQ.DeQue<float>();
        LocalTensor<float> b = outQ.AllocTensor<float>();
        Muls(b, a, s, CHUNK);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.DeQue<float>();
        DataCopy(yGm, b, CHUNK);
        outQ.FreeTensor(b);
    }
}
