// LocalTensor::SetAddr(const TBuffAddr &) as SDK-style copy helpers use it (kernel_api/COMPAT.md, round 20 s20f:
// sgl-kernel-npu's deepep data_copy.h builds tensors over raw `__ubuf__` addresses for a UB -> UB DataCopy),
// written for pyasc in that style.
//
// ub_copy_by_addr:  x[64] -> UB buffer a; take a's raw address (address_.bufferAddr) and b's; make two tensors
//                   with TBuffAddr + SetAddr over them and DataCopy 64 floats a -> b (UB -> UB); y[0:64] = 2 * b.
//                   A third tensor with dataLen = 32 floats gives y[64] = its GetSize() (32); a fourth with
//                   logicPos VECIN reports y[65] = 1 when its position reads back as VECIN.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t N = 64;

template <typename T>
__aicore__ inline void CopyUbToUb(__ubuf__ T *dst, __ubuf__ T *src, const uint32_t count) {
    LocalTensor<T> srcTensor;
    LocalTensor<T> dstTensor;
    TBuffAddr srcAddr, dstAddr;
    srcAddr.bufferAddr = reinterpret_cast<uint64_t>(src);
    dstAddr.bufferAddr = reinterpret_cast<uint64_t>(dst);
    srcTensor.SetAddr(srcAddr);
    dstTensor.SetAddr(dstAddr);
    DataCopy(dstTensor, srcTensor, count);
}
}  // namespace

extern "C" __global__ __aicore__ void ub_copy_by_addr(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB;
    pipe.InitBuffer(bufA, N * sizeof(float));
    pipe.InitBuffer(bufB, N * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N + 8);
    LocalTensor<float> a = bufA.Get<float>();
    LocalTensor<float> b = bufB.Get<float>();
    DataCopy(a, xGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    CopyUbToUb((__ubuf__ float *)b.address_.bufferAddr, (__ubuf__ float *)a.address_.bufferAddr, N);
    PipeBarrier<PIPE_V>();
    Muls(b, b, 2.0f, N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, b, N);

    TBuffAddr part;
    part.bufferAddr = static_cast<uint64_t>(a.address_.bufferAddr);
    part.dataLen = 32 * sizeof(float);
    LocalTensor<float> half;
    half.SetAddr(part);
    TBuffAddr vecin;
    vecin.logicPos = static_cast<uint8_t>(TPosition::VECIN);
    vecin.bufferAddr = static_cast<uint64_t>(b.address_.bufferAddr);
    LocalTensor<float> in;
    in.SetAddr(vecin);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
    yGm.SetValue(N, static_cast<float>(half.GetSize()));
    yGm.SetValue(N + 1, in.GetPosition() == TPosition::VECIN ? 1.0f : 0.0f);
}
