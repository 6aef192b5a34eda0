// Our own kernels in the style of Huawei's open element-wise op kernels (Apache-2.0 IsFinite /
// IsInf of NPUKernelBench's task answers): the older DataCopyPad prototype called with a
// DataCopyParams variable and a braced DataCopyPadParams list, `DataCopyPad(dst, src, params,
// {false, 0, 0, 0})`, the form the NPU compiler resolves to the DataCopyParams / DataCopyPadParams
// overload (blockLen counts bytes in both prototypes).
#include "kernel_operator.h"

using namespace AscendC;

// y = x & 0x7fff over n int16 words (|x| for half bit patterns), the row moved in and out by the
// byte-counted DataCopyPad prototypes; n need not fill a 32-byte block.
extern "C" __global__ __aicore__ void half_abs_bits_braced_pad(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qin;
    TQue<QuePosition::VECOUT, 1> qout;
    TBuf<> maskBuf;
    const uint32_t padded = (n + 15) / 16 * 16;
    pipe.InitBuffer(qin, 1, padded * sizeof(int16_t));
    pipe.InitBuffer(qout, 1, padded * sizeof(int16_t));
    pipe.InitBuffer(maskBuf, padded * sizeof(int16_t));
    GlobalTensor<int16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int16_t *)x);
    yGm.SetGlobalBuffer((__gm__ int16_t *)y);

    LocalTensor<int16_t> in = qin.AllocTensor<int16_t>();
    DataCopyParams copyParams;
    copyParams.blockCount = 1;
    copyParams.blockLen = n * sizeof(int16_t);
    copyParams.srcStride = 0;
    copyParams.dstStride = 0;
    DataCopyPad(in, xGm, copyParams, {false, 0, 0, 0});
    qin.EnQue(in);

    LocalTensor<int16_t> src = qin.DeQue<int16_t>();
    LocalTensor<int16_t> dst = qout.AllocTensor<int16_t>();
    LocalTensor<int16_t> mask = maskBuf.Get<int16_t>();
    Duplicate(mask, (int16_t)0x7fff, padded);
    And(dst, src, mask, padded);
    qin.FreeTensor(src);
    qout.EnQue(dst);

    LocalTensor<int16_t> out = qout.DeQue<int16_t>();
    DataCopyPad(yGm, out, copyParams);
    qout.FreeTensor(out);
}

// The same copy with the pad list asking for right padding: `rightPad` zero elements after the n
// copied ones (n + rightPad within one 32-byte block of int16), all of it copied out.
extern "C" __global__ __aicore__ void int16_braced_right_pad(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t rightPad)
{
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<int16_t> t = buf.Get<int16_t>();
    GlobalTensor<int16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int16_t *)x);
    yGm.SetGlobalBuffer((__gm__ int16_t *)y);
    DataCopyParams in{1, static_cast<uint16_t>(n * sizeof(int16_t)), 0, 0};
    DataCopyPad(t, xGm, in, {true, 0, static_cast<uint8_t>(rightPad), 0});
    PipeBarrier<PIPE_ALL>();
    DataCopyParams out{1, static_cast<uint16_t>((n + rightPad) * sizeof(int16_t)), 0, 0};
    DataCopyPad(yGm, t, out);
}
