// TplScale's tiling data: a plain struct the kernel reads with GET_TILING_DATA_WITH_STRUCT.
#ifndef TPL_SCALE_TILING_H
#define TPL_SCALE_TILING_H
#include <cstdint>

struct TplScaleTilingData {
    uint32_t totalLength;
    float scale;
    float bias;
};

#endif
