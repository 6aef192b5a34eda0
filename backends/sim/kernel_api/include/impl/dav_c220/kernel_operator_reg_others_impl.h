// impl/dav_c220/kernel_operator_reg_others_impl.h -- the SDK path ops-nn kernels include for the 910B (dav-c220)
// register intrinsics (SetMask, vcadd, GetAccVal / get_acc_val, ...) on the simulator. Forwards to pyasc_sim's
// declarations (kernel_operator.h and pyasc_sim/kapi/cce_vector_intrinsics.h; see kernel_api/README.md).
#ifndef PYASC_SIM_SDK_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#define PYASC_SIM_SDK_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#include "pyasc_sim/kapi/cce_vector_intrinsics.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
