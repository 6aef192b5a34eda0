// tikcfw/interface/kernel_operator_intf.h -- an SDK-internal header path (the operator interface) public kernels
// include (MindSpore Lite's ascend_native vsl_utils.h / normalization_layer.h); on the simulator everything it
// declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_TIKCFW_INTERFACE_KERNEL_OPERATOR_INTF_H_
#define PYASC_SIM_SDK_TIKCFW_INTERFACE_KERNEL_OPERATOR_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TIKCFW_INTERFACE_KERNEL_OPERATOR_INTF_H_
