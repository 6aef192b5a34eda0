// Host tiling header of the ClampRange op (op_host/<op>_tiling.h), in the style of public op projects (vllm-ascend's
// dsa_local_metadata) that include CANN's op-build logging header tiling_base/error_log.h next to the tiling
// registry and use its OP_LOGE / OP_CHECK_IF in inline host helpers. The kernel build includes this header only
// for the BEGIN_TILING_DATA_DEF struct; the helper is host code and never runs in the kernel.
#ifndef CLAMP_RANGE_TILING_H
#define CLAMP_RANGE_TILING_H

#include "register/tilingdata_base.h"
#include "tiling_base/error_log.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

BEGIN_TILING_DATA_DEF(ClampRangeTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // int32 elements, whole 32-byte blocks
    TILING_DATA_FIELD_DEF(int32_t, low);
    TILING_DATA_FIELD_DEF(int32_t, high);
END_TILING_DATA_DEF;

struct ClampRangeCompileInfo {
    uint32_t totalCoreNum = 0;
};

REGISTER_TILING_DATA_CLASS(ClampRange, ClampRangeTilingData)

inline ge::graphStatus CheckClampRange(gert::TilingContext *context, int32_t low, int32_t high)
{
    OP_CHECK_NULL_WITH_CONTEXT(context, context);
    OP_CHECK_IF(low > high, OP_LOGE("ClampRange", "low %d is above high %d", low, high), return ge::GRAPH_FAILED);
    OP_LOGD("ClampRange", "range [%d, %d]", low, high);
    return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

#endif  // CLAMP_RANGE_TILING_H
