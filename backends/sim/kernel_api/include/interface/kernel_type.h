// interface/kernel_type.h -- an SDK-internal header path public kernels include (e.g. KsanaLLM's ascend
// kernels); on the simulator everything it declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_INTERFACE_KERNEL_TYPE_H_
#define PYASC_SIM_SDK_INTERFACE_KERNEL_TYPE_H_
#include "kernel_operator.h"
#endif  // PYASC_SIM_SDK_INTERFACE_KERNEL_TYPE_H_
