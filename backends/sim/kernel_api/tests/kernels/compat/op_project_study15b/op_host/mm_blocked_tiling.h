// Our own op-project host tiling header in the style of the round-15 public retrieval kernels
// (backends/sim/kernel_api/COMPAT.md, "Round 15 (study15b)"): the Matmul tiling struct comes from the older
// SDK host headers tiling/matrix/matmul_tilingdata.h and tiling/matrix/matmul_tiling.h, next to a scalar field
// and a macro to report errors in host code.
#ifndef MM_BLOCKED_TILING_H
#define MM_BLOCKED_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/matrix/matmul_tilingdata.h"
#include "tiling/matrix/matmul_tiling.h"

#define MM_BLOCKED_CHECK(cond, ret) \
    do {                            \
        if (!(cond)) {              \
            return ret;             \
        }                           \
    } while (false)

namespace optiling {
BEGIN_TILING_DATA_DEF(MmBlockedTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, scaleRows);   // rows of C the vector pass scales by 2 (0: none)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MmBlocked, MmBlockedTilingData)

// a host tiling function declared over the matmul_tiling names (defined in the op's host .cpp)
int32_t MmBlockedTiling(matmul_tiling::MultiCoreMatmulTiling &api, MmBlockedTilingData &data);
}  // namespace optiling

#endif  // MM_BLOCKED_TILING_H
