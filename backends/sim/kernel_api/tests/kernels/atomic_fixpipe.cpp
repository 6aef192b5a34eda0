// Split-K matmul with atomic accumulation on the cube output: block b multiplies A's column panel
// [b * kk, (b + 1) * kk) by B's row panel and adds its M x N partial product into C with Fixpipe
// under SetAtomicAdd<float>() (C keeps what it held: C += A x B). M, N, kk multiples of 16.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void splitk_atomic(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                                    uint32_t kk)
{
    constexpr uint32_t F = 16, FRAC = 256;
    const uint32_t k = kk * static_cast<uint32_t>(GetBlockNum());
    const uint32_t k0 = kk * static_cast<uint32_t>(GetBlockIdx());
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + k0, m * k - k0);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + k0 * n, kk * n);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), m * n);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, m * kk * sizeof(half));
    pipe.InitBuffer(qb1, 1, kk * n * sizeof(half));
    pipe.InitBuffer(qa2, 1, m * kk * sizeof(half));
    pipe.InitBuffer(qb2, 1, kk * n * sizeof(half));
    pipe.InitBuffer(qc, 1, m * n * sizeof(float));

    LocalTensor<half> a1 = qa1.AllocTensor<half>();
    LocalTensor<half> b1 = qb1.AllocTensor<half>();
    DataCopy(a1, ga, Nd2NzParams(1, static_cast<uint16_t>(m), static_cast<uint16_t>(kk), 0, static_cast<uint16_t>(k),
                                 static_cast<uint16_t>(m), 1, 0));
    DataCopy(b1, gb, Nd2NzParams(1, static_cast<uint16_t>(kk), static_cast<uint16_t>(n), 0, static_cast<uint16_t>(n),
                                 static_cast<uint16_t>(kk), 1, 0));
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    a1 = qa1.DeQue<half>();
    b1 = qb1.DeQue<half>();
    const uint32_t mb = m / F, kb = kk / F, nb = n / F;
    LocalTensor<half> a2 = qa2.AllocTensor<half>();
    LocalTensor<half> b2 = qb2.AllocTensor<half>();
    for (uint32_t i = 0; i < mb; ++i) {
        LoadData2DParams p;
        p.repeatTimes = static_cast<uint8_t>(kb);
        p.srcStride = static_cast<uint16_t>(mb);
        LoadData(a2[i * kb * FRAC], a1[i * FRAC], p);
    }
    for (uint32_t i = 0; i < kb; ++i) {
        LoadData2DParams p;
        p.repeatTimes = static_cast<uint8_t>(nb);
        p.srcStride = static_cast<uint16_t>(kb);
        p.ifTranspose = true;
        LoadData(b2[i * nb * FRAC], b1[i * FRAC], p);
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    qa2.EnQue(a2);
    qb2.EnQue(b2);
    a2 = qa2.DeQue<half>();
    b2 = qb2.DeQue<half>();
    LocalTensor<float> c1 = qc.AllocTensor<float>();
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(n);
    mp.k = static_cast<uint16_t>(kk);
    Mmad(c1, a2, b2, mp);
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);
    qc.EnQue(c1);
    c1 = qc.DeQue<float>();
    SetAtomicAdd<float>();
    FixpipeParamsV220 fp(static_cast<uint16_t>(n), static_cast<uint16_t>(m), static_cast<uint16_t>(m), n, false);
    Fixpipe(gc, c1, fp);
    SetAtomicNone();
    qc.FreeTensor(c1);
}
