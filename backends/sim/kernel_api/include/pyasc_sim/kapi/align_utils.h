// kapi/align_utils.h -- scalar alignment helpers: AscendC::AlignUp(value, align) (value rounded up to a multiple
// of align, 0 when align is 0), Ceil(a, b) (ceiling division, the Matmul utilities' helper) and CeilDivision(a, b)
// (the same ceiling division under the name of the Utils API page that ceil_div later replaced).
#ifndef PYASC_SIM_KAPI_ALIGN_UTILS_H_
#define PYASC_SIM_KAPI_ALIGN_UTILS_H_

#include <type_traits>

namespace AscendC {

// ---- AlignUp -------------------------------------------------------------------------------------
template <typename T, typename U>
constexpr T AlignUp(const T value, const U align) {
    return align == 0 ? T(0) : static_cast<T>((value + static_cast<T>(align) - 1) / static_cast<T>(align) * static_cast<T>(align));
}

// ---- scalar Ceil(a, b): the ceiling division of the Matmul utilities, (a + b - 1) / b -------------
template <typename T, typename U,
          std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value, int> = 0>
inline auto Ceil(const T a, const U b) -> std::common_type_t<T, U> {
    using C = std::common_type_t<T, U>;
    return b == 0 ? C(0) : static_cast<C>((static_cast<C>(a) + static_cast<C>(b) - 1) / static_cast<C>(b));
}

// ---- CeilDivision(a, b): (a + b - 1) / b, constexpr (integral operands) -------------------------------------
template <typename T, typename U,
          std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value, int> = 0>
constexpr auto CeilDivision(const T a, const U b) -> std::common_type_t<T, U> {
    using C = std::common_type_t<T, U>;
    return b == 0 ? C(0) : static_cast<C>((static_cast<C>(a) + static_cast<C>(b) - 1) / static_cast<C>(b));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_ALIGN_UTILS_H_
