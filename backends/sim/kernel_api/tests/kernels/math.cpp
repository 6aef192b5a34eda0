// One count-form vector instruction per launch, chosen by `op`, on n elements (float / half).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void RunOp(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, n * sizeof(T));
    pipe.InitBuffer(qy, 1, n * sizeof(T));
    pipe.InitBuffer(qz, 1, n * sizeof(T));
    GlobalTensor<T> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, n);
    yGm.SetGlobalBuffer((__gm__ T *)y, n);
    zGm.SetGlobalBuffer((__gm__ T *)z, n);
    LocalTensor<T> a = qx.AllocTensor<T>(), b = qy.AllocTensor<T>();
    DataCopy(a, xGm, n);
    DataCopy(b, yGm, n);
    qx.EnQue(a);
    qy.EnQue(b);
    a = qx.DeQue<T>();
    b = qy.DeQue<T>();
    LocalTensor<T> c = qz.AllocTensor<T>();
    const T two = static_cast<T>(2.0f);
    switch (op) {
        case 0: Add(c, a, b, n); break;
        case 1: Sub(c, a, b, n); break;
        case 2: Mul(c, a, b, n); break;
        case 3: Div(c, a, b, n); break;
        case 4: Max(c, a, b, n); break;
        case 5: Min(c, a, b, n); break;
        case 6: Exp(c, a, n); break;
        case 7: Ln(c, b, n); break;
        case 8: Abs(c, a, n); break;
        case 9: Relu(c, a, n); break;
        case 10: Sqrt(c, b, n); break;
        case 11: Rsqrt(c, b, n); break;
        case 12: Reciprocal(c, b, n); break;
        case 13: Adds(c, a, two, n); break;
        case 14: Muls(c, a, two, n); break;
        case 15: Maxs(c, a, static_cast<T>(0.25f), n); break;
        case 16: Mins(c, a, static_cast<T>(0.25f), n); break;
        default: Duplicate(c, two, n); break;
    }
    qz.EnQue(c);
    qx.FreeTensor(a);
    qy.FreeTensor(b);
    c = qz.DeQue<T>();
    DataCopy(zGm, c, n);
    qz.FreeTensor(c);
}

extern "C" __global__ __aicore__ void math_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t n)
{
    RunOp<float>(x, y, z, op, n);
}
extern "C" __global__ __aicore__ void math_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t n)
{
    RunOp<half>(x, y, z, op, n);
}
