// kernel_operator_intf.h -- an SDK header name public kernels include next to kernel_operator.h; on the simulator
// everything it declares comes with kernel_operator.h.
#ifndef PYASC_SIM_SDK_KERNEL_OPERATOR_INTF_H_
#define PYASC_SIM_SDK_KERNEL_OPERATOR_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_KERNEL_OPERATOR_INTF_H_
