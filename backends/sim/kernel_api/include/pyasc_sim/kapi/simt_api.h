// Ascend C on the CPU -- SIMT device functions and vector types of the Atlas 350 / Ascend 950 (kernels built
// with soc="Ascend950PR_9599"), as the reference documents them under simt_api/device_functions.h and
// simt_api/vector_functions.h: __umulhi / __umul64hi (the high half of an unsigned product), __ffs, the CUDA
// spellings of the SIMT atomics (atomicAdd ... atomicCAS), the small
// vector types char1 ... ulonglong4 / float1 ... float4 and half2 with their make_<type>() constructors, asc_syncthreads, and
// __forceinline__ (the toolchain's spelling of a forced-inline function, as SIMT code ported from CUDA uses).
#ifndef PYASC_SIM_KAPI_SIMT_API_H_
#define PYASC_SIM_KAPI_SIMT_API_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/simt.h"
#include "pyasc_sim/kapi/simt_builtins.h"

#if __CCE_AICORE__ == 310

#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif

// High 32 bits of the 64-bit product of two uint32 (__umulhi page, simt_api/device_functions.h).
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
// High 64 bits of the 128-bit product of two uint64 (__umul64hi page, simt_api/device_functions.h).
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}

// The 1-based position of the lowest set bit of x, 0 when x is 0 (__ffs page, simt_api/device_functions.h).
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffs(long x) { return __builtin_ffsl(x); }
inline int __ffs(long long x) { return __builtin_ffsll(x); }
// The number of set bits of x (__popc page, simt_api/device_functions.h: unsigned int, unsigned long and
// unsigned long long; CAGRA's prune step counts a warp ballot with it).
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popc(unsigned long x) { return __builtin_popcountl(x); }
inline int __popc(unsigned long long x) { return __builtin_popcountll(x); }

// The CUDA spellings of the SIMT atomics (the builtins the public 950 simt_api headers implement asc_atomic_*
// with; SIMT code ported from CUDA calls them unqualified): each is the Simt::Atomic* of kapi/simt.h on GM or
// UB, returns the old value and is atomic across concurrently running blocks.  val converts to the pointee type.
template <typename T>
inline T atomicAdd(T *address, std::type_identity_t<T> val) { return AscendC::Simt::AtomicAdd<T>(address, val); }
template <typename T>
inline T atomicSub(T *address, std::type_identity_t<T> val) { return AscendC::Simt::AtomicSub<T>(address, val); }
template <typename T>
inline T atomicExch(T *address, std::type_identity_t<T> val) { return AscendC::Simt::AtomicExch<T>(address, val); }
template <typename T>
inline T atomicMax(T *address, std::type_identity_t<T> val) { return AscendC::Simt::AtomicMax<T>(address, val); }
template <typename T>
inline T atomicMin(T *address, std::type_identity_t<T> val) { return AscendC::Simt::AtomicMin<T>(address, val); }
template <typename T>
inline T atomicCAS(T *address, std::type_identity_t<T> compare, std::type_identity_t<T> val) {
    return AscendC::Simt::AtomicCas<T>(address, compare, val);
}

// Memory fences (asc_threadfence / asc_threadfence_block pages, simt_api/device_sync_functions.h; __threadfence /
// __threadfence_block are their CUDA spellings): order the calling thread's GM / UB accesses for the other
// threads.  On the simulator a fence also lets the other threads of the VF call run first (kapi/simt.h).
inline void asc_threadfence() { pyasc_sim::kapi::simt::fiber_fence(); }
inline void asc_threadfence_block() { pyasc_sim::kapi::simt::fiber_fence(); }
inline void __threadfence() { pyasc_sim::kapi::simt::fiber_fence(); }
inline void __threadfence_block() { pyasc_sim::kapi::simt::fiber_fence(); }
// The block barrier (asc_syncthreads page, simt_api/device_sync_functions.h): every thread of the VF call that has
// not ended waits until all of them reach a barrier (the builtin __sync_workitems of kapi/simt_builtins.h).
inline void asc_syncthreads() { __sync_workitems(); }

// The vector types of simt_api/vector_functions.h: plain structs of 2 or 4 members x, y (z, w), aligned to
// their size as the device lays them out (a uint4 is 16 bytes, 16-byte aligned), and make_<type>().
#define PYASC_SIM_SIMT_VEC(name, T)                                                               \
    struct alignas(2 * sizeof(T)) name##2 {                                                       \
        T x, y;                                                                                   \
    };                                                                                            \
    struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) name##4 {                             \
        T x, y, z, w;                                                                             \
    };                                                                                            \
    inline name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                           \
    inline name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }
PYASC_SIM_SIMT_VEC(char, signed char)
PYASC_SIM_SIMT_VEC(uchar, unsigned char)
PYASC_SIM_SIMT_VEC(short, short)
PYASC_SIM_SIMT_VEC(ushort, unsigned short)
PYASC_SIM_SIMT_VEC(int, int)
PYASC_SIM_SIMT_VEC(uint, unsigned int)
PYASC_SIM_SIMT_VEC(long, long)
PYASC_SIM_SIMT_VEC(ulong, unsigned long)
PYASC_SIM_SIMT_VEC(longlong, long long)
PYASC_SIM_SIMT_VEC(ulonglong, unsigned long long)
PYASC_SIM_SIMT_VEC(float, float)
#undef PYASC_SIM_SIMT_VEC

// The one-member vector types (char1 ... ulonglong1, float1: a struct whose only member is x, aligned as its member;
// the CUDA vector types SIMT code ported from CUDA declares, e.g. IndexSDK's `uint1` / `ushort1` loads) with
// make_<type>1().
#define PYASC_SIM_SIMT_VEC1(name, T)                                                              \
    struct name##1 {                                                                              \
        T x;                                                                                      \
    };                                                                                            \
    inline name##1 make_##name##1(T x) { return name##1{x}; }
PYASC_SIM_SIMT_VEC1(char, signed char)
PYASC_SIM_SIMT_VEC1(uchar, unsigned char)
PYASC_SIM_SIMT_VEC1(short, short)
PYASC_SIM_SIMT_VEC1(ushort, unsigned short)
PYASC_SIM_SIMT_VEC1(int, int)
PYASC_SIM_SIMT_VEC1(uint, unsigned int)
PYASC_SIM_SIMT_VEC1(long, long)
PYASC_SIM_SIMT_VEC1(ulong, unsigned long)
PYASC_SIM_SIMT_VEC1(longlong, long long)
PYASC_SIM_SIMT_VEC1(ulonglong, unsigned long long)
PYASC_SIM_SIMT_VEC1(float, float)
#undef PYASC_SIM_SIMT_VEC1

// half2 (make_half2 / __halves2half2 pages, simt_api/asc_fp16.h): two half values x, y in 4 bytes, 4-byte aligned;
// make_half2(x, y) and __halves2half2(x, y) build one.
struct alignas(4) half2 {
    half x, y;
};
inline half2 make_half2(half x, half y) { return half2{x, y}; }
inline half2 __halves2half2(const half x, const half y) { return half2{x, y}; }

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_API_H_
