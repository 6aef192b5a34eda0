// kapi/simt_asc_functions.h -- Atlas 350 / Ascend 950 SIMT: Simt::UintDiv (dividend + umulhi(dividend, magic)) >> shift and
// its scalar companion GetUintDivMagicAndShift, with the C spellings asc_uintdiv / asc_get_uintdiv_magic_and_shift
// (simt_api/math_functions.h); the asc_atomic_* SIMT atomics of simt_api/device_atomic_functions.h (asc_atomic_add
// page, atlasascendc_api_07_10375: they return the value before the operation), with the bitwise asc_atomic_and / _or /
// _xor (atlasascendc_api_07_10384 ...).
#ifndef PYASC_SIM_KAPI_SIMT_ASC_FUNCTIONS_H_
#define PYASC_SIM_KAPI_SIMT_ASC_FUNCTIONS_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/simt.h"
#include "pyasc_sim/kapi/simt_builtins.h"
#include "pyasc_sim/kapi/state.h"

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
// The bitwise SIMT atomics (asc_atomic_and / asc_atomic_or / asc_atomic_xor pages, simt_api/device_atomic_functions.h):
// int32_t / uint32_t on UB or GM, int64_t / uint64_t on GM; the atomicAnd / atomicOr / atomicXOr of kapi/simt_builtins.h.
#define PYASC_SIM_ASC_BITWISE_ATOMIC(name, builtin)                                                \
    template <typename T>                                                                          \
    inline T name(T *address, std::type_identity_t<T> val) {                                        \
        static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||                 \
                          std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>,               \
                      #name ": the value type is int32_t, uint32_t, int64_t or uint64_t");          \
        return builtin<T>(address, val);                                                           \
    }
PYASC_SIM_ASC_BITWISE_ATOMIC(asc_atomic_and, atomicAnd)
PYASC_SIM_ASC_BITWISE_ATOMIC(asc_atomic_or, atomicOr)
PYASC_SIM_ASC_BITWISE_ATOMIC(asc_atomic_xor, atomicXOr)
#undef PYASC_SIM_ASC_BITWISE_ATOMIC
template <typename T>
inline T asc_atomic_cas(T *address, std::type_identity_t<T> compare, std::type_identity_t<T> val) {
    return AscendC::Simt::AtomicCas<T>(address, compare, val);
}
#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_ASC_FUNCTIONS_H_
