// Ascend C on the CPU -- the compile-time type helpers of the CANN kernel headers that public kernels call
// unqualified or as AscendC::...:
//   * AscendC::IsSameType<T, U>::value -- true when T and U are the same type (as std::is_same; the public
//     reference documents the same trait as AscendC::Std::is_same);
//   * AscendC::Conditional<cond, A, B>::type -- A when cond is true, else B (as std::conditional);
//   * AscendC::SupportType<T, Ts...>() -- constexpr true when T is one of Ts (the type-list check public kernels
//     put in static_asserts, e.g. RecSDK's regbase_silu.h: `SupportType<T, half, float>()`).
// Neither is a documented API page; both are what sgl-kernel-npu's block_sparse_attention (and the
// prompt-flash-attention family it derives from) use to pick matmul / softmax types.
#ifndef PYASC_SIM_KAPI_TYPE_UTILS_H_
#define PYASC_SIM_KAPI_TYPE_UTILS_H_

#include <type_traits>

namespace AscendC {

template <typename T, typename U>
struct IsSameType {
    static constexpr bool value = std::is_same<T, U>::value;
};

template <bool cond, typename A, typename B>
struct Conditional {
    using type = typename std::conditional<cond, A, B>::type;
};

template <typename T, typename... Ts>
constexpr bool SupportType() {
    return (std::is_same<T, Ts>::value || ...);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TYPE_UTILS_H_
