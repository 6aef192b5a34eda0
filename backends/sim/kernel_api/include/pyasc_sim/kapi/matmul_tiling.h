// Ascend C on the CPU -- TCubeTiling, the kernel-side tiling struct of Matmul (global, as in the
// SDK's kernel_tiling/kernel_tiling.h).  int32 fields in the documented order, then the SDK's
// layout / batch words (50 words, 200 bytes); pyasc_sim.hl_tiling.matmul_tiling fills it on the host.
#ifndef PYASC_SIM_KAPI_MATMUL_TILING_H_
#define PYASC_SIM_KAPI_MATMUL_TILING_H_

#include <cstdint>

// TCubeTiling: the documented fields, in the documented order.
struct TCubeTiling {
    int32_t usedCoreNum = 1;
    int32_t M = 0, N = 0, Ka = 0, Kb = 0;
    int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;
    int32_t depthA1 = 1, depthB1 = 1;
    int32_t stepM = 1, stepN = 1;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t shareMode = 0, shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
    int32_t batchM = 1, batchN = 1, singleBatchM = 1, singleBatchN = 1;
    int32_t stepKa = 1, stepKb = 1;
    int32_t depthAL1CacheUB = 0, depthBL1CacheUB = 0;
    int32_t dbL0A = 1, dbL0B = 1, dbL0C = 1;
    // The SDK's struct goes on with the batch-layout words, BatchNum and one last word (mxTypePara in the current
    // asc-devkit include/adv_api/matmul/matmul_tilingdata.h, `reserved` in the CANN 8.x kernel_tiling.h): 50 int32,
    // 200 bytes. The TCubeTiling page lists the fields the Matmul kernel reads (the 33 above); the simulator's Matmul
    // reads none of these, but sizeof(TCubeTiling) is part of the layout public kernels and host structs rely on.
    int32_t ALayoutInfoB = 0, ALayoutInfoS = 0, ALayoutInfoN = 0, ALayoutInfoG = 0, ALayoutInfoD = 0;
    int32_t BLayoutInfoB = 0, BLayoutInfoS = 0, BLayoutInfoN = 0, BLayoutInfoG = 0, BLayoutInfoD = 0;
    int32_t CLayoutInfoB = 0, CLayoutInfoS1 = 0, CLayoutInfoN = 0, CLayoutInfoG = 0, CLayoutInfoS2 = 0;
    int32_t BatchNum = 0;
    int32_t mxTypePara = 0;
};
static_assert(sizeof(TCubeTiling) == 200, "TCubeTiling is 50 int32 words, as the SDK's");

#endif  // PYASC_SIM_KAPI_MATMUL_TILING_H_
