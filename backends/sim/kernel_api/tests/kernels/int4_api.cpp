// int4b_t (packed 4-bit) kernels in the style of public quantisation code: 4-bit weights in GM,
// Cast int4b_t -> half and half -> int4b_t, ReinterpretCast<int8_t> of the packed bytes.
// Checked against NumPy by tests/test_ascendc_int4.py.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t QK = 64;  // elements per block (32 bytes of int4b_t)

// y[b * QK + i] = int4(x)[b * QK + i] * scale[b]   (one block of QK per loop step)
extern "C" __global__ __aicore__ void dequant_q4(GM_ADDR x, GM_ADDR scale, GM_ADDR y, uint32_t blocks)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> castBuf;
    pipe.InitBuffer(inQ, 1, QK * sizeof(int4b_t));  // as public code writes it: twice what QK nibbles need
    pipe.InitBuffer(outQ, 1, QK * sizeof(half));
    pipe.InitBuffer(castBuf, QK * sizeof(half));
    GlobalTensor<int4b_t> xGm;
    GlobalTensor<half> sGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int4b_t *)x, blocks * QK);
    sGm.SetGlobalBuffer((__gm__ half *)scale, blocks);
    yGm.SetGlobalBuffer((__gm__ half *)y, blocks * QK);
    for (uint32_t b = 0; b < blocks; ++b) {
        LocalTensor<int4b_t> q = inQ.AllocTensor<int4b_t>();
        DataCopy(q, xGm[b * QK], QK);
        inQ.EnQue(q);
        q = inQ.DeQue<int4b_t>();
        LocalTensor<half> c = castBuf.Get<half>();
        Cast(c, q, RoundMode::CAST_NONE, QK);
        inQ.FreeTensor(q);
        const half s = sGm.GetValue(b);
        LocalTensor<half> o = outQ.AllocTensor<half>();
        Muls(o, c, s, QK);
        outQ.EnQue(o);
        o = outQ.DeQue<half>();
        DataCopy(yGm[b * QK], o, QK);
        outQ.FreeTensor(o);
    }
}

// q = int4(round(x)) packed; also copies the packed bytes out through ReinterpretCast<int8_t>.
extern "C" __global__ __aicore__ void quant_q4(GM_ADDR x, GM_ADDR q, GM_ADDR qBytes)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, QK * sizeof(half));
    pipe.InitBuffer(outQ, 1, QK / 2);
    GlobalTensor<half> xGm;
    GlobalTensor<int4b_t> qGm;
    GlobalTensor<int8_t> bGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, QK);
    qGm.SetGlobalBuffer((__gm__ int4b_t *)q, QK);
    bGm.SetGlobalBuffer((__gm__ int8_t *)qBytes, QK / 2);
    LocalTensor<half> xl = inQ.AllocTensor<half>();
    DataCopy(xl, xGm, QK);
    inQ.EnQue(xl);
    xl = inQ.DeQue<half>();
    LocalTensor<int4b_t> ql = outQ.AllocTensor<int4b_t>();
    Cast(ql, xl, RoundMode::CAST_RINT, QK);
    outQ.EnQue(ql);
    inQ.FreeTensor(xl);
    ql = outQ.DeQue<int4b_t>();
    DataCopy(qGm, ql, QK);
    LocalTensor<int8_t> bytes = ql.ReinterpretCast<int8_t>();
    DataCopy(bGm, bytes, QK / 2);
    outQ.FreeTensor(ql);
}
