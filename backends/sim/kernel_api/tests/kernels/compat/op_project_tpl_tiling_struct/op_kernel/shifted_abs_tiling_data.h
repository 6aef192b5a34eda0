// ShiftedAbs's tiling struct: a plain C++ struct in the kernel directory (no BEGIN_TILING_DATA_DEF),
// registered by the kernel with REGISTER_TILING_DEFAULT and named by each selection of the key header.
#ifndef SHIFTED_ABS_TILING_DATA_H
#define SHIFTED_ABS_TILING_DATA_H
#include <cstdint>

struct ShiftedAbsTilingData {
    int64_t totalLength;
    float shift;
    float pad;
};

#endif
