// kapi/align_utils.h -- scalar alignment helpers: AscendC::AlignUp(value, align) (value rounded up to a multiple
// of align, 0 when align is 0), Ceil(a, b) (ceiling division, the Matmul utilities' helper) and CeilDivision(a, b)
// (the same ceiling division under the name of the Utils API page that ceil_div later replaced), and
// DivCeil(uint32_t, uint32_t), the SDK's kernel-side ceiling division.
#ifndef PYASC_SIM_KAPI_ALIGN_UTILS_H_
#define PYASC_SIM_KAPI_ALIGN_UTILS_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/state.h"

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

// ---- DivCeil(a, b): (a + b - 1) / b on uint32_t ------------------------------------------------------
// Not on a reference page, but part of the kernel-side API every SDK ships in namespace AscendC: a plain
// (non-template) `__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b)` returning
// (a + b - 1) / b (asc-devkit impl/basic_api/utils/kernel_utils_ceil_oom_que.h, reached from
// kernel_operator.h through kernel_tpipe.h; the 2023 Apache-2.0 SDK headers have the same signature
// without constexpr). Being a non-template of exact uint32_t parameters matters: a kernel's own global
// `template <typename T> T DivCeil(T, T)` next to `using namespace AscendC` stays the better match for
// other argument types and loses to this one only for uint32_t arguments, as with the SDK; 64-bit
// arguments convert to uint32_t, as they do there. b == 0 divides by zero in the SDK; here it is an
// error naming the values.
namespace sim_detail {
[[noreturn]] inline uint32_t div_ceil_by_zero(uint32_t a, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::fail("invalid-argument", loc,
                          "AscendC::DivCeil(%u, 0): the divisor is 0 (the SDK computes (a + b - 1) / b, an "
                          "integer division by zero); pass a non-zero divisor",
                          a);
}
}  // namespace sim_detail
constexpr uint32_t DivCeil(uint32_t a, uint32_t b, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    return b == 0 ? sim_detail::div_ceil_by_zero(a, loc) : (a + b - 1u) / b;
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_ALIGN_UTILS_H_
