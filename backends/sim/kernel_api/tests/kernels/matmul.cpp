// Matrix multiplication on the cube path, half inputs, float accumulation.
//
// matmul_basic: one block, C (32 x 32) = A (32 x 32) x B (32 x 32), following the documented
//   basic flow: ND -> NZ into A1/B1 with DataCopyParams, LoadData to A2 (NZ -> ZZ) and B2 (NZ -> ZN,
//   transposing), Mmad on two halves of B, CO1 -> CO2 with a matrix-mode DataCopy, NZ -> ND to GM.
// matmul_tiled: C (M x N) = A (M x K) x B (K x N) for M, N, K multiples of 32; one 32 x 32 output
//   tile per block, K in steps of 32 accumulated in L0C; Nd2Nz DataCopy into L1 and Fixpipe out.
#include "kernel_operator.h"
using namespace AscendC;

class MatmulBasic {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ half *)a, m * k);
        bGM.SetGlobalBuffer((__gm__ half *)b, k * n);
        cGM.SetGlobalBuffer((__gm__ float *)c, m * n);
        pipe.InitBuffer(qA1, 1, m * k * sizeof(half));
        pipe.InitBuffer(qA2, 1, m * k * sizeof(half));
        pipe.InitBuffer(qB1, 1, k * n * sizeof(half));
        pipe.InitBuffer(qB2, 2, k * n * sizeof(half) / 2);
        pipe.InitBuffer(qCO1, 2, m * n * sizeof(float) / 2);
        pipe.InitBuffer(qCO2, 1, m * n * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> a1 = qA1.AllocTensor<half>();
        LocalTensor<half> b1 = qB1.AllocTensor<half>();
        ToNz(a1, aGM, m, k);
        ToNz(b1, bGM, k, n);
        qA1.EnQue(a1);
        qB1.EnQue(b1);

        a1 = qA1.DeQue<half>();
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        for (uint16_t mi = 0; mi < mBlocks; ++mi) {  // row block mi: kBlocks fractals mBlocks apart in A1
            LoadData2DParams p;
            p.repeatTimes = kBlocks;
            p.srcStride = mBlocks;
            p.ifTranspose = false;
            LoadData(a2[mi * k * 16], a1[mi * 16 * 16], p);
        }
        qA2.EnQue(a2);
        qA1.FreeTensor(a1);

        b1 = qB1.DeQue<half>();
        a2 = qA2.DeQue<half>();
        LocalTensor<float> c2 = qCO2.AllocTensor<float>();
        for (int part = 0; part < 2; ++part) {  // B in two column halves of 16
            LocalTensor<half> b2 = qB2.AllocTensor<half>();
            LoadData2DParams p;
            p.repeatTimes = kBlocks;
            p.srcStride = 1;
            p.ifTranspose = true;
            LoadData(b2, b1[part * k * n / 2], p);
            qB2.EnQue(b2);

            b2 = qB2.DeQue<half>();
            LocalTensor<float> c1 = qCO1.AllocTensor<float>();
            Mmad(c1, a2, b2, {m, static_cast<uint16_t>(n / 2), k, false, 0, false, false, false});
            qCO1.EnQue(c1);
            qB2.FreeTensor(b2);

            c1 = qCO1.DeQue<float>();
            DataCopyParams dp;
            dp.blockCount = 1;
            dp.blockLen = mBlocks;  // fractals
            DataCopyEnhancedParams ep;
            ep.blockMode = BlockMode::BLOCK_MODE_MATRIX;
            DataCopy(c2[part * m * n / 2], c1, dp, ep);
            qCO1.FreeTensor(c1);
        }
        qB1.FreeTensor(b1);
        qA2.FreeTensor(a2);
        qCO2.EnQue(c2);

        c2 = qCO2.DeQue<float>();
        for (uint16_t ni = 0; ni < nBlocks; ++ni) {  // column block ni: m rows of 16 floats (2 blocks)
            DataCopy(cGM[ni * 16], c2[ni * m * 16], {m, 2, 0, static_cast<uint16_t>((nBlocks - 1) * 2)});
        }
        qCO2.FreeTensor(c2);
    }

