// log/ops_log.h -- the op build's logging header under the name vllm-ascend's op_host tiling sources include it by,
// next to "error/ops_error.h".
// One header: this name forwards to tiling_base/error_log.h (OPS_LOG_*, OPS_ERR_IF, OPS_LOG_E_IF_NULL, OP_ forms).
#ifndef PYASC_SIM_SDK_LOG_OPS_LOG_H_
#define PYASC_SIM_SDK_LOG_OPS_LOG_H_
#include "tiling_base/error_log.h"
#endif  // PYASC_SIM_SDK_LOG_OPS_LOG_H_
