// kapi/ascendc_assert.h -- ASCENDC_ASSERT(cond, behavior): the SDK's checking macro public kernels call.
#ifndef PYASC_SIM_KAPI_ASCENDC_ASSERT_H_
#define PYASC_SIM_KAPI_ASCENDC_ASSERT_H_

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

#endif  // PYASC_SIM_KAPI_ASCENDC_ASSERT_H_
