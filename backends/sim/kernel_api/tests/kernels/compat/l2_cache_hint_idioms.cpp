// Our own kernel in the style of Catlass grouped matmuls that turn the L2 cache off for an operand read
// once (NPUKernelBench level3 GroupedMatmulSliceM: gmB.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE)):
//
//   l2_hint_scale   y = x * 2 + 1 over n floats (one block), with x's GlobalTensor hinted CACHE_MODE_DISABLE
//                   and y's hinted through the template form SetL2CacheHint<CacheRwMode::WRITE>(CACHE_MODE_NORMAL);
//                   the documented enum values land in codes[0..4] (DISABLE, NORMAL, READ, WRITE, RW).
//   icache_preload_scale  y = x * 3 - 2 over n floats after ICachePreLoad(preFetchLen) at entry, as
//                   Qeeweew/vllm-ascend's w4a16_moe does (an instruction-cache hint: the data are unchanged).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void l2_hint_scale(GM_ADDR px, GM_ADDR py, GM_ADDR pcodes, int32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    GlobalTensor<float> gx, gy;
    GlobalTensor<int32_t> codes;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(px), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), n);
    codes.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(pcodes), 5);
    gx.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    gy.SetL2CacheHint<CacheRwMode::WRITE>(CacheMode::CACHE_MODE_NORMAL);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, n);
    Adds(t, t, 1.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, n);
    codes.SetValue(0, static_cast<int32_t>(CacheMode::CACHE_MODE_DISABLE));
    codes.SetValue(1, static_cast<int32_t>(CacheMode::CACHE_MODE_NORMAL));
    codes.SetValue(2, static_cast<int32_t>(CacheRwMode::READ));
    codes.SetValue(3, static_cast<int32_t>(CacheRwMode::WRITE));
    codes.SetValue(4, static_cast<int32_t>(RW));
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void icache_preload_scale(GM_ADDR px, GM_ADDR py, int32_t n, int64_t preFetchLen) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AscendC::ICachePreLoad(preFetchLen);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(px), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 3.0f, n);
    Adds(t, t, -2.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, n);
    PipeBarrier<PIPE_ALL>();
}
