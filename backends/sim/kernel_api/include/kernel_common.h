// kernel_common.h -- an SDK header name (the basic API's `interface/kernel_common.h`, reached by its bare name through
// the SDK's interface include directory) that public kernels include next to kernel_operator.h (DrivingSDK
// hard_voxelize, multi_scale_deformable_attn_grad); on the simulator everything it declares comes with
// kernel_operator.h.
#ifndef PYASC_SIM_SDK_KERNEL_COMMON_H_
#define PYASC_SIM_SDK_KERNEL_COMMON_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_KERNEL_COMMON_H_
