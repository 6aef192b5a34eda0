// tiling/matmul_host_tiling.h -- the names of the Matmul host tiling API (namespace matmul_tiling) that op
// projects' host tiling headers declare functions over: PlatformInfo (the documented struct, defined),
// MatmulApiTiling / MultiCoreMatmulTiling / BatchMatmulTiling and their base (declared: passed by reference) and
// matmul_tiling::DataType (the type name only: an op build defines DT_* as preprocessor numbers). The tiling
// computation is host code and is not provided on the simulator (pyasc_sim.tiling.matmul_tiling fills
// TCubeTiling from Python). Brought in by tiling/tiling_api.h.
#ifndef PYASC_SIM_SDK_TILING_MATMUL_HOST_TILING_H_
#define PYASC_SIM_SDK_TILING_MATMUL_HOST_TILING_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {
enum class DataType : int32_t;
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};
class MatmulApiTilingBase;
class MatmulApiTiling;
class MultiCoreMatmulTiling;
class BatchMatmulTiling;
}  // namespace matmul_tiling

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_MATMUL_HOST_TILING_H_
