// C (M x N, float) = A (M x K, half) x B (K x N, half) on the cube path. Block b computes the
// rows [b * rows, (b + 1) * rows) of C: GM -> L1 with the ND -> NZ DataCopy, L1 -> L0A ("Zz") and
// L1 -> L0B ("Zn", fractals transposed) with LoadData, Mmad into L0C (float accumulation),
// L0C -> GM with Fixpipe (NZ -> ND). rows, N and K are multiples of 16.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t F = 16;        // fractal edge for half inputs
constexpr uint32_t FRAC = F * F;  // elements in one fractal

class RowPanelMatmul {
public:
    __aicore__ inline void Setup(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t rows, uint32_t n, uint32_t k)
    {
        rows_ = rows;
        n_ = n;
        k_ = k;
        const uint32_t row0 = rows * static_cast<uint32_t>(GetBlockIdx());
        ga_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + row0 * k, rows * k);
        gb_.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), k * n);
        gc_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + row0 * n, rows * n);
        pipe_.InitBuffer(qa1_, 1, rows * k * sizeof(half));
        pipe_.InitBuffer(qb1_, 1, k * n * sizeof(half));
        pipe_.InitBuffer(qa2_, 1, rows * k * sizeof(half));
        pipe_.InitBuffer(qb2_, 1, k * n * sizeof(half));
        pipe_.InitBuffer(qc_, 1, rows * n * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        ToL1();
        ToL0();
        Multiply();
        Drain();
    }

private:
    __aicore__ inline void ToL1()
    {
        LocalTensor<half> a1 = qa1_.AllocTensor<half>();
        LocalTensor<half> b1 = qb1_.AllocTensor<half>();
        // NZ in L1: column block j (16 columns) of an r-row matrix starts at j * r * 16 elements.
        DataCopy(a1, ga_, Nd2NzParams(1, static_cast<uint16_t>(rows_), static_cast<uint16_t>(k_), 0,
                                      static_cast<uint16_t>(k_), static_cast<uint16_t>(rows_), 1, 0));
        DataCopy(b1, gb_, Nd2NzParams(1, static_cast<uint16_t>(k_), static_cast<uint16_t>(n_), 0,
                                      static_cast<uint16_t>(n_), static_cast<uint16_t>(k_), 1, 0));
        qa1_.EnQue(a1);
        qb1_.EnQue(b1);
    }

    __aicore__ inline void ToL0()
    {
        const uint32_t mb = rows_ / F, kb = k_ / F, nb = n_ / F;
        LocalTensor<half> a1 = qa1_.DeQue<half>();
        LocalTensor<half> b1 = qb1_.DeQue<half>();
        LocalTensor<half> a2 = qa2_.AllocTensor<half>();
        LocalTensor<half> b2 = qb2_.AllocTensor<half>();
        // L0A wants A's fractals row block by row block; in L1 the fractals of one row block are
        // mb fractals apart.
        for (uint32_t i = 0; i < mb; ++i) {
            LoadData2DParams p;
            p.repeatTimes = static_cast<uint8_t>(kb);
            p.srcStride = static_cast<uint16_t>(mb);
            LoadData(a2[i * kb * FRAC], a1[i * FRAC], p);
        }
        // L0B wants B's fractals row block (of K) by row block, each transposed; in L1 the fractals
        // of one row block are kb fractals apart.
        for (uint32_t i = 0; i < kb; ++i) {
            LoadData2DParams p;
            p.repeatTimes = static_cast<uint8_t>(nb);
            p.srcStride = static_cast<uint16_t>(kb);
            p.ifTranspose = true;
            LoadData(b2[i * nb * FRAC], b1[i * FRAC], p);
        }
        qa1_.FreeTensor(a1);
        qb1_.FreeTensor(b1);
        qa2_.EnQue(a2);
        qb2_.EnQue(b2);
    }

    __aicore__ inline void Multiply()
    {
        LocalTensor<half> a2 = qa2_.DeQue<half>();
        LocalTensor<half> b2 = qb2_.DeQue<half>();
        LocalTensor<float> c1 = qc_.AllocTensor<float>();
        MmadParams mp;
        mp.m = static_cast<uint16_t>(rows_);
        mp.n = static_cast<uint16_t>(n_);
        mp.k = static_cast<uint16_t>(k_);
        Mmad(c1, a2, b2, mp);
        qc_.EnQue(c1);
        qa2_.FreeTensor(a2);
        qb2_.FreeTensor(b2);
    }

    __aicore__ inline void Drain()
    {
        LocalTensor<float> c1 = qc_.DeQue<float>();
        FixpipeParamsV220 fp(static_cast<uint16_t>(n_), static_cast<uint16_t>(rows_), static_cast<uint16_t>(rows_),
                             n_, false);
        Fixpipe(gc_, c1, fp);
        qc_.FreeTensor(c1);
    }

    TPipe pipe_;
    TQue<TPosition::A1, 1> qa1_;
    TQue<TPosition::B1, 1> qb1_;
    TQue<TPosition::A2, 1> qa2_;
    TQue<TPosition::B2, 1> qb2_;
    TQue<TPosition::CO1, 1> qc_;
    GlobalTensor<half> ga_, gb_;
    GlobalTensor<float> gc_;
    uint32_t rows_ = 0, n_ = 0, k_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void matmul_rows(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t rows, uint32_t n,
                                                  uint32_t k)
{
    RowPanelMatmul op;
    op.Setup(a, b, c, rows, n, k);
    op.Run();
}
