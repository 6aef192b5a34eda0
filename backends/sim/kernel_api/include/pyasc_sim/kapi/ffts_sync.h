// kapi/ffts_sync.h -- the CCE intrinsics of cube / vector cross-core synchronisation, ffts_cross_core_sync and
// wait_flag_dev, as public mixed kernels call them directly (sgl-kernel-npu's tri_inv) instead of through
// CrossCoreSetFlag / CrossCoreWaitFlag.
//
// Semantics (CCE intrinsic reference, "Vec与Cube核间同步": cceapi_0112 ffts_cross_core_sync, cceapi_0113
// wait_flag_dev; checked with the docs corpus in the 8.3 / 8.5 / 9.0 editions):
//  * void ffts_cross_core_sync(pipe_t pipe, uint64_t config): sends a set to the FFTS; the set is reached once
//    every earlier instruction of `pipe` has completed.  config = 0x1 | (mode << 4) | (flagID << 8), mode in
//    [0, 2], flagID in [0, 15].  mode 0: all AIC (or all AIV) of the launch meet; mode 1: the AIV of one group
//    (AI Core); mode 2: the AIC and the AIV of one group -- the same three modes as CrossCoreSetFlag, whose
//    counters this shares (kapi/xcore.h, sim_detail::cross_core_set).
//  * void wait_flag_dev(int64_t flagID): waits until the flag's counter is positive and decrements it (the
//    pairing CrossCoreWaitFlag documents); flagID in [0, 15]; it runs on PIPE_S.
// Sanitizer: a config not of that form (bit 0 clear, mode > 2, bits outside 0, 4-7, 8-11) and flag ids past 15
// are reported as `ffts-config` / `event-id`; the counter limit and deadlocks are CrossCoreSetFlag's checks.
// The pipe needs no action on the simulator (each simulated core completes its instructions in order before the
// set); it must be a pipe_t value.
//  * void set_ffts_base_addr(uint64_t config) (cceapi_0111) and its Ascend C form AscendC::SetSyncBaseAddr(uint64_t)
//    (the 220 implementation calls the intrinsic; mixed and multi-core communication kernels pass the address the
//    host got from the runtime, e.g. memfabric_hybrid's zbal kernels): initialise the FFTS_BASE_ADDR register the
//    cross-core sets above signal through.  config is the FFTS start address, range [0, 2^48 - 1], 4-byte aligned;
//    it runs on PIPE_S.  The simulator's cross-core counters need no address, so the value is only checked
//    (`ffts-config` for a misaligned or out-of-range address: the sets would go to the wrong place on hardware).
#ifndef PYASC_SIM_KAPI_FFTS_SYNC_H_
#define PYASC_SIM_KAPI_FFTS_SYNC_H_

#include <cstdint>

#include "pyasc_sim/kapi/xcore.h"

inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    const uint32_t mode = static_cast<uint32_t>((config >> 4) & 0xFu);
    const uint32_t flag = static_cast<uint32_t>((config >> 8) & 0xFu);
    const bool form = (config & 0x1u) != 0 && (config & ~static_cast<uint64_t>(0xFF1u)) == 0;
    if (!form || mode > 2) {
        pyasc_sim::kapi::fail("ffts-config", loc,
                              "ffts_cross_core_sync(pipe %d, config 0x%llx): config is documented as 0x1 | (mode << 4) "
                              "| (flagID << 8) with mode in [0, 2] and flagID in [0, 15] (got mode %u, flag bits "
                              "0x%llx)",
                              static_cast<int>(pipe), static_cast<unsigned long long>(config), mode,
                              static_cast<unsigned long long>(config >> 8));
    }
    if (static_cast<int>(pipe) < static_cast<int>(PIPE_S) || static_cast<int>(pipe) > static_cast<int>(PIPE_FIX)) {
        pyasc_sim::kapi::fail("ffts-config", loc, "ffts_cross_core_sync: pipe %d is not a pipe_t value",
                              static_cast<int>(pipe));
    }
    AscendC::sim_detail::cross_core_set("ffts_cross_core_sync", static_cast<uint8_t>(mode), static_cast<uint16_t>(flag),
                                        loc);
}

inline void wait_flag_dev(int64_t flagID, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    if (flagID < 0 || flagID > 15) {
        pyasc_sim::kapi::fail("event-id", loc, "wait_flag_dev(flagID = %lld): flag ids range over [0, 15]",
                              static_cast<long long>(flagID));
    }
    AscendC::sim_detail::cross_core_wait("wait_flag_dev", static_cast<uint16_t>(flagID), loc);
}

inline void set_ffts_base_addr(uint64_t config, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    constexpr uint64_t kFftsAddrLimit = uint64_t{1} << 48;
    if ((config & 0x3u) != 0 || config >= kFftsAddrLimit) {
        pyasc_sim::kapi::fail("ffts-config", loc,
                              "set_ffts_base_addr / SetSyncBaseAddr(0x%llx): the FFTS base address is documented as "
                              "4-byte aligned in [0, 2^48 - 1]; pass the address the runtime returned for the device",
                              static_cast<unsigned long long>(config));
    }
}

namespace AscendC {
inline void SetSyncBaseAddr(uint64_t config, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    set_ffts_base_addr(config, loc);
}
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_FFTS_SYNC_H_
