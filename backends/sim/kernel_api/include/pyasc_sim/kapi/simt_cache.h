// Ascend C on the CPU -- cache-hinted SIMT loads and stores of the Atlas 350 / Ascend 950 (kernels built with
// soc="Ascend950PR_9599"): the NPU compiler's builtins __ldg<LD_L2CacheType, L1CacheType>(ptr) and
// __stg<ST_L2CacheType, L1CacheType>(ptr, val) with their hint enums, as public SIMT code and the public 950
// simt_api headers spell them, and the documented asc_ldcg / asc_ldca / asc_stcg / asc_stwt built on them.
//
// A cache hint changes which caches keep the line, never the value: on the simulator each call is one ordinary
// GM access, checked like a GlobalTensor GetValue / SetValue (inside a live device allocation, initcheck for
// loads, recorded for the cross-core write-overlap / race checks).
#ifndef PYASC_SIM_KAPI_SIMT_CACHE_H_
#define PYASC_SIM_KAPI_SIMT_CACHE_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/state.h"

#if __CCE_AICORE__ == 310

// L1 (data cache) policy of a SIMT load / store: NON_CACHEABLE bypasses the data cache (asc_ldcg / asc_stcg),
// CACHEABLE goes through it (asc_ldca / asc_stwt).  Unscoped, as the public headers declare it.
enum L1CacheType : uint32_t { NON_CACHEABLE = 0, CACHEABLE = 1 };
// L2 policies of a load and of a store, in the order the NPU toolchain's public dialect lists them
// (L2_CACHE_HINT_NORMAL_FV = 0 is the default of every public wrapper).
enum class LD_L2CacheType : uint32_t {
    L2_CACHE_HINT_NORMAL_FV = 0,
    L2_CACHE_HINT_NORMAL_LV,
    L2_CACHE_HINT_NORMAL_PERS,
    L2_CACHE_HINT_NORMAL_PREF,
    L2_CACHE_HINT_NOTALLOC_KEEP,
    L2_CACHE_HINT_NOTALLOC_CLEAN,
    L2_CACHE_HINT_NOTALLOC_DROP,
    L2_CACHE_HINT_IDS_FV,
    L2_CACHE_HINT_IDS_LV,
    L2_CACHE_HINT_IDS_PERS,
    L2_CACHE_HINT_IDS_PREF,
    L2_CACHE_HINT_EXCLUSIV_FV,
    L2_CACHE_HINT_EXCLUSIV_LV,
    L2_CACHE_HINT_EXCLUSIV_PERS,
    L2_CACHE_HINT_EXCLUSIV_PREF,
    L2_CACHE_HINT_INVALID,
};
enum class ST_L2CacheType : uint32_t {
    L2_CACHE_HINT_NORMAL_FV = 0,
    L2_CACHE_HINT_NORMAL_LV,
    L2_CACHE_HINT_NORMAL_PERS,
    L2_CACHE_HINT_NORMAL_RED,
    L2_CACHE_HINT_NOTALLOC_CI,
    L2_CACHE_HINT_NOTALLOC_PW,
    L2_CACHE_HINT_NOTALLOC_PI,
    L2_CACHE_HINT_NOTALLOC_RED,
    L2_CACHE_HINT_WBH_FV,
    L2_CACHE_HINT_WBH_LV,
    L2_CACHE_HINT_WBH_PERS,
    L2_CACHE_HINT_WBH_RED,
    L2_CACHE_HINT_WTS_FV,
    L2_CACHE_HINT_WTS_LV,
    L2_CACHE_HINT_WTS_PERS,
    L2_CACHE_HINT_WTS_RED,
    L2_CACHE_HINT_INVALID,
};

namespace pyasc_sim {
namespace kapi {
namespace simt {
// The checks of one scalar GM access of n bytes at p by a SIMT load / store (what: "__ldg reads", ...).
inline void check_gm_scalar(const void *p, size_t n, bool write, const char *what, const SrcLoc &loc) {
    BlockState &b = blk();
    if (!b.checks) return;
    check_gm_alloc(p, n, what, loc);
    const uint64_t a = reinterpret_cast<uintptr_t>(p);
    if (write) {
        const int atomic = b.atomic_op;
        b.atomic_op = 0;  // a SIMT store is a plain write, whatever SetAtomic* mode the DMA path is in
        record_write(a, a + n, loc);
        b.atomic_op = atomic;
        return;
    }
    if (b.gm_uninit != nullptr) {
        const uint64_t u = gm_first_uninit(a, a + n);
        if (u != 0) {
            fail("gm-uninit-read", loc,
                 "%s %zu bytes at global address %p: byte 0x%llx was never written since its tensor was allocated; on "
                 "hardware the load returns whatever the memory held before. Initialise it first",
                 what, n, p, static_cast<unsigned long long>(u));
        }
    }
    record_read(a, a + n, loc);
}
template <typename T>
inline void check_ldst_type() {
    static_assert(std::is_trivially_copyable_v<T> && !std::is_void_v<T>,
                  "__ldg / __stg / asc_ld* / asc_st* move one scalar or small vector value (char ... ulonglong4, half, "
                  "float)");
}
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim

// Loads *address with the cache hints L2Cache / L1Cache (hints only: the value is the GM value).
template <LD_L2CacheType L2Cache = LD_L2CacheType::L2_CACHE_HINT_NORMAL_FV, L1CacheType L1Cache = NON_CACHEABLE,
          typename T>
inline T __ldg(const T *address, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::simt::check_ldst_type<T>();
    pyasc_sim::kapi::simt::check_gm_scalar(address, sizeof(T), false, "__ldg reads", loc);
    return *address;
}
// Stores val to *address with the cache hints L2Cache / L1Cache.  val converts to the pointee type (the
// builtin takes any value the pointee type takes).
template <ST_L2CacheType L2Cache = ST_L2CacheType::L2_CACHE_HINT_NORMAL_FV, L1CacheType L1Cache = NON_CACHEABLE,
          typename T>
inline void __stg(T *address, std::type_identity_t<T> val, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    static_assert(!std::is_const_v<T>, "__stg stores through a pointer to const");
    pyasc_sim::kapi::simt::check_ldst_type<T>();
    pyasc_sim::kapi::simt::check_gm_scalar(address, sizeof(T), true, "__stg writes", loc);
    *address = val;
}

// The documented C-style forms (asc_ldcg / asc_ldca / asc_stcg / asc_stwt pages, simt_api/device_functions.h):
// ldcg caches in L2 only, ldca in the data cache and L2; stcg writes to L2 bypassing the data cache, stwt
// writes through the data cache.
template <typename T>
inline T asc_ldcg(const T *address, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    return __ldg<LD_L2CacheType::L2_CACHE_HINT_NORMAL_FV, NON_CACHEABLE>(address, loc);
}
template <typename T>
inline T asc_ldca(const T *address, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    return __ldg<LD_L2CacheType::L2_CACHE_HINT_NORMAL_FV, CACHEABLE>(address, loc);
}
template <typename T>
inline void asc_stcg(T *address, std::type_identity_t<T> val, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    __stg<ST_L2CacheType::L2_CACHE_HINT_NORMAL_FV, NON_CACHEABLE>(address, val, loc);
}
template <typename T>
inline void asc_stwt(T *address, std::type_identity_t<T> val, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    __stg<ST_L2CacheType::L2_CACHE_HINT_NORMAL_FV, CACHEABLE>(address, val, loc);
}

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_CACHE_H_
