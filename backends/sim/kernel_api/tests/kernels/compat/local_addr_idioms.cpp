// SDK-style raw Unified Buffer addressing, as communication libraries built on Ascend C write it (the SHMEM
// device layer's copy helpers and examples): a LocalTensor's internal address record `address_` read as a
// raw `__ubuf__` pointer, scalar stores through that pointer, tensors re-pointed at a raw address
// (`address_.logicPos` / `address_.bufferAddr`) for DataCopyPad, and `__BLOCK_LOCAL__` globals holding
// a per-core staging buffer. Our own kernels, written in that style; checked against NumPy.
#include "kernel_operator.h"

constexpr uint32_t STAGE_BYTES = 256;

__BLOCK_LOCAL__ __inline__ uint64_t gStageUb;
__BLOCK_LOCAL__ __inline__ uint32_t gStageBytes;

template <typename T>
__aicore__ inline void RawUbToGm(__gm__ T *dst, __ubuf__ T *src, uint32_t bytes)
{
    AscendC::LocalTensor<T> ub;
    AscendC::GlobalTensor<T> gm;
    ub.address_.logicPos = static_cast<uint8_t>(AscendC::TPosition::VECOUT);
    ub.address_.bufferAddr = reinterpret_cast<uint64_t>(src);
    gm.SetGlobalBuffer(dst);
    AscendC::DataCopyPad(gm, ub, AscendC::DataCopyExtParams(1, bytes, 0, 0, 0));
}

template <typename T>
__aicore__ inline void RawGmToUb(__ubuf__ T *dst, __gm__ T *src, uint32_t bytes)
{
    AscendC::LocalTensor<T> ub;
    AscendC::GlobalTensor<T> gm;
    ub.address_.logicPos = static_cast<uint8_t>(AscendC::TPosition::VECIN);
    ub.address_.bufferAddr = reinterpret_cast<uint64_t>(dst);
    gm.SetGlobalBuffer(src);
    AscendC::DataCopyPadExtParams<T> pad;
    AscendC::DataCopyPad(ub, gm, AscendC::DataCopyExtParams(1, bytes, 0, 0, 0), pad);
}

// y[block] = x[block] (n floats per block) through the staging buffer named by the block-local globals;
// info[block] = {block + 1 (a raw scalar store), the staging tensor's address_.dataLen, its logicPos}.
extern "C" __global__ __aicore__ void raw_stage_copy(GM_ADDR x, GM_ADDR y, GM_ADDR info, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> stageQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> infoQue;
    pipe.InitBuffer(stageQue, 1, STAGE_BYTES);
    pipe.InitBuffer(infoQue, 1, 32);
    AscendC::LocalTensor<float> stage = stageQue.AllocTensor<float>();
    gStageUb = reinterpret_cast<uint64_t>((__ubuf__ float *)stage.address_.bufferAddr);
    gStageBytes = STAGE_BYTES;

    const int64_t block = AscendC::GetBlockIdx();
    __gm__ float *src = (__gm__ float *)x + block * n;
    __gm__ float *dst = (__gm__ float *)y + block * n;
    uint32_t left = n * sizeof(float);
    uint32_t done = 0;
    while (left > 0) {
        uint32_t chunk = left < gStageBytes ? left : gStageBytes;
        RawGmToUb(reinterpret_cast<__ubuf__ float *>(gStageUb), src + done / sizeof(float), chunk);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        RawUbToGm(dst + done / sizeof(float), reinterpret_cast<__ubuf__ float *>(gStageUb), chunk);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
        left -= chunk;
        done += chunk;
    }

    AscendC::LocalTensor<int64_t> infoTensor = infoQue.AllocTensor<int64_t>();
    __ubuf__ int64_t *raw = (__ubuf__ int64_t *)infoTensor.address_.bufferAddr;
    AscendC::PipeBarrier<PIPE_ALL>();
    raw[0] = block + 1;
    raw[1] = static_cast<uint32_t>(stage.address_.dataLen);
    raw[2] = static_cast<uint8_t>(stage.address_.logicPos);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID2);
    RawUbToGm((__gm__ int64_t *)info + block * 4, raw, 3 * sizeof(int64_t));
    AscendC::PipeBarrier<PIPE_ALL>();
    infoQue.FreeTensor(infoTensor);
    stageQue.FreeTensor(stage);
}

// A tensor re-pointed at an address outside local memory (here a GM address) is not a local buffer:
// the copy that uses it is reported (local-out-of-bounds), as nothing there is Unified Buffer.
extern "C" __global__ __aicore__ void raw_addr_outside_ub(GM_ADDR x, GM_ADDR y)
{
    AscendC::LocalTensor<float> ub;
    ub.address_.logicPos = static_cast<uint8_t>(AscendC::TPosition::VECIN);
    ub.address_.bufferAddr = reinterpret_cast<uint64_t>(x);
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float *)y);
    AscendC::DataCopyPad(gm, ub, AscendC::DataCopyExtParams(1, 32, 0, 0, 0));  // BAD(raw-addr-outside)
}

// GM -> GM through two UB halves named by their NPU byte addresses (`(__ubuf__ T *)(96)`, as deepep's
// CpGM2GMPingPong does with UB_HEAD_OFFSET / UB_MID_OFFSET), each chunk in through RawGmToUb, out through
// RawUbToGm. y = x (n floats, chunks of 64).
extern "C" __global__ __aicore__ void raw_ub_offset_pingpong(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    constexpr uint32_t kHead = 96;
    constexpr uint32_t kMid = kHead + 64 * sizeof(float) + 32;
    __ubuf__ float *half[2] = {(__ubuf__ float *)(kHead), (__ubuf__ float *)(kMid)};
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
    for (uint32_t i = 0, done = 0; done < n; ++i) {
        const uint32_t len = n - done < 64 ? n - done : 64;
        const event_t ev = (i & 1) ? EVENT_ID1 : EVENT_ID0;
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ev);
        RawGmToUb(half[i & 1], (__gm__ float *)x + done, len * sizeof(float));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(ev);
        RawUbToGm((__gm__ float *)y + done, half[i & 1], len * sizeof(float));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ev);
        done += len;
    }
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
}
