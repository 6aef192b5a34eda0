// Cross-core synchronisation and atomics in the style of public Ascend C kernels, for
// tests/test_ascendc_compat_sync.py: SyncAll (hard and soft), IBSet / IBWait, CrossCoreSetFlag /
// CrossCoreWaitFlag, SetAtomicAdd / Max / Min.  Block b works on [b * kTile, (b + 1) * kTile).
// Lines marked BAD(...) are the planted hangs the tests expect the simulator to report.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr int32_t kTile = 64;  // elements per block

__aicore__ inline int32_t Me() { return static_cast<int32_t>(GetBlockIdx()); }
__aicore__ inline int32_t Cores() { return static_cast<int32_t>(GetBlockNum()); }

// Phase 1 of the neighbour kernels: work[b] = 2 * x[b].
class NeighbourSum {
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
    __aicore__ inline void Double()
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm[Me() * kTile], kTile);
        inQueue.EnQue(in);
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Muls(out, x, 2.0f, kTile);
        outQueue.EnQue(out);
        inQueue.FreeTensor(x);
        LocalTensor<float> r = outQueue.DeQue<float>();
        DataCopy(workGm[Me() * kTile], r, kTile);
        outQueue.FreeTensor(r);
    }
    // Phase 2, after the cores met: y[b] = work[b] + work[(b + 1) % n] (another core's result).
    __aicore__ inline void AddNeighbour()
    {
        const int32_t next = (Me() + 1) % Cores();
        LocalTensor<float> a = inQueue.AllocTensor<float>();
        DataCopy(a, workGm[Me() * kTile], kTile);
        inQueue.EnQue(a);
        LocalTensor<float> own = inQueue.DeQue<float>();
        LocalTensor<float> other = tmpBuf.Get<float>();
        DataCopy(other, workGm[next * kTile], kTile);
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

// Hard SyncAll between the two phases.
extern "C" __global__ __aicore__ void syncall_neighbour(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    NeighbourSum op;
    op.Init(x, y, work);
    op.Double();
    SyncAll();
    op.AddNeighbour();
}

// Two rounds of SyncAll (the counter of the second meeting must not see the first one's).
extern "C" __global__ __aicore__ void syncall_twice(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    NeighbourSum op;
    op.Init(x, y, work);
    op.Double();
    SyncAll();
    op.AddNeighbour();
    SyncAll();
    op.AddNeighbour();  // reads work again: unchanged, so y is the same
}

// Soft SyncAll with a GM workspace (cores x 32 bytes, zeroed by the host) and a UB workspace.
extern "C" __global__ __aicore__ void syncall_soft(GM_ADDR x, GM_ADDR y, GM_ADDR work, GM_ADDR syncWs,
                                                   uint32_t wsInts)
{
    NeighbourSum op;
    op.Init(x, y, work);
    GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWs, wsInts);
    TBuf<TPosition::VECCALC> ubWs;
    op.pipe.InitBuffer(ubWs, Cores() * 32);
    LocalTensor<int32_t> ub = ubWs.Get<int32_t>();
    op.Double();
    SyncAll(syncGm, ub);  // BAD(cross-core-workspace)
    op.AddNeighbour();
}

// Block `bad` leaves before the meeting: the others can never pass it (a hang on hardware).
extern "C" __global__ __aicore__ void syncall_skipped(GM_ADDR x, GM_ADDR y, GM_ADDR work, uint32_t bad)
{
    NeighbourSum op;
    op.Init(x, y, work);
    op.Double();
    if (Me() == static_cast<int32_t>(bad)) {
        return;
    }
    SyncAll();  // BAD(cross-core-deadlock)
    op.AddNeighbour();
}

// The same meeting reached only through hardware flags: every core sets flag 3 (mode 0), then
// waits for it.
extern "C" __global__ __aicore__ void flag_barrier_neighbour(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    NeighbourSum op;
    op.Init(x, y, work);
    op.Double();
    CrossCoreSetFlag<0x0, PIPE_MTE3>(0x3);
    CrossCoreWaitFlag(0x3);
    op.AddNeighbour();
}

