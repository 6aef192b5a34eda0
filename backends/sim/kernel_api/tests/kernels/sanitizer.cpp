// Deliberately wrong Ascend C kernels for tests/test_sim_sanitizer.py. Each breaks one rule the
// simulator's sanitizer checks, in block `bad` only; the other blocks do correct work. The line that
// breaks the rule ends with a `BAD(<check>)` comment, which the tests look up to check that the
// error message points at it. `fine` kernels at the end are correct and used after the failures.
// Every kernel orders its pipes (PipeBarrier<PIPE_ALL>, flags, queues) so pipe-race stays quiet.
//
// Layout shared by most kernels: x and z hold kChunk floats per block; block b works on
// [b * kChunk, (b + 1) * kChunk).
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t kChunk = 64;

__aicore__ inline bool IsBad(uint32_t bad)
{
    return static_cast<uint32_t>(GetBlockIdx()) == bad;
}

__aicore__ inline uint32_t Base()
{
    return kChunk * static_cast<uint32_t>(GetBlockIdx());
}

}  // namespace

// Reads, through a GlobalTensor of kChunk floats, from its chunk to kChunk floats past the end of x
// (x holds kChunk floats per block): past the memory x points into. (A read past the size that stays
// inside that memory is the warning gm-read-past-size: compat/scalar_list_idioms.cpp.)
extern "C" __global__ __aicore__ void read_past_size(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    pipe.InitBuffer(buf, (blocks + 1) * kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    const uint32_t count = IsBad(bad) ? (blocks + 1 - static_cast<uint32_t>(GetBlockIdx())) * kChunk : kChunk;
    DataCopy(t, gx, count);  // BAD(gm-out-of-bounds read)
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, kChunk);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, kChunk);
}

// Writes 2 * kChunk floats through a GlobalTensor of kChunk: into the next block's chunk.
extern "C" __global__ __aicore__ void write_past_size(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, -5.0f, 2 * kChunk);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, gx, kChunk);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, kChunk);
    PipeBarrier<PIPE_ALL>();
    const uint32_t count = IsBad(bad) ? 2 * kChunk : kChunk;
    DataCopy(gz, t, count);  // BAD(gm-out-of-bounds write)
}

// A GlobalTensor without a size: block `bad` reads 64 floats from `elsewhere + offset` floats, the
// others read their chunk of x.
extern "C" __global__ __aicore__ void read_elsewhere(GM_ADDR x, GM_ADDR z, GM_ADDR elsewhere, uint32_t offset,
                                                     uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    if (IsBad(bad)) {
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(elsewhere) + offset);
    } else {
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base());
    }
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base());
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kChunk);  // BAD(gm-out-of-allocation)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, kChunk);
}

// Two double-buffered queues of 64 KiB + 40 KiB tiles: 208 KiB of a 192 KiB UB.
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x, uint32_t bad)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qin, 2, 64 * 1024);
    const uint32_t outTile = IsBad(bad) ? 40 * 1024 : 16 * 1024;
    pipe.InitBuffer(qout, 2, outTile);  // BAD(buffer-capacity UB)
}

// One buffer of `bytes` in L1 (where 0), L0A (1), L0B (2) or L0C (3).
extern "C" __global__ __aicore__ void cube_buffer(GM_ADDR x, uint32_t where, uint32_t bytes)
{
    (void)x;
    TPipe pipe;
    TQue<TPosition::A1, 1> l1;
    TQue<TPosition::A2, 1> l0a;
    TQue<TPosition::B2, 1> l0b;
    TQue<TPosition::CO1, 1> l0c;
    switch (where) {
        case 0: pipe.InitBuffer(l1, 1, bytes); break;  // BAD(buffer-capacity L1)
        case 1: pipe.InitBuffer(l0a, 1, bytes); break;  // BAD(buffer-capacity L0A)
        case 2: pipe.InitBuffer(l0b, 1, bytes); break;  // BAD(buffer-capacity L0B)
        default: pipe.InitBuffer(l0c, 1, bytes); break;  // BAD(buffer-capacity L0C)
    }
}

// A vector instruction whose source starts 5 floats (20 bytes) into a UB buffer.
extern "C" __global__ __aicore__ void ub_misaligned(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bin, bout;
    pipe.InitBuffer(bin, 2 * kChunk * sizeof(float));
    pipe.InitBuffer(bout, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> in = bin.Get<float>(), out = bout.Get<float>();
    DataCopy(in, gx, kChunk);
    PipeBarrier<PIPE_ALL>();
    const uint32_t shift = IsBad(bad) ? 5 : 0;
    Muls(out, in[shift], 2.0f, kChunk);  // BAD(ub-alignment)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, out, kChunk);
}

// DataCopy of `count` floats into a UB buffer filled with -1, then kChunk floats back out: with a
// count that is not a multiple of 8 floats (32 bytes) the copy-in is wrong.
extern "C" __global__ __aicore__ void copy_count(GM_ADDR x, GM_ADDR z, uint32_t count)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, -1.0f, kChunk);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, gx, count);  // BAD(datacopy-length)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, kChunk);
}

