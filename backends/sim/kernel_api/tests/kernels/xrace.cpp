// Cross-core global-memory races (check 'gm-cross-core-race'), for tests/test_sim_xcore_race.py.
// Block b doubles its tile of x into work[b], then adds the next block's tile work[b + 1]: the
// read of another block's result needs an ordering (SyncAll, IBSet/IBWait, CrossCoreSetFlag /
// CrossCoreWaitFlag).  Lines marked BAD(...) are the planted races the tests expect reported;
// the kernels without a BAD line must run clean.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr int32_t kTile = 64;  // elements per block

__aicore__ inline int32_t Me() { return static_cast<int32_t>(GetBlockIdx()); }
__aicore__ inline int32_t Cores() { return static_cast<int32_t>(GetBlockNum()); }
__aicore__ inline int32_t Next() { return (Me() + 1) % Cores(); }

class Neighbour {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR work)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, kTile * Cores());
        yGm.SetGlobalBuffer((__gm__ float *)y, kTile * Cores());
        workGm.SetGlobalBuffer((__gm__ float *)work, kTile * Cores());
        pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
        pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
        pipe.InitBuffer(tmpBuf, kTile * sizeof(float));
    }
    // work[b] = 2 * x[b]
    __aicore__ inline void Double()
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm[Me() * kTile], kTile);
        inQueue.EnQue(in);
        LocalTensor<float> xt = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Muls(out, xt, 2.0f, kTile);
        outQueue.EnQue(out);
        inQueue.FreeTensor(xt);
        LocalTensor<float> r = outQueue.DeQue<float>();
        DataCopy(workGm[Me() * kTile], r, kTile);  // BAD(race-writer)
        outQueue.FreeTensor(r);
    }
    // y[b] = work[b] + work[next]
    __aicore__ inline void AddNext()
    {
        LocalTensor<float> a = inQueue.AllocTensor<float>();
        DataCopy(a, workGm[Me() * kTile], kTile);
        inQueue.EnQue(a);
        LocalTensor<float> own = inQueue.DeQue<float>();
        LocalTensor<float> other = tmpBuf.Get<float>();
        DataCopy(other, workGm[Next() * kTile], kTile);  // BAD(race-reader)
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Add(out, own, other, kTile);
        outQueue.EnQue(out);
        inQueue.FreeTensor(own);
        LocalTensor<float> r = outQueue.DeQue<float>();
        DataCopy(yGm[Me() * kTile], r, kTile);
        outQueue.FreeTensor(r);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, yGm, workGm;
};

}  // namespace

// Planted: nothing orders block next's write of work[next] and this block's read of it.
extern "C" __global__ __aicore__ void xrace_no_sync(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    Neighbour op;
    op.Init(x, y, work);
    op.Double();
    op.AddNext();
}

// Clean: SyncAll between the phases (every access before it happens before every one after).
extern "C" __global__ __aicore__ void xrace_syncall(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    Neighbour op;
    op.Init(x, y, work);
    op.Double();
    SyncAll();
    op.AddNext();
}

// Clean: pairwise flags. Block b signals its own slot after writing work[b] and waits for the
// next block's slot before reading work[next].
extern "C" __global__ __aicore__ void xrace_ib(GM_ADDR x, GM_ADDR y, GM_ADDR work, GM_ADDR syncWs, uint32_t wsInts)
{
    Neighbour op;
    op.Init(x, y, work);
    TBuf<TPosition::VECCALC> ubWs;
    op.pipe.InitBuffer(ubWs, 32);
    GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWs, wsInts);
    LocalTensor<int32_t> ub = ubWs.Get<int32_t>();
    op.Double();
    IBSet(syncGm, ub, Me(), 0);
    IBWait(syncGm, ub, Next(), 0);
    op.AddNext();
}

// Clean: CrossCoreSetFlag / CrossCoreWaitFlag mode 0 (a barrier of every block).
extern "C" __global__ __aicore__ void xrace_flag(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    Neighbour op;
    op.Init(x, y, work);
    op.Double();
    CrossCoreSetFlag<0x0, PIPE_MTE3>(0x2);
    CrossCoreWaitFlag(0x2);
    op.AddNext();
}

// Planted write-after-read: block b reads x[next] while block next overwrites x[next] in place.
extern "C" __global__ __aicore__ void xrace_war(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    Neighbour op;
    op.Init(x, y, work);
    LocalTensor<float> t = op.inQueue.AllocTensor<float>();
    DataCopy(t, op.xGm[Next() * kTile], kTile);  // BAD(war-reader)
    op.inQueue.EnQue(t);
    LocalTensor<float> v = op.inQueue.DeQue<float>();
    DataCopy(op.yGm[Me() * kTile], v, kTile);
    op.inQueue.FreeTensor(v);
    LocalTensor<float> z = op.tmpBuf.Get<float>();
    Duplicate(z, 0.0f, kTile);
    PipeBarrier<PIPE_ALL>();
    DataCopy(op.xGm[Me() * kTile], z, kTile);  // BAD(war-writer)
}

// Every block adds its tile into y[0 .. kTile) atomically (clean: atomics do not race with each
// other); with `readBack` block 0 then reads y without waiting for the others (planted), and with
// `sync` it reads after SyncAll (clean).
extern "C" __global__ __aicore__ void xrace_atomic(GM_ADDR x, GM_ADDR y, uint32_t readBack, uint32_t sync)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + Me() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float *)y, kTile * (Cores() + 1));
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopy(t, xGm, kTile);
    inQueue.EnQue(t);
    LocalTensor<float> v = inQueue.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(yGm, v, kTile);  // BAD(atomic-writer)
    SetAtomicNone();
    inQueue.FreeTensor(v);
    if (sync != 0) SyncAll();
    if (readBack != 0 && Me() == 0) {
        LocalTensor<float> s = inQueue.AllocTensor<float>();
        DataCopy(s, yGm, kTile);  // BAD(atomic-reader)
        inQueue.EnQue(s);
        LocalTensor<float> r = inQueue.DeQue<float>();
        DataCopy(yGm[kTile * Cores()], r, kTile);
        inQueue.FreeTensor(r);
    }
}

// Clean: a strided read of this block's columns; the other blocks' columns lie in the gaps
// between its bursts and they write them in place (only the bursts read are recorded).
extern "C" __global__ __aicore__ void xrace_strided(GM_ADDR x)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, 4 * 8 * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4 * 8 * Cores());  // 4 rows of Cores() x 8 floats
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopyParams p;
    p.blockCount = 4;
    p.blockLen = 1;  // 8 floats
    p.srcStride = static_cast<uint16_t>(Cores() - 1);
    p.dstStride = 0;
    DataCopy(t, xGm[Me() * 8], p);
    inQueue.EnQue(t);
    LocalTensor<float> v = inQueue.DeQue<float>();
    Adds(v, v, 1.0f, 4 * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopyParams q;
    q.blockCount = 4;
    q.blockLen = 1;
    q.srcStride = 0;
    q.dstStride = static_cast<uint16_t>(Cores() - 1);
    DataCopy(xGm[Me() * 8], v, q);
    inQueue.FreeTensor(v);
}
