// tikcfw/impl/kernel_utils.h -- an SDK-internal header path (compiler/tikcpp/tikcfw/impl) public kernels include;
// on the simulator everything it declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
#define PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
