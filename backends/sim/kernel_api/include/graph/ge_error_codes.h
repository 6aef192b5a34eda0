// graph/ge_error_codes.h -- ge::graphStatus, the status type host tiling functions return
// (ge::graphStatus TilingXxx(gert::TilingContext *context)), and its documented values. Written for pyasc_sim from
// the public GE reference: graphStatus is uint32_t; GRAPH_SUCCESS 0, GRAPH_FAILED 0xFFFFFFFF,
// GRAPH_PARAM_INVALID 50331649. A kernel build includes it through an op project's host tiling header only.
#ifndef PYASC_SIM_SDK_GRAPH_GE_ERROR_CODES_H_
#define PYASC_SIM_SDK_GRAPH_GE_ERROR_CODES_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFu;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649u;
}  // namespace ge

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_GRAPH_GE_ERROR_CODES_H_
