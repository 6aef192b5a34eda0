// Ascend C on the CPU -- APIs round 13's public kernels needed (RecSDK's c310 block_bucketize_sparse_features,
// v220 disentangle_attention): ASCENDC_ASSERT(cond, behavior); ClampMax / ClampMin;
// - dcci(dst, entire[, type]): the CCE data-cache flush intrinsic (CCE intrinsic reference, page DCCI,
//   cceapi_0108: entire 0 = the line holding dst, 1 = the whole cache of the type; type ALL(0) / UB(1) /
//   OUT(2) / ATOMIC(3); PIPE_S), with the toolchain's enums cache_line_t / dcci_dst_t public kernels pass.
//   The simulator has no data cache: like DataCacheCleanAndInvalid (kapi/cache.h) it changes no data, is
//   charged to the scalar pipe and orders the scalar pipe.
// - Atlas 350 / Ascend 950 SIMT: Simt::UintDiv (dividend + umulhi(dividend, magic)) >> shift and its scalar
//   companion GetUintDivMagicAndShift, with the C spellings asc_uintdiv / asc_get_uintdiv_magic_and_shift
//   (simt_api/math_functions.h); the asc_atomic_* SIMT atomics of simt_api/device_atomic_functions.h
//   (asc_atomic_add page, atlasascendc_api_07_10375: they return the value before the operation).
#ifndef PYASC_SIM_KAPI_STUDY13_H_
#define PYASC_SIM_KAPI_STUDY13_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/cache.h"
#include "pyasc_sim/kapi/simt.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"

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
// condition and runs behavior, a log statement; the NPU build compiles it away).  A false condition is an `assert`
// error naming it; behavior is not run.
namespace pyasc_sim {
namespace kapi {
inline void ascendc_assert_check(bool ok, const char *text, const SrcLoc &loc) {
    if (!ok) fail("assert", loc, "ASCENDC_ASSERT(%s) failed", text);
}
}  // namespace kapi
}  // namespace pyasc_sim
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, ...) \
    ::pyasc_sim::kapi::ascendc_assert_check(static_cast<bool>(cond), #cond, ::pyasc_sim::kapi::SrcLoc())
#endif

namespace AscendC {
// ClampMax / ClampMin (high-level math API pages ClampMax / ClampMin): dst = min(src, scalar) / max(src, scalar) over
// calCount elements of half / float, i.e. Mins / Maxs with their checks; sharedTmpBuffer (sized by
// GetClampMaxMinTmpSize) holds no result the simulator needs.
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &, const T scalar,
                     const uint32_t calCount, PYASC_SIM_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMax: T is half or float (documented)");
    Mins(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T scalar, const uint32_t calCount,
                     PYASC_SIM_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMax: T is half or float (documented)");
    Mins(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &, const T scalar,
                     const uint32_t calCount, PYASC_SIM_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMin: T is half or float (documented)");
    Maxs(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T scalar, const uint32_t calCount,
                     PYASC_SIM_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMin: T is half or float (documented)");
    Maxs(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
}  // namespace AscendC

#if __CCE_AICORE__ == 310
namespace AscendC {
namespace Simt {
// The quotient dividend / d for the magic / shift GetUintDivMagicAndShift gives for d:
// q = umulhi(dividend, magic); (dividend + q) >> shift.  Dividends up to INT32_MAX / INT64_MAX.
template <typename T>
inline T UintDiv(T dividend, T magic, T shift) {
    static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>,
                  "Simt::UintDiv: T is uint32_t or uint64_t (the documented types)");
    using Wide = std::conditional_t<std::is_same_v<T, uint32_t>, uint64_t, unsigned __int128>;
    const T q = static_cast<T>((static_cast<Wide>(dividend) * magic) >> (8 * sizeof(T)));
    return static_cast<T>((dividend + q) >> shift);
}
}  // namespace Simt

// The magic and shift of Simt::UintDiv for a divisor in [1, INT32_MAX] (uint32_t) / [1, INT64_MAX] (uint64_t):
// shift = ceil(log2(divisor)), magic = floor(2^N (2^shift - divisor) / divisor) + 1 (N the bit width).
template <typename T>
inline void GetUintDivMagicAndShift(T &magic, T &shift, T divisor,
                                    pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>,
                  "GetUintDivMagicAndShift: T is uint32_t or uint64_t (the documented types)");
    constexpr T kMax = static_cast<T>(~T{0} >> 1);
    if (divisor == 0 || divisor > kMax) {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "GetUintDivMagicAndShift(magic, shift, divisor %llu): the divisor must be in [1, %llu]",
                              static_cast<unsigned long long>(divisor), static_cast<unsigned long long>(kMax));
    }
    using Wide = std::conditional_t<std::is_same_v<T, uint32_t>, uint64_t, unsigned __int128>;
    T s = 0;
    while ((Wide{1} << s) < divisor) ++s;
    shift = s;
    magic = static_cast<T>(((Wide{1} << (8 * sizeof(T))) * ((Wide{1} << s) - divisor)) / divisor + 1);
}
}  // namespace AscendC

inline uint32_t asc_uintdiv(uint32_t dividend, uint32_t magic, uint32_t shift) {
    return AscendC::Simt::UintDiv<uint32_t>(dividend, magic, shift);
}
inline uint64_t asc_uintdiv(uint64_t dividend, uint64_t magic, uint64_t shift) {
    return AscendC::Simt::UintDiv<uint64_t>(dividend, magic, shift);
}
inline void asc_get_uintdiv_magic_and_shift(uint32_t &magic, uint32_t &shift, uint32_t divisor) {
    AscendC::GetUintDivMagicAndShift<uint32_t>(magic, shift, divisor);
}
inline void asc_get_uintdiv_magic_and_shift(uint64_t &magic, uint64_t &shift, uint64_t divisor) {
    AscendC::GetUintDivMagicAndShift<uint64_t>(magic, shift, divisor);
}

// The SIMT atomics of simt_api/device_atomic_functions.h on UB or GM (the Simt::Atomic* of kapi/simt.h): each
// returns the value before the operation.  The documented value types: int32_t / uint32_t / float (UB or GM),
// int64_t / uint64_t (GM); val converts to the pointee type.
#define PYASC_SIM_ASC_ATOMIC(name, op)                                                          \
    template <typename T>                                                                       \
    inline T name(T *address, std::type_identity_t<T> val) {                                    \
        static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||              \
                          std::is_same_v<T, float> || std::is_same_v<T, int64_t> ||             \
                          std::is_same_v<T, uint64_t>,                                          \
                      #name ": the value type is int32_t, uint32_t, float, int64_t or uint64_t"); \
        return AscendC::Simt::op<T>(address, val);                                              \
    }
PYASC_SIM_ASC_ATOMIC(asc_atomic_add, AtomicAdd)
PYASC_SIM_ASC_ATOMIC(asc_atomic_sub, AtomicSub)
PYASC_SIM_ASC_ATOMIC(asc_atomic_exch, AtomicExch)
PYASC_SIM_ASC_ATOMIC(asc_atomic_max, AtomicMax)
PYASC_SIM_ASC_ATOMIC(asc_atomic_min, AtomicMin)
#undef PYASC_SIM_ASC_ATOMIC
template <typename T>
inline T asc_atomic_cas(T *address, std::type_identity_t<T> compare, std::type_identity_t<T> val) {
    return AscendC::Simt::AtomicCas<T>(address, compare, val);
}
#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_STUDY13_H_
