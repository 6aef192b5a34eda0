// ScaledRelu's host tiling header: the macro-declared struct the kernel reads with
// GET_TILING_DATA_WITH_STRUCT (op-project style, as vllm-ascend's gumbel_sample).
#ifndef SCALED_RELU_TILING_H
#define SCALED_RELU_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledReluTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledRelu, ScaledReluTilingData)
}  // namespace optiling

#endif
