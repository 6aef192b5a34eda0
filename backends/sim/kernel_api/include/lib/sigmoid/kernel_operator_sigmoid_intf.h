// lib/sigmoid/kernel_operator_sigmoid_intf.h -- the SDK's compatibility path of Sigmoid (CANN installs it as a link
// to lib/activation/sigmoid.h) on the simulator.  Forwards to pyasc_sim's implementation (pyasc_sim/kapi/activation.h).
#ifndef PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_
#define PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#include "pyasc_sim/kapi/activation.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_
