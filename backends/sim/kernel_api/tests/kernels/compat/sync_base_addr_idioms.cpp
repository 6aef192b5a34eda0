// The FFTS base address as collective kernels set it before any cross-core synchronisation: the host passes the
// address (a kernel argument, or a field of a communicator struct in GM) and the kernel's first statement is
// AscendC::SetSyncBaseAddr(addr) -- or the CCE intrinsic set_ffts_base_addr -- followed by SyncAll between the
// blocks. Our own kernels, written in that style; checked against NumPy.
#include "kernel_operator.h"

constexpr uint32_t TILE = 64;         // floats per block
constexpr uint32_t LINE_FLOATS = 16;  // one 64-byte data-cache line

struct CommInfo {
    uint64_t fftsConfig;  // the FFTS base address the host obtained
    uint32_t blocks;
    uint32_t pad;
};

// y[b] = 2 * x[b]; SyncAll; z[b] = y[(b + 1) % blocks]: z is right only if every block's y is visible after the
// barrier. The FFTS address comes as a kernel argument (useIntrinsic 0) or through set_ffts_base_addr (1).
extern "C" __global__ __aicore__ void ffts_arg_then_rotate(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t fftsAddr,
                                                           uint32_t useIntrinsic)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    if (useIntrinsic != 0) {
        set_ffts_base_addr(fftsAddr);
    } else {
        AscendC::SetSyncBaseAddr(fftsAddr);
    }
    const uint32_t blocks = AscendC::GetBlockNum();
    const uint32_t b = AscendC::GetBlockIdx();
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, TILE * sizeof(float));
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), blocks * TILE);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), blocks * TILE);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), blocks * TILE);

    AscendC::LocalTensor<float> t = que.AllocTensor<float>();
    AscendC::DataCopy(t, xGm[b * TILE], TILE);
    que.EnQue(t);
    t = que.DeQue<float>();
    AscendC::Muls(t, t, 2.0f, TILE);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm[b * TILE], t, TILE);
    que.FreeTensor(t);
    AscendC::SyncAll<true>();

    t = que.AllocTensor<float>();
    AscendC::DataCopy(t, yGm[((b + 1) % blocks) * TILE], TILE);
    que.EnQue(t);
    t = que.DeQue<float>();
    AscendC::DataCopy(zGm[b * TILE], t, TILE);
    que.FreeTensor(t);
}

// The same with the address read from a communicator struct in GM (zbal's `SetSyncBaseAddr(comm->fftsConfig)`):
// y[b] = x[(b + 1) % blocks] after the barrier, z[16 * b] = the block count the struct carries (one 64-byte line
// of z per block: scalar stores go through the data cache, which writes whole lines back).
extern "C" __global__ __aicore__ void ffts_from_comm_struct(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR commAddr)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    auto comm = reinterpret_cast<__gm__ CommInfo *>(commAddr);
    AscendC::SetSyncBaseAddr(comm->fftsConfig);
    const uint32_t blocks = AscendC::GetBlockNum();
    const uint32_t b = AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), blocks * TILE);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), blocks * TILE);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), blocks * LINE_FLOATS);
    AscendC::SyncAll<true>();
    for (uint32_t i = 0; i < TILE; ++i) {
        yGm.SetValue(b * TILE + i, xGm.GetValue(((b + 1) % blocks) * TILE + i));
    }
    zGm.SetValue(b * LINE_FLOATS, static_cast<float>(comm->blocks));
    AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                      AscendC::DcciDst::CACHELINE_OUT>(zGm);
}

// A value the FFTS_BASE_ADDR register cannot hold (not 4-byte aligned): hardware would signal through a wrong
// address; the simulator reports it at this line.
extern "C" __global__ __aicore__ void ffts_unaligned(GM_ADDR x, uint64_t fftsAddr)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    AscendC::SetSyncBaseAddr(fftsAddr + 2);  // BAD(ffts-unaligned)
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 1);
    xGm.SetValue(0, 1.0f);
}
