// The SIMT header public Ascend 950 kernels include (asc_vf_call, dim3): the simulator's kernel API
// provides it with kernel_operator.h (kapi/simt.h).
#ifndef PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
#define PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SIMT_API_COMMON_FUNCTIONS_H_
