// A mixed (KERNEL_TYPE_MIX_AIC_1_2) multi-core Matmul in the public style: the Matmul API is driven from the
// AIVs, so each AIV takes one singleCoreM x singleCoreN tile of C by its GetBlockIdx() (block * 2 + sub-block),
// with a tiling made for the AIVs (pyasc_sim.hl_tiling.matmul_tiling(..., mix_ratio=2): usedCoreNum counts
// AIVs, the launch takes its block_dim = ceil(usedCoreNum / 2) blocks).  Written for pyasc.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_mix_aiv_tiles(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                          GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TCubeTiling tiling;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    auto dst = reinterpret_cast<uint32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), tiling.Kb * tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);

    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);  // the AIC serves the AIVs' calls from here
    const uint32_t aiv = GetBlockIdx();
    if (aiv >= static_cast<uint32_t>(tiling.usedCoreNum)) {
        return;
    }
    const int32_t mTiles = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t m0 = static_cast<int32_t>(aiv) % mTiles * tiling.singleCoreM;
    const int32_t n0 = static_cast<int32_t>(aiv) / mTiles * tiling.singleCoreN;
    const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
    mm.SetTensorA(aGm[m0 * tiling.Ka]);
    mm.SetTensorB(bGm[n0]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(cGm[m0 * tiling.N + n0]);
    mm.End();
}
