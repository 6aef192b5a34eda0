// Ascend C on the CPU -- the rest of the documented basic API, in order of use in public kernels
// (issue 8 point 6): the scalar bit helpers, ToBfloat16 / ToFloat, RepeatReduceSum, the reduction
// register read by GetReduceMaxMinCount, MulAddRelu (the later name of FusedMulAddRelu), Trap; and a
// DataSyncBarrier; and a compile error naming every other documented basic API the simulator lacks (kernel API reference,
// backends/sim/kernel_api/README.md, "Documented basic API").
// Written from the public Ascend C API reference; no CANN file was used.
#ifndef PYASC_SIM_KAPI_VECTOR_EXTRA_H_
#define PYASC_SIM_KAPI_VECTOR_EXTRA_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/reduce.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/sync.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector_more.h"

namespace AscendC {

// ---- scalar computation (标量计算) ------------------------------------------------------------------
// ScalarGetCountOfValue<countValue>(v): how many bits of v equal countValue (0 or 1).
// source: atlasascendc_api_07_0015.html (ScalarGetCountOfValue; 0xffff, 1 -> 16)
template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "AscendC::ScalarGetCountOfValue<countValue>: countValue is 0 or 1");
    const int64_t ones = __builtin_popcountll(valueIn);
    return countValue == 1 ? ones : 64 - ones;
}
// ScalarCountLeadingZero(v): zero bits above the highest one bit (64 for 0).
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) {
    return valueIn == 0 ? 64 : static_cast<int64_t>(__builtin_clzll(valueIn));
}
// CountBitsCntSameAsSignBit(v): consecutive bits equal to the sign bit, from the highest value bit
// down; -1 for 0 and -1 (every bit equal). source: atlasascendc_api_07_0019.html (0x0f00.. -> 3)
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
    if (valueIn == 0 || valueIn == -1) return -1;
    uint64_t u = static_cast<uint64_t>(valueIn);
    if (valueIn < 0) u = ~u;  // the sign bit is now 0: count the zeros below it
    return static_cast<int64_t>(__builtin_clzll(u)) - 1;
}
// ScalarGetSFFValue<countValue>(v): position (from the least significant bit, 0-based) of the first
// bit equal to countValue; -1 when there is none. source: atlasascendc_api_07_0020.html (28, 1 -> 2)
template <int countValue>
inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "AscendC::ScalarGetSFFValue<countValue>: countValue is 0 or 1");
    const uint64_t v = countValue == 1 ? valueIn : ~valueIn;
    return v == 0 ? -1 : static_cast<int64_t>(__builtin_ctzll(v));
}
// The CANN 9 spellings of the same helpers (templates: a kernel's own function of that name is never
// shadowed by them). source: canncommercial 900 atlasascendc_api_07_0020.html (GetSFFValue)
template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn) { return ScalarGetCountOfValue<countValue>(valueIn); }
template <int countValue>
inline int64_t GetSFFValue(uint64_t valueIn) { return ScalarGetSFFValue<countValue>(valueIn); }
// CountLeadingZero(v) (CANN 9 name of ScalarCountLeadingZero): a template on the integer type, so a
// kernel's own non-template CountLeadingZero(uint64_t) stays the better match for its calls.
template <typename U, typename = std::enable_if_t<std::is_integral<U>::value>>
inline int64_t CountLeadingZero(U valueIn) { return ScalarCountLeadingZero(static_cast<uint64_t>(valueIn)); }

// ToBfloat16(float) rounds to the nearest bfloat16_t (ties to even); ToFloat(bfloat16_t) is exact.
inline bfloat16_t ToBfloat16(const float &fVal) { return bfloat16_t(fVal); }
inline float ToFloat(const bfloat16_t &bVal) { return static_cast<float>(bVal); }

// ---- GetDataBlockSizeInBytes: the 32-byte DataBlock of the simulated SoCs -----------------------------
// source: atlasascendc_api_07_0186.html (GetDataBlockSizeInBytes)
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

