// A left-over buffer sized by a tiling value that can be 0 (tests/test_sim_compat_empty_buffer.py), the idiom of
// DrivingSDK's scatter_max_v3 (COMPAT.md round 29): after its batches the kernel resets its pipe, gives the left-over
// elements their own TBuf of exactly `left` floats and loops over them; when nothing is left the TBuf has 0 bytes and
// is never used. The NPU accepts that (the SDK asserts len > 0 in its CPU-debug build only); the simulator runs on
// with the warning buffer-empty, an error with PYASC_SIM_STRICT.
//
// scale_rows(x, y, n, batch, left): y[i] = 2 x[i] for i < n + left. The first n elements (a multiple of batch, batch
// a multiple of 8) go in batches through one TBuf, the last `left` (a multiple of 8, possibly 0) through the second.
#include "kernel_operator.h"
using namespace AscendC;

// y[off, off + count) = 2 x[off, off + count) through the tile t (count floats, a multiple of 8)
__aicore__ inline void ScaleTile(const LocalTensor<float> &t, const GlobalTensor<float> &xGm,
                                 const GlobalTensor<float> &yGm, uint32_t off, uint32_t count)
{
    DataCopy(t, xGm[off], count);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, 2.0f, count);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[off], t, count);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t batch, uint32_t left)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> batchBuf, leftBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n + left);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n + left);

    pipe.InitBuffer(batchBuf, batch * sizeof(float));
    LocalTensor<float> t = batchBuf.Get<float>();
    for (uint32_t off = 0; off < n; off += batch) {
        ScaleTile(t, xGm, yGm, off, batch);
    }

    pipe.Reset();
    pipe.InitBuffer(leftBuf, left * sizeof(float));  // BAD(empty)
    LocalTensor<float> l = leftBuf.Get<float>();
    const uint32_t leftLoops = left == 0 ? 0 : 1;
    for (uint32_t i = 0; i < leftLoops; ++i) {
        ScaleTile(l, xGm, yGm, n, left);
    }
}
