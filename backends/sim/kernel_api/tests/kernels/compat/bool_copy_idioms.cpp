// bool tensors moved by DataCopy / DataCopyPad, as public kernels do with masks (an IsInf-style output
// mask, a tree-building kernel's bool flags): GM -> UB with DataCopy for the whole 32-byte blocks and
// DataCopyPad for an unaligned count, a 1-byte view (uint8_t) to compute on, and DataCopyPad back to GM.
// Our own kernel; it inverts the mask so the test sees the bytes went through the vector unit.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void bool_mask_invert(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::GlobalTensor<bool> xg;
    AscendC::GlobalTensor<bool> yg;
    const uint32_t padded = (n + 31) / 32 * 32;
    xg.SetGlobalBuffer((__gm__ bool *)x, n);
    yg.SetGlobalBuffer((__gm__ bool *)y, n);
    pipe.InitBuffer(inQ, 1, padded);
    pipe.InitBuffer(outQ, 1, padded);

    AscendC::LocalTensor<bool> xl = inQ.AllocTensor<bool>();
    const uint32_t whole = n / 32 * 32;
    if (whole > 0) {
        AscendC::DataCopy(xl, xg, whole);
    }
    if (n > whole) {
        AscendC::DataCopyExtParams tail{1, n - whole, 0, 0, 0};
        AscendC::DataCopyPad(xl[whole], xg[whole], tail, AscendC::DataCopyPadExtParams<bool>{true, 0, 0, false});
    }
    inQ.EnQue(xl);
    xl = inQ.DeQue<bool>();

    AscendC::LocalTensor<bool> yl = outQ.AllocTensor<bool>();
    AscendC::LocalTensor<uint8_t> xb = xl.ReinterpretCast<uint8_t>();
    AscendC::LocalTensor<uint8_t> yb = yl.ReinterpretCast<uint8_t>();
    AscendC::LocalTensor<int16_t> xw = xl.ReinterpretCast<int16_t>();
    AscendC::LocalTensor<int16_t> yw = yl.ReinterpretCast<int16_t>();
    // bool is 0 or 1 per byte: x xor 0x0101 on 16-bit words flips both bytes' low bit
    AscendC::Duplicate(yw, static_cast<int16_t>(0x0101), static_cast<int32_t>(padded / 2));
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Not(xw, xw, static_cast<int32_t>(padded / 2));
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::And(yw, yw, xw, static_cast<int32_t>(padded / 2));
    (void)xb;
    (void)yb;
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<bool>();
    AscendC::DataCopyExtParams out{1, n, 0, 0, 0};
    AscendC::DataCopyPad(yg, yl, out);
    outQ.FreeTensor(yl);
}
