// Cast with every RoundMode: x (256 floats) -> half (7 modes), int32 (5 modes), bfloat16, and
// half -> float; plus a mask-form cast.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR outHalf, GM_ADDR outInt, GM_ADDR outBf16,
                                                  GM_ADDR outBack)
{
    constexpr uint32_t N = 256;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> halfBuf, intBuf, bfBuf, backBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(halfBuf, 7 * N * sizeof(half));
    pipe.InitBuffer(intBuf, 5 * N * sizeof(int32_t));
    pipe.InitBuffer(bfBuf, N * sizeof(bfloat16_t));
    pipe.InitBuffer(backBuf, N * sizeof(float));
    GlobalTensor<float> xGm, backGm;
    GlobalTensor<half> halfGm;
    GlobalTensor<int32_t> intGm;
    GlobalTensor<bfloat16_t> bfGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    halfGm.SetGlobalBuffer((__gm__ half *)outHalf, 7 * N);
    intGm.SetGlobalBuffer((__gm__ int32_t *)outInt, 5 * N);
    bfGm.SetGlobalBuffer((__gm__ bfloat16_t *)outBf16, N);
    backGm.SetGlobalBuffer((__gm__ float *)outBack, N);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, N);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<half> hl = halfBuf.Get<half>();
    LocalTensor<int32_t> il = intBuf.Get<int32_t>();
    LocalTensor<bfloat16_t> bl = bfBuf.Get<bfloat16_t>();
    LocalTensor<float> back = backBuf.Get<float>();

    const RoundMode halfModes[7] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                                    RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                                    RoundMode::CAST_ODD};
    for (int m = 0; m < 7; ++m) {
        Cast(hl[m * N], xl, halfModes[m], N);
    }
    const RoundMode intModes[5] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                                   RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
    for (int m = 0; m < 5; ++m) {
        Cast(il[m * N], xl, intModes[m], N);
    }
    Cast(bl, xl, RoundMode::CAST_RINT, N);
    // half -> float, mask form: 4 repeats of 64 elements (src blocks hold 16 halves: stride 4 per repeat).
    UnaryRepeatParams params(1, 1, 8, 4);
    Cast<float, half>(back, hl, RoundMode::CAST_NONE, 64, 4, params);
    inQ.FreeTensor(xl);
    SetFlag<HardEvent::V_MTE3>(0);  // the casts are written before the stores read them
    WaitFlag<HardEvent::V_MTE3>(0);

    DataCopy(halfGm, hl, 7 * N);
    DataCopy(intGm, il, 5 * N);
    DataCopy(bfGm, bl, N);
    DataCopy(backGm, back, N);
}
