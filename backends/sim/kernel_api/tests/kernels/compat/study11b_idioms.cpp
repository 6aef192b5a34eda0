// Idioms of the eleventh public-kernel study, helper study11b (kernel_api/COMPAT.md, "Round 11
// (study11b)"), written for pyasc in the style of the public kernels studied: the SDK functions behind
// DataCopyPad called directly on raw __ubuf__ / __gm__ pointers, with another element type than the
// tensors' (int64 indices moved as uint32 words), and their older DataCopyParams / DataCopyPadParams
// prototypes; float16_t, the toolchain's name for half.
#include "kernel_operator.h"

using namespace AscendC;

// out[i] = in[i] + 1 for n int64 values (n need not fill 32 bytes): the bytes move GM -> UB and back
// as uint32 words through DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl, the add runs on int32 pairs
// after a Cast-free view (values stay below 2^31, so the low word carries the sum).
extern "C" __global__ __aicore__ void int64_words_plus_one(GM_ADDR in, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    const uint32_t words = 2 * n;
    const uint32_t padded = (words + 7) / 8 * 8;
    pipe.InitBuffer(qin, 1, padded * sizeof(uint32_t));
    pipe.InitBuffer(qout, 1, padded * sizeof(uint32_t));
    GlobalTensor<int64_t> gin, gout;
    gin.SetGlobalBuffer((__gm__ int64_t *)in, n);
    gout.SetGlobalBuffer((__gm__ int64_t *)out, n);

    LocalTensor<int64_t> x = qin.AllocTensor<int64_t>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(int64_t)), 0, 0, 0};
    DataCopyPadExtParams<uint32_t> noPad{false, 0, 0, 0};
    DataCopyPadGm2UBImpl((__ubuf__ uint32_t *)x.GetPhyAddr(), (__gm__ uint32_t *)gin.GetPhyAddr(), copy, noPad);
    qin.EnQue(x);
    x = qin.DeQue<int64_t>();
    SetFlag<HardEvent::MTE2_S>(0);  // the scalar reads of x (DeQue is the MTE2 -> V flag, not the Scalar Unit's)
    WaitFlag<HardEvent::MTE2_S>(0);
    LocalTensor<int64_t> y = qout.AllocTensor<int64_t>();
    for (uint32_t i = 0; i < n; ++i) {
        y.SetValue(i, x.GetValue(i) + 1);
    }
    SetFlag<HardEvent::S_MTE3>(0);  // the store of y (EnQue orders the producer pipe, not these scalar writes)
    WaitFlag<HardEvent::S_MTE3>(0);
    qout.EnQue(y);
    qin.FreeTensor(x);
    y = qout.DeQue<int64_t>();
    DataCopyPadUB2GMImpl((__gm__ uint32_t *)gout.GetPhyAddr(), (__ubuf__ uint32_t *)y.GetPhyAddr(), copy);
    qout.FreeTensor(y);
}

// The older prototypes: n floats in with `right` zero padding elements after them (DataCopyParams
// counts bytes as DataCopyExtParams does), the padded row (n + right floats, a whole number of
// 32-byte blocks) out through the DataCopyParams form of DataCopyPadUB2GMImpl.
extern "C" __global__ __aicore__ void float_row_right_pad(GM_ADDR in, GM_ADDR out, uint32_t n, uint32_t right)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (n + right) * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopyParams rowIn{1, static_cast<uint16_t>(n * sizeof(float)), 0, 0};
    DataCopyPadParams pad{true, 0, static_cast<uint8_t>(right), 0};
    DataCopyPadGm2UBImpl((__ubuf__ float *)t.GetPhyAddr(), (__gm__ float *)in, rowIn, pad);
    PipeBarrier<PIPE_ALL>();
    DataCopyParams rowOut{1, static_cast<uint16_t>((n + right) * sizeof(float)), 0, 0};
    DataCopyPadUB2GMImpl((__gm__ float *)out, (__ubuf__ float *)t.GetPhyAddr(), rowOut);
}

// A UB destination 4 bytes past a 32-byte boundary: DataCopyPad needs 32-byte aligned UB
// addresses, and so does the function behind it.
extern "C" __global__ __aicore__ void misaligned_ub_copy(GM_ADDR in, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 + n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
    DataCopyPadGm2UBImpl((__ubuf__ float *)t[1].GetPhyAddr(), (__gm__ float *)in, copy, noPad);
}

// float16_t (the toolchain's name for half) for tensors and scalars: y = x * 2 + 0.5 over n halves
// (n a multiple of 16), through a queue pair.
extern "C" __global__ __aicore__ void float16_t_axpb(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, n * sizeof(float16_t));
    pipe.InitBuffer(qout, 1, n * sizeof(float16_t));
    GlobalTensor<float16_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ float16_t *)x, n);
    gy.SetGlobalBuffer((__gm__ float16_t *)y, n);
    LocalTensor<float16_t> a = qin.AllocTensor<float16_t>();
    DataCopy(a, gx, n);
    qin.EnQue(a);
    a = qin.DeQue<float16_t>();
    LocalTensor<float16_t> b = qout.AllocTensor<float16_t>();
    Muls(b, a, (float16_t)(2.0), n);
    Adds(b, b, static_cast<float16_t>(0.5f), n);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<float16_t>();
    DataCopy(gy, b, n);
    qout.FreeTensor(b);
}
