// Ascend C on the CPU -- what the second public-kernel study needed (kernel_api/COMPAT.md).
//
// * set_mask_count() / set_mask_norm() / set_vector_mask(high, low): the CCE intrinsics of the mask
//   mode (global functions on the NPU, also reachable as AscendC::...): SetMaskCount / SetMaskNorm /
//   SetVectorMask. Count-form vector calls (`Add(dst, a, b, count)`) process `count` elements in
//   either mode, as documented for the counter mode; repeat forms with isSetMask = false read the
//   mask register. AscendC::AscendCUtils::ResetMask() is the utility-class spelling of ResetMask().
// * Scalar min(a, b) / max(a, b): the NPU compiler's scalar builtins (global, callable unqualified).
// * ReduceSum / ReduceMax / ReduceMin<T, isSetMask>(...): the documented second template argument
//   (both values give the same result for the count form; the mask forms take the mask given).
// * Broadcast<T, dim, axis> (lib/pad/broadcast.h; BroadCast in CANN 8.0): numpy broadcasting of a
//   dim-1 or dim-2 tensor along `axis`, with or without sharedTmpBuffer.
// * Scalar Ceil(a, b) (ceiling division, the Matmul utilities' helper) and DEFAULT_C0_SIZE (32).
// * TOTAL_UB_SIZE, TOTAL_VEC_LOCAL_SIZE, TOTAL_L1_SIZE, TOTAL_L0A_SIZE, TOTAL_L0B_SIZE,
//   TOTAL_L0C_SIZE: the buffer sizes of the simulated SoC (Ascend910B: 192 KiB UB, 512 KiB L1,
//   64 KiB L0A / L0B, 128 KiB L0C); g_coreType: the kind of core running the block (AIC / AIV).
#ifndef PYASC_SIM_KAPI_STUDY2_H_
#define PYASC_SIM_KAPI_STUDY2_H_

#include <type_traits>

#include "pyasc_sim/kapi/mix.h"
#include "pyasc_sim/kapi/reduce.h"
#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

// ---- mask-mode intrinsics ------------------------------------------------------------------------
// (the NPU compiler's builtins, global; AscendC:: spellings and AscendCUtils are undocumented)
namespace sim_detail {
inline void set_mask_count() { SetMaskCount(); }
inline void set_mask_norm() { SetMaskNorm(); }
inline void set_vector_mask(const uint64_t maskHigh, const uint64_t maskLow) { SetVectorMask<uint16_t>(maskHigh, maskLow); }
}  // namespace sim_detail

#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::set_mask_count;
using sim_detail::set_mask_norm;
using sim_detail::set_vector_mask;

struct AscendCUtils {
    static inline void ResetMask() { AscendC::ResetMask(); }
    template <typename T, MaskMode mode = MaskMode::NORMAL>
    static inline void SetMask(const uint64_t maskHigh, const uint64_t maskLow) { SetVectorMask<T, mode>(maskHigh, maskLow); }
    // The length form public kernels call (vllm-ascend adn_rms_norm): the documented SetVectorMask(len).
    template <typename T, MaskMode mode = MaskMode::NORMAL>
    static inline void SetMask(const int32_t len) { SetVectorMask<T, mode>(len); }
};
#endif

// ---- scalar min / max (both operands of one type, as the builtins) --------------------------------
namespace sim_detail {
template <typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
inline T min(const T a, const T b) { return b < a ? b : a; }
template <typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
inline T max(const T a, const T b) { return a < b ? b : a; }
}  // namespace sim_detail
#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::max;
using sim_detail::min;
#endif

