// Idioms of the fifth public-kernel study (kernel_api/COMPAT.md), in the style of the public code
// and written for pyasc: static tensor programming, where LocalTensors are built at fixed
// addresses with LocalTensor<T>(TPosition pos, uint32_t addr, uint32_t tileSize) instead of being
// handed out by a TPipe, and the pipes are ordered with plain SetFlag / WaitFlag on event ids; a
// cube kernel that keeps its L1 operands in TQue<B1> but places L0A / L0B as static tensors; and a
// host launcher with no kernel arguments (printf only).
//
// static_axpb:  per block of n floats, y = x * alpha + beta (alpha, beta: kernel parameters).
// static_mmad:  c[16 x 16] = a[16 x 32] @ b[16 x 32]^T in fp16 with an fp32 result.
// static_at:    a static VECCALC tensor at `addr` with `n` elements, filled and copied out
//               (the sanitizer checks addr's 32-byte alignment and the end of the UB).
// greet_do:     host launcher of greet<<<blocks, nullptr, stream>>>(), which only prints.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t MM = 16;
constexpr uint32_t KK = 32;
constexpr uint32_t NN = 16;
}  // namespace

extern "C" __global__ __aicore__ void static_axpb(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha, float beta) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * n, n);
    LocalTensor<float> in(TPosition::VECIN, 0, n);
    LocalTensor<float> out(TPosition::VECOUT, n * sizeof(float), n);
    DataCopy(in, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(out, in, alpha, n);
    PipeBarrier<PIPE_V>();
    Adds(out, out, beta, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, out, n);
}

extern "C" __global__ __aicore__ void static_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TQue<QuePosition::B1, 1> qa, qb;
    TQue<QuePosition::CO1, 1> qc;
    pipe.InitBuffer(qa, 1, MM * KK * sizeof(half));
    pipe.InitBuffer(qb, 1, NN * KK * sizeof(half));
    pipe.InitBuffer(qc, 1, MM * NN * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    cGm.SetGlobalBuffer((__gm__ float *)c);
    // L0A / L0B are not managed by the pipe here: static tensors at address 0 of each
    LocalTensor<uint8_t> a0Bytes(TPosition::A2, 0, MM * KK * sizeof(half));
    LocalTensor<half> a0 = a0Bytes.ReinterpretCast<half>();
    LocalTensor<half> b0(TPosition::B2, 0, NN * KK);
    LocalTensor<half> a1 = qa.AllocTensor<half>();
    LocalTensor<half> b1 = qb.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, MM, KK, 0, KK, MM, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, NN, KK, 0, KK, NN, 1, 0));
    qa.EnQue(a1);
    qb.EnQue(b1);
    a1 = qa.DeQue<half>();
    b1 = qb.DeQue<half>();
    LoadData(a0, a1, LoadData2dParams(0, MM * KK / 256, 1, 0, 0, false, 0));
    LoadData(b0, b1, LoadData2dParams(0, NN * KK / 256, 1, 0, 0, false, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    LocalTensor<float> c0 = qc.AllocTensor<float>();
    Mmad(c0, a0, b0, MmadParams(MM, NN, KK, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(NN, MM, MM, NN, false);
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c0, fp);
    qa.FreeTensor(a1);
    qb.FreeTensor(b1);
    qc.FreeTensor(c0);
}

extern "C" __global__ __aicore__ void static_at(GM_ADDR y, uint32_t addr, uint32_t n) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t(TPosition::VECCALC, addr, n);
    Duplicate(t, 3.0f, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(yGm, t, 64);
}

extern "C" __global__ __aicore__ void greet() {
    AscendC::printf("greet from block %d of %d\n", static_cast<int>(GetBlockIdx()), static_cast<int>(GetBlockNum()));
}

void greet_do(uint32_t blockDim, void *stream) {
    greet<<<blockDim, nullptr, stream>>>();
}
