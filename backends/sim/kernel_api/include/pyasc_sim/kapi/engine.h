// Ascend C on the CPU -- Async<EngineType, funPtr>(args...): run a function on one kind of core.
//
// Reference page Async (atlasascendc_api_07_00163 / _00044, CANN 8.5 - 9.0; Atlas A2 / A3): a
// unified way for a mixed (AIC + AIV) kernel to run funPtr(args...) only on the cube core
// (EngineType::AIC) or only on the vector cores (EngineType::AIV), in place of explicit
// `if ASCEND_IS_AIC` / `if ASCEND_IS_AIV` tests.  On the simulator each core of a mixed block runs
// the kernel function (mix.h), so Async calls funPtr exactly when the running core is of the
// requested kind; in a vector-only kernel every core is an AIV, in a cube-only kernel an AIC.
#ifndef PYASC_SIM_KAPI_ENGINE_H_
#define PYASC_SIM_KAPI_ENGINE_H_

#include "pyasc_sim/kapi/mix.h"

namespace AscendC {

enum class EngineType : int32_t {
    AIC = 1,  // the cube core only
    AIV = 2,  // the vector cores only
};

template <EngineType engine, auto funPtr, class... Args>
inline void Async(Args... args) {
    static_assert(engine == EngineType::AIC || engine == EngineType::AIV,
                  "Async<engine, funPtr>: engine must be EngineType::AIC or EngineType::AIV");
    const bool aic = ::pyasc_sim::kapi::core_is_aic();
    if ((engine == EngineType::AIC) == aic) funPtr(args...);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_ENGINE_H_
