// tiling_base/error_log.h -- the logging header of CANN's op build that op projects' host tiling headers and
// host sources include (vllm-ascend's dsa_local_metadata, fused_gdn_decode, ... op_host files): the OP_LOG*
// family (operator name first, then a printf format and its arguments) and the check helpers built on it.
//
// On pyasc_sim a host tiling header is compiled into the kernel build only for its BEGIN_TILING_DATA_DEF structs
// (pyasc_sim.compile(tiling_header=...)); host tiling code never runs there. So the logging macros expand to
// nothing that prints (their arguments are still compiled, so a typo in them is still an error), and the
// check macros keep their control flow: OP_CHECK_IF(cond, log, expr) / OP_TILING_CHECK(cond, log, expr) run
// `log; expr;` when cond holds; OP_CHECK_NULL_WITH_CONTEXT(context, ptr) returns ge::GRAPH_FAILED when ptr is null.
// Host-only: no include guard conflicts with kernel code (only macro names in the OP_ / OPS_ namespace).
#ifndef PYASC_SIM_SDK_TILING_BASE_ERROR_LOG_H_
#define PYASC_SIM_SDK_TILING_BASE_ERROR_LOG_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "graph/ge_error_codes.h"

// a logging call: the arguments are type-checked (passed to a function that does nothing) and nothing is printed
namespace pyasc_sim_sdk {
template <typename... Args>
inline void op_log_nothing(const Args &...) {}
}  // namespace pyasc_sim_sdk
#define PYASC_SIM_OP_LOG_NOTHING(...) ::pyasc_sim_sdk::op_log_nothing(__VA_ARGS__)

#define OP_LOGD(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OP_LOGI(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OP_LOGW(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OP_LOGE(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OPS_LOG_D(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OPS_LOG_I(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OPS_LOG_W(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)
#define OPS_LOG_E(opName, ...) PYASC_SIM_OP_LOG_NOTHING(opName, __VA_ARGS__)

#define OP_CHECK_IF(cond, logFunc, expr) \
    do {                                 \
        if (cond) {                      \
            logFunc;                     \
            expr;                        \
        }                                \
    } while (0)
#define OP_TILING_CHECK(cond, logFunc, expr) OP_CHECK_IF(cond, logFunc, expr)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr) \
    do {                                         \
        if ((ptr) == nullptr) {                  \
            (void)(context);                     \
            return ge::GRAPH_FAILED;             \
        }                                        \
    } while (0)

// The OPS_ spellings of vllm-ascend's op_host sources (through "error/ops_error.h"): OPS_ERR_IF(cond, log, expr) is
// OP_CHECK_IF; OPS_LOG_E_IF_NULL(context, ptr, expr) runs `expr` when ptr is null.
#define OPS_ERR_IF(cond, logFunc, expr) OP_CHECK_IF(cond, logFunc, expr)
#define OPS_LOG_E_IF_NULL(context, ptr, expr) \
    do {                                      \
        if ((ptr) == nullptr) {               \
            (void)(context);                  \
            expr;                             \
        }                                     \
    } while (0)
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OP_CHECK_NULL_WITH_CONTEXT(context, ptr)

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_BASE_ERROR_LOG_H_
