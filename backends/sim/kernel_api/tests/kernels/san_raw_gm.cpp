// Ascend C kernels for tests/test_sim_raw_gm.py: raw __gm__ pointer loads and stores in kernel code
// (no GlobalTensor), checked through the ThreadSanitizer hooks of kapi/raw_gm.h.  The line that
// breaks a rule ends with a `BAD(<what>)` comment the tests look up.
#include "kernel_operator.h"
using namespace AscendC;

// Stores n floats of 3.0 at out[0, n) through a raw pointer.
extern "C" __global__ __aicore__ void raw_fill(GM_ADDR out, uint32_t n)
{
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    for (uint32_t i = 0; i < n; ++i) o[i] = 3.0f;  // BAD(raw-store)
}

// y[i] = x[i] + 1 over n floats, raw loads and stores.
extern "C" __global__ __aicore__ void raw_add_one(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    const __gm__ float *a = reinterpret_cast<const __gm__ float *>(x);
    __gm__ float *b = reinterpret_cast<__gm__ float *>(y);
    for (uint32_t i = 0; i < n; ++i) b[i] = a[i] * 0.5f + 1.0f;  // BAD(raw-load)
}

// Every block stores one float at out[block * stride] (a scalar store through its data cache).
extern "C" __global__ __aicore__ void raw_store_own(GM_ADDR out, uint32_t stride)
{
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    o[GetBlockIdx() * stride] = static_cast<float>(GetBlockIdx() + 1);  // BAD(raw-line-share)
}

// Block 0 stores buf[0, n); block 1 copies buf[0, n) to out[0, n): nothing orders the two.
extern "C" __global__ __aicore__ void raw_race(GM_ADDR buf, GM_ADDR out, uint32_t n)
{
    __gm__ float *b = reinterpret_cast<__gm__ float *>(buf);
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    if (GetBlockIdx() == 0) {
        for (uint32_t i = 0; i < n; ++i) b[i] = 1.0f + i;  // BAD(raw-race-write)
    } else {
        for (uint32_t i = 0; i < n; ++i) o[i] = b[i];  // BAD(raw-race-read)
    }
}

// As raw_race, ordered: block 0's stores are written back and a SyncAll comes between.
extern "C" __global__ __aicore__ void raw_ordered(GM_ADDR buf, GM_ADDR out, GM_ADDR ws, uint32_t n)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> wbuf;
    pipe.InitBuffer(wbuf, 256);
    GlobalTensor<int32_t> w;
    w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(ws), 64);
    GlobalTensor<float> gb;
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(buf), n);
    __gm__ float *b = reinterpret_cast<__gm__ float *>(buf);
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    if (GetBlockIdx() == 0) {
        for (uint32_t i = 0; i < n; ++i) b[i] = 1.0f + i;
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(gb);
    }
    SyncAll(w, wbuf.Get<int32_t>());
    if (GetBlockIdx() == 1) {
        for (uint32_t i = 0; i < n; ++i) o[i] = b[i];
    }
}

// The kernel API's own GM accesses in an instrumented binary (GlobalTensor GetValue / SetValue,
// DataCopy): checked by the API, not a second time by the hooks.  out[i] = 2 * x[i] + 1.
extern "C" __global__ __aicore__ void api_scalar(GM_ADDR x, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    go.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, n);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, t.GetValue(i) + 1.0f);
    PipeBarrier<PIPE_ALL>();
    DataCopy(go, t, n);
    PipeBarrier<PIPE_ALL>();
    go.SetValue(0, go.GetValue(0));
}
