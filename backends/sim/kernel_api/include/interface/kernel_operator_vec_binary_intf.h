// interface/kernel_operator_vec_binary_intf.h -- an SDK-internal header path (the binary vector instructions'
// interface, under tikcfw/interface on the include path); on the simulator they all come with kernel_operator.h.
#ifndef PYASC_SIM_SDK_INTERFACE_KERNEL_OPERATOR_VEC_BINARY_INTF_H_
#define PYASC_SIM_SDK_INTERFACE_KERNEL_OPERATOR_VEC_BINARY_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_INTERFACE_KERNEL_OPERATOR_VEC_BINARY_INTF_H_
