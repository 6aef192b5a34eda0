// The header the reference names for ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h): the
// kernel API with the tensor-list view (pyasc_sim/kapi/list_tensor.h).
#ifndef PYASC_SIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define PYASC_SIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/kapi/list_tensor.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
