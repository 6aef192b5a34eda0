// Host tiling header of the HostTiledAxpy op (op_host/<op>_tiling.h), written in the style of public op
// projects whose tiling header is more than the tiling struct: it includes the CANN host framework headers
// (exe_graph/runtime/tiling_context.h, register/op_def_registry.h, tiling/platform/platform_ascendc.h,
// platform/platform_info.h) and
// declares the host tiling class and the tiling entry over gert::TilingContext, fe::PlatFormInfos,
// platform_ascendc::PlatformAscendC, matmul_tiling::PlatformInfo and ge::graphStatus, with inline helpers
// that are host code. The kernel build includes this header only for the BEGIN_TILING_DATA_DEF structs.
#ifndef HOST_TILED_AXPY_TILING_H
#define HOST_TILED_AXPY_TILING_H
#include <cstdint>
#include <string>
#include <vector>
#include "exe_graph/runtime/tiling_context.h"
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#include "register/op_def_registry.h"
#include "platform/platform_info.h"

#ifdef ASCENDC_OP_TEST
#define HTA_EXTERN_C extern "C"
#else
#define HTA_EXTERN_C
#endif

namespace optiling {
constexpr uint32_t HTA_MAX_CORES = 8;

BEGIN_TILING_DATA_DEF(HostTiledAxpyParams)
    TILING_DATA_FIELD_DEF(float, alpha);
    TILING_DATA_FIELD_DEF(float, beta);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HostTiledAxpyParamsOp, HostTiledAxpyParams)

BEGIN_TILING_DATA_DEF(HostTiledAxpyTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, coreTileStart);  // first tile of each core (uneven split)
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, coreTileNum);    // tiles of each core
    TILING_DATA_FIELD_DEF_STRUCT(HostTiledAxpyParams, params);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HostTiledAxpy, HostTiledAxpyTilingData)

struct HostTiledAxpyCompileInfo {
    uint32_t aivNum = 0;
    uint64_t ubSize = 0;
};

class HostTiledAxpyTiling {
public:
    explicit HostTiledAxpyTiling(gert::TilingContext *context)
        : context_(context), ascendcPlatform_(context->GetPlatformInfo()) {}
    ge::graphStatus RunTiling(HostTiledAxpyTilingData &tilingData);
    ge::graphStatus SetTilingData(gert::TilingContext *context, HostTiledAxpyTilingData &tilingData);

protected:
    ge::graphStatus GetPlatformInfo();
    ge::graphStatus CheckShape(const gert::StorageShape *xShape, const gert::StorageShape *yShape,
                               const std::string &opName) const;
    void SplitCores(uint64_t totalTiles, HostTiledAxpyTilingData &tilingData) const;
    // a host helper defined inline, as such headers do (never called in a kernel build)
    static bool SameShape(const gert::Shape &a, const gert::Shape &b)
    {
        if (a.GetDimNum() != b.GetDimNum()) {
            return false;
        }
        for (size_t i = 0; i < a.GetDimNum(); i++) {
            if (a.GetDim(i) != b.GetDim(i)) {
                return false;
            }
        }
        return true;
    }
    uint64_t UbBytes() const
    {
        uint64_t ub = 0;
        ascendcPlatform_.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
        return ub;
    }

    gert::TilingContext *context_ = nullptr;
    platform_ascendc::PlatformAscendC ascendcPlatform_;
    platform_ascendc::SocVersion socVersion_ = platform_ascendc::SocVersion::ASCEND910B;
    matmul_tiling::PlatformInfo platformInfo_;
    ge::DataType inputType_{ge::DT_FLOAT16};
    uint32_t aivNum_ = 0;
    uint64_t ubSize_ = 0;
    std::vector<int64_t> tileStarts_;
};

inline ge::graphStatus CheckTileLength(uint32_t tileLength)
{
    return (tileLength != 0 && tileLength % 16 == 0) ? ge::GRAPH_SUCCESS : ge::GRAPH_PARAM_INVALID;
}

HTA_EXTERN_C ge::graphStatus TilingHostTiledAxpy(gert::TilingContext *context);
ge::graphStatus TilingPrepareForHostTiledAxpy(gert::TilingParseContext *context);
}  // namespace optiling
#endif  // HOST_TILED_AXPY_TILING_H
