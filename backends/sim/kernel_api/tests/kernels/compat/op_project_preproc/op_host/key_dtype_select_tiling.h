// Host tiling header of the KeyDtypeSelect op (op_host/<op>_tiling.h in an Ascend C op project).
#ifndef KEY_DTYPE_SELECT_TILING_H
#define KEY_DTYPE_SELECT_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"  // host tiling helpers (ge::DT_* inside) next to the op build's DT_* numbers

namespace optiling {
BEGIN_TILING_DATA_DEF(KeyDtypeSelectTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(float, bias);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KeyDtypeSelect, KeyDtypeSelectTilingData)
}  // namespace optiling
#endif  // KEY_DTYPE_SELECT_TILING_H
