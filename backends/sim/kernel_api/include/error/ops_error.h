// error/ops_error.h -- the op build's check / logging header under the name vllm-ascend's op_host tiling headers
// and infer-shape sources include it by (also forks' ones: ykfnxx's gather_selection_kv_cache tiling header).
// One header: this name forwards to tiling_base/error_log.h (OPS_LOG_*, OPS_ERR_IF, OPS_LOG_E_IF_NULL, OP_ forms).
#ifndef PYASC_SIM_SDK_ERROR_OPS_ERROR_H_
#define PYASC_SIM_SDK_ERROR_OPS_ERROR_H_
#include "tiling_base/error_log.h"
#endif  // PYASC_SIM_SDK_ERROR_OPS_ERROR_H_
