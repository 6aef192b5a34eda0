// Our own kernel in the style of the public kernel that uses it (NPUKernelBench's
// SelectReduceMaxDSubExpReduceSumDRealDiv answer: `AscendC::Exp<aType, 15, false>(dst, src, count)`): the math
// library's Exp with a Taylor expansion level, next to the basic API Exp of the same name, with and without a
// sharedTmpBuffer, for float and half.
#include "kernel_operator.h"

using namespace AscendC;

namespace math_exp_idioms {
constexpr int32_t N = 256;   // values per form
constexpr int32_t FORMS = 4; // Exp<T, 0>, Exp<T, 3> (tmp), Exp<T, 15, false>, basic Exp<T>

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQueue, 1, N * sizeof(T));
    pipe.InitBuffer(outQueue, 1, FORMS * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, FORMS * N);

    LocalTensor<T> in = inQueue.AllocTensor<T>();
    DataCopy(in, xGm, N);
    inQueue.EnQue(in);
    in = inQueue.DeQue<T>();
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Exp<T, 0>(out, in, N);                       // no Taylor expansion: e^x
    Exp<T, 3, false>(out[N], in, tmp, N);        // three terms: e^floor(x) * (1 + b + b^2/2 + b^3/6)
    AscendC::Exp<T, 15, false>(out[2 * N], in, N);
    Exp(out[3 * N], in, N);                      // the basic API, unchanged
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);
    out = outQueue.DeQue<T>();
    DataCopy(yGm, out, FORMS * N);
    outQueue.FreeTensor(out);
}
}  // namespace math_exp_idioms

// y[f * 256 + i] = form_f(x[i])
extern "C" __global__ __aicore__ void math_exp_f32(GM_ADDR x, GM_ADDR y)
{
    math_exp_idioms::Run<float>(x, y);
}
extern "C" __global__ __aicore__ void math_exp_f16(GM_ADDR x, GM_ADDR y)
{
    math_exp_idioms::Run<half>(x, y);
}
