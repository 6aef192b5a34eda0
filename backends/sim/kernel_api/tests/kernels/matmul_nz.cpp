// Matmul high-level API with NZ (fractal) operands and operands in L1, in public Ascend C style
// (CFG_NORM, one core, IterateAll).  NZ here is what DataCopy's Nd2Nz writes: 16-row fractals of
// 32 bytes (16 half columns), column block j of an r-row matrix at j * r16 * 16; C in NZ: 16 x 16
// fractals of float.  Checked against NumPy by tests/test_ascendc_matmul_nz.py.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void LoadTilingWords(T *dst, GM_ADDR tiling)
{
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *out = reinterpret_cast<uint32_t *>(dst);
    for (size_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        out[i] = src[i];
    }
}

template <CubeFormat FA, CubeFormat FB, CubeFormat FC>
__aicore__ inline void RunGm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingWords(&tiling, tilingGm);
    const uint32_t m16 = (tiling.M + 15) / 16 * 16, n16 = (tiling.N + 15) / 16 * 16, k16 = (tiling.Ka + 15) / 16 * 16;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), m16 * k16);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), k16 * n16);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), m16 * n16);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, FA, half>, MatmulType<TPosition::GM, FB, half>,
           MatmulType<TPosition::GM, FC, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_NORM>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}

extern "C" __global__ __aicore__ void mm_nz_nz_nd(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    RunGm<CubeFormat::NZ, CubeFormat::NZ, CubeFormat::ND>(a, b, c, tiling);
}

extern "C" __global__ __aicore__ void mm_nd_nz_nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    RunGm<CubeFormat::ND, CubeFormat::NZ, CubeFormat::NZ>(a, b, c, tiling);
}

extern "C" __global__ __aicore__ void mm_nd_nd_nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    RunGm<CubeFormat::ND, CubeFormat::ND, CubeFormat::NZ>(a, b, c, tiling);
}

// A and B (ND in GM) moved to L1 by the kernel with Nd2Nz, then given to Matmul from A1 / B1.
extern "C" __global__ __aicore__ void mm_l1_nd(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingWords(&tiling, tilingGm);
    const uint16_t m = tiling.M, n = tiling.N, k = tiling.Ka;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), m * k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), k * n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), m * n);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa;
    TQue<TPosition::B1, 1> qb;
    const uint32_t m16 = (m + 15) / 16 * 16, n16 = (n + 15) / 16 * 16, k16 = (k + 15) / 16 * 16;
    pipe.InitBuffer(qa, 1, m16 * k16 * sizeof(half));
    pipe.InitBuffer(qb, 1, k16 * n16 * sizeof(half));
    LocalTensor<half> a1 = qa.AllocTensor<half>();
    LocalTensor<half> b1 = qb.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, m, k, 0, k, static_cast<uint16_t>(m16), 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, k, n, 0, n, static_cast<uint16_t>(k16), 1, 0));
    qa.EnQue(a1);
    qb.EnQue(b1);
    a1 = qa.DeQue<half>();
    b1 = qb.DeQue<half>();
    Matmul<MatmulType<TPosition::A1, CubeFormat::NZ, half>, MatmulType<TPosition::B1, CubeFormat::NZ, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(a1);
    mm.SetTensorB(b1);
    mm.IterateAll(cGm);
    mm.End();
    qa.FreeTensor(a1);
    qb.FreeTensor(b1);
}
