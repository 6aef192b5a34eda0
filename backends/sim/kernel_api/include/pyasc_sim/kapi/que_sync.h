// kapi/que_sync.h -- TQueSync<src, dst>: SetFlag(id) / WaitFlag(id) between two pipes given as template arguments
// (TQueSync page, atlasascendc_api_07_0180: "the destination pipeline waits for the source pipeline"); the same
// event as set_flag / wait_flag(src, dst, id).
#ifndef PYASC_SIM_KAPI_QUE_SYNC_H_
#define PYASC_SIM_KAPI_QUE_SYNC_H_

#include "pyasc_sim/kapi/intrinsics.h"
#include "pyasc_sim/kapi/state.h"

namespace AscendC {

template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    void SetFlag(TEventID id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        pyasc_sim::kapi::lowercase_flag<true>(src, dst, static_cast<int>(id), loc);
    }
    void WaitFlag(TEventID id, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        pyasc_sim::kapi::lowercase_flag<false>(src, dst, static_cast<int>(id), loc);
    }
};

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_QUE_SYNC_H_
