// inner_interface/inner_kernel_operator_intf.h -- an SDK-internal header path: the SDK's kernel_operator.h includes
// it, the op build's generated kernel wrappers end with it, and public kernels include it next to kernel_operator.h
// (vllm-ascend's pos_encoding_kernels, rotary_embedding); on the simulator everything it declares comes with
// kernel_operator.h.
#ifndef PYASC_SIM_SDK_INNER_KERNEL_OPERATOR_INTF_H_
#define PYASC_SIM_SDK_INNER_KERNEL_OPERATOR_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_INNER_KERNEL_OPERATOR_INTF_H_
