// lib/matmul_intf.h -- the SDK path of the Ascend C high-level API (Matmul, REGIST_MATMUL_OBJ, MatmulType, MatmulImpl) on the simulator.
// Forwards to pyasc_sim's implementation when it has one; otherwise stops with an error that
// names the API the simulator lacks (see kernel_api/README.md, "SDK header paths").
#ifndef PYASC_SIM_SDK_LIB_MATMUL_INTF_H_
#define PYASC_SIM_SDK_LIB_MATMUL_INTF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#if __has_include("pyasc_sim/kapi/matmul.h")
#include "pyasc_sim/kapi/matmul.h"
#include "pyasc_sim/kapi/matmul_impl.h"  // MatmulImpl (matmul::MatmulImpl too)
#else
#error "pyasc_sim: lib/matmul_intf.h: the simulator lacks this Ascend C high-level API (Matmul, REGIST_MATMUL_OBJ, MatmulType, MatmulImpl); see backends/sim/kernel_api/README.md for what is supported"
#endif

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_MATMUL_INTF_H_
