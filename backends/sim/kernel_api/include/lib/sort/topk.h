// lib/sort/topk.h -- the SDK path of the Ascend C high-level API (TopK) on the simulator.
// Forwards to pyasc_sim's implementation (see kernel_api/README.md, "SDK header paths").
#ifndef PYASC_SIM_SDK_LIB_SORT_TOPK_H_
#define PYASC_SIM_SDK_LIB_SORT_TOPK_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#include "pyasc_sim/kapi/sort.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_SORT_TOPK_H_
