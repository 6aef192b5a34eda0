// kapi/sync_base_addr.h -- the FFTS base address of hardware cross-core synchronisation: AscendC::SetSyncBaseAddr
// and the CCE intrinsic set_ffts_base_addr it stands for, as collective kernels call them first thing
// (memfabric_hybrid's zbal send / recv / reduce-scatter / allreduce: `AscendC::SetSyncBaseAddr(comm->fftsConfig)`).
//
// Semantics (CCE intrinsic reference, "Vec与Cube核间同步", cceapi_0111 set_ffts_base_addr; 8.2 / 8.3 / 8.5 editions):
// void set_ffts_base_addr(uint64_t config) initialises the FFTS_BASE_ADDR register with the FFTS base address the
// host obtained from the runtime (rtGetC2cCtrlAddr, aclrtGetHardwareSyncAddr) and passed as a kernel argument;
// config ranges over [0, 2^48 - 1] and is 4-byte aligned; it runs on PIPE_S.  SyncAll, CrossCoreSetFlag and
// ffts_cross_core_sync signal through that register on hardware.
//
// On the simulator the FFTS is the engine's own cross-core state (kapi/xcore.h), so the address selects nothing
// and the call changes no data.  A value the register cannot hold -- above 2^48 - 1 or not 4-byte aligned -- is
// reported as `ffts-config` (hardware would signal through a wrong address).
#ifndef PYASC_SIM_KAPI_SYNC_BASE_ADDR_H_
#define PYASC_SIM_KAPI_SYNC_BASE_ADDR_H_

#include <cstdint>

#include "pyasc_sim/kapi/state.h"

namespace AscendC {
namespace sim_detail {

inline void set_ffts_base(const char *api, uint64_t config, pyasc_sim::kapi::SrcLoc loc) {
    constexpr uint64_t kMax = (uint64_t{1} << 48) - 1;
    if (config > kMax || (config & 0x3u) != 0) {
        pyasc_sim::kapi::fail("ffts-config", loc,
                              "%s(config 0x%llx): the FFTS base address is documented as a 4-byte aligned value in "
                              "[0, 2^48 - 1] (pass the address the host got from aclrtGetHardwareSyncAddr)",
                              api, static_cast<unsigned long long>(config));
    }
}

}  // namespace sim_detail

// SetSyncBaseAddr(config): Ascend C's spelling of set_ffts_base_addr (the FFTS base address for the launch's
// cross-core synchronisation).
inline void SetSyncBaseAddr(uint64_t config, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::set_ffts_base("SetSyncBaseAddr", config, loc);
}

}  // namespace AscendC

inline void set_ffts_base_addr(uint64_t config, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    AscendC::sim_detail::set_ffts_base("set_ffts_base_addr", config, loc);
}

#endif  // PYASC_SIM_KAPI_SYNC_BASE_ADDR_H_
