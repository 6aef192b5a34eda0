// Our own kernels in the style of the public foreach kernels (NPUKernelBench's ForeachAcos / ForeachAddScalar
// answers): the math library's elementwise functions passed as function-pointer template arguments
// (`Acos<T, false>` where a `void (*)(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t)` is
// expected) and called directly with a sharedTmpBuffer; the basic vector APIs' count forms (Adds, Muls, Exp,
// Add) named as function-pointer template arguments without template arguments, as the foreach kernels do; and
// their repeat (mask) forms named the same way (NPUKernelBench's ForeachDivScalar: `Div` where a
// `void (*)(..., uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &)` is expected, the scalar
// broadcast from a one-block tensor with src1RepStride = 0).
#include "kernel_operator.h"
#include "lib/math/kernel_operator_acos_intf.h"
#include "lib/math/kernel_operator_erf_intf.h"
#include "lib/math/kernel_operator_log_intf.h"
#include "lib/math/kernel_operator_power_intf.h"
#include "lib/math/kernel_operator_sign_intf.h"
#include "lib/math/kernel_operator_tanh_intf.h"
#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"

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

namespace repeat_fnptr_idioms {
template <typename T>
using BinaryRepeatOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &, uint64_t,
                            const uint8_t, const BinaryRepeatParams &);
template <typename T>
using BinaryBitsOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &, uint64_t *,
                          const uint8_t, const BinaryRepeatParams &);
template <typename T>
using UnaryRepeatOp = void(const LocalTensor<T> &, const LocalTensor<T> &, uint64_t, const uint8_t,
                           const UnaryRepeatParams &);
template <typename T>
using ScalarRepeatOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const T &, uint64_t, const uint8_t,
                            const UnaryRepeatParams &);

// y = op(x, one block of s) over n values: whole repeats, then the remainder as a continuous mask
template <typename T, BinaryRepeatOp<T> *op>
__aicore__ inline void WithBlock(const LocalTensor<T> &y, const LocalTensor<T> &x, const LocalTensor<T> &block, int32_t n)
{
    constexpr uint64_t perRepeat = 256 / sizeof(T);
    const uint8_t repeats = n / perRepeat;
    const uint64_t rest = n % perRepeat;
    if (repeats > 0) {
        op(y, x, block, perRepeat, repeats, {1, 1, 0, 8, 8, 0});
    }
    if (rest > 0) {
        op(y[repeats * perRepeat], x[repeats * perRepeat], block, rest, 1, {1, 1, 0, 8, 8, 0});
    }
}
}  // namespace repeat_fnptr_idioms

// n = 600 floats (9 repeats of 64 and a remainder of 24), s = *scalar:
// y[0:n] = x / s (Div); y[n:2n] = exp(x) (Exp); y[2n:3n] = x + s (Adds); y[3n:4n] = x * x on the
// first 32 values of each repeat (Mul with a bit mask), 0 elsewhere
extern "C" __global__ __aicore__ void vector_repeat_fnptr_f32(GM_ADDR x, GM_ADDR scalar, GM_ADDR y)
{
    using namespace repeat_fnptr_idioms;
    constexpr int32_t n = 600;
    constexpr int32_t padded = 640;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, blockBuf;
    pipe.InitBuffer(buf, 5 * padded * sizeof(float));
    pipe.InitBuffer(blockBuf, 32);
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<float> out = in[padded];
    LocalTensor<float> block = blockBuf.Get<float>();
    GlobalTensor<float> xGm, sGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    sGm.SetGlobalBuffer((__gm__ float *)scalar, 1);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * n);
    Duplicate(in, 0.0f, padded);  // the exp / adds / mul repeats read the padding past n
    Duplicate(out[3 * padded], 0.0f, padded);
    PipeBarrier<PIPE_ALL>();
    DataCopy(in, xGm, n);
    const float s = sGm.GetValue(0);
    Duplicate(block, s, 8);
    PipeBarrier<PIPE_ALL>();
    WithBlock<float, Div>(out, in, block, n);
    UnaryRepeatOp<float> *exp = Exp;
    exp(out[padded], in, 64, padded / 64, {1, 1, 8, 8});
    ScalarRepeatOp<float> *adds = Adds;
    adds(out[2 * padded], in, s, 64, padded / 64, {1, 1, 8, 8});
    BinaryBitsOp<float> *mul = Mul;
    uint64_t bits[2] = {0xffffffffull, 0};
    mul(out[3 * padded], in, in, bits, padded / 64, {1, 1, 1, 8, 8, 8});
    PipeBarrier<PIPE_ALL>();
    for (int32_t k = 0; k < 4; ++k) {
        DataCopy(yGm[k * n], out[k * padded], n);
    }
}

namespace log_idioms {
constexpr int32_t N = 256;
template <typename T>
using CountOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const int32_t &);

// NPUKernelBench's ForeachLog10-style adapter: the whole-tensor form, the count ignored
template <typename T>
__aicore__ void Log10Adapter(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t & /* count */)
{
    Log10<T>(dst, src);
}
template <typename T, CountOp<T> *op>
__aicore__ inline void Apply(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count)
{
    op(dst, src, count);
}

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, tmpBuf, wholeBuf;
    pipe.InitBuffer(inBuf, N * sizeof(T));
    pipe.InitBuffer(outBuf, 4 * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    pipe.InitBuffer(wholeBuf, N * sizeof(T));
    LocalTensor<T> in = inBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    LocalTensor<T> whole = wholeBuf.Get<T>();  // exactly N values: the whole-tensor forms' extent
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, 4 * N);
    DataCopy(in, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Log<T, false>(out, in, N);
    Log2<T, false>(out[N], in, tmpBuf.Get<uint8_t>(), N);
    Apply<T, Log10Adapter<T>>(whole, in, N);
    PipeBarrier<PIPE_V>();
    DataCopy(out[2 * N], whole, N);  // UB -> UB
    PipeBarrier<PIPE_V>();
    Log2<T>(whole, in);
    PipeBarrier<PIPE_V>();
    DataCopy(out[3 * N], whole, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 4 * N);
}
}  // namespace log_idioms

