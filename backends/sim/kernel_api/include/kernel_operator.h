// kernel_operator.h -- the Ascend C kernel API implemented on the CPU (pyasc_sim).
//
// Unmodified Ascend C kernel source compiles against this header with g++ (C++17):
//     #include "kernel_operator.h"
//     using namespace AscendC;
//     extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) { ... }
// and becomes a simulator kernel binary with one line per kernel after the source:
//     PYASC_SIM_KERNEL(add_custom)
// See backends/sim/kernel_api/README.md.  Written from the public Ascend C API reference;
// it contains no CANN code.
#ifndef PYASC_SIM_KERNEL_OPERATOR_H_
#define PYASC_SIM_KERNEL_OPERATOR_H_

#include "pyasc_sim/kapi/base.h"       // qualifiers, half / bfloat16_t, enums, constants
#include "pyasc_sim/kapi/params.h"     // DataCopyParams, BinaryRepeatParams, MmadParams, ...
#include "pyasc_sim/kapi/state.h"      // the running block: context, sanitizer, cost model
#include "pyasc_sim/kapi/tensor.h"     // GlobalTensor, LocalTensor, GetBlockIdx / GetBlockNum
#include "pyasc_sim/kapi/pipe.h"       // TPipe, TQue, TQueBind, TBuf
#include "pyasc_sim/kapi/sync.h"       // PipeBarrier, SetFlag / WaitFlag
#include "pyasc_sim/kapi/xcore.h"      // SyncAll, IBSet / IBWait, CrossCoreSetFlag, SetAtomicAdd ...
#include "pyasc_sim/kapi/data_copy.h"  // DataCopy, DataCopyPad
#include "pyasc_sim/kapi/vector.h"     // Add ... Select, Cast, Duplicate
#include "pyasc_sim/kapi/reduce.h"     // ReduceSum / Max / Min, WholeReduce*
#include "pyasc_sim/kapi/cube.h"       // LoadData, Mmad, Fixpipe
#include "pyasc_sim/kapi/entry.h"      // PYASC_SIM_KERNEL: entry stubs for the simulated runtime

#endif  // PYASC_SIM_KERNEL_OPERATOR_H_
