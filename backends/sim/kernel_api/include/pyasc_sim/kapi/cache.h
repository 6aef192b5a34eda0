// Ascend C on the CPU -- DataCacheCleanAndInvalid: the data-cache flush public kernels call after
// scalar GM stores (GlobalTensor::SetValue, raw __gm__ pointer writes) and before scalar GM loads
// of data another core or a DMA wrote.  Prototypes and enums from the public kernel API reference
// (page DataCacheCleanAndInvalid, atlasascendc_api_07_0167.html): the three-parameter forms on a
// GlobalTensor or LocalTensor, and the two-parameter GlobalTensor form of the Atlas inference series
// (accepted on every SoC, as newer reference releases list all three together).
//
// The simulator's scalar accesses go straight to memory (no data cache), so the flush changes no
// data; it checks its operand, is charged to the scalar pipe and is an ordering point for the
// scalar pipe on the timeline (the core waits for the write-back before going on).  After a
// data-cache store it is recorded for gm-cache-line-share (PYASC_SIM_GM_EVENT_FLUSH): a store
// written back before a SyncAll / cross-core flag is ordered before the other cores' writes after it.
// For gm-cross-core-race it writes back (releases) the core's scalar stores in its lines and
// invalidates them for the next load (a flag poll's acquire): kapi/gm_poll.h.
#ifndef PYASC_SIM_KAPI_CACHE_H_
#define PYASC_SIM_KAPI_CACHE_H_

#include "pyasc_sim/kapi/order.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

// Which cache lines: the one holding the operand's address, or the whole data cache.
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
// Which lines ENTIRE_DATA_CACHE cleans: all, those caching UB, GM (OUT) or atomic-store addresses.
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

namespace sim_detail {
inline const char *cache_line_name(CacheLine c) {
    return c == CacheLine::SINGLE_CACHE_LINE ? "SINGLE_CACHE_LINE" : "ENTIRE_DATA_CACHE";
}
// The flush: a null operand address is a kernel bug on SINGLE_CACHE_LINE (the line is the one
// holding that address); the whole-cache form ignores the address.
// `gm`: the flush cleans GM lines (a GlobalTensor, or the whole cache with DcciDst ALL / OUT).
inline void dcci(const void *addr, CacheLine entire, const char *operand, const pyasc_sim::kapi::SrcLoc &loc,
                 bool gm = true) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    uint64_t base = 0, end = 0;  // a scalar poll's invalidate, maybe: a poll round may yield (gm_poll_yield.h)
    if (gm && entire == CacheLine::SINGLE_CACHE_LINE && pyasc_sim::kapi::gm_block_of(addr, base, end)) {
        const uint64_t line = reinterpret_cast<uintptr_t>(addr) / 64 * 64;  // its part inside the device block
        const uint64_t lo = line > base ? line : base, hi = line + 64 < end ? line + 64 : end;
        if (lo < hi) pyasc_sim::kapi::poll_read(b, lo, 1, hi - lo, hi - lo, loc);
    }
    if (gm && b.checks && b.xrace) {  // GM flag polling: releases the stores it writes back (gm_poll.h)
        pyasc_sim::kapi::gm_poll_flush(b, reinterpret_cast<uintptr_t>(addr), entire == CacheLine::ENTIRE_DATA_CACHE);
    }
    if (gm && b.gm_dirty && b.checks && b.xrace) {  // the stores so far in the lines it cleans reached GM
        // SINGLE_CACHE_LINE cleans from the address to the end of its 64-byte line (the reference:
        // an address not on a line boundary cleans only the part from it to the boundary)
        constexpr uint64_t kLine = 64;
        const uint64_t at = reinterpret_cast<uintptr_t>(addr);
        const bool whole = entire == CacheLine::ENTIRE_DATA_CACHE;
        const uint64_t lo = whole ? 0 : at, hi = whole ? ~uint64_t{0} : (at / kLine + 1) * kLine;
        // the same flush again with no store since (a spin loop flushing the flag it polls) adds nothing
        if (b.gm_stored || lo != b.gm_flushed_lo || hi != b.gm_flushed_hi) {
            b.writes.push_back({lo, hi, nullptr, PYASC_SIM_GM_EVENT_FLUSH, pyasc_sim::kapi::gm_tag(b, PYASC_SIM_GM_EVENT)});
            ++b.xseg;  // what follows is a new segment of this core
            b.gm_flushed_lo = lo;
            b.gm_flushed_hi = hi;
            b.gm_stored = false;
        }
        b.gm_dirty = !whole;
    }
    if (b.checks && entire == CacheLine::SINGLE_CACHE_LINE && addr == nullptr) {
        pyasc_sim::kapi::fail("gm-out-of-bounds", loc,
                              "DataCacheCleanAndInvalid<..., CacheLine::%s>(%s): the tensor has no buffer (call "
                              "SetGlobalBuffer / AllocTensor first, or flush the whole cache with "
                              "CacheLine::ENTIRE_DATA_CACHE)",
                              cache_line_name(entire), operand);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeS, pyasc_sim::cost::kScalarGmCycles);
    pyasc_sim::kapi::order_barrier_pipe(pyasc_sim::kapi::kPipeS, loc);
}
}  // namespace sim_detail

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::dcci(dst.GetPhyAddr(), entireType, "a GlobalTensor", loc);
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T> &dst, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    // a UB line, or the whole cache: its GM lines too with DcciDst ALL / OUT
    sim_detail::dcci(dst.GetPhyAddr(), entireType, "a LocalTensor", loc,
                     entireType == CacheLine::ENTIRE_DATA_CACHE &&
                         (dcciDst == DcciDst::CACHELINE_ALL || dcciDst == DcciDst::CACHELINE_OUT));
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::dcci(dst.GetPhyAddr(), entireType, "a GlobalTensor", loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CACHE_H_
