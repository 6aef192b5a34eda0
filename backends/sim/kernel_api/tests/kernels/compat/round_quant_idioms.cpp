// Our own kernels in the style of the public fake-quantisation kernels (Ascend/DrivingSDK's fake_tensor_quant op,
// COMPAT.md "Round 26 (s26a)"): the math library's Round (nearest integer, ties to even) between a Mul by a scale
// and the ClampMax / ClampMin pair, in a queue pipeline; and Round alone on raw values, with and without a
// sharedTmpBuffer, for float and half.
#include "kernel_operator.h"

using namespace AscendC;

namespace round_quant_idioms {
constexpr int32_t N = 512;

// y[0:N] = Round(x); y[N:2N] = Round(x) with a sharedTmpBuffer
template <typename T>
__aicore__ inline void RoundOnly(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(T));
    pipe.InitBuffer(outQ, 1, 2 * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, 2 * N);
    LocalTensor<T> in = inQ.AllocTensor<T>();
    DataCopy(in, xGm, N);
    inQ.EnQue(in);
    in = inQ.DeQue<T>();
    LocalTensor<T> out = outQ.AllocTensor<T>();
    Round(out, in, N);
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Round<T, false>(out[N], in, tmp, N);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<T>();
    DataCopy(yGm, out, 2 * N);
    outQ.FreeTensor(out);
}

// y = clamp(Round(x * scale), lo, hi) / scale, the scale hi / amax computed on the vector unit
template <typename T>
__aicore__ inline void FakeQuant(GM_ADDR x, GM_ADDR amax, GM_ADDR y, int32_t lo, int32_t hi)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> scaleBuf;
    pipe.InitBuffer(inQ, 1, N * sizeof(T));
    pipe.InitBuffer(outQ, 1, N * sizeof(T));
    pipe.InitBuffer(scaleBuf, 2 * N * sizeof(T));
    GlobalTensor<T> xGm, aGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    aGm.SetGlobalBuffer((__gm__ T *)amax, 1);
    yGm.SetGlobalBuffer((__gm__ T *)y, N);
    T a = aGm.GetValue(0);
    LocalTensor<T> scale = scaleBuf.Get<T>();
    LocalTensor<T> bound = scale[N];
    Duplicate(bound, static_cast<T>(hi), N);
    Duplicate(scale, a, N);
    Div(scale, bound, scale, N);
    LocalTensor<T> in = inQ.AllocTensor<T>();
    DataCopy(in, xGm, N);
    inQ.EnQue(in);
    in = inQ.DeQue<T>();
    LocalTensor<T> out = outQ.AllocTensor<T>();
    Mul(in, in, scale, N);
    Round(out, in, N);
    ClampMax<T>(in, out, static_cast<T>(hi), N);
    ClampMin<T>(out, in, static_cast<T>(lo), N);
    Div(out, out, scale, N);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<T>();
    DataCopy(yGm, out, N);
    outQ.FreeTensor(out);
}
}  // namespace round_quant_idioms

extern "C" __global__ __aicore__ void round_f32(GM_ADDR x, GM_ADDR y) { round_quant_idioms::RoundOnly<float>(x, y); }
extern "C" __global__ __aicore__ void round_f16(GM_ADDR x, GM_ADDR y) { round_quant_idioms::RoundOnly<half>(x, y); }
extern "C" __global__ __aicore__ void fake_quant_f32(GM_ADDR x, GM_ADDR amax, GM_ADDR y, int32_t lo, int32_t hi)
{
    round_quant_idioms::FakeQuant<float>(x, amax, y, lo, hi);
}
extern "C" __global__ __aicore__ void fake_quant_f16(GM_ADDR x, GM_ADDR amax, GM_ADDR y, int32_t lo, int32_t hi)
{
    round_quant_idioms::FakeQuant<half>(x, amax, y, lo, hi);
}