// ---- Reduce*<T, isSetMask>: the documented template form -----------------------------------------
#define PYASC_SIM_REDUCE_SETMASK(NAME, EXTRA_PARAM, EXTRA_ARG)                                                      \
    template <typename T, bool isSetMask>                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,   \
                     const int32_t count EXTRA_PARAM, PYASC_SIM_LOC) {                                             \
        NAME<T>(dst, src, sharedTmpBuffer, count EXTRA_ARG, loc);                                                  \
    }                                                                                                              \
    template <typename T, bool isSetMask>                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,   \
                     const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride EXTRA_PARAM,         \
                     PYASC_SIM_LOC) {                                                                              \
        NAME<T>(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride EXTRA_ARG, loc);                         \
    }                                                                                                              \
    template <typename T, bool isSetMask>                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,   \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride EXTRA_PARAM,      \
                     PYASC_SIM_LOC) {                                                                              \
        NAME<T>(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride EXTRA_ARG, loc);                         \
    }
#define PYASC_SIM_COMMA ,
PYASC_SIM_REDUCE_SETMASK(ReduceSum, , )
PYASC_SIM_REDUCE_SETMASK(ReduceMax, PYASC_SIM_COMMA bool calIndex = false, PYASC_SIM_COMMA calIndex)
PYASC_SIM_REDUCE_SETMASK(ReduceMin, PYASC_SIM_COMMA bool calIndex = false, PYASC_SIM_COMMA calIndex)
#undef PYASC_SIM_COMMA
#undef PYASC_SIM_REDUCE_SETMASK

// ---- Broadcast<T, dim, axis>: dst[i, j] = src[srcShape[0] == 1 ? 0 : i, srcShape[1] == 1 ? 0 : j] ----
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Broadcast, T);
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
    PYASC_SIM_DTYPE_CHECK(Broadcast, T);
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, LocalTensor<uint8_t>(), loc);
}
#if !PYASC_SIM_DOCUMENTED_ONLY  // BroadCast: an undocumented spelling of Broadcast
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t> &sharedTmpBuffer, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Broadcast, T);
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Broadcast, T);
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, LocalTensor<uint8_t>(), loc);
}

#endif

// ---- scalar Ceil(a, b): the ceiling division of the Matmul utilities, (a + b - 1) / b -------------
template <typename T, typename U,
          std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value, int> = 0>
inline auto Ceil(const T a, const U b) -> std::common_type_t<T, U> {
    using C = std::common_type_t<T, U>;
    return b == 0 ? C(0) : static_cast<C>((static_cast<C>(a) + static_cast<C>(b) - 1) / static_cast<C>(b));
}

#if !PYASC_SIM_DOCUMENTED_ONLY  // undocumented constants
// DEFAULT_C0_SIZE: bytes of one C0 block (one 32-byte data block), as DataCopyParams counts them.
constexpr int32_t DEFAULT_C0_SIZE = 32;

// ---- buffer sizes of the simulated SoC (Ascend910B) ---------------------------------------------
constexpr int32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 192 * 1024;
constexpr int32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr int32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr int32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr int32_t TOTAL_L0C_SIZE = 128 * 1024;
#endif

}  // namespace AscendC

// g_coreType: the kind of core running the block (AscendC::AIC = 1, AscendC::AIV = 2): the AIC of a
// mixed launch too (as ASCEND_IS_AIC), or a core set by the CPU-debug SetKernelMode.
// A cube-only build (core="cube": __DAV_C220_CUBE__ without __DAV_C220_VEC__, as the NPU compiler's
// dav-c220-cube pass) runs on AICs only, so there it is the constant AscendC::AIC, and
// `if constexpr (g_coreType == AIC)` compiles as on the NPU (MindSpore Lite's ascend_native Matmul).
#ifndef g_coreType
#if defined(__DAV_C220_CUBE__) && !defined(__DAV_C220_VEC__)
#define g_coreType (::AscendC::AIC)
#else
#define g_coreType (::pyasc_sim::kapi::core_is_aic() ? ::AscendC::AIC : ::AscendC::AIV)
#endif
#endif

using AscendC::sim_detail::max;
using AscendC::sim_detail::min;
using AscendC::sim_detail::set_mask_count;
using AscendC::sim_detail::set_mask_norm;
using AscendC::sim_detail::set_vector_mask;

#endif  // PYASC_SIM_KAPI_STUDY2_H_