// ---- RepeatReduceSum: WholeReduceSum with a contiguous mask ----------------------------------------
// dst[r * dstRepStride] = the sum of the first `mask` elements of repeat r (block stride srcBlkStride,
// repeat stride srcRepStride in 32-byte blocks); dstBlkStride is documented as ignored.
// source: atlasascendc_api_07_0086.html (RepeatReduceSum)
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(RepeatReduceSum, T);
    (void)dstBlkStride;
    sim_detail::whole_reduce(sim_detail::RedOp::kSum, "RepeatReduceSum", dst, src,
                             sim_detail::mask_of<isSetMask>(static_cast<uint64_t>(mask), 256 / sizeof(T),
                                                            "RepeatReduceSum", loc),
                             repeatTime, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE, loc);
}

// ---- GetReduceMaxMinCount: the value (and index) register of the last ReduceMax/Min ----------------
// ReduceMax / ReduceMin / WholeReduceMax / WholeReduceMin leave their result in the register (the
// whole-reduce forms: the last repeat's); the index is stored in T's bits, as documented (read it
// through reinterpret_cast to uint16_t / uint32_t). Atlas A2 documents the (value, index) form only,
// the Atlas inference series AI Core the value-only form. source: atlasascendc_api_07_0226.html
namespace sim_detail {
template <typename T>
inline void check_reduce_spr_type() {
    PYASC_SIM_DTYPE_CHECK(GetReduceMaxMinCount, T);
}
}  // namespace sim_detail

template <typename T>
inline void GetReduceMaxMinCount(T &maxMinValue, T &maxMinIndex) {
    sim_detail::check_reduce_spr_type<T>();
#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 200
    static_assert(sim_detail::always_false<T>::value,
                  "AscendC::GetReduceMaxMinCount(value, index) is not documented for the Atlas inference series "
                  "AI Core (it documents GetReduceMaxMinCount(value) only)");
#endif
    const sim_detail::ReduceSpr &s = sim_detail::reduce_spr();
    std::memcpy(&maxMinValue, s.value, sizeof(T));
    sim_detail::put_index(&maxMinIndex, s.index);
}
template <typename T>
inline void GetReduceMaxMinCount(T &maxMinValue) {
    sim_detail::check_reduce_spr_type<T>();
#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 220
    static_assert(sim_detail::always_false<T>::value,
                  "AscendC::GetReduceMaxMinCount(value) is not documented for Atlas A2 (it documents "
                  "GetReduceMaxMinCount(value, index) only)");
#endif
    std::memcpy(&maxMinValue, sim_detail::reduce_spr().value, sizeof(T));
}

// ---- Gatherb: gather whole 32-byte blocks of src0 by byte offsets ---------------------------------
// Repeat r writes 8 blocks: dst block (r * dstRepStride + j * dstBlkStride) (in 32-byte blocks) is the
// 32 bytes of src0 at byte offset offset[8 r + j] (a multiple of 32). Atlas A2: uint16_t / uint32_t;
// not on the Atlas inference series AI Core. The other GatherRepeatParams fields are documented as
// reserved. source: atlasascendc_api_07_0234.html (Gatherb(ISASI))
struct GatherRepeatParams {
    GatherRepeatParams() = default;
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
    uint8_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    uint32_t blockNumber = 8;  // reserved (documented: keep the default)
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

template <typename T>
inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &offset,
                    const uint8_t repeatTime, const GatherRepeatParams &repeatParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Gatherb, T);
    const uint32_t blocks = 8u * repeatTime;
    dst.check_aligned("Gatherb", "dst", loc);
    src0.check_aligned("Gatherb", "src0", loc);
    offset.check_aligned("Gatherb", "offset", loc);
    offset.check_read(0, static_cast<int64_t>(blocks), "Gatherb", loc);
    const bool checks = pyasc_sim::kapi::blk().checks;
    for (uint32_t i = 0; i < blocks && checks; ++i) {
        const uint32_t off = offset.ptr()[i];
        if (off % 32 != 0) {
            pyasc_sim::kapi::fail("ub-alignment", loc,
                                  "Gatherb: offset[%u] = %u bytes is not a multiple of 32; each offset selects a "
                                  "32-byte block of src0",
                                  i, off);
        }
        src0.check_bytes(static_cast<int64_t>(off), 32, "Gatherb reads", loc);
    }
    std::vector<uint8_t> tmp(static_cast<size_t>(blocks) * 32);
    for (uint32_t i = 0; i < blocks; ++i) {
        std::memcpy(tmp.data() + static_cast<size_t>(i) * 32,
                    reinterpret_cast<const uint8_t *>(src0.ptr()) + offset.ptr()[i], 32);
    }
    for (uint32_t r = 0; r < repeatTime; ++r) {
        for (uint32_t j = 0; j < 8; ++j) {
            const int64_t at = (static_cast<int64_t>(r) * repeatParams.dstRepStride +
                                static_cast<int64_t>(j) * repeatParams.dstBlkStride) * 32;
            if (checks) dst.check_bytes(at, 32, "Gatherb writes", loc);
            std::memcpy(reinterpret_cast<uint8_t *>(dst.ptr()) + at, tmp.data() + (static_cast<size_t>(r) * 8 + j) * 32,
                        32);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTime, 2.0));
}

