// kapi/dcci.h -- dcci(dst, entire[, type]): the CCE data-cache flush intrinsic (CCE intrinsic reference, page DCCI,
// cceapi_0108: entire 0 = the line holding dst, 1 = the whole cache of the type; type ALL(0) / UB(1) / OUT(2) /
// ATOMIC(3); PIPE_S), with the toolchain's enums cache_line_t / dcci_dst_t public kernels pass. The simulator has
// no data cache: like DataCacheCleanAndInvalid (kapi/cache.h) it changes no data, is charged to the scalar pipe
// and orders the scalar pipe.
#ifndef PYASC_SIM_KAPI_DCCI_H_
#define PYASC_SIM_KAPI_DCCI_H_

#include <cstdint>

#include "pyasc_sim/kapi/cache.h"
#include "pyasc_sim/kapi/state.h"

// The toolchain's operand enums of dcci (unscoped, as the intrinsic takes them as uint64_t).
enum cache_line_t : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum dcci_dst_t : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };

// dcci(dst, entire, type): entire 0 flushes the 64-byte line holding dst (type ignored), 1 the whole cache of
// type; an entire or type outside the documented ranges ([0, 1], [0, 3]) is reported.
inline void dcci(const volatile void *dst, uint64_t entire, uint64_t type = CACHELINE_ALL,
                 pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    if (entire > 1 || type > 3) {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "dcci(dst, entire %llu, type %llu): entire is 0 (the line holding dst) or 1 (the "
                              "whole cache), type ALL(0) / UB(1) / OUT(2) / ATOMIC(3)",
                              static_cast<unsigned long long>(entire), static_cast<unsigned long long>(type));
    }
    const auto line = entire == 0 ? AscendC::CacheLine::SINGLE_CACHE_LINE : AscendC::CacheLine::ENTIRE_DATA_CACHE;
    AscendC::sim_detail::dcci(const_cast<const void *>(dst), line, "dcci's dst", loc,
                              entire == 0 || type == CACHELINE_ALL || type == CACHELINE_OUT);
}

// ASCENDC_ASSERT(cond, behavior): the SDK's checking macro public kernels call (CANN's CPU-debug build checks the

#endif  // PYASC_SIM_KAPI_DCCI_H_
