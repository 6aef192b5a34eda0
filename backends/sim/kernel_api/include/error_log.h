// error_log.h -- the op build's logging header under its bare name. Op projects' host tiling headers include it
// as "tiling_base/error_log.h" (vllm-ascend's dsa_local_metadata) or as plain "error_log.h" (vllm-ascend forks'
// compute_slot_mapping / update_num_computed_tokens tiling headers; CANN's public op-tiling sources do too), which
// the op build finds through its include directories. One header: this name forwards to tiling_base/error_log.h.
#ifndef PYASC_SIM_SDK_ERROR_LOG_H_
#define PYASC_SIM_SDK_ERROR_LOG_H_
#include "tiling_base/error_log.h"
#endif  // PYASC_SIM_SDK_ERROR_LOG_H_
