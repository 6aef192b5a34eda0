// Ascend C on the CPU -- the NPU compiler's SIMT builtins (Atlas 350 / Ascend 950, soc="Ascend950PR_9599") that the
// documented simt_api functions are built on and that SIMT code ported from CUDA calls directly:
//   __sync_workitems()                 the block barrier (the public 950 simt_api implements asc_syncthreads() and
//                                      Simt::ThreadBarrier with it);
//   __reduce_add / __reduce_max / __reduce_min (int32_t, uint32_t, float, half)
//                                      the warp reductions asc_reduce_add / _max / _min are built on;
//   __all / __any / __activemask        the warp votes asc_all / asc_any / asc_activemask are built on;
//   atomicAnd / atomicOr / atomicXOr    the bitwise SIMT atomics asc_atomic_and / _or / _xor are built on
//                                      (atomicXor: the CUDA spelling of atomicXOr);
//   __clz(x)                           the documented count of leading zero bits (__clz page,
//                                      simt_api/device_functions.h: int, long, long long).
// Evidence for the undocumented spellings: the public asc-devkit headers (impl/simt_api: `asc_syncthreads() {
// __sync_workitems(); }`, `asc_reduce_min(half val) { return __reduce_min(val); }`) and its CPU stub list of the
// builtins (simt_stub_fun.h: atomicAnd / atomicOr / atomicXOr on int32_t, uint32_t, int64_t, uint64_t,
// __sync_workitems, __all, __any, __activemask, __reduce_*); public SIMT kernels (IndexSDK cagra_rabitq) call them.
// Each one is the simulator's model of the documented function it stands behind (kapi/simt.h).
#ifndef PYASC_SIM_KAPI_SIMT_BUILTINS_H_
#define PYASC_SIM_KAPI_SIMT_BUILTINS_H_

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/simt.h"

#if __CCE_AICORE__ == 310

// The block barrier: waits until every thread of the VF call that has not ended reaches a barrier (asc_syncthreads
// page: "blocks every thread of the thread block until all of them reach the synchronization point").
inline void __sync_workitems() {
    pyasc_sim::kapi::simt::fiber_wait(pyasc_sim::kapi::simt::FiberState::kBarrier, "__sync_workitems");
}

// Warp reductions over the warp's active lanes; every active lane gets the result (asc_reduce_* pages), reduced
// pairwise in the order of kapi/simt.h's reduce_op.
// (PYASC_SIM_SIMT_REDUCE: kapi/simt.h, shared with asc_reduce_*; the builtins take half too)
PYASC_SIM_SIMT_REDUCE(__reduce_add, kAdd, half)
PYASC_SIM_SIMT_REDUCE(__reduce_max, kMax, half)
PYASC_SIM_SIMT_REDUCE(__reduce_min, kMin, half)

// Warp votes over the active lanes (asc_all / asc_any / asc_activemask pages).
inline int32_t __all(int32_t predicate) { return AscendC::Simt::WarpAllSync(predicate); }
inline int32_t __any(int32_t predicate) { return AscendC::Simt::WarpAnySync(predicate); }
inline uint32_t __activemask() { return AscendC::Simt::WarpActiveMask(); }

// Bitwise atomics on GM or UB: *address = *address op val, returning the value before the operation; atomic
// across the threads of all blocks (asc_atomic_and / _or / _xor pages: int32_t / uint32_t on UB or GM, int64_t /
// uint64_t on GM).  val converts to the pointee type.
namespace pyasc_sim {
namespace kapi {
namespace simt {
template <typename T>
inline void check_bitwise_atomic_type(const char *api) {
    (void)api;
    static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, int64_t> ||
                      std::is_same_v<T, uint64_t> || std::is_same_v<T, long long> ||
                      std::is_same_v<T, unsigned long long>,
                  "the bitwise SIMT atomics take int32_t, uint32_t, int64_t or uint64_t values");
}
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim

template <typename T>
inline T atomicAnd(T *address, std::type_identity_t<T> val) {
    pyasc_sim::kapi::simt::check_bitwise_atomic_type<T>("atomicAnd");
    return std::atomic_ref<T>(*address).fetch_and(val);
}
template <typename T>
inline T atomicOr(T *address, std::type_identity_t<T> val) {
    pyasc_sim::kapi::simt::check_bitwise_atomic_type<T>("atomicOr");
    return std::atomic_ref<T>(*address).fetch_or(val);
}
template <typename T>
inline T atomicXOr(T *address, std::type_identity_t<T> val) {
    pyasc_sim::kapi::simt::check_bitwise_atomic_type<T>("atomicXOr");
    return std::atomic_ref<T>(*address).fetch_xor(val);
}
template <typename T>
inline T atomicXor(T *address, std::type_identity_t<T> val) {
    return atomicXOr<T>(address, val);
}

// The number of consecutive zero bits from the most significant bit of x (32 for an int 0, 64 for a 64-bit 0).
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clz(long x) { return x == 0 ? 64 : __builtin_clzl(static_cast<unsigned long>(x)); }
inline int __clz(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_BUILTINS_H_
