// The SIMT header public Ascend 950 kernels include (simt_api/device_warp_functions.h): the simulator's kernel API
// provides what it has of it with kernel_operator.h (kapi/simt.h, kapi/simt_asc_functions.h).
#ifndef PYASC_SIM_SIMT_API_DEVICE_WARP_FUNCTIONS_H_
#define PYASC_SIM_SIMT_API_DEVICE_WARP_FUNCTIONS_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SIMT_API_DEVICE_WARP_FUNCTIONS_H_
