// Host tiling header of our small op project (BEGIN_TILING_DATA_DEF style): rows of `cols` floats,
// `rowsPerCore` rows per core, scaled by `alpha`.
#ifndef STUDY15A_SCALE_ROWS_TILING_H
#define STUDY15A_SCALE_ROWS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleRows, ScaleRowsTilingData)
}  // namespace optiling
#endif
