// A kernel-launch source whose kernel is a template, launched from host code as public samples do:
// tscale<T>(x, y, n, a): y[i] = a * x[i] on n elements of T (n a multiple of 16 per block).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__global__ __aicore__ void tscale(GM_ADDR x, GM_ADDR y, uint32_t n, float a)
{
    const uint32_t per = n / GetBlockNum();
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x + per * GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ T *)y + per * GetBlockIdx(), per);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, per * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    DataCopy(t, xg, per);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, static_cast<T>(a), per);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, per);
}

namespace demo {
// A template host launcher: the instance depends on the launcher's own parameter.
template <typename T>
void launch_scale(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a)
{
    tscale<T><<<blockDim, nullptr, stream>>>(x, y, n, a);
}
}  // namespace demo

// Non-template entry points for the host program (one per dtype), as a launch file exports them.
void tscale_float(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a)
{
    demo::launch_scale<float>(blockDim, stream, x, y, n, a);
}
void tscale_half(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a)
{
    tscale<half> <<< blockDim, nullptr, stream >>> (x, y, n, a);
}
