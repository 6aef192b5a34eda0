// Host tiling header of our own op project (written for pyasc, in the style public op projects use):
// it includes register/op_impl_registry.h before the tiling-struct macros, as CANN op projects do.
#ifndef ROW_NORM_TILING_H
#define ROW_NORM_TILING_H

#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowNormTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowNorm, RowNormTilingData)
}  // namespace optiling

#endif  // ROW_NORM_TILING_H
