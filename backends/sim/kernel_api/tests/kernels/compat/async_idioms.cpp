// Async<EngineType::AIC / AIV, funPtr>(args...) (reference page Async), in the style of the public
// mixed kernels that use it, written for pyasc: a KERNEL_TYPE_MIX_AIC_1_2 kernel whose body has no
// ASCEND_IS_AIC / ASCEND_IS_AIV test; the cube-side function prepares work = 3 * x for the block's
// two vector cores and signals them, each vector-side function adds 1 to its half (y = work + 1).
// `info` records which function ran on which core: the AIC writes (block, 1), each AIV
// (block, 2, sub-block), each core in a row of its own that is a whole 64-byte line: SetValue
// stores through the core's own data cache, which writes back whole lines (SetValue page).
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t TILE = 64;
constexpr int32_t INFO_ROW = static_cast<int32_t>(64 / sizeof(int32_t));  // int32 per info row: one cache line

__aicore__ inline void CubeSide(GM_ADDR x, GM_ADDR work, GM_ADDR info)
{
    GlobalTensor<float> xGm, workGm;
    GlobalTensor<int32_t> infoGm;
    const int32_t group = static_cast<int32_t>(GetBlockIdx());
    xGm.SetGlobalBuffer((__gm__ float *)x + group * 2 * TILE, 2 * TILE);
    workGm.SetGlobalBuffer((__gm__ float *)work + group * 2 * TILE, 2 * TILE);
    infoGm.SetGlobalBuffer((__gm__ int32_t *)info + group * 3 * INFO_ROW, 4);
    for (int32_t i = 0; i < 2 * TILE; ++i) {
        workGm.SetValue(i, 3.0f * xGm.GetValue(i));
    }
    // the vector cores read `work` by DMA: write the stores back before the flag
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(workGm);
    infoGm.SetValue(0, group);
    infoGm.SetValue(1, 1);
    CrossCoreSetFlag<0x2, PIPE_FIX>(0x3);
}

__aicore__ inline void VectorSide(GM_ADDR y, GM_ADDR work, GM_ADDR info, TPipe *pipe)
{
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    pipe->InitBuffer(inQueue, 1, TILE * sizeof(float));
    pipe->InitBuffer(outQueue, 1, TILE * sizeof(float));
    const int32_t tile = static_cast<int32_t>(GetBlockIdx());  // group * 2 + sub-block
    GlobalTensor<float> yGm, workGm;
    GlobalTensor<int32_t> infoGm;
    yGm.SetGlobalBuffer((__gm__ float *)y + tile * TILE, TILE);
    workGm.SetGlobalBuffer((__gm__ float *)work + tile * TILE, TILE);
    infoGm.SetGlobalBuffer((__gm__ int32_t *)info + ((tile / 2) * 3 + 1 + GetSubBlockIdx()) * INFO_ROW, 4);
    CrossCoreWaitFlag(0x3);
    LocalTensor<float> in = inQueue.AllocTensor<float>();
    DataCopy(in, workGm, TILE);
    inQueue.EnQue(in);
    LocalTensor<float> w = inQueue.DeQue<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Adds(out, w, 1.0f, TILE);
    outQueue.EnQue(out);
    inQueue.FreeTensor(w);
    LocalTensor<float> r = outQueue.DeQue<float>();
    DataCopy(yGm, r, TILE);
    outQueue.FreeTensor(r);
    infoGm.SetValue(0, tile);
    infoGm.SetValue(1, 2);
    infoGm.SetValue(2, static_cast<int32_t>(GetSubBlockIdx()));
}
}  // namespace

extern "C" __global__ __aicore__ void async_mix(GM_ADDR x, GM_ADDR y, GM_ADDR work, GM_ADDR info)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    Async<EngineType::AIC, CubeSide>(x, work, info);
    Async<EngineType::AIV, VectorSide>(y, work, info, &pipe);
}
