// The Mmad HF32 switch as public cube kernels use it (kernel_api/COMPAT.md, round 16 study16c: vllm-ascend's
// chunk_kda_fwd_prepare turns HF32 off before each FP32 Mmad), written for pyasc in that style.
//
// hf32_off_mmad:  c[16 x 16] = a[16 x 8] @ b[16 x 8]^T in float, after SetHF32Mode(false) and
//                 SetHF32TransMode(false) -- the ordinary FP32 product.
// hf32_enum_off:  the same with the newer enumeration spelling, SetHF32Mode(HF32Mode::DISABLE).
// hf32_on:        SetHF32Mode(true): the HF32 rounding is not documented, so the simulator reports it.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t MM = 16;
constexpr uint32_t KK = 8;
constexpr uint32_t NN = 16;

template <bool kEnum>
__aicore__ inline void Fp32Mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    TPipe pipe;
    TBuf<TPosition::A1> l1;
    TBuf<TPosition::A2> l0a;
    TBuf<TPosition::B2> l0b;
    TBuf<TPosition::CO1> l0c;
    pipe.InitBuffer(l1, (MM + NN) * KK * sizeof(float));
    pipe.InitBuffer(l0a, MM * KK * sizeof(float));
    pipe.InitBuffer(l0b, NN * KK * sizeof(float));
    pipe.InitBuffer(l0c, MM * NN * sizeof(float));
    GlobalTensor<float> aGm, bGm, cGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, MM * KK);
    bGm.SetGlobalBuffer((__gm__ float *)b, NN * KK);
    cGm.SetGlobalBuffer((__gm__ float *)c, MM * NN);
    LocalTensor<float> a1 = l1.Get<float>();
    LocalTensor<float> b1 = a1[MM * KK];
    DataCopy(a1, aGm, Nd2NzParams(1, MM, KK, 0, KK, MM, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, NN, KK, 0, KK, NN, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<float> a0 = l0a.Get<float>();
    LocalTensor<float> b0 = l0b.Get<float>();
    LoadData(a0, a1, LoadData2dParams(0, MM * KK * sizeof(float) / 512, 1, 0, 0, false, 0));
    LoadData(b0, b1, LoadData2dParams(0, NN * KK * sizeof(float) / 512, 1, 0, 0, false, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    if constexpr (kEnum) {
        SetHF32Mode(HF32Mode::DISABLE);
    } else {
        SetHF32Mode(false);
        SetHF32TransMode(false);
    }
    LocalTensor<float> c0 = l0c.Get<float>();
    Mmad(c0, a0, b0, MmadParams(MM, NN, KK, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(NN, MM, MM, NN, false);
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c0, fp);
}
}  // namespace

extern "C" __global__ __aicore__ void hf32_off_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Fp32Mmad<false>(a, b, c);
}

extern "C" __global__ __aicore__ void hf32_enum_off(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Fp32Mmad<true>(a, b, c);
}

extern "C" __global__ __aicore__ void hf32_on() {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetHF32Mode(true);
}