// y = [ln(x), log2(x) (sharedTmpBuffer), log10(x) (whole tensor, through an adapter), log2(x) (whole tensor)]
extern "C" __global__ __aicore__ void math_log_f32(GM_ADDR x, GM_ADDR y)
{
    log_idioms::Run<float>(x, y);
}
extern "C" __global__ __aicore__ void math_log_f16(GM_ADDR x, GM_ADDR y)
{
    log_idioms::Run<half>(x, y);
}

namespace power_idioms {
constexpr int32_t N = 256;
template <typename T>
using ScalarOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const T &, const int32_t &);

// NPUKernelBench's ForeachPowScalar-style adapter, passed where a scalar-op function pointer is expected
template <typename T>
__aicore__ void PowerAdapter(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &s, const int32_t &n)
{
    Power<T, false>(dst, src, s, static_cast<uint32_t>(n));
}
template <typename T, ScalarOp<T> *op>
__aicore__ inline void Apply(const LocalTensor<T> &dst, const LocalTensor<T> &src, T s, int32_t n)
{
    op(dst, src, s, n);
}

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR e, GM_ADDR y, T s)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, eBuf, outBuf, tmpBuf;
    pipe.InitBuffer(xBuf, N * sizeof(T));
    pipe.InitBuffer(eBuf, N * sizeof(T));
    pipe.InitBuffer(outBuf, 3 * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    LocalTensor<T> xs = xBuf.Get<T>();
    LocalTensor<T> es = eBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    GlobalTensor<T> xGm, eGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    eGm.SetGlobalBuffer((__gm__ T *)e, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, 3 * N);
    DataCopy(xs, xGm, N);
    DataCopy(es, eGm, N);
    PipeBarrier<PIPE_ALL>();
    Power<T, false>(out, xs, es, tmpBuf.Get<uint8_t>(), N);  // tensor ^ tensor
    Apply<T, PowerAdapter<T>>(out[N], xs, s, N);              // tensor ^ scalar
    Power<T>(out[2 * N], s, es, N);                           // scalar ^ tensor
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 3 * N);
}
}  // namespace power_idioms

// y = [x ** e, x ** s, s ** e] with s = 1.5 (float / half) or 3 (int32)
extern "C" __global__ __aicore__ void math_power_f32(GM_ADDR x, GM_ADDR e, GM_ADDR y)
{
    power_idioms::Run<float>(x, e, y, 1.5f);
}
extern "C" __global__ __aicore__ void math_power_f16(GM_ADDR x, GM_ADDR e, GM_ADDR y)
{
    power_idioms::Run<half>(x, e, y, half(1.5f));
}
extern "C" __global__ __aicore__ void math_power_s32(GM_ADDR x, GM_ADDR e, GM_ADDR y)
{
    power_idioms::Run<int32_t>(x, e, y, 3);
}

namespace sign_idioms {
constexpr int32_t N = 256;
template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf, tmpBuf;
    pipe.InitBuffer(inBuf, N * sizeof(T));
    pipe.InitBuffer(outBuf, 2 * N * sizeof(T));
    pipe.InitBuffer(tmpBuf, N * sizeof(float));
    LocalTensor<T> in = inBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, 2 * N);
    DataCopy(in, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Sign<T, false>(out, in, N);                       // NPUKernelBench ForeachSign's call
    Sign<T>(out[N], in, tmpBuf.Get<uint8_t>(), N);    // with a sharedTmpBuffer
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 2 * N);
}
}  // namespace sign_idioms

// y = [sign(x), sign(x)]
extern "C" __global__ __aicore__ void math_sign_f32(GM_ADDR x, GM_ADDR y)
{
    sign_idioms::Run<float>(x, y);
}
extern "C" __global__ __aicore__ void math_sign_f16(GM_ADDR x, GM_ADDR y)
{
    sign_idioms::Run<half>(x, y);
}

// y = [sigmoid(x), tanh(x)]: the activations named as `TriangleOp`-style function pointers (NPUKernelBench's
// ForeachSigmoid / ForeachTanh), then called directly with a uint32_t count and with an int count
template <typename T>
__aicore__ inline void RunActivations(GM_ADDR x, GM_ADDR y)
{
    using namespace math_elementwise_idioms;
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, N * sizeof(T));
    pipe.InitBuffer(outBuf, 4 * N * sizeof(T));
    LocalTensor<T> in = inBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, 4 * N);
    DataCopy(in, xGm, N);
    PipeBarrier<PIPE_ALL>();
    ApplyOne<T, Sigmoid<T, false>>(out, in, N);
    ApplyOne<T, Tanh<T, false>>(out[N], in, N);
    Sigmoid<T, false>(out[2 * N], in, static_cast<uint32_t>(N));
    Tanh(out[3 * N], in, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 4 * N);
}
extern "C" __global__ __aicore__ void activation_fnptr_f32(GM_ADDR x, GM_ADDR y)
{
    RunActivations<float>(x, y);
}
extern "C" __global__ __aicore__ void activation_fnptr_f16(GM_ADDR x, GM_ADDR y)
{
    RunActivations<half>(x, y);
}
