// lib/math/kernel_operator_atan_intf.h -- the SDK path of the Ascend C math library's Atan on the simulator.
// Forwards to pyasc_sim's implementation (pyasc_sim/kapi/math_elementwise.h; see kernel_api/README.md).
#ifndef PYASC_SIM_SDK_LIB_MATH_ATAN_INTF_H_
#define PYASC_SIM_SDK_LIB_MATH_ATAN_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#include "pyasc_sim/kapi/math_elementwise.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_MATH_ATAN_INTF_H_
