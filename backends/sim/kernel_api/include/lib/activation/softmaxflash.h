// lib/activation/softmaxflash.h -- the SDK path of the Ascend C high-level API (SoftmaxFlash) on the simulator.
// Forwards to pyasc_sim's implementation when it has one; otherwise stops with an error that
// names the API the simulator lacks (see kernel_api/README.md, "SDK header paths").
#ifndef PYASC_SIM_SDK_LIB_ACTIVATION_SOFTMAXFLASH_H_
#define PYASC_SIM_SDK_LIB_ACTIVATION_SOFTMAXFLASH_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#if __has_include("pyasc_sim/kapi/softmax_flash.h")
#include "pyasc_sim/kapi/softmax_flash.h"
#else
#error "pyasc_sim: lib/activation/softmaxflash.h: the simulator lacks this Ascend C high-level API (SoftmaxFlash); see backends/sim/kernel_api/README.md for what is supported"
#endif

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_ACTIVATION_SOFTMAXFLASH_H_
