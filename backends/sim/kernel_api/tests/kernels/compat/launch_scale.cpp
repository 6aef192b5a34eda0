// A kernel-launch source: the kernel and its host launchers in one file, as many public samples
// keep them. lscale(x, y, n, a): y[i] = a * x[i] on n elements (n a multiple of 8 per block).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void lscale(GM_ADDR x, GM_ADDR y, uint32_t n, float a)
{
    const uint32_t per = n / GetBlockNum();
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), per);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, per * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, per);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, a, per);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, per);
}

// Unguarded host launcher: the <<<>>> launch becomes a launch through the simulated runtime.
void lscale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a)
{
    lscale<<<blockDim, nullptr, stream>>>(x, y, n, a);
}

#ifndef ASCENDC_CPU_DEBUG
// Guarded host launcher: left out on the CPU, as in CANN's CPU debug build.
void lscale_do_guarded(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a)
{
    lscale<<<blockDim, nullptr, stream>>>(x, y, n, a);
}
#endif
