// kapi/clamp.h -- ClampMax / ClampMin (high-level math API): dst = min / max(src, scalar) over calCount half / float.
#ifndef PYASC_SIM_KAPI_CLAMP_H_
#define PYASC_SIM_KAPI_CLAMP_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
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

#endif  // PYASC_SIM_KAPI_CLAMP_H_
