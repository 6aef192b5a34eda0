// Ascend C on the CPU -- GetSystemCycle: the system counter, read from the simulator's cost model.
// The counter is the running block's scalar-pipe (PIPE_S) clock of the cost model, in system-counter
// ticks: Atlas A2 documents a 50 MHz counter (time_us = cycles / 50) and the simulated 910B profiles
// clock the AI Core at 1.8 GHz, so one tick is 36 modelled core cycles.  It counts from the block's
// start (each block has its own clock; hardware's counter is shared and free-running, so only
// differences are meaningful on both).  Like the hardware instruction it is a PIPE_S read: work still
// queued on other pipes is included only after a PipeBarrier<PIPE_ALL> (the page's own example).
// Atlas A2 only: the page marks the Atlas inference series x.  Written from the public Ascend C API
// reference (asc-devkit docs/api/SIMD-API/基础API/工具接口/系统资源与变量/GetSystemCycle(ISASI).md).
#ifndef PYASC_SIM_KAPI_SYSTEM_COUNTER_H_
#define PYASC_SIM_KAPI_SYSTEM_COUNTER_H_

#include <cstdint>

#include "pyasc_sim/kapi/arch.h"
#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/vector_more.h"  // sim_detail::always_false

namespace AscendC {
namespace sim_detail {
constexpr double kSystemCounterHz = 50.0e6;  // Atlas A2 (page GetSystemCycle: time = cycles / 50 us)
constexpr double kModelCoreHz = 1.8e9;       // the simulated 910B profiles' AI Core clock (soc_profile.cpp)
constexpr double kCoreCyclesPerTick = kModelCoreHz / kSystemCounterHz;
}  // namespace sim_detail

#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 200
template <typename Tp = void>
inline int64_t GetSystemCycle() {
    static_assert(sim_detail::always_false<Tp>::value,
                  "AscendC::GetSystemCycle is not documented for the Atlas inference series AI Core (the "
                  "reference marks it x there; -DPYASC_SIM_NO_DTYPE_TABLES opts out)");
    return 0;
}
#else
inline int64_t GetSystemCycle() {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    const double now = b.tl.clock[pyasc_sim::kapi::kPipeS];
    pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeS, 1.0);
    return static_cast<int64_t>(now / sim_detail::kCoreCyclesPerTick);
}
#endif

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SYSTEM_COUNTER_H_
