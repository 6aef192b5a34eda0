// lib/reduce/sum.h -- the SDK path of the Ascend C high-level API (Sum) on the simulator.
// Forwards to pyasc_sim's implementation when it has one; otherwise stops with an error that
// names the API the simulator lacks (see kernel_api/README.md, "SDK header paths").
#ifndef PYASC_SIM_SDK_LIB_REDUCE_SUM_H_
#define PYASC_SIM_SDK_LIB_REDUCE_SUM_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#if __has_include("pyasc_sim/kapi/sum.h")
#include "pyasc_sim/kapi/sum.h"
#elif __has_include("pyasc_sim/kapi/hl_reduce.h")
#include "pyasc_sim/kapi/hl_reduce.h"
#else
#error "pyasc_sim: lib/reduce/sum.h: the simulator lacks this Ascend C high-level API (Sum); see backends/sim/kernel_api/README.md for what is supported"
#endif

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_REDUCE_SUM_H_
