// Level-2 And / Or on int32_t / uint32_t views of float data, as public kernels test float bits on Atlas A2
// (tests/test_sim_compat_bitwise_int32.py): the SDK's C220 implementation of the count form runs the instruction on
// 16-bit lanes, so a kernel passes count = 2 x the 32-bit elements ("C220 implements Level-2 And with 16-bit
// lanes"); the tensor operators `&` / `|` on int32_t tensors cover the whole tensor.
//
// Layout: x holds n floats; y holds 3 n int32_t: [0, n) = bits(x) & 0x7F800000 (And, count `lanes`),
// [n, 2 n) = bits(x) | 0x80000000 (Or on uint32_t, count `lanes`), [2 n, 3 n) = bits(x) & 0x7FFFFFFF (`&`).
// The output tile starts as -1, so lanes a short count does not reach keep 0xFFFF.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr int32_t kExpMask = 0x7F800000;
constexpr int32_t kAbsMask = 0x7FFFFFFF;
constexpr uint32_t kSignBit = 0x80000000U;

class FloatBits {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t lanes)
    {
        this->n = n;
        this->lanes = lanes;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(y), 3 * n);
        pipe.InitBuffer(inQueue, 1, n * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 3 * n * sizeof(int32_t));
        pipe.InitBuffer(expBuf, n * sizeof(int32_t));
        pipe.InitBuffer(signBuf, n * sizeof(uint32_t));
        pipe.InitBuffer(absBuf, n * sizeof(int32_t));
        pipe.InitBuffer(opBuf, n * sizeof(int32_t));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, n);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<int32_t> bits = xLocal.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> out = outQueue.AllocTensor<int32_t>();
        LocalTensor<int32_t> expMask = expBuf.Get<int32_t>();
        LocalTensor<uint32_t> sign = signBuf.Get<uint32_t>();
        LocalTensor<int32_t> absMask = absBuf.Get<int32_t>();
        Duplicate(out, -1, static_cast<int32_t>(3 * n));
        Duplicate(expMask, kExpMask, static_cast<int32_t>(n));
        Duplicate(sign, kSignBit, static_cast<int32_t>(n));
        Duplicate(absMask, kAbsMask, static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        And(out, bits, expMask, lanes);  // BAD(and)
        LocalTensor<uint32_t> orOut = out[n].ReinterpretCast<uint32_t>();
        Or(orOut, bits.ReinterpretCast<uint32_t>(), sign, lanes);  // BAD(or)
        LocalTensor<int32_t> opOut = opBuf.Get<int32_t>();
        opOut = bits & absMask;  // BAD(operator)
        PipeBarrier<PIPE_V>();
        Adds(out[2 * n], opOut, 0, static_cast<int32_t>(n));
        inQueue.FreeTensor(xLocal);
        outQueue.EnQue(out);
        out = outQueue.DeQue<int32_t>();
        DataCopy(yGm, out, 3 * n);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> expBuf, signBuf, absBuf, opBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> yGm;
    uint32_t n = 0;
    int32_t lanes = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void float_bits_i32(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t lanes)
{
    FloatBits op;
    op.Init(x, y, n, lanes);
    op.Process();
}
