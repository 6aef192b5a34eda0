// A mixed cube/vector kernel split with #if defined(__DAV_C220_CUBE__) / #elif defined(__DAV_C220_VEC__),
// in the style of public mixed kernels, for a CPU-debug program (main_mix_split.cpp): the NPU toolchain
// (and `pyasc cpu-debug`) compiles it once per core kind, so each core runs its own half.
//
// mix_split_scale(x, y, ws, info), MIX_MODE with blockDim AI Cores of one AIC and two AIV:
//   the AIC of core g writes the scale 2 + g to ws[16 * g] and signals its AIV (CrossCoreSetFlag);
//   AIV sub of core g waits, then writes y = x * scale on its CHUNK elements (block 2 * g + sub).
//   Each core writes {cube macro, vector macro, ASCEND_IS_AIC, PassTag()} to row 3 * g + core of
//   info (core 0 the AIC, 1 + sub the AIV; a 64-byte data-cache line each).
// mix_split_pass(out): one core kind's launch (AIV_MODE / AIC_MODE): out[16 * block] = PassTag().
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t CHUNK = 64;
constexpr int32_t FLAG_READY = 6;

#if defined(__DAV_C220_CUBE__)
__aicore__ inline int32_t PassTag() { return 100; }
#elif defined(__DAV_C220_VEC__)
__aicore__ inline int32_t PassTag() { return 200; }
#endif

__aicore__ inline void WriteInfo(GM_ADDR info, uint32_t group, uint32_t core)
{
    GlobalTensor<int32_t> row;
    row.SetGlobalBuffer((__gm__ int32_t *)info + (group * 3 + core) * 16, 16);
#if defined(__DAV_C220_CUBE__)
    row.SetValue(0, 1);
#else
    row.SetValue(0, 0);
#endif
#if defined(__DAV_C220_VEC__)
    row.SetValue(1, 1);
#else
    row.SetValue(1, 0);
#endif
    const bool aic = ASCEND_IS_AIC;
    row.SetValue(2, aic ? 1 : 0);
    row.SetValue(3, PassTag());
}

#if defined(__DAV_C220_CUBE__)

__aicore__ inline void MixPart(GM_ADDR, GM_ADDR, GM_ADDR ws, GM_ADDR info)
{
    GlobalTensor<float> scale;
    scale.SetGlobalBuffer((__gm__ float *)ws + 16 * GetBlockIdx(), 16);
    scale.SetValue(0, 2.0f + static_cast<float>(GetBlockIdx()));
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(scale);
    WriteInfo(info, GetBlockIdx(), 0);
    CrossCoreSetFlag<0x2, PIPE_FIX>(FLAG_READY);
}

#elif defined(__DAV_C220_VEC__)

__aicore__ inline void MixPart(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info)
{
    const uint32_t group = GetBlockIdx() / GetTaskRation();
    CrossCoreWaitFlag(FLAG_READY);
    GlobalTensor<float> scale;
    scale.SetGlobalBuffer((__gm__ float *)ws + 16 * group, 16);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(scale);
    const float s = scale.GetValue(0);
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
    WriteInfo(info, group, 1 + GetSubBlockIdx());
}

#endif

extern "C" __global__ __aicore__ void mix_split_scale(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MixPart(x, y, ws, info);
}

extern "C" __global__ __aicore__ void mix_split_pass(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out + 16 * GetBlockIdx(), 16);
    o.SetValue(0, PassTag());
}
