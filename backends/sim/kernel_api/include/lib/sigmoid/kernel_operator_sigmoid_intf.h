// lib/sigmoid/kernel_operator_sigmoid_intf.h -- the SDK's compatibility path of Sigmoid (CANN installs it as a link
// to lib/activation/sigmoid.h) on the simulator.  Forwards to pyasc_sim's implementation (pyasc_sim/kapi/activation.h).
#ifndef PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_
#define PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_

#include "kernel_operator.h"
#include "pyasc_sim/kapi/activation.h"

#endif  // PYASC_SIM_SDK_LIB_SIGMOID_INTF_H_
