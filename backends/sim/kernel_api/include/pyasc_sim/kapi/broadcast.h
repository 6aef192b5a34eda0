// kapi/broadcast.h -- Broadcast<T, dim, axis> (lib/pad/broadcast.h; BroadCast in CANN 8.0): numpy broadcasting of a
// dim-1 or dim-2 tensor along `axis`, with or without sharedTmpBuffer.
#ifndef PYASC_SIM_KAPI_BROADCAST_H_
#define PYASC_SIM_KAPI_BROADCAST_H_

#include "pyasc_sim/kapi/vector.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

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

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_BROADCAST_H_
