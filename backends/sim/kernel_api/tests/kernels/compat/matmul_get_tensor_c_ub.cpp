// Matmul tiles fetched into the Unified Buffer with the synchronous GetTensorC and consumed there by a vector op,
// the idiom of public fused "matmul + activation" kernels (KsanaLLM's matmul_silu: Iterate<true>, then
// GetTensorC<true>(ubTensor, false, true), then Silu on the tile, then a strided DataCopy to GM).  Written for
// pyasc in that style; the tile-to-GM placement follows the iterate order (M first) of the tiling.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_tiles_scaled_in_ub(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                               GM_ADDR tilingGm)
{
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
    TQue<QuePosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, tiling.baseM * tiling.baseN * sizeof(float));
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    const uint32_t tilesM = tiling.singleCoreM / tiling.baseM;
    uint32_t step = 0;
    while (mm.template Iterate<true>()) {
        LocalTensor<float> tile = outQueue.AllocTensor<float>();
        mm.template GetTensorC<true>(tile, 0, true);
        Muls(tile, tile, 2.0f, tiling.baseM * tiling.baseN);   // reads what GetTensorC just wrote
        outQueue.EnQue(tile);
        tile = outQueue.DeQue<float>();
        const uint32_t offset = step % tilesM * tiling.baseM * tiling.N + step / tilesM * tiling.baseN;
        DataCopyParams rows{static_cast<uint16_t>(tiling.baseM), static_cast<uint16_t>(tiling.baseN * sizeof(float) / 32),
                            0, static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(float) / 32)};
        DataCopy(cGm[offset], tile, rows);
        outQueue.FreeTensor(tile);
        ++step;
    }
    mm.End();
}
