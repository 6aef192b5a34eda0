// The SIMT header public Ascend 950 kernels include (asc_vf_call, dim3): the simulator's kernel API
// provides it with kernel_operator.h (kapi/simt.h).
#ifndef PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
#define PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
#include "kernel_operator.h"
#endif  // PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
