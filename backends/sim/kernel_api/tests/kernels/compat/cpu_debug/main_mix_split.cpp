// CPU-debug host program of the split mixed kernel (mix_split_kernel.cpp), in the documented style:
// MIX_MODE runs blockDim AI Cores of one AIC (the cube pass) and two AIV (the vector pass); AIV_MODE /
// AIC_MODE launches run the vector / cube pass on every block. Usage: main_mix_split [blockDim]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void mix_split_scale(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info);
extern "C" __global__ __aicore__ void mix_split_pass(GM_ADDR out);
#endif

int32_t main(int32_t argc, char *argv[])
{
    const uint32_t blockDim = argc > 1 ? (uint32_t)std::atoi(argv[1]) : 2;
    const uint32_t n = blockDim * 2 * 64;  // two AIV chunks of 64 per AI Core
    int bad = 0;
#ifdef ASCENDC_CPU_DEBUG
    float *x = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *y = (float *)AscendC::GmAlloc(n * sizeof(float));
    float *ws = (float *)AscendC::GmAlloc(blockDim * 16 * sizeof(float));
    int32_t *info = (int32_t *)AscendC::GmAlloc(blockDim * 3 * 16 * sizeof(int32_t));
    int32_t *pass = (int32_t *)AscendC::GmAlloc(2 * 16 * sizeof(int32_t));
    for (uint32_t i = 0; i < n; ++i) x[i] = (float)i - 50.0f;
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mix_split_scale, blockDim, (uint8_t *)x, (uint8_t *)y, (uint8_t *)ws, (uint8_t *)info);
    for (uint32_t i = 0; i < n; ++i) {
        const float want = (2.0f + (float)(i / 128)) * x[i];
        if (y[i] != want) {
            if (bad++ < 4) std::printf("y[%u] = %g, want %g\n", i, y[i], want);
        }
    }
    for (uint32_t g = 0; g < blockDim; ++g) {
        for (uint32_t c = 0; c < 3; ++c) {
            const int32_t *r = info + (g * 3 + c) * 16;
            const int32_t want[4] = {c == 0, c != 0, c == 0, c == 0 ? 100 : 200};
            for (int k = 0; k < 4; ++k) {
                if (r[k] != want[k]) {
                    if (bad++ < 8) std::printf("info core %u.%u [%d] = %d, want %d\n", g, c, k, r[k], want[k]);
                }
            }
        }
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(mix_split_pass, 2, (uint8_t *)pass);
    if (pass[0] != 200 || pass[16] != 200) {
        std::printf("AIV_MODE ran the pass %d %d\n", pass[0], pass[16]);
        bad++;
    }
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(mix_split_pass, 2, (uint8_t *)pass);
    if (pass[0] != 100 || pass[16] != 100) {
        std::printf("AIC_MODE ran the pass %d %d\n", pass[0], pass[16]);
        bad++;
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(ws);
    AscendC::GmFree(info);
    AscendC::GmFree(pass);
#endif
    std::printf(bad == 0 ? "mix split OK\n" : "mix split MISMATCH %d\n", bad);
    return bad == 0 ? 0 : 2;
}
