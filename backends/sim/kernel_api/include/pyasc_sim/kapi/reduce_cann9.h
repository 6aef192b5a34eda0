// Ascend C on the CPU -- the CANN 9 reduction instructions ReduceDataBlock, ReduceRepeat and
// ReducePairElem (template ReduceType), documented for Atlas A2 and the Atlas inference series AI Core
// with half / float.  They are the instructions behind BlockReduceSum/Max/Min, WholeReduceSum/Max/Min
// and PairReduceSum with the mask before the repeat count, so they run those (same masks, strides,
// skipped writes and index rules).  Written from the public Ascend C API reference (asc-devkit
// docs/api/SIMD-API/基础API/Memory矢量计算/归约计算/ReduceDataBlock.md, ReduceRepeat.md,
// ReducePairElem.md); no CANN file was used.
#ifndef PYASC_SIM_KAPI_REDUCE_CANN9_H_
#define PYASC_SIM_KAPI_REDUCE_CANN9_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/reduce.h"
#include "pyasc_sim/kapi/vector_more.h"

#if __CCE_AICORE__ == 220 || __CCE_AICORE__ == 200
#define PYASC_SIM_DT_ReduceDataBlock half, float  // source: asc-devkit ReduceDataBlock.md (数据类型: 910b / 310p half、float)
#define PYASC_SIM_DT_ReduceRepeat half, float     // source: asc-devkit ReduceRepeat.md (数据类型: 910b / 310p half、float)
#define PYASC_SIM_DT_ReducePairElem half, float   // source: asc-devkit ReducePairElem.md (数据类型: 910b / 310p half、float)
#else
#define PYASC_SIM_DT_ReduceDataBlock PYASC_SIM_DT_UNCHECKED
#define PYASC_SIM_DT_ReduceRepeat PYASC_SIM_DT_UNCHECKED
#define PYASC_SIM_DT_ReducePairElem PYASC_SIM_DT_UNCHECKED
#endif

namespace AscendC {

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

namespace sim_detail {
// Atlas A2 documents mask = 0 (continuous form) and repeatTime = 0 as a NOP.
inline bool reduce9_nop(int32_t repeatTime, int64_t mask) {
#if __CCE_AICORE__ == 220
    return repeatTime == 0 || mask == 0;
#else
    (void)mask;
    return repeatTime == 0;
#endif
}
template <typename T, typename U>
inline void reduce9_types() {
    static_assert(std::is_same<T, U>::value,
                  "AscendC::ReduceDataBlock / ReduceRepeat / ReducePairElem: dst and src have the same element type "
                  "on the simulated SoCs");
}
// The BlockReduce* / WholeReduce* instruction reduceType names, for either mask form (an int32_t
// count or a uint64_t[2] bit mask): the public overloads differ only in their mask parameter.
template <ReduceType reduceType, typename T, bool isSetMask, typename U, typename Mask>
inline void reduce_data_block(const LocalTensor<T> &dst, const LocalTensor<U> &src, const Mask &mask,
                              int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                              const pyasc_sim::kapi::SrcLoc &loc) {
    if (reduceType == ReduceType::SUM) {
        BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    } else if (reduceType == ReduceType::MAX) {
        BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    } else {
        BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    }
}
template <ReduceType reduceType, typename T, bool isSetMask, typename U, typename Mask>
inline void reduce_repeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const Mask &mask, int32_t repeatTime,
                          int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order,
                          const pyasc_sim::kapi::SrcLoc &loc) {
    if (reduceType == ReduceType::SUM) {
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
    } else if (reduceType == ReduceType::MAX) {
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    } else {
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    }
}
}  // namespace sim_detail

// ---- ReduceDataBlock: one result per 32-byte DataBlock (8 per repeat) ---------------------------------
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, PYASC_SIM_LOC) {
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReduceDataBlock, T);
    if (sim_detail::reduce9_nop(repeatTime, mask)) return;
    sim_detail::reduce_data_block<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                            srcRepStride, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, PYASC_SIM_LOC) {
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReduceDataBlock, T);
    if (sim_detail::reduce9_nop(repeatTime, 1)) return;
    sim_detail::reduce_data_block<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                            srcRepStride, loc);
}

// ---- ReduceRepeat: one result (MAX / MIN: value and in-repeat index, by `order`) per repeat ------------
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                         PYASC_SIM_LOC) {
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReduceRepeat, T);
    if (sim_detail::reduce9_nop(repeatTime, mask)) return;
    sim_detail::reduce_repeat<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                        srcRepStride, order, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                         PYASC_SIM_LOC) {
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReduceRepeat, T);
    if (sim_detail::reduce9_nop(repeatTime, 1)) return;
    sim_detail::reduce_repeat<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
                                                        srcRepStride, order, loc);
}

// ---- ReducePairElem: sums of adjacent (even, odd) pairs; SUM only -----------------------------------
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, PYASC_SIM_LOC) {
    static_assert(reduceType == ReduceType::SUM, "AscendC::ReducePairElem supports ReduceType::SUM only");
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReducePairElem, T);
    if (sim_detail::reduce9_nop(repeatTime, mask)) return;
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, PYASC_SIM_LOC) {
    static_assert(reduceType == ReduceType::SUM, "AscendC::ReducePairElem supports ReduceType::SUM only");
    sim_detail::reduce9_types<T, U>();
    PYASC_SIM_DTYPE_CHECK(ReducePairElem, T);
    if (sim_detail::reduce9_nop(repeatTime, 1)) return;
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_REDUCE_CANN9_H_
