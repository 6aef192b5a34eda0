// kapi/ascendc_assert.h -- ASCENDC_ASSERT(cond, behavior) and ASCENDC_REPORT_NOT_SUPPORT(cond, msg): the SDK's
// checking macros public kernels and their host launchers call.
#ifndef PYASC_SIM_KAPI_ASCENDC_ASSERT_H_
#define PYASC_SIM_KAPI_ASCENDC_ASSERT_H_

#include <cstdio>
#include <string>

#include "pyasc_sim/kapi/state.h"

// condition and runs behavior, a log statement; the NPU build compiles it away).  A false condition is an `assert`
// error naming it; behavior is not run.
namespace pyasc_sim {
namespace kapi {
inline void ascendc_assert_check(bool ok, const char *text, const SrcLoc &loc) {
    if (!ok) fail("assert", loc, "ASCENDC_ASSERT(%s) failed", text);
}
}  // namespace kapi
}  // namespace pyasc_sim
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, ...) \
    ::pyasc_sim::kapi::ascendc_assert_check(static_cast<bool>(cond), #cond, ::pyasc_sim::kapi::SrcLoc())
#endif


// ASCENDC_REPORT_NOT_SUPPORT(cond, msg): the SDK's "not supported" report, which public host launchers call in the
// default branch of a type switch (kvcache-ops' multi_layer_mem_kernels.h).  Its expansion is a whole braced
// statement: sources write it with and without a trailing `;`.  A false condition prints msg (a C string or a
// std::string) to stderr with the call's file and line; nothing stops (the sources throw or return next).
namespace pyasc_sim {
namespace kapi {
inline void report_not_support(bool ok, const char *file, int line, const std::string &msg) {
    if (!ok) std::fprintf(stderr, "[ASCENDC] %s:%d: not supported: %s\n", file, line, msg.c_str());
}
}  // namespace kapi
}  // namespace pyasc_sim
#ifndef ASCENDC_REPORT_NOT_SUPPORT
#define ASCENDC_REPORT_NOT_SUPPORT(cond, ...)                                                               \
    {                                                                                                       \
        ::pyasc_sim::kapi::report_not_support(static_cast<bool>(cond), __FILE__, __LINE__,                  \
                                              std::string(__VA_ARGS__));                                    \
    }
#endif

#endif  // PYASC_SIM_KAPI_ASCENDC_ASSERT_H_