// ---- MulAddRelu: the CANN 9 name of FusedMulAddRelu (dst = relu(src0 * dst + src1)) ----------------
// (The kernel's line is passed on, so checks report the MulAddRelu call.)
template <typename T, typename U = T>
inline void MulAddRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       const int32_t &count, PYASC_SIM_LOC) {
    FusedMulAddRelu<T, U>(dst, src0, src1, count, loc);
}
template <typename T, typename U = T, bool isSetMask = true>
inline void MulAddRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       const uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                       PYASC_SIM_LOC) {
    FusedMulAddRelu<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U = T, bool isSetMask = true>
inline void MulAddRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                       PYASC_SIM_LOC) {
    FusedMulAddRelu<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams, loc);
}

// ---- DataSyncBarrier<MemDsbT>: later instructions wait until earlier memory accesses finished ------
// On the CPU every access has finished when the next instruction starts; for the ordering checks
// (pipe-race) and the timeline it is a PipeBarrier<PIPE_ALL>, whatever the memory kind (ALL, DDR,
// UB, SEQ): no access ordered by the hardware is reported. Atlas A2 only (the page marks the Atlas
// inference series AI Core x). source: atlasascendc_api_07_0272.html (DataSyncBarrier)
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
inline void DataSyncBarrier(PYASC_SIM_LOC) {
#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 200
    static_assert(arg0 != arg0, "AscendC::DataSyncBarrier is not documented for the Atlas inference series AI Core "
                                "(the reference marks it x there)");
#endif
    sim_detail::barrier(PIPE_ALL, loc);
}

// ---- Trap: stops the AI Core; on the CPU it is an assertion (ends the block with an error) ----------
inline void Trap(PYASC_SIM_LOC) {
    pyasc_sim::kapi::fail("trap", loc, "Trap() called: the kernel stops the AI Core here (on the NPU the "
                                       "core halts with an exception; on the CPU it is a failed assertion)");
}

// ---- documented basic APIs the simulator lacks: a compile error that names them ---------------------
// The stub accepts any call (explicit template arguments: one type then values, or two types then
// values); APIs whose names a kernel may well use for its own helpers (Neg, Truncate, ...) are stubbed
// only for calls whose first argument is a LocalTensor, so a kernel's own function keeps working.
// (sim_detail::is_local_tensor: kapi/vector.h)

#define PYASC_SIM_LACKS_MSG(NAME)                                                                                 \
    "AscendC::" #NAME " is not supported by the pyasc simulator: the simulator lacks this documented Ascend C "  \
    "API (see the table \"Documented basic API\" in the kernel API reference, backends/sim/kernel_api/README.md)"
