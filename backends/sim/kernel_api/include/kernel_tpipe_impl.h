// kernel_tpipe_impl.h -- an SDK header name (the implementation header of TPipe / TQue / TBuf, reached by its bare
// name through the SDK's impl include directory) that public kernels include next to kernel_operator.h (DrivingSDK's
// arch35 kernels, vllm-ascend and KsanaLLM-style kernels); on the simulator everything it declares comes with
// kernel_operator.h.
#ifndef PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_H_
#define PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_H_
