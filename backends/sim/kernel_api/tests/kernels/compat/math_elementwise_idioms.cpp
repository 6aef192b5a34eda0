// Our own kernels in the style of the public foreach kernels (NPUKernelBench's ForeachAcos / ForeachAddScalar
// answers): the math library's elementwise functions passed as function-pointer template arguments
// (`Acos<T, false>` where a `void (*)(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t)` is
// expected) and called directly with a sharedTmpBuffer; the basic vector APIs' count forms (Adds, Muls, Exp,
// Add) named as function-pointer template arguments without template arguments, as the foreach kernels do.
#include "kernel_operator.h"
#include "lib/math/kernel_operator_acos_intf.h"
#include "lib/math/kernel_operator_erf_intf.h"

using namespace AscendC;

namespace math_elementwise_idioms {
constexpr int32_t N = 256;  // values per function
constexpr int32_t FUNCS = 10;

template <typename T>
using UnaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t);

template <typename T, UnaryOp<T> *op>
__aicore__ inline void ApplyOne(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    PipeBarrier<PIPE_V>();
    op(dst, src, count);
    PipeBarrier<PIPE_V>();
}

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, tmpBuf;
    pipe.InitBuffer(inBuf, N * sizeof(T));
    pipe.InitBuffer(outBuf, FUNCS * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    LocalTensor<T> in = inBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, FUNCS * N);
    DataCopy(in, xGm, N);
    PipeBarrier<PIPE_ALL>();
    ApplyOne<T, Acos<T, false>>(out, in, N);
    ApplyOne<T, Asin<T, false>>(out[N], in, N);
    ApplyOne<T, Atan<T, false>>(out[2 * N], in, N);
    ApplyOne<T, Cos<T, false>>(out[3 * N], in, N);
    ApplyOne<T, Sin<T, false>>(out[4 * N], in, N);
    ApplyOne<T, Tan<T, false>>(out[5 * N], in, N);
    ApplyOne<T, Cosh<T, false>>(out[6 * N], in, N);
    ApplyOne<T, Sinh<T, false>>(out[7 * N], in, N);
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Erf<T, false>(out[8 * N], in, tmp, N);
    PipeBarrier<PIPE_V>();
    Erfc<T>(out[9 * N], in, tmp, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, FUNCS * N);
}
}  // namespace math_elementwise_idioms

// y[f * 256 + i] = func_f(x[i]) for f = acos, asin, atan, cos, sin, tan, cosh, sinh, erf, erfc
extern "C" __global__ __aicore__ void math_elementwise_f32(GM_ADDR x, GM_ADDR y)
{
    math_elementwise_idioms::Run<float>(x, y);
}
extern "C" __global__ __aicore__ void math_elementwise_f16(GM_ADDR x, GM_ADDR y)
{
    math_elementwise_idioms::Run<half>(x, y);
}

namespace fnptr_idioms {
template <typename T>
using ScalarOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const T &, const int32_t &);
template <typename T>
using UnaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const int32_t &);
template <typename T>
using BinaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &, const int32_t &);

template <typename T, ScalarOp<T> *scalarOp, UnaryOp<T> *unaryOp, BinaryOp<T> *binaryOp>
__aicore__ inline void Chain(const LocalTensor<T> &y, const LocalTensor<T> &x, const LocalTensor<T> &t, T s, int32_t n)
{
    scalarOp(t, x, s, n);  // t = op(x, s)
    PipeBarrier<PIPE_V>();
    unaryOp(y, t, n);      // y = op(t)
    PipeBarrier<PIPE_V>();
    binaryOp(y, y, x, n);  // y = op(y, x)
}
}  // namespace fnptr_idioms

// y[0:256] = exp(x + 0.5) + x;  y[256:512] = exp(x * -2) * x
extern "C" __global__ __aicore__ void vector_fnptr_f32(GM_ADDR x, GM_ADDR y)
{
    constexpr int32_t n = 256;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * n * sizeof(float));
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> in = all, t = all[n], out = all[2 * n];
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * n);
    DataCopy(in, xGm, n);
    PipeBarrier<PIPE_ALL>();
    fnptr_idioms::Chain<float, Adds, Exp, Add>(out, in, t, 0.5f, n);
    PipeBarrier<PIPE_V>();
    fnptr_idioms::Chain<float, Muls, Exp, Mul>(out[n], in, t, -2.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 2 * n);
}
