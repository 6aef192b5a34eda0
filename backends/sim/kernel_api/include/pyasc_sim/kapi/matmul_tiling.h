// Ascend C on the CPU -- TCubeTiling, the kernel-side tiling struct of Matmul (global, as in the
// SDK's kernel_tiling/kernel_tiling.h).  int32 fields in the documented order, then reserved
// space; pyasc_sim.hl_tiling.matmul_tiling fills it on the host.
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
    int32_t reserved[16] = {};
};

#endif  // PYASC_SIM_KAPI_MATMUL_TILING_H_
