// Scalar writes through LocalTensor::operator() (`t(i) = v`, the documented reference access on the S pipe)
// feeding a DMA copy to GM, as memfabric_hybrid's zbal kernels publish their address tables (PutShareAddr:
// `addrTensor_(0) = recvXAddr; ... DataCopyPad(metaGt, addrTensor_, ...)`).  Our own kernel, for
// tests/test_sim_compat_local_ref_write.py.
#include "kernel_operator.h"

using namespace AscendC;

// out[b * 16 + i] = base + b * 1000 + i * 7 for i < count (count <= 16), written element by element through
// operator(), then copied out with DataCopyPad (count * 8 bytes).  `count` 16 with `copy` 32 reads a sector the
// kernel never wrote (the initcheck still reports it).
extern "C" __global__ __aicore__ void publish_table(GM_ADDR out, uint64_t base, uint32_t count, uint32_t copy)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 * sizeof(uint64_t));
    LocalTensor<uint64_t> table = buf.Get<uint64_t>();
    for (uint32_t i = 0; i < count; ++i) {
        table(i) = base + GetBlockIdx() * 1000 + i * 7;
    }
    int32_t id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(id);
    WaitFlag<HardEvent::S_MTE3>(id);
    GlobalTensor<uint64_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint64_t *)out + GetBlockIdx() * 32);
    DataCopyExtParams params{1, static_cast<uint32_t>(copy * sizeof(uint64_t)), 0, 0, 0};
    DataCopyPad(outGm, table, params);
}
