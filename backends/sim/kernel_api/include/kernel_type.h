// kernel_type.h -- an SDK header name public kernels include next to kernel_operator.h; on the simulator
// everything it declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_KERNEL_TYPE_H_
#define PYASC_SIM_SDK_KERNEL_TYPE_H_
#include "kernel_operator.h"
#endif  // PYASC_SIM_SDK_KERNEL_TYPE_H_
