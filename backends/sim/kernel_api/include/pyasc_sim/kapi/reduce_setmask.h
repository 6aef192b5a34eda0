// kapi/reduce_setmask.h -- ReduceSum / ReduceMax / ReduceMin<T, isSetMask>(...): the documented second template
// argument (both values give the same result for the count form; the mask forms take the mask given).
#ifndef PYASC_SIM_KAPI_REDUCE_SETMASK_H_
#define PYASC_SIM_KAPI_REDUCE_SETMASK_H_

#include "pyasc_sim/kapi/reduce.h"

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

namespace AscendC {

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

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_REDUCE_SETMASK_H_
