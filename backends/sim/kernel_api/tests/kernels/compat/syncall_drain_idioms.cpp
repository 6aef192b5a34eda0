// A hard SyncAll drains the calling core's pipes before the cores meet (the A2 implementation of the hard
// SyncAll starts with PipeBarrier<PIPE_ALL>), so a kernel may reuse a UB buffer right after the meeting that an
// MTE3 copy read just before it -- as memfabric_hybrid's zbal dispatch_layout does (its Init zeroes GM from a
// UB tensor, SyncAll, then Process resets the pipe and fills the same bytes with Duplicate).  Our own kernels,
// for tests/test_sim_compat_syncall_drain.py.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kTile = 64;  // floats per block

template <HardEvent event>
__aicore__ inline void SyncEvent()
{
    int32_t id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(event));
    SetFlag<event>(id);
    WaitFlag<event>(id);
}
}  // namespace

// work[b] = 2 * x[b]; the cores meet; y[b] = 1 + work[(b + 1) % n].  `buf` is read by the MTE3 copy into work
// and written by the Duplicate after the meeting with no flag in between: the SyncAll orders them.
extern "C" __global__ __aicore__ void drain_then_reuse(GM_ADDR x, GM_ADDR work, GM_ADDR y, uint32_t meet)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB;
    pipe.InitBuffer(bufA, kTile * sizeof(float));
    pipe.InitBuffer(bufB, kTile * sizeof(float));
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    workGm.SetGlobalBuffer((__gm__ float *)work);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    const int32_t me = GetBlockIdx();
    LocalTensor<float> a = bufA.Get<float>();
    DataCopy(a, xGm[me * kTile], kTile);
    SyncEvent<HardEvent::MTE2_V>();
    Muls(a, a, 2.0f, kTile);
    SyncEvent<HardEvent::V_MTE3>();
    DataCopy(workGm[me * kTile], a, kTile);
    if (meet != 0) {
        SyncAll<true>();
    }
    Duplicate(a, 1.0f, kTile);  // the same UB bytes the MTE3 copy above read
    LocalTensor<float> b = bufB.Get<float>();
    if (meet != 0) {
        DataCopy(b, workGm[((me + 1) % GetBlockNum()) * kTile], kTile);
    } else {
        Duplicate(b, 0.0f, kTile);
    }
    SyncEvent<HardEvent::MTE2_V>();
    Add(a, a, b, kTile);
    SyncEvent<HardEvent::V_MTE3>();
    DataCopy(yGm[me * kTile], a, kTile);
}
