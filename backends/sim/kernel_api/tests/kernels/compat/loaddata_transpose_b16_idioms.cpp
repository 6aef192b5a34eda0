// Our own kernels in the style of public cube code that moves its B operand to L0B with the 2D LoadData and
// ifTranspose = true on bfloat16_t (kda-ascendc's aclab k2_d3 / k2_dots_all / k2_mix2 / k2_mix_step: the d3 =
// Aqk @ v_new product; backends/sim/kernel_api/COMPAT.md "Round 26 (s26b)"):
//
//   d3_transposing_load_bf16 / _half   y[16, N] = a[16, 16] @ v[16, N] (fp32 out): a moved by Nd2Nz to L1 and
//                    by a plain LoadData to L0A; v moved by Nd2Nz to L1 (16 x 16 NZ fractals side by side) and to
//                    L0B by ONE LoadData of N / 16 fractals with ifTranspose = true (the NZ fractal read as the
//                    ZN B operand); Mmad(16, N, 16); Fixpipe NoQuant.  The LoadData page lists uint16_t / int16_t /
//                    half for the transposing load, the SDK's device code takes any b16 type: the bf16 entry warns
//                    dtype-unlisted at its LoadData, the half entry does not.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void d3_transposing_load(GM_ADDR pa, GM_ADDR pv, GM_ADDR py, int32_t n) {
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TQue<QuePosition::B1, 1> qa, qv;
    pipe.InitBuffer(qa, 1, 16 * 16 * sizeof(T));
    pipe.InitBuffer(qv, 1, 16 * 128 * sizeof(T));
    GlobalTensor<T> gA, gV;
    GlobalTensor<float> gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(pa), 16 * 16);
    gV.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(pv), 16 * n);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), 16 * n);
    LocalTensor<T> l0a(TPosition::A2, 0, 16 * 16);
    LocalTensor<T> l0b(TPosition::B2, 0, 16 * 128);
    LocalTensor<float> l0c(TPosition::CO1, 0, 16 * 128);

    LocalTensor<T> la = qa.AllocTensor<T>();
    LocalTensor<T> lv = qv.AllocTensor<T>();
    DataCopy(la, gA, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    DataCopy(lv, gV, Nd2NzParams(1, 16, static_cast<uint16_t>(n), 0, static_cast<uint16_t>(n), 16, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    qa.EnQue(la);
    qv.EnQue(lv);
    la = qa.DeQue<T>();
    lv = qv.DeQue<T>();
    LoadData(l0a, la, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(l0b, lv, LoadData2DParams(0, static_cast<uint8_t>(n / 16), 1, 0, 0, true, 0));  // BAD(load-transpose)
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    Mmad(l0c, l0a, l0b, MmadParams(16, static_cast<uint16_t>(n), 16, 0, false, true));
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    Fixpipe<float, float, CFG_ROW_MAJOR>(
        gY, l0c, FixpipeParamsV220(n, 16, 16, n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));
    qa.FreeTensor(la);
    qv.FreeTensor(lv);
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void d3_transposing_load_bf16(GM_ADDR pa, GM_ADDR pv, GM_ADDR py, int32_t n) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    d3_transposing_load<bfloat16_t>(pa, pv, py, n);
}

extern "C" __global__ __aicore__ void d3_transposing_load_half(GM_ADDR pa, GM_ADDR pv, GM_ADDR py, int32_t n) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    d3_transposing_load<half>(pa, pv, py, n);
}
