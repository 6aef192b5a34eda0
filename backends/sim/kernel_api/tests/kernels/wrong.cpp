// Deliberately wrong kernels: each breaks one rule the sanitizer checks.  The test driver
// expects ACL_ERROR_RT_AICORE_EXCEPTION, the check's name and this file's name in the message.
#include "kernel_operator.h"
using namespace AscendC;

// Reads 128 floats through a GlobalTensor of 64.
extern "C" __global__ __aicore__ void gm_read_past_size(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 128);  // BAD: 64 elements past the GlobalTensor's size
    DataCopy(zGm, t, 64);
}

// Writes 128 floats through a GlobalTensor of 64.
extern "C" __global__ __aicore__ void gm_write_past_size(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 64);
    DataCopy(zGm, t, 128);  // BAD
}

// A GlobalTensor without a size reading past the end of its device allocation.
extern "C" __global__ __aicore__ void gm_outside_allocation(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    zGm.SetGlobalBuffer((__gm__ float *)z);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm[n], 64);  // BAD when n + 64 exceeds the allocation
    DataCopy(zGm, t, 64);
}

// Asks for more UB than the core has (2 x 100 KiB > 192 KiB).
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 100 * 1024);  // BAD
}

// Asks for more L0C than the core has (256 KiB > 128 KiB).
extern "C" __global__ __aicore__ void l0c_overflow(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::CO1, 1> q;
    pipe.InitBuffer(q, 1, 256 * 1024);  // BAD
}

// A vector instruction on a UB address that is not 32-byte aligned.
extern "C" __global__ __aicore__ void ub_misaligned(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 256);
    Add(t[3], t[64], t[128], 32);  // BAD: t[3] is 12 bytes past a 32-byte boundary
}

// DataCopy of 7 floats = 28 bytes: hardware would copy nothing.
extern "C" __global__ __aicore__ void datacopy_not_32b(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 7);  // BAD
    DataCopy(zGm, t, 8);
}

// DeQue of a queue nothing was enqueued to.
extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.DeQue<float>();  // BAD
    q.FreeTensor(t);
}

// Two EnQue on a queue of depth 1.
extern "C" __global__ __aicore__ void enque_past_depth(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();
    q.EnQue(a);
    q.EnQue(b);  // BAD
}

// Two AllocTensor on a queue with one buffer.
extern "C" __global__ __aicore__ void alloc_past_depth(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> b = q.AllocTensor<float>();  // BAD
    q.FreeTensor(a);
    q.FreeTensor(b);
}

// A tensor allocated and never freed.
extern "C" __global__ __aicore__ void queue_leak(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> a = q.AllocTensor<float>();  // BAD: never freed
    Duplicate(a, 0.0f, 64);
}

// WaitFlag with no SetFlag.
extern "C" __global__ __aicore__ void waitflag_unpaired(GM_ADDR x)
{
    (void)x;
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);  // BAD
}

// Every block writes the same 64 floats.
extern "C" __global__ __aicore__ void cross_core_overlap(GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);  // BAD: no per-block offset
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), 64);
    DataCopy(zGm, t, 64);
}

// Same pattern, done right: each block writes its own 64 floats (must pass).
extern "C" __global__ __aicore__ void disjoint_writes(GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z + 64 * GetBlockIdx(), 64);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), 64);
    DataCopy(zGm, t, 64);
}

// A repeat-form instruction reaching past the end of its buffer.
extern "C" __global__ __aicore__ void local_out_of_bounds(GM_ADDR x)
{
    (void)x;
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * sizeof(float));
    pipe.InitBuffer(b, 64 * sizeof(float));
    LocalTensor<float> ta = a.Get<float>(), tb = b.Get<float>();
    Duplicate(ta, 1.0f, 64);
    Duplicate(tb, 1.0f, 64);
    BinaryRepeatParams p;
    Add(ta, ta, tb, 64, 2, p);  // BAD: 2 repeats of 64 floats on 64-float buffers
}

// SetFlag that no WaitFlag consumes.
extern "C" __global__ __aicore__ void setflag_unpaired(GM_ADDR x)
{
    (void)x;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);  // BAD: never waited for
}
