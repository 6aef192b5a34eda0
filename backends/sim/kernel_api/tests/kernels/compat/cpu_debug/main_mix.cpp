// CPU-debug host program of the mixed kernel (SetKernelMode(KernelMode::MIX_MODE)): blockDim AI
// Cores of one AIC and two AIV each. Usage: main_mix [blockDim]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void mix_scale(GM_ADDR x, GM_ADDR y, GM_ADDR scales);
#endif

int32_t main(int32_t argc, char *argv[])
{
    const uint32_t blockDim = argc > 1 ? (uint32_t)std::atoi(argv[1]) : 4;
    const uint32_t n = blockDim * 2 * 64;  // two AIV chunks per AI Core
#ifdef ASCENDC_CPU_DEBUG
    float *x = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *y = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *s = (float *)AscendC::GmAlloc(blockDim * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) x[i] = (float)i;
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_scale, blockDim, (uint8_t *)x, (uint8_t *)y, (uint8_t *)s);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const float want = (2.0f + i / 128) * (float)i;
        if (y[i] != want) bad++;
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(s);
    std::printf(bad == 0 ? "mix OK\n" : "mix MISMATCH %d\n", bad);
    return bad == 0 ? 0 : 2;
#else
    return 0;
#endif
}
