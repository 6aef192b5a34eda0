// kernel_tpipe_impl.h -- an SDK header name (the implementation header of TPipe / TQue / TBuf, reached by its bare
// name through the SDK's impl include directory) that public kernels include next to kernel_operator.h (DrivingSDK's
// arch35 kernels, vllm-ascend and KsanaLLM-style kernels)); on the simulator everything it declares comes with
// kernel_operator.h. The name is generic (pyasc's own kernels/ and users' op projects have a kernel_tpipe_impl.h of
// their own, found through their -I after the kernel API's): the caller's own kernel_tpipe_impl.h wins -- this file
// steps aside for any kernel_tpipe_impl.h further along the include path (#include_next), and only when it finds
// none but itself does it stand in for the SDK's.
// No #pragma once, no guard: the kernel API's directory is on the path twice (-iquote and -I, before the caller's
// -I), so each entry steps to the next kernel_tpipe_impl.h until the last; only when that last one is this file does
// the stand-in come in (once).
#ifndef PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_DONE
#if __has_include_next("kernel_tpipe_impl.h")
#include_next "kernel_tpipe_impl.h"
#else
#define PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_SELF  // the last kernel_tpipe_impl.h on the include path is this one
#endif
#if defined(PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_SELF) && !defined(PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_DONE)
#define PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_DONE
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "kernel_operator.h"
#include "pyasc_sim/sdk_end.h"
#endif
#endif
