// Host program of the saxpy sample in CANN's CPU-debug style (#ifdef ASCENDC_CPU_DEBUG: GmAlloc,
// SetKernelMode, ICPU_SET_TILING_KEY, ICPU_RUN_KF, GmFree). Usage: main <key> [n]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "saxpy_tiling.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void saxpy(GM_ADDR x, GM_ADDR y, GM_ADDR tiling);
#else
#include "acl/acl.h"
#endif

int32_t main(int32_t argc, char *argv[])
{
    const uint32_t key = argc > 1 ? (uint32_t)std::atoi(argv[1]) : 1;
    const uint32_t n = argc > 2 ? (uint32_t)std::atoi(argv[2]) : 2048;
    const uint32_t blockDim = 8;
    size_t bytes = n * sizeof(float);
#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(bytes);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(bytes);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(sizeof(SaxpyTiling));
    for (uint32_t i = 0; i < n; ++i) {
        ((float *)x)[i] = (float)i;
        ((float *)y)[i] = 1.0f;
    }
    SaxpyTiling t{n, 64, 2.0f};
    std::memcpy(tiling, &t, sizeof(t));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(saxpy, blockDim, x, y, tiling);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const float want = key == 1 ? 2.0f * i + 1.0f : 2.0f * i;
        if (((float *)y)[i] != want) {
            bad++;
        }
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(tiling);
    std::printf(bad == 0 ? "saxpy OK\n" : "saxpy MISMATCH %d\n", bad);
    return bad == 0 ? 0 : 2;
#else
    return 0;
#endif
}
