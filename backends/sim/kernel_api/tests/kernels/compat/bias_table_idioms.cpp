// The Mmad bias vector's way into the cube, in the style of Catlass-like Gemm kernels with a bias: the bias is
// copied GM -> L1 (A1) in its own type, then L1 -> the bias table (C2) with DataCopy -- widened from half by the
// converting prototype DataCopy(LocalTensor<float>, LocalTensor<half>, DataCopyParams), or float to float --
// and Mmad adds it to the product: y = A @ B + bias.  The bias-table copy counts 64-byte blocks of the L1
// source, 32-byte source gaps and 64-byte destination gaps (kapi/bias_table_copy.h).  Our own kernel
// (tests/test_sim_compat_bias_table.py).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kFrac = 16;

__aicore__ inline void GmToL1Tile(const LocalTensor<half> &dst, const GlobalTensor<half> &src, uint16_t rows,
                                  uint16_t cols)
{
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = rows;
    p.dValue = cols;
    p.srcDValue = cols;
    p.dstNzC0Stride = rows;
    p.dstNzNStride = 1;
    DataCopy(dst, src, p);
}

__aicore__ inline void L1ToL0(const LocalTensor<half> &dst, const LocalTensor<half> &src, uint16_t rowFracs,
                              uint16_t colFracs, bool transpose)
{
    for (uint16_t i = 0; i < rowFracs; ++i) {
        LoadData2dParams p;
        p.repeatTimes = colFracs;
        p.srcStride = rowFracs;
        p.ifTranspose = transpose;
        LoadData(dst[i * colFracs * 256], src[i * 256], p);
    }
}

// mode 0: one burst of the whole bias (blockLen = n * sizeof(B) / 64).
// mode 1: two bursts of n / 2 elements with a one-block (32-byte) gap between them in L1: the bias is copied to
//         L1 in two halves 32 bytes apart, srcStride 1, dstStride 0.
// mode 2: two bursts of n elements (the bias holds 2n), dstStride 2: the second lands 128 bytes (2 x 64) after
//         the first's end in the table; a second Mmad takes its bias from there, y holds both products.
// mode 3 (half only): the converting copy into an L1 (A1) float tensor instead of the table: 'cube-position' at
//         the marked line.
template <typename B>
__aicore__ inline void BiasMm(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR shape)
{
    GlobalTensor<uint32_t> shapeGm;
    shapeGm.SetGlobalBuffer((__gm__ uint32_t *)shape, 4);
    const uint16_t m = shapeGm.GetValue(0), k = shapeGm.GetValue(1), n = shapeGm.GetValue(2);
    const uint32_t mode = shapeGm.GetValue(3);
    const uint32_t products = mode == 2 ? 2 : 1;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<B> biasGm;
    GlobalTensor<float> yGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, m * k);
    bGm.SetGlobalBuffer((__gm__ half *)b, k * n);
    biasGm.SetGlobalBuffer((__gm__ B *)bias, n * products);
    yGm.SetGlobalBuffer((__gm__ float *)y, m * n * products);

    TPipe pipe;
    TQue<QuePosition::A1, 1> a1Q, biasQ;
    TQue<QuePosition::B1, 1> b1Q;
    TQue<QuePosition::A2, 1> a2Q;
    TQue<QuePosition::B2, 1> b2Q;
    TQue<QuePosition::C2, 1> btQ;
    TQue<QuePosition::CO1, 1> c1Q;
    TBuf<TPosition::A1> l1f;
    pipe.InitBuffer(a1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(biasQ, 1, 1024);
    pipe.InitBuffer(a2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(btQ, 1, 1024);  // the 1 KB bias table
    pipe.InitBuffer(c1Q, 1, 2 * 64 * 64 * sizeof(float));
    pipe.InitBuffer(l1f, 1024);

    LocalTensor<half> aL1 = a1Q.AllocTensor<half>();
    GmToL1Tile(aL1, aGm, m, k);
    a1Q.EnQue(aL1);
    LocalTensor<half> bL1 = b1Q.AllocTensor<half>();
    GmToL1Tile(bL1, bGm, k, n);
    b1Q.EnQue(bL1);
    LocalTensor<B> biasL1 = biasQ.AllocTensor<B>();
    constexpr uint32_t perBlock = 32 / sizeof(B);  // elements of a 32-byte block
    if (mode == 1) {
        DataCopy(biasL1, biasGm, n / 2);
        DataCopy(biasL1[n / 2 + perBlock], biasGm[n / 2], n / 2);  // one 32-byte block apart
    } else {
        DataCopy(biasL1, biasGm, n * products);
    }
    biasQ.EnQue(biasL1);

    aL1 = a1Q.DeQue<half>();
    LocalTensor<half> aL0 = a2Q.AllocTensor<half>();
    L1ToL0(aL0, aL1, m / kFrac, k / kFrac, false);
    a1Q.FreeTensor(aL1);
    a2Q.EnQue(aL0);
    bL1 = b1Q.DeQue<half>();
    LocalTensor<half> bL0 = b2Q.AllocTensor<half>();
    L1ToL0(bL0, bL1, k / kFrac, n / kFrac, true);
    b1Q.FreeTensor(bL1);
    b2Q.EnQue(bL0);

    biasL1 = biasQ.DeQue<B>();
    LocalTensor<float> bt = btQ.AllocTensor<float>();
    const uint16_t blocks64 = static_cast<uint16_t>(n * sizeof(B) / 64);  // 64-byte blocks of the L1 source
    if (mode == 0) {
        DataCopy(bt, biasL1, {1, blocks64, 0, 0});
    } else if (mode == 1) {
        DataCopy(bt, biasL1, {2, static_cast<uint16_t>(blocks64 / 2), 1, 0});
    } else if (mode == 2) {
        DataCopy(bt, biasL1, {2, blocks64, 0, 2});
    } else if constexpr (!std::is_same<B, float>::value) {
        LocalTensor<float> notTable = l1f.Get<float>();
        DataCopy(notTable, biasL1, {1, blocks64, 0, 0});  // BAD(not-the-table)
    }
    biasQ.FreeTensor(biasL1);
    btQ.EnQue(bt);

    aL0 = a2Q.DeQue<half>();
    bL0 = b2Q.DeQue<half>();
    bt = btQ.DeQue<float>();
    LocalTensor<float> c = c1Q.AllocTensor<float>();
    MmadParams mp(m, n, k, false, 0, false, false, false);
    Mmad(c, aL0, bL0, bt, mp);
    if (mode == 2) {
        // the second burst starts at n + 2 x 64 bytes / sizeof(float) = n + 32 floats into the table
        Mmad(c[m * n], aL0, bL0, bt[n + 32], mp);
    }
    a2Q.FreeTensor(aL0);
    b2Q.FreeTensor(bL0);
    btQ.FreeTensor(bt);
    c1Q.EnQue(c);
    c = c1Q.DeQue<float>();
    FixpipeParamsV220 fp(n, m, m, n, false);
    Fixpipe(yGm, c, fp);
    if (mode == 2) {
        Fixpipe(yGm[m * n], c[m * n], fp);
    }
    c1Q.FreeTensor(c);
}

}  // namespace

// shape: m, k, n, mode (m, k, n multiples of 16; n * sizeof(bias) a multiple of 128 for modes 1 and 2's halves)
extern "C" __global__ __aicore__ void bias_mm_half(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR shape)
{
    BiasMm<half>(a, b, bias, y, shape);
}

extern "C" __global__ __aicore__ void bias_mm_float(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR shape)
{
    BiasMm<float>(a, b, bias, y, shape);
}
