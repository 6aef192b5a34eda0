// kernel_operator_tensor_trait.h -- the header the reference names for TensorTrait / Layout (TensorTrait简介, Layout简介);
// on the simulator everything it declares comes with kernel_operator.h (kapi/tensor_trait.h).
#ifndef PYASC_SIM_SDK_KERNEL_OPERATOR_TENSOR_TRAIT_H_
#define PYASC_SIM_SDK_KERNEL_OPERATOR_TENSOR_TRAIT_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_KERNEL_OPERATOR_TENSOR_TRAIT_H_
