// tikcfw/kernel_operator.h -- the SDK path of kernel_operator.h under the toolchain's compiler/tikcpp include
// root (older CANN layouts; MindSpore Lite's ascend_native kernels include it so); forwards to kernel_operator.h.
#ifndef PYASC_SIM_SDK_TIKCFW_KERNEL_OPERATOR_H_
#define PYASC_SIM_SDK_TIKCFW_KERNEL_OPERATOR_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TIKCFW_KERNEL_OPERATOR_H_