private:
    __aicore__ inline void ToNz(const LocalTensor<half> &dst, const GlobalTensor<half> &src, uint16_t rows,
                                uint16_t cols)
    {
        for (uint16_t c = 0; c < cols / 16; ++c) {  // one 16-column block: rows bursts of 32 bytes
            DataCopy(dst[c * 16 * rows], src[c * 16], {rows, 1, static_cast<uint16_t>(cols / 16 - 1), 0});
        }
    }

    static constexpr uint16_t m = 32, n = 32, k = 32;
    static constexpr uint16_t mBlocks = m / 16, nBlocks = n / 16, kBlocks = k / 16;
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qCO1;
    TQue<TPosition::CO2, 1> qCO2;
    GlobalTensor<half> aGM, bGM;
    GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void matmul_basic(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    MatmulBasic op;
    op.Init(a, b, c);
    op.Process();
}

class MatmulTiled {
public:
    static constexpr uint32_t T = 32;  // tile edge (M, N and K)
    static constexpr uint32_t TB = T / 16;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
    {
        this->M = M;
        this->N = N;
        this->K = K;
        const uint32_t tilesN = N / T;
        m0 = (GetBlockIdx() / tilesN) * T;
        n0 = (GetBlockIdx() % tilesN) * T;
        aGM.SetGlobalBuffer((__gm__ half *)a, M * K);
        bGM.SetGlobalBuffer((__gm__ half *)b, K * N);
        cGM.SetGlobalBuffer((__gm__ float *)c, M * N);
        pipe.InitBuffer(qA1, 2, T * T * sizeof(half));
        pipe.InitBuffer(qB1, 2, T * T * sizeof(half));
        pipe.InitBuffer(qA2, 1, T * T * sizeof(half));
        pipe.InitBuffer(qB2, 1, T * T * sizeof(half));
        pipe.InitBuffer(qCO1, 1, T * T * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> c1 = qCO1.AllocTensor<float>();
        for (uint32_t k0 = 0; k0 < K; k0 += T) {
            CopyIn(k0);
            Split();
            LocalTensor<half> a2 = qA2.DeQue<half>();
            LocalTensor<half> b2 = qB2.DeQue<half>();
            MmadParams mp;
            mp.m = T;
            mp.n = T;
            mp.k = T;
            mp.cmatrixInitVal = (k0 == 0);  // first K step starts from zero, later ones accumulate
            Mmad(c1, a2, b2, mp);
            qA2.FreeTensor(a2);
            qB2.FreeTensor(b2);
        }
        qCO1.EnQue(c1);
        c1 = qCO1.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = T;
        fp.mSize = T;
        fp.srcStride = T;
        fp.dstStride = N;
        fp.ndNum = 1;
        Fixpipe(cGM[m0 * N + n0], c1, fp);
        qCO1.FreeTensor(c1);
    }

private:
    __aicore__ inline void CopyIn(uint32_t k0)
    {
        LocalTensor<half> a1 = qA1.AllocTensor<half>();
        LocalTensor<half> b1 = qB1.AllocTensor<half>();
        Nd2NzParams pa(1, T, T, 0, static_cast<uint16_t>(K), T, 1, 0);
        DataCopy(a1, aGM[m0 * K + k0], pa);
        Nd2NzParams pb(1, T, T, 0, static_cast<uint16_t>(N), T, 1, 0);
        DataCopy(b1, bGM[k0 * N + n0], pb);
        qA1.EnQue(a1);
        qB1.EnQue(b1);
    }
    __aicore__ inline void Split()
    {
        LocalTensor<half> a1 = qA1.DeQue<half>();
        LocalTensor<half> b1 = qB1.DeQue<half>();
        LocalTensor<half> a2 = qA2.AllocTensor<half>();
        LocalTensor<half> b2 = qB2.AllocTensor<half>();
        for (uint32_t mi = 0; mi < TB; ++mi) {  // A1 NZ -> A2 ZZ: row block mi
            LoadData2DParams p(0, TB, TB, 0, 0, false, 0);
            LoadData(a2[mi * TB * 256], a1[mi * 256], p);
        }
        for (uint32_t ki = 0; ki < TB; ++ki) {  // B1 NZ -> B2 ZN: row block ki, fractals transposed
            LoadData2DParams p(0, TB, TB, 0, 0, true, 0);
            LoadData(b2[ki * TB * 256], b1[ki * 256], p);
        }
        qA2.EnQue(a2);
        qB2.EnQue(b2);
        qA1.FreeTensor(a1);
        qB1.FreeTensor(b1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qCO1;
    GlobalTensor<half> aGM, bGM;
    GlobalTensor<float> cGM;
    uint32_t M = 0, N = 0, K = 0, m0 = 0, n0 = 0;
};

extern "C" __global__ __aicore__ void matmul_tiled(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N,
                                                   uint32_t K)
{
    MatmulTiled op;
    op.Init(a, b, c, M, N, K);
    op.Process();
}