// A chain: block b waits for block b - 1 (IBWait), adds its tile to b - 1's running sum and
// signals block b + 1 (IBSet): y holds prefix sums over the tiles.
extern "C" __global__ __aicore__ void ib_prefix_sum(GM_ADDR x, GM_ADDR y, GM_ADDR syncWs, uint32_t wsInts)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> accBuf, ubWs;
    pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
    pipe.InitBuffer(accBuf, kTile * sizeof(float));
    pipe.InitBuffer(ubWs, 32);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> syncGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, kTile * Cores());
    yGm.SetGlobalBuffer((__gm__ float *)y, kTile * Cores());
    syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWs, wsInts);
    LocalTensor<int32_t> ub = ubWs.Get<int32_t>();
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<float> in = inQueue.AllocTensor<float>();
    DataCopy(in, xGm[Me() * kTile], kTile);
    inQueue.EnQue(in);
    LocalTensor<float> xt = inQueue.DeQue<float>();
    if (Me() > 0) {
        IBWait(syncGm, ub, Me() - 1, 0);
        DataCopy(acc, yGm[(Me() - 1) * kTile], kTile);
        PipeBarrier<PIPE_ALL>();
        Add(acc, acc, xt, kTile);
    } else {
        Adds(acc, xt, 0.0f, kTile);
    }
    inQueue.FreeTensor(xt);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm[Me() * kTile], acc, kTile);
    PipeBarrier<PIPE_ALL>();
    IBSet(syncGm, ub, Me(), 0);
}

// Every block adds / maxes / mins its tile of x into the same kTile elements of y.
namespace {
template <typename T, int kOp>
__aicore__ inline void AtomicReduce(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, kTile * sizeof(T));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x + Me() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ T *)y, kTile);
    LocalTensor<T> t = inQueue.AllocTensor<T>();
    DataCopy(t, xGm, kTile);
    inQueue.EnQue(t);
    LocalTensor<T> v = inQueue.DeQue<T>();
    if (kOp == 0) {
        SetAtomicAdd<T>();
    } else if (kOp == 1) {
        SetAtomicMax<T>();
    } else {
        SetAtomicMin<T>();
    }
    DataCopy(yGm, v, kTile);
    SetAtomicNone();
    inQueue.FreeTensor(v);
}
}  // namespace

extern "C" __global__ __aicore__ void atomic_add_f32(GM_ADDR x, GM_ADDR y) { AtomicReduce<float, 0>(x, y); }
extern "C" __global__ __aicore__ void atomic_add_f16(GM_ADDR x, GM_ADDR y) { AtomicReduce<half, 0>(x, y); }
extern "C" __global__ __aicore__ void atomic_add_bf16(GM_ADDR x, GM_ADDR y) { AtomicReduce<bfloat16_t, 0>(x, y); }
extern "C" __global__ __aicore__ void atomic_add_i32(GM_ADDR x, GM_ADDR y) { AtomicReduce<int32_t, 0>(x, y); }
extern "C" __global__ __aicore__ void atomic_add_i16(GM_ADDR x, GM_ADDR y) { AtomicReduce<int16_t, 0>(x, y); }
extern "C" __global__ __aicore__ void atomic_max_f32(GM_ADDR x, GM_ADDR y) { AtomicReduce<float, 1>(x, y); }
extern "C" __global__ __aicore__ void atomic_min_f32(GM_ADDR x, GM_ADDR y) { AtomicReduce<float, 2>(x, y); }
extern "C" __global__ __aicore__ void atomic_max_i32(GM_ADDR x, GM_ADDR y) { AtomicReduce<int32_t, 1>(x, y); }
extern "C" __global__ __aicore__ void atomic_min_f16(GM_ADDR x, GM_ADDR y) { AtomicReduce<half, 2>(x, y); }

// The same writes without SetAtomicAdd: blocks overwrite each other (the sanitizer's overlap check).
extern "C" __global__ __aicore__ void plain_overlap_f32(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + Me() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float *)y, kTile);
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopy(t, xGm, kTile);
    inQueue.EnQue(t);
    LocalTensor<float> v = inQueue.DeQue<float>();
    DataCopy(yGm, v, kTile);
    inQueue.FreeTensor(v);
}

