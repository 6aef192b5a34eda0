// register/op_def_registry.h -- the op-definition header an Ascend C op project's host tiling header often
// includes (next to register/tilingdata_base.h) before declaring its tiling class over gert::TilingContext.
// pyasc_sim.compile(tiling_header=...) includes that tiling header in the kernel build, so the include must
// resolve and the types it brings must exist: the tiling-struct macros, gert::TilingContext and its runtime
// types, ge::graphStatus, fe::PlatFormInfos and platform_ascendc::PlatformAscendC. The op-definition API itself
// (ops::OpDef, OP_ADD, used in op_host/<op>_def.cpp) runs on the host only: ops::OpDef is declared, not defined.
#ifndef PYASC_SIM_REGISTER_OP_DEF_REGISTRY_H_
#define PYASC_SIM_REGISTER_OP_DEF_REGISTRY_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "register/op_impl_registry.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/ge_error_codes.h"
#include "tiling/platform/platform_ascendc.h"

namespace ops {
class OpDef;
}  // namespace ops

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_REGISTER_OP_DEF_REGISTRY_H_
