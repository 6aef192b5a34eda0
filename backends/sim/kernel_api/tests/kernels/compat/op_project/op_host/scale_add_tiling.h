// Host tiling header of the ScaleAdd op, in the layout of an Ascend C op project
// (op_host/<op>_tiling.h): the struct the host fills and the kernel reads with GET_TILING_DATA.
#ifndef SCALE_ADD_TILING_H
#define SCALE_ADD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddBlock)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(float, 2, bias);
TILING_DATA_FIELD_DEF(uint8_t, useBias);
TILING_DATA_FIELD_DEF(uint64_t, workspaceElems);
TILING_DATA_FIELD_DEF_STRUCT(ScaleAddBlock, block);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleAdd, ScaleAddTilingData)
}  // namespace optiling
#endif  // SCALE_ADD_TILING_H