#define PYASC_SIM_LACKS(NAME)                                                                                     \
    template <typename Tp = void, auto... V, typename... A>                                                        \
    inline void NAME(A &&...) {                                                                                    \
        static_assert(sim_detail::always_false<Tp, A...>::value, PYASC_SIM_LACKS_MSG(NAME));                       \
    }                                                                                                              \
    template <typename Tp, typename Up, auto... V, typename... A>                                                  \
    inline void NAME(A &&...) {                                                                                    \
        static_assert(sim_detail::always_false<Tp, A...>::value, PYASC_SIM_LACKS_MSG(NAME));                       \
    }
#define PYASC_SIM_LACKS_ON_TENSORS(NAME)                                                                          \
    template <typename Tp = void, auto... V, typename A0, typename... A>                                           \
    inline std::enable_if_t<sim_detail::is_local_tensor<std::decay_t<A0>>::value> NAME(A0 &&, A &&...) {           \
        static_assert(sim_detail::always_false<Tp, A0, A...>::value, PYASC_SIM_LACKS_MSG(NAME));                   \
    }                                                                                                              \
    template <typename Tp, typename Up, auto... V, typename A0, typename... A>                                     \
    inline std::enable_if_t<sim_detail::is_local_tensor<std::decay_t<A0>>::value> NAME(A0 &&, A &&...) {           \
        static_assert(sim_detail::always_false<Tp, A0, A...>::value, PYASC_SIM_LACKS_MSG(NAME));                   \
    }

#define PYASC_SIM_ONLY_ON_950(NAME) PYASC_SIM_LACKS(NAME)
#define PYASC_SIM_ONLY_ON_950_TENSORS(NAME) PYASC_SIM_LACKS_ON_TENSORS(NAME)

// Keep this list equal to the "no" rows of the README table (tests/test_sim_compat_basic_rest.py checks it).
// Layout conversion, region proposals, gather / scatter by block:
PYASC_SIM_LACKS(VectorPadding)
PYASC_SIM_LACKS(SetPadValue)
PYASC_SIM_LACKS(SetLoopModePara)
PYASC_SIM_LACKS(ResetLoopModePara)
// Instructions of the Ascend 950 (Atlas 350) only the simulator lacks on every SoC:
PYASC_SIM_LACKS(MulsCast)
PYASC_SIM_LACKS_ON_TENSORS(Prelu)
PYASC_SIM_LACKS_ON_TENSORS(Mull)
PYASC_SIM_LACKS_ON_TENSORS(Truncate)
// System registers and barriers:
PYASC_SIM_LACKS(CheckLocalMemoryIA)
// Instructions of the Ascend 950 (Atlas 350) only, simulated for kernels built for it (kapi/ascend950.h);
// on the other SoC families a compile error naming the SoC that has them:
#if __CCE_AICORE__ != 310
#undef PYASC_SIM_LACKS_MSG
#define PYASC_SIM_LACKS_MSG(NAME)                                                                                 \
    "AscendC::" #NAME " is not supported by the pyasc simulator on this SoC: the reference documents it for the " \
    "Atlas 350 / Ascend 950 only; build the kernel with soc=\"Ascend950PR_9599\" (kernel API reference, "         \
    "backends/sim/kernel_api/README.md)"
PYASC_SIM_ONLY_ON_950(AbsSub)
PYASC_SIM_ONLY_ON_950(ExpSub)
PYASC_SIM_ONLY_ON_950_TENSORS(Neg)
PYASC_SIM_ONLY_ON_950_TENSORS(Ands)
PYASC_SIM_ONLY_ON_950_TENSORS(Ors)
PYASC_SIM_ONLY_ON_950_TENSORS(Subs)
PYASC_SIM_ONLY_ON_950_TENSORS(Divs)
PYASC_SIM_ONLY_ON_950_TENSORS(Interleave)
PYASC_SIM_ONLY_ON_950_TENSORS(DeInterleave)
#endif
#undef PYASC_SIM_ONLY_ON_950_TENSORS
#undef PYASC_SIM_ONLY_ON_950
#undef PYASC_SIM_LACKS_ON_TENSORS
#undef PYASC_SIM_LACKS
#undef PYASC_SIM_LACKS_MSG

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_VECTOR_EXTRA_H_
