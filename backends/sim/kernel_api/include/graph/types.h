// graph/types.h -- ge::DataType, the element-type enum host tiling code passes to the high-level APIs'
// tiling helpers (GetAscendAntiQuantMaxMinTmpSize ...). Values as the public GE / ACL reference numbers them
// (the same numbering as aclDataType).
#ifndef PYASC_SIM_SDK_GRAPH_TYPES_H_
#define PYASC_SIM_SDK_GRAPH_TYPES_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>

#include "pyasc_sim/kapi/dt_names_begin.h"

namespace ge {
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
};
}  // namespace ge
#include "pyasc_sim/kapi/dt_names_end.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_GRAPH_TYPES_H_
