// kapi/broadcast.h -- Broadcast<T, dim, axis> (lib/pad/broadcast.h; BroadCast in CANN 8.0): numpy broadcasting of a
// dim-1 or dim-2 tensor along `axis`, with or without sharedTmpBuffer.
#ifndef PYASC_SIM_KAPI_BROADCAST_H_
#define PYASC_SIM_KAPI_BROADCAST_H_

#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

// ---- the element types: the reference lists int8_t, uint8_t, half, float on Atlas A2 (Broadcast page, row T).
// The SDK's Atlas A2 implementation (CANN 8.1.RC1 highlevel_api/impl/pad/broadcast/broadcast_common_impl.h and
// broadcast_v220_impl.h; asc-devkit impl/adv_api/detail/pad/broadcast/ the same) checks no element type: 1-byte types
// go through a half Cast, every other type is moved as it is by Duplicate / Brcb / Copy / GatherMask, which take the
// 2- and 4-byte types, so BroadCast<int32_t> compiles and broadcasts bit for bit on the NPU (Ascend/DrivingSDK
// boxes_operator_utils.h broadcasts int32_t indices).  Here an unlisted 2- or 4-byte element type (int16_t,
// uint16_t, bfloat16_t, int32_t, uint32_t) on Atlas A2 / A3 runs the same and is the warning dtype-unlisted (an error
// with PYASC_SIM_STRICT), as And / Or on int32_t (round 25) and Transpose on bfloat16_t (round 24); other types stay
// the compile error dtype-table.
namespace sim_detail {
template <typename T>
inline constexpr bool broadcast_moves_as_is =
    __CCE_AICORE__ == 220 && ::pyasc_sim::kapi::dtypes::listed_v<T, int16_t, uint16_t, bfloat16_t, int32_t, uint32_t>;
template <typename T>
inline void broadcast_dtype_check(const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    if constexpr (!broadcast_moves_as_is<T>) {
        PYASC_SIM_DTYPE_CHECK(Broadcast, T);
    } else if (!PYASC_SIM_DTYPE_OK(Broadcast, T)) {
        pyasc_sim::kapi::warn("dtype-unlisted", loc,
                              "AscendC::%s on element type %s: the reference lists int8_t, uint8_t, half and float "
                              "for Atlas A2; the SDK's Atlas A2 implementation moves %zu-byte elements as they are "
                              "(Brcb / Copy / GatherMask), so the result is the bit-exact broadcast. Fix: broadcast "
                              "a ReinterpretCast<float>() view of 4-byte tensors (half for 2-byte ones)",
                              api, pyasc_sim::kapi::dtypes::type_name<T>(), sizeof(T));
    }
}
}  // namespace sim_detail

// ---- Broadcast<T, dim, axis>: dst[i, j] = src[srcShape[0] == 1 ? 0 : i, srcShape[1] == 1 ? 0 : j] ----
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    sim_detail::broadcast_dtype_check<T>("Broadcast", loc);
    static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2 (as documented)");
    static_assert(axis >= 0 && axis < dim, "Broadcast: axis must be 0 or dim - 1");
    (void)sharedTmpBuffer;
    const uint32_t rows = dim == 2 ? dstShape[0] : 1, cols = dstShape[dim - 1];
    const uint32_t srows = dim == 2 ? srcShape[0] : 1, scols = srcShape[dim - 1];
    bool ok = true;
    for (int32_t d = 0; d < dim; ++d) {
        const bool along = d == axis;
        ok = ok && (along ? srcShape[d] == 1 : srcShape[d] == dstShape[d]) && dstShape[d] > 0;
    }
    if (!ok) {
        pyasc_sim::kapi::fail("broadcast-shape", loc,
                              "Broadcast<dim %d, axis %d>: srcShape must equal dstShape except 1 along axis "
                              "(dst [%u, %u], src [%u, %u])", dim, axis, rows, cols, srows, scols);
        return;
    }
    const int64_t n = static_cast<int64_t>(rows) * cols;
    sim_detail::check_operand(srcLocal, "Broadcast", "src", static_cast<int64_t>(srows) * scols, loc);
    sim_detail::check_operand(dstLocal, "Broadcast", "dst", n, loc);
    const T *s = srcLocal.ptr();
    T *d = dstLocal.ptr();
    for (uint32_t i = 0; i < rows; ++i) {
        for (uint32_t j = 0; j < cols; ++j) {
            d[static_cast<int64_t>(i) * cols + j] = s[static_cast<int64_t>(srows == 1 ? 0 : i) * scols + (scols == 1 ? 0 : j)];
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(n, sizeof(T))));
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], PYASC_SIM_LOC) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, LocalTensor<uint8_t>(), loc);
}
#if !PYASC_SIM_DOCUMENTED_ONLY  // BroadCast: an undocumented spelling of Broadcast
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], PYASC_SIM_LOC) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, LocalTensor<uint8_t>(), loc);
}

#endif

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_BROADCAST_H_
