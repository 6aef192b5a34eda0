// tikcfw/impl/kernel_utils.h -- an SDK-internal header path (compiler/tikcpp/tikcfw/impl) public kernels include;
// on the simulator everything it declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
#define PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
#include "kernel_operator.h"
#endif  // PYASC_SIM_SDK_TIKCFW_IMPL_KERNEL_UTILS_H_
