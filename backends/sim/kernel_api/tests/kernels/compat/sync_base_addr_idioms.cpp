// The FFTS base address in the style of multi-core communication kernels (memfabric_hybrid's zbal dispatch /
// combine kernels): the host passes the address the runtime gave it as a uint64_t kernel argument and the kernel
// installs it first, through the Ascend C call AscendC::SetSyncBaseAddr or the CCE intrinsic set_ffts_base_addr,
// before the cores meet.  Our own kernels, for tests/test_sim_compat_sync_base_addr.py.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t kTile = 64;  // floats per block: 256 bytes, whole 32-byte blocks

template <HardEvent event>
__aicore__ inline void SyncEvent()
{
    int32_t id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(event));
    SetFlag<event>(id);
    WaitFlag<event>(id);
}

// Phase 1: work[b] = 3 * x[b].  The cores meet.  Phase 2: y[b] = work[(b + 1) % n] - x[b].
class RotateAfterMeeting {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR work, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x);
        workGm.SetGlobalBuffer((__gm__ float *)work);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(bufA, kTile * sizeof(float));
        pipe.InitBuffer(bufB, kTile * sizeof(float));
    }
    __aicore__ inline void Triple()
    {
        LocalTensor<float> a = bufA.Get<float>();
        DataCopy(a, xGm[GetBlockIdx() * kTile], kTile);
        SyncEvent<HardEvent::MTE2_V>();
        Muls(a, a, 3.0f, kTile);
        SyncEvent<HardEvent::V_MTE3>();
        DataCopy(workGm[GetBlockIdx() * kTile], a, kTile);
        SyncEvent<HardEvent::MTE3_MTE2>();
    }
    __aicore__ inline void TakeNeighbour()
    {
        const int32_t next = (GetBlockIdx() + 1) % GetBlockNum();
        LocalTensor<float> a = bufA.Get<float>();
        LocalTensor<float> b = bufB.Get<float>();
        DataCopy(a, workGm[next * kTile], kTile);
        DataCopy(b, xGm[GetBlockIdx() * kTile], kTile);
        SyncEvent<HardEvent::MTE2_V>();
        Sub(a, a, b, kTile);
        SyncEvent<HardEvent::V_MTE3>();
        DataCopy(yGm[GetBlockIdx() * kTile], a, kTile);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB;
    GlobalTensor<float> xGm, workGm, yGm;
};

}  // namespace

// The Ascend C form, as the zbal kernels write it.
extern "C" __global__ __aicore__ void sync_base_rotate(uint64_t fftsAddr, GM_ADDR x, GM_ADDR work, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    AscendC::SetSyncBaseAddr(fftsAddr);
    RotateAfterMeeting op;
    op.Init(x, work, y);
    op.Triple();
    SyncAll<true>();
    op.TakeNeighbour();
}

// The CCE intrinsic form (global namespace), then a mode-0 meeting of all vector cores through the FFTS flags.
extern "C" __global__ __aicore__ void ffts_base_rotate(uint64_t fftsAddr, GM_ADDR x, GM_ADDR work, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    set_ffts_base_addr(fftsAddr);
    RotateAfterMeeting op;
    op.Init(x, work, y);
    op.Triple();
    ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (5 << 8));
    wait_flag_dev(5);
    op.TakeNeighbour();
}