// Block `bad` forgets to EnQue the tensor it filled, then DeQues.
extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    pipe.InitBuffer(qin, 1, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = qin.AllocTensor<float>();
    DataCopy(t, gx, kChunk);
    if (!IsBad(bad)) {
        qin.EnQue(t);
    }
    LocalTensor<float> u = qin.DeQue<float>();  // BAD(queue-deque-empty)
    DataCopy(gz, u, kChunk);
    qin.FreeTensor(u);
}

// Block `bad` prefetches two tiles into a queue of depth 1.
extern "C" __global__ __aicore__ void enque_past_depth(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    pipe.InitBuffer(qin, 2, kChunk / 2 * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    for (uint32_t half = 0; half < 2; ++half) {
        LocalTensor<float> t = qin.AllocTensor<float>();
        DataCopy(t, gx[half * kChunk / 2], kChunk / 2);
        qin.EnQue(t);
        if (IsBad(bad) && half == 0) {
            LocalTensor<float> early = qin.AllocTensor<float>();
            DataCopy(early, gx[kChunk / 2], kChunk / 2);
            qin.EnQue(early);  // BAD(queue-enque-past-depth)
        }
        LocalTensor<float> u = qin.DeQue<float>();
        DataCopy(gz[half * kChunk / 2], u, kChunk / 2);
        qin.FreeTensor(u);
    }
}

// Block `bad` allocates a third tensor from a queue with two buffers.
extern "C" __global__ __aicore__ void alloc_past_depth(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qout, 2, kChunk * sizeof(float));  // the queue's buffers
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> a = qout.AllocTensor<float>();
    LocalTensor<float> b = qout.AllocTensor<float>();
    DataCopy(a, gx, kChunk);
    PipeBarrier<PIPE_ALL>();
    Muls(b, a, 3.0f, kChunk);
    PipeBarrier<PIPE_ALL>();
    if (IsBad(bad)) {
        LocalTensor<float> c = qout.AllocTensor<float>();  // BAD(queue-alloc-past-depth)
        qout.FreeTensor(c);
    }
    DataCopy(gz, b, kChunk);
    qout.FreeTensor(a);
    qout.FreeTensor(b);
}

// Block `bad` never frees its output tensor.
extern "C" __global__ __aicore__ void queue_leak(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qout, 1, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = qout.AllocTensor<float>();  // BAD(queue-leak)
    DataCopy(t, gx, kChunk);
    qout.EnQue(t);
    LocalTensor<float> u = qout.DeQue<float>();
    DataCopy(gz, u, kChunk);
    if (!IsBad(bad)) {
        qout.FreeTensor(u);
    }
}

// Block `bad` waits for the MTE2 -> V event without having set it.
extern "C" __global__ __aicore__ void wait_unset(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kChunk);
    if (!IsBad(bad)) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID2);
    }
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);  // BAD(waitflag-unpaired)
    Abs(t, t, kChunk);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
    DataCopy(gz, t, kChunk);
}

// Block `bad` sets the V -> MTE3 event but never waits for it.
extern "C" __global__ __aicore__ void set_unwaited(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kChunk);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);  // BAD(setflag-unpaired)
    if (!IsBad(bad)) {
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, kChunk);
}

// A repeat-form instruction of block `bad` runs past the end of its 64-float buffers.
extern "C" __global__ __aicore__ void local_overrun(GM_ADDR x, GM_ADDR z, uint32_t bad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, kChunk * sizeof(float));
    pipe.InitBuffer(bb, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>();
    DataCopy(a, gx, kChunk);
    Duplicate(b, 0.5f, kChunk);
    PipeBarrier<PIPE_ALL>();
    const uint8_t repeats = IsBad(bad) ? 2 : 1;
    Add(a, a, b, 64, repeats, BinaryRepeatParams());  // BAD(local-out-of-bounds)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, a, kChunk);
}

// Block b writes kChunk floats at z + b * stride: blocks overlap when stride < kChunk.
extern "C" __global__ __aicore__ void strided_store(GM_ADDR z, uint32_t stride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + stride * static_cast<uint32_t>(GetBlockIdx()), kChunk);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), kChunk);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, kChunk);  // BAD(gm-write-overlap)
}

// Every block fills its chunk of z with its index; block 1 also stores 42 at z[index] with SetValue:
// a race with the block owning that chunk unless index is in block 1's own chunk.
extern "C" __global__ __aicore__ void stray_store(GM_ADDR z, uint32_t index)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kChunk * sizeof(float));
    GlobalTensor<float> mine, all;
    mine.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kChunk * static_cast<uint32_t>(GetBlockNum()));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), kChunk);
    PipeBarrier<PIPE_ALL>();
    DataCopy(mine, t, kChunk);  // BAD(gm-write-overlap chunk)
    if (GetBlockIdx() == 1) {
        all.SetValue(index, 42.0f);  // BAD(gm-write-overlap scalar)
    }
}

// Correct: z = 2 * x + 1 on kChunk floats per block.
extern "C" __global__ __aicore__ void fine(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, kChunk * sizeof(float));
    pipe.InitBuffer(qout, 1, kChunk * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + Base(), kChunk);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + Base(), kChunk);
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopy(a, gx, kChunk);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    LocalTensor<float> b = qout.AllocTensor<float>();
    Muls(b, a, 2.0f, kChunk);
    Adds(b, b, 1.0f, kChunk);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<float>();
    DataCopy(gz, b, kChunk);
    qout.FreeTensor(b);
}
