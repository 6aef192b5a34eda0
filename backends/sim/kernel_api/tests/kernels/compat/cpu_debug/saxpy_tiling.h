// Tiling of the saxpy CPU-debug sample: shared by the host program and the kernel.
#ifndef SAXPY_TILING_H
#define SAXPY_TILING_H
#include <cstdint>
struct SaxpyTiling {
    uint32_t totalLength;
    uint32_t tileLength;
    float a;
};
#endif
