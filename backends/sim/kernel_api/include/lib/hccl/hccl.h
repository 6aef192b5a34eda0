// lib/hccl/hccl.h -- the SDK path of the Hccl client API (Hccl<serverType, config>, HcclServerType, HcclDataType,
// HcclReduceOp, and the header's HCCL_MAX_RANK_NUM / MemDetails / IbVerbsData) on the simulator. MC2 kernels include
// it next to kernel_operator.h; the simulator's kernel_operator.h already brings the same declarations
// (pyasc_sim/kapi/hccl_client.h), so this forwards to it. No HCCL server: the client's methods report `unsupported`
// (see kernel_api/README.md, "Round 20 (s20f)" and "Round 35 (s35a)").
#ifndef PYASC_SIM_SDK_LIB_HCCL_HCCL_H_
#define PYASC_SIM_SDK_LIB_HCCL_HCCL_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "kernel_operator.h"
#include "pyasc_sim/kapi/hccl_client.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_LIB_HCCL_HCCL_H_
