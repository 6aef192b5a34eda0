// Ascend C on the CPU -- synchronisation between pipes: PipeBarrier, SetFlag / WaitFlag.
//
// Blocks execute their instructions in program order on the CPU, so no instruction
// actually waits; the API checks the pairing the hardware relies on (a WaitFlag with no
// SetFlag before it hangs a real core) and schedules the wait on the timeline (timeline.h).
#ifndef PYASC_SIM_KAPI_SYNC_H_
#define PYASC_SIM_KAPI_SYNC_H_

#include "pyasc_sim/kapi/order.h"
#include "pyasc_sim/kapi/state.h"

namespace AscendC {

namespace sim_detail {
inline const char *event_name(HardEvent e) {
    static const char *const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",    "M_MTE1",   "MTE2_V",   "V_MTE2",    "MTE3_V",   "V_MTE3",   "M_V",
        "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",  "MTE2_M",    "M_MTE2",   "V_MTE1",   "M_FIX",
        "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",      "V_S",      "S_MTE2",    "MTE2_S",   "S_MTE3",   "MTE3_S",
        "MTE2_FIX",  "FIX_MTE2",  "FIX_S",     "M_S",      "FIX_MTE3", "MTE1_FIX",  "FIX_MTE1", "FIX_FIX"};
    const int i = static_cast<int>(e);
    return i >= 0 && i < static_cast<int>(sizeof(names) / sizeof(names[0])) ? names[i] : "?";
}
inline void check_event_id(const char *api, HardEvent evt, int32_t id, const pyasc_sim::kapi::SrcLoc &loc) {
    if (id < 0 || id >= pyasc_sim::kapi::kEventIds) {
        pyasc_sim::kapi::fail("event-id", loc, "%s<HardEvent::%s>(%d): event ids range over 0..%d", api,
                              event_name(evt), id, pyasc_sim::kapi::kEventIds - 1);
    }
}
// The timeline's pipe of a pipe_t (-1: PIPE_ALL or one the cost model does not charge).
inline int timeline_pipe(pipe_t p) {
    switch (p) {
        case PIPE_S: return pyasc_sim::kapi::kPipeS;
        case PIPE_V: return pyasc_sim::kapi::kPipeV;
        case PIPE_M: return pyasc_sim::kapi::kPipeM;
        case PIPE_MTE1: return pyasc_sim::kapi::kPipeMTE1;
        case PIPE_MTE2: return pyasc_sim::kapi::kPipeMTE2;
        case PIPE_MTE3: return pyasc_sim::kapi::kPipeMTE3;
        case PIPE_FIX: return pyasc_sim::kapi::kPipeFIX;
        default: return -1;
    }
}
// PipeBarrier<PIPE_ALL>: every pipe waits for every pipe; PipeBarrier<p>: p finishes its work.
inline void barrier(pipe_t pipe, const pyasc_sim::kapi::SrcLoc &loc) {
    const int p = timeline_pipe(pipe);
    if (p < 0 && pipe != PIPE_ALL) return;  // MTE4, MTE5, V2: pipes the cost model does not charge
    if (p < 0) {
        pyasc_sim::kapi::order_barrier_all(loc);  // every pipe waits for every pipe
    } else {
        pyasc_sim::kapi::order_barrier_pipe(p, loc);
    }
}
}  // namespace sim_detail

template <pipe_t pipe>
inline void PipeBarrier(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::barrier(pipe, loc);
}
namespace sim_detail {  // the NPU compiler's lowercase intrinsic (global, see compat.h); not documented Ascend C
inline void pipe_barrier(pipe_t pipe, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { barrier(pipe, loc); }
}  // namespace sim_detail
#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::pipe_barrier;
#endif

template <HardEvent event>
inline void SetFlag(int32_t eventID, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::check_event_id("SetFlag", event, eventID, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    int32_t &c = b.flags[static_cast<int>(event)][eventID];
    if (c == 0) b.flag_loc[static_cast<int>(event)][eventID] = loc;
    ++c;
    pyasc_sim::kapi::order_set_flag(static_cast<int>(event), eventID);  // the source pipe's work so far
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::check_event_id("WaitFlag", event, eventID, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    int32_t &c = b.flags[static_cast<int>(event)][eventID];
    if (c == 0) {
        // Once the block has failed it only unwinds: a destructor waiting for a flag the interrupted code never
        // set (Catlass's ~BlockMmad) is no news, and a second throw from a destructor would end the device
        // process and hide the block's first report.  The wait returns, as with checks off.
        if (b.checks && !b.failed) {
            pyasc_sim::kapi::fail("waitflag-unpaired", loc,
                                  "WaitFlag<HardEvent::%s>(%d) with no matching SetFlag<HardEvent::%s>(%d) before it; "
                                  "on hardware the waiting pipe hangs",
                                  sim_detail::event_name(event), eventID, sim_detail::event_name(event), eventID);
        }
        return;
    }
    --c;
    pyasc_sim::kapi::order_wait_flag(static_cast<int>(event), eventID, c == 0, loc);  // the destination pipe sees it
}

// Called when the kernel returns: a SetFlag that no WaitFlag consumed breaks the pairing the
// documentation requires (the next kernel on the core would see a stale flag).
namespace sim_detail {
inline void sim_check_flags_at_exit() {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.checks) return;
    for (int e = 0; e < pyasc_sim::kapi::kHardEvents; ++e) {
        for (int i = 0; i < pyasc_sim::kapi::kEventIds; ++i) {
            if (b.flags[e][i] > 0) {
                pyasc_sim::kapi::fail("setflag-unpaired", b.flag_loc[e][i],
                                      "SetFlag<HardEvent::%s>(%d) (here) was never consumed by a WaitFlag before the "
                                      "kernel ended (%d pending); SetFlag and WaitFlag must come in pairs",
                                      sim_detail::event_name(static_cast<HardEvent>(e)), i, b.flags[e][i]);
            }
        }
    }
}
}  // namespace sim_detail

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SYNC_H_