// A mixed cube/vector kernel: per block (AI Core) the AIC prepares 2 * kTile elements
// (work = 3 * x), writes them back from its data cache and signals its two AIV (CrossCoreSetFlag
// mode 2); each AIV waits, adds 1 to its half (y = work + 1), records who it is in `info` and
// signals back; the AIC waits for both.  Every core stores its `info` row with SetValue, through
// its own data cache: a row is a whole 64-byte line (kInfoRow int32), so no two cores share one
// (SetValue page; gm-cache-line-share).
constexpr int32_t kInfoRow = static_cast<int32_t>(64 / sizeof(int32_t));  // one data-cache line per core

extern "C" __global__ __aicore__ void mix_pipeline(GM_ADDR x, GM_ADDR y, GM_ADDR work, GM_ADDR info)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<float> xGm, yGm, workGm;
    GlobalTensor<int32_t> infoGm;
    const int32_t groups = Cores();
    xGm.SetGlobalBuffer((__gm__ float *)x, 2 * kTile * groups);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * kTile * groups);
    workGm.SetGlobalBuffer((__gm__ float *)work, 2 * kTile * groups);
    infoGm.SetGlobalBuffer((__gm__ int32_t *)info, kInfoRow * 3 * groups);
    if ASCEND_IS_AIC {
        const int32_t base = Me() * 2 * kTile;
        for (int32_t i = 0; i < 2 * kTile; ++i) {
            workGm.SetValue(base + i, 3.0f * xGm.GetValue(base + i));
        }
        // the AIV read `work` by DMA: the stores must reach GM before the flag
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(workGm);
        CrossCoreSetFlag<0x2, PIPE_FIX>(0x5);
        CrossCoreWaitFlag(0x6);
        const int32_t row = (2 * groups + Me()) * kInfoRow;
        infoGm.SetValue(row + 0, static_cast<int32_t>(GetBlockIdx()));
        infoGm.SetValue(row + 1, static_cast<int32_t>(GetTaskRation()));
        infoGm.SetValue(row + 2, static_cast<int32_t>(GetBlockNum()));
        infoGm.SetValue(row + 3, 1);  // the AIV signalled back
    }
    if ASCEND_IS_AIV {
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> inQueue;
        TQue<QuePosition::VECOUT, 1> outQueue;
        pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
        pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
        CrossCoreWaitFlag(0x5);
        const int32_t tile = static_cast<int32_t>(GetBlockIdx());  // group * 2 + sub-block
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, workGm[tile * kTile], kTile);
        inQueue.EnQue(in);
        LocalTensor<float> w = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Adds(out, w, 1.0f, kTile);
        outQueue.EnQue(out);
        inQueue.FreeTensor(w);
        LocalTensor<float> r = outQueue.DeQue<float>();
        DataCopy(yGm[tile * kTile], r, kTile);
        outQueue.FreeTensor(r);
        const int32_t row = tile * kInfoRow;
        infoGm.SetValue(row + 0, tile);
        infoGm.SetValue(row + 1, static_cast<int32_t>(GetTaskRatio()));
        infoGm.SetValue(row + 2, static_cast<int32_t>(GetBlockNum()));
        infoGm.SetValue(row + 3, static_cast<int32_t>(GetSubBlockIdx()));
        CrossCoreSetFlag<0x2, PIPE_MTE3>(0x6);
    }
}

// Every core of a mixed kernel meets (SyncAll<false>): a launch of more blocks than AI Cores hangs.
extern "C" __global__ __aicore__ void mix_syncall(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    (void)x;
    (void)y;
    (void)work;
    SyncAll<false>();
}

// Block 0 waits for an event block 1 never sets (a hang on hardware).
extern "C" __global__ __aicore__ void ib_wait_unset(GM_ADDR x, GM_ADDR y, GM_ADDR work, GM_ADDR syncWs)
{
    (void)x;
    (void)y;
    (void)work;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubWs;
    pipe.InitBuffer(ubWs, 32);
    GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t *)syncWs, 8 * Cores() * 2);
    LocalTensor<int32_t> ub = ubWs.Get<int32_t>();
    if (Me() == 0) {
        IBWait(syncGm, ub, 1, 1);  // BAD(ib-wait-unset)
    }
}
