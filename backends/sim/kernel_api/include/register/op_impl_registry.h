// register/op_impl_registry.h -- the host op-registration header an Ascend C op project's tiling header
// includes next to register/tilingdata_base.h (public op projects: `#include "register/op_impl_registry.h"`
// before BEGIN_TILING_DATA_DEF). pyasc_sim.compile(tiling_header=...) includes that tiling header in the
// kernel build, so the include must resolve; the host registration API it declares (IMPL_OP, the tiling /
// shape-inference context types) runs on the host only and is not provided: a kernel never calls it.
// This header brings the tiling-struct macros, as the SDK's does.
#ifndef PYASC_SIM_REGISTER_OP_IMPL_REGISTRY_H_
#define PYASC_SIM_REGISTER_OP_IMPL_REGISTRY_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "register/tilingdata_base.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_REGISTER_OP_IMPL_REGISTRY_H_
