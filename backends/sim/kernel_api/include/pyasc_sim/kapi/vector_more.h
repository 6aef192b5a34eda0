// Ascend C on the CPU -- more basic vector instructions public kernels use: bitwise And / Or / Not,
// ShiftLeft / ShiftRight, LeakyRelu, AddRelu, Axpy, BlockReduceSum/Max/Min, PairReduceSum, Copy,
// Brcb, Gather, GatherMask, Transpose (16x16), CompareScalar, ScalarCast, Std::min / Std::max.
// Written from the public Ascend C API reference.  Same engines and checks as vector.h (alignment,
// local bounds, mask range, counts); the documented APIs the simulator lacks are in vector_extra.h.
#ifndef PYASC_SIM_KAPI_VECTOR_MORE_H_
#define PYASC_SIM_KAPI_VECTOR_MORE_H_

#include <algorithm>
#include <vector>

#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// ---- parameter structures of these instructions ----------------------------------------------------
struct CopyRepeatParams {
    uint16_t dstStride = sim_detail::DEFAULT_BLK_STRIDE;  // data-block stride inside a repeat, in 32-byte blocks
    uint16_t srcStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = sim_detail::DEFAULT_REPEAT_STRIDE;  // repeat stride, in 32-byte blocks
    uint16_t srcRepeatSize = sim_detail::DEFAULT_REPEAT_STRIDE;
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
};
struct BrcbRepeatParams {
    uint16_t dstBlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
};
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 1;
    uint16_t src0RepeatStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = 1;
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                     uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
};

namespace sim_detail {
template <typename T>
inline T bit_and(T a, T b) {
    static_assert(std::is_integral<T>::value, "AscendC::And takes integer element types (int16_t, uint16_t, ...)");
    return static_cast<T>(a & b);
}
template <typename T>
inline T bit_or(T a, T b) {
    static_assert(std::is_integral<T>::value, "AscendC::Or takes integer element types (int16_t, uint16_t, ...)");
    return static_cast<T>(a | b);
}
template <typename T>
inline T leaky(T a, T alpha) {
    return a >= T(0) ? a : static_cast<T>(cv(a) * cv(alpha));
}
template <typename T>
inline T add_relu(T a, T b) {
    const T s = static_cast<T>(a + b);
    return s > T(0) ? s : T(0);
}
}  // namespace sim_detail

// ---- binary, unary and scalar families (count form and both mask forms) ---------------------------
#define PYASC_SIM_BINARY2_MASKED(NAME, EXPR)                                                                       \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,     \
                     PYASC_SIM_LOC) {                                                                              \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_repeat(#NAME, dst, src0, src1,                                                          \
                                  sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes,  \
                                  repeatParams, 1.0, loc, [](T a, T b) -> T { return EXPR; });                     \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,       \
                     PYASC_SIM_LOC) {                                                                              \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_repeat(#NAME, dst, src0, src1,                                                          \
                                  sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes,  \
                                  repeatParams, 1.0, loc, [](T a, T b) -> T { return EXPR; });                     \
    }

#define PYASC_SIM_BINARY2(NAME, EXPR)                                                                              \
    template <typename T>                                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const int32_t &count, PYASC_SIM_LOC) {                                                        \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_count(#NAME, dst, src0, src1, count, 1.0, loc, [](T a, T b) -> T { return EXPR; });    \
    }                                                                                                              \
    PYASC_SIM_BINARY2_MASKED(NAME, EXPR)

// And / Or, count form, on int32_t / uint32_t for Atlas A2 / A3 (__CCE_AICORE__ 220).  The reference lists int16_t
// and uint16_t there (And atlasascendc_api_07_0041, Or 07_0042, every edition; int32_t / uint32_t are listed for
// the Atlas 350 only).  The SDK's C220 implementation of this form (asc-devkit impl/basic_api/dav_c220/
// kernel_operator_vec_binary_impl.h, AndImpl / OrImpl with a count) checks the element type only in its debug
// builds, against int16_t / uint16_t / uint32_t / int32_t, and runs vand / vor on the addresses cast to int16_t
// ("for compatibility, in older version, all dtype reinterpret_cast to int16_t") in counter mode: count counts
// 16-bit lanes, so count n covers n / 2 elements of a 4-byte type (the SDK's own `a & b` / `a | b` on int32_t /
// uint32_t tensors pass GetSize() * 2; newer editions' debug builds warn that these types are "not recommended").
// Here the same: the bits of the first count 16-bit halves, with the warning dtype-unlisted (an error with
// PYASC_SIM_STRICT).  The mask forms keep the table (the SDK static_asserts int16_t / uint16_t for them), and the
// Atlas inference series keeps its table (its AndImpl / OrImpl static_assert int16_t / uint16_t in every form).
// Round 27 (s27a): the same implementation takes a 1-byte type too (int8_t / uint8_t: the debug-only ASCENDC_ASSERT
// lists them not, the device build has no check), and count then counts 16-bit lanes = 2 bytes, so count n covers
// 2 n elements (Ascend/DrivingSDK cylinder_query Ands its CompareScalar bit masks as uint8_t with count = the mask
// bytes, into buffers twice that size): the same bits and the same warning here; the tensor operators keep the
// table for 1-byte types (nothing shows what the SDK's `&` passes for them).
namespace sim_detail {
template <typename T>
inline constexpr bool bitwise_b8_lanes16 =
    __CCE_AICORE__ == 220 && (std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value);
template <typename T>
inline constexpr bool bitwise_b32_lanes16 =
    __CCE_AICORE__ == 220 && (std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value);
// The warning of both: the bytes and elements `count` 16-bit lanes cover.
template <typename T>
inline void warn_bitwise_lanes16(const char *api, int32_t count, const pyasc_sim::kapi::SrcLoc &loc) {
    const long long n = count < 0 ? 0 : count;
    const char *t = pyasc_sim::kapi::dtypes::type_name<T>();
    const bool b8 = sizeof(T) == 1;
    pyasc_sim::kapi::warn("dtype-unlisted", loc,
                          "AscendC::%s(dst, src0, src1, count) on element type %s: the reference lists int16_t and "
                          "uint16_t for Atlas A2 / A3; the SDK's C220 implementation accepts %s and runs the "
                          "instruction on 16-bit lanes, so count counts %s: count %lld covers %lld bytes, "
                          "%lld elements of %s%s. Fix: call %s on ReinterpretCast<int16_t>() views with count = %s",
                          api, t, t, b8 ? "16-bit lanes (byte pairs)" : "16-bit halves", n, 2 * n, b8 ? 2 * n : n / 2,
                          t, !b8 && n % 2 != 0 ? " and the low half of the next" : "", api,
                          b8 ? "the bytes / 2" : "2 x the elements");
}
}  // namespace sim_detail

#define PYASC_SIM_BITWISE2(NAME, FN)                                                                               \
    template <typename T>                                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const int32_t &count, PYASC_SIM_LOC) {                                                        \
        if constexpr (sim_detail::bitwise_b32_lanes16<T> || sim_detail::bitwise_b8_lanes16<T>) {                \
            if (!PYASC_SIM_DTYPE_OK(NAME, T)) sim_detail::warn_bitwise_lanes16<T>(#NAME, count, loc);              \
            sim_detail::binary_count(#NAME, dst.template ReinterpretCast<int16_t>(),                               \
                                     src0.template ReinterpretCast<int16_t>(),                                     \
                                     src1.template ReinterpretCast<int16_t>(), count, 1.0, loc,                    \
                                     [](int16_t a, int16_t b) -> int16_t { return sim_detail::FN(a, b); });        \
        } else {                                                                                                   \
            PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                        \
            sim_detail::binary_count(#NAME, dst, src0, src1, count, 1.0, loc,                                      \
                                     [](T a, T b) -> T { return sim_detail::FN(a, b); });                          \
        }                                                                                                          \
    }                                                                                                              \
    PYASC_SIM_BINARY2_MASKED(NAME, sim_detail::FN(a, b))

#define PYASC_SIM_SCALAR2(NAME, EXPR)                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const int32_t &count, PYASC_SIM_LOC) {        \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_count(#NAME, dst, src, count, 1.0, loc, [s](T a) -> T { return EXPR; });                 \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const uint64_t mask[],                        \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, 1.0, loc, [s](T a) -> T { return EXPR; });             \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const uint64_t mask,                          \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, 1.0, loc, [s](T a) -> T { return EXPR; });             \
    }

PYASC_SIM_BITWISE2(And, bit_and)
PYASC_SIM_BITWISE2(Or, bit_or)
PYASC_SIM_BINARY2(AddRelu, sim_detail::add_relu(a, b))
PYASC_SIM_SCALAR2(LeakyRelu, sim_detail::leaky(a, s))
PYASC_SIM_SCALAR2(ShiftLeft, static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << s))
PYASC_SIM_BINARY2(SubRelu, sim_detail::add_relu(a, static_cast<T>(-b)))
#undef PYASC_SIM_BINARY2
#undef PYASC_SIM_BINARY2_MASKED
#undef PYASC_SIM_BITWISE2
#undef PYASC_SIM_SCALAR2

// Three-operand forms that read dst: MulAddDst (dst = src0 * src1 + dst), FusedMulAdd
// (dst = src0 * dst + src1), FusedMulAddRelu (relu of FusedMulAdd); count form and both mask forms.
namespace sim_detail {
// Which product and addend a form takes (count forms of float and half run the vector loops of
// kapi/simd.h fma3_*, the same bits as f): MulAddDst src0 * src1 + dst, FusedMulAdd(Relu) src0 * dst + src1.
enum class Fma3 { kNone, kMulAddDst, kFusedMulAdd, kFusedMulAddRelu };
template <Fma3 K, typename T>
inline bool ternary_fast(T *d, const T *s0, const T *s1, int64_t n) {
    constexpr bool relu = K == Fma3::kFusedMulAddRelu, mad = K == Fma3::kMulAddDst;
    if constexpr (K == Fma3::kNone) {
        return false;
    } else if constexpr (std::is_same<T, float>::value) {
        return pyasc_sim::simd::fma3_f32(d, s0, mad ? s1 : d, mad ? d : s1, n, relu);
    } else if constexpr (std::is_same<T, half>::value) {
        return pyasc_sim::simd::fma3_f16(d, s0, mad ? s1 : d, mad ? d : s1, n, relu);
    } else {
        (void)d, (void)s0, (void)s1, (void)n;
        return false;
    }
}
template <Fma3 K = Fma3::kNone, typename T, typename U, typename F>
inline void ternary_count(const char *api, const LocalTensor<T> &dst, const LocalTensor<U> &s0,
                          const LocalTensor<U> &s1, int64_t count, const SrcLoc &loc, F f) {
    pyasc_sim::kapi::BlockState *b = unchecked_block(loc);  // checks off: one block lookup (as binary_count)
    if (b != nullptr) {
        count = count < 0 ? 0 : count;
    } else {
        pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
        count = check_count(count, api, loc);
        // dst is written and read (the addend or a factor): after its write check (which settles an earlier
        // instruction's pending destination), as a source
        PYASC_SIM_VTAINT_CHECKED(bs,
                                 check_operand(bs, dst, api, "dst", count, loc);
                                 check_operand_as(bs, dst, api, "dst", true, count, loc);
                                 check_operand(bs, s0, api, "src0", count, loc);
                                 check_operand(bs, s1, api, "src1", count, loc);,
                                 vtaint_count(bs, dst, s0, s1, dst, count));
    }
    bool done = false;
    if constexpr (std::is_same<T, U>::value) done = ternary_fast<K>(dst.ptr(), s0.ptr(), s1.ptr(), count);
    if (!done) {
        for (int64_t i = 0; i < count; ++i) dst.ptr()[i] = f(s0.ptr()[i], s1.ptr()[i], dst.ptr()[i]);
    }
    pyasc_sim::kapi::charge(b != nullptr ? *b : pyasc_sim::kapi::blk(), pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, sizeof(T))));
}
template <typename T, typename F>
inline void ternary_repeat(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &s0, const LocalTensor<T> &s1,
                           const Mask &m, uint8_t repeats, const BinaryRepeatParams &p, const SrcLoc &loc, F f) {
    constexpr int64_t e = 32 / sizeof(T);
    const Opnd od{p.dstBlkStride, p.dstRepStride, e}, o0{p.src0BlkStride, p.src0RepStride, e},
        o1{p.src1BlkStride, p.src1RepStride, e};
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
    PYASC_SIM_VTAINT_CHECKED(bs,
                             check_operand(dst, api, "dst", od, repeats, m, loc);
                             check_operand_as(dst, api, "dst", true, od, repeats, m, loc);
                             check_operand(s0, api, "src0", o0, repeats, m, loc);
                             check_operand(s1, api, "src1", o1, repeats, m, loc);,
                             const uint64_t ad = dst.mem_offset(bs), a0 = s0.mem_offset(bs), a1 = s1.mem_offset(bs);
                             vtaint_apply(bs, dst, [&](auto emit) {
                                 for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
                                     emit(od.off(r, i), vtaint_src(bs, dst, ad, od.off(r, i)) ||
                                                            vtaint_src(bs, s0, a0, o0.off(r, i)) ||
                                                            vtaint_src(bs, s1, a1, o1.off(r, i)));
                                 });
                             }));
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
        T &d = dst.ptr()[od.off(r, i)];
        d = f(s0.ptr()[o0.off(r, i)], s1.ptr()[o1.off(r, i)], d);
    });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
template <typename T>
inline T fma_round(T a, T b, T c) {  // a * b + c in double, rounded once to T; NaNs in the written order (simd.h)
    return static_cast<T>(static_cast<calc_t<T>>(pyasc_sim::simd::fma3_f64_one(
        pyasc_sim::kapi::to_double(a), pyasc_sim::kapi::to_double(b), pyasc_sim::kapi::to_double(c))));
}
}  // namespace sim_detail
// MIXED: the count form also takes float dst with half sources (MulAddDst page atlasascendc_api_07_0048, T / U;
// the vmla page cceapi_0012: the half products added to float, 64 elements a repeat): each half is widened to
// float, whose product is exact, and a * b + d is rounded once to float.
#define PYASC_SIM_TERNARY(NAME, MIXED, EXPR)                                                                       \
    template <typename T, typename U = T>                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,            \
                     const int32_t &count, PYASC_SIM_LOC) {                                                        \
        static_assert(std::is_same<T, U>::value ||                                                                 \
                          (MIXED && std::is_same<T, float>::value && std::is_same<U, half>::value),                \
                      #NAME ": of the mixed-precision forms the pyasc simulator takes the count form with float "  \
                            "dst and half sources (MulAddDst) only");                                              \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::ternary_count<sim_detail::Fma3::k##NAME>(                                                      \
            #NAME, dst, src0, src1, count, loc, [](U ua, U ub, T d) -> T {                                         \
                const T a = static_cast<T>(ua), b = static_cast<T>(ub);                                            \
                return EXPR;                                                                                       \
            });                                                                                                    \
    }                                                                                                              \
    template <typename T, typename U = T, bool isSetMask = true>                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,            \
                     const uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,       \
                     PYASC_SIM_LOC) {                                                                              \
        static_assert(std::is_same<T, U>::value, #NAME ": mixed-precision forms are not supported by the pyasc "   \
                                                 "simulator");                                                     \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::ternary_repeat(#NAME, dst, src0, src1,                                                         \
                                   sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes, \
                                   repeatParams, loc, [](T a, T b, T d) -> T { return EXPR; });                    \
    }                                                                                                              \
    template <typename T, typename U = T, bool isSetMask = true>                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,            \
                     const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,     \
                     PYASC_SIM_LOC) {                                                                              \
        static_assert(std::is_same<T, U>::value, #NAME ": mixed-precision forms are not supported by the pyasc "   \
                                                 "simulator");                                                     \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::ternary_repeat(#NAME, dst, src0, src1,                                                         \
                                   sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes, \
                                   repeatParams, loc, [](T a, T b, T d) -> T { return EXPR; });                    \
    }
PYASC_SIM_TERNARY(MulAddDst, true, sim_detail::fma_round(a, b, d))
PYASC_SIM_TERNARY(FusedMulAdd, false, sim_detail::fma_round(a, d, b))
PYASC_SIM_TERNARY(FusedMulAddRelu, false,
                  (sim_detail::fma_round(a, d, b) > T(0) ? sim_detail::fma_round(a, d, b) : T(0)))
#undef PYASC_SIM_TERNARY

// ShiftRight: arithmetic for signed types, logical for unsigned; roundEn (mask form) rounds the
// shifted-out half up.
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const pyasc_sim::kapi::ident_t<T> &scalarValue,
                       const int32_t &count, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "ShiftRight takes integer element types");
    PYASC_SIM_DTYPE_CHECK(ShiftRight, T);
    const T s = scalarValue;
    sim_detail::unary_count("ShiftRight", dst, src, count, 1.0, loc, [s](T a) -> T { return static_cast<T>(a >> s); });
}
namespace sim_detail {
template <typename T>
inline T shift_right(T a, T s, bool roundEn) {
    T r = static_cast<T>(a >> s);
    if (roundEn && s > 0 && ((a >> (s - 1)) & 1)) r = static_cast<T>(r + 1);
    return r;
}
}  // namespace sim_detail
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const pyasc_sim::kapi::ident_t<T> &scalarValue,
                       const uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams,
                       bool roundEn = false, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "ShiftRight takes integer element types");
    PYASC_SIM_DTYPE_CHECK(ShiftRight, T);
    const T s = scalarValue;
    sim_detail::unary_repeat("ShiftRight", dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "ShiftRight", loc),
                             repeatTimes, repeatParams, 1.0, loc,
                             [s, roundEn](T a) -> T { return sim_detail::shift_right(a, s, roundEn); });
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const pyasc_sim::kapi::ident_t<T> &scalarValue,
                       const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams,
                       bool roundEn = false, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "ShiftRight takes integer element types");
    PYASC_SIM_DTYPE_CHECK(ShiftRight, T);
    const T s = scalarValue;
    sim_detail::unary_repeat("ShiftRight", dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "ShiftRight", loc),
                             repeatTimes, repeatParams, 1.0, loc,
                             [s, roundEn](T a) -> T { return sim_detail::shift_right(a, s, roundEn); });
}

// Not: bitwise complement (integer types).
template <typename T>
inline void Not(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "Not takes integer element types");
    PYASC_SIM_DTYPE_CHECK(Not, T);
    sim_detail::unary_count("Not", dst, src, count, 1.0, loc, [](T a) -> T { return static_cast<T>(~a); });
}
template <typename T, bool isSetMask = true>
inline void Not(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTimes,
                const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "Not takes integer element types");
    PYASC_SIM_DTYPE_CHECK(Not, T);
    sim_detail::unary_repeat("Not", dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Not", loc),
                             repeatTimes, repeatParams, 1.0, loc, [](T a) -> T { return static_cast<T>(~a); });
}
template <typename T, bool isSetMask = true>
inline void Not(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTimes,
                const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    static_assert(std::is_integral<T>::value, "Not takes integer element types");
    PYASC_SIM_DTYPE_CHECK(Not, T);
    sim_detail::unary_repeat("Not", dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Not", loc),
                             repeatTimes, repeatParams, 1.0, loc, [](T a) -> T { return static_cast<T>(~a); });
}

// Axpy: dst = src * scalar + dst (src may be half with a float dst, as documented).
namespace sim_detail {
template <typename T, typename U>
inline void axpy_count(const LocalTensor<T> &dst, const LocalTensor<U> &src, double s, int64_t count, const SrcLoc &loc) {
    count = check_count(count, "Axpy", loc);
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
    PYASC_SIM_VTAINT_CHECKED(bs,
                             check_operand(bs, dst, "Axpy", "dst", count, loc);
                             check_operand_as(bs, dst, "Axpy", "dst", true, count, loc);  // the addend
                             check_operand(bs, src, "Axpy", "src", count, loc);,
                             vtaint_count(bs, dst, dst, src, count));
    for (int64_t i = 0; i < count; ++i) {
        dst.ptr()[i] = static_cast<T>(static_cast<calc_t<T>>(pyasc_sim::kapi::to_double(src.ptr()[i]) * s +
                                                            pyasc_sim::kapi::to_double(dst.ptr()[i])));
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, std::max(sizeof(T), sizeof(U)))));
}
}  // namespace sim_detail
template <typename T, typename U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue, const int32_t &count,
                 PYASC_SIM_LOC) {
    PYASC_SIM_AXPY_CHECK(T, U);
    sim_detail::axpy_count(dst, src, pyasc_sim::kapi::to_double(scalarValue), count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue, const uint64_t mask,
                 const uint8_t repeatTimes, const UnaryRepeatParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_AXPY_CHECK(T, U);
    const double s = pyasc_sim::kapi::to_double(scalarValue);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, 256 / std::max(sizeof(T), sizeof(U)), "Axpy", loc);
    const sim_detail::Opnd od{p.dstBlkStride, p.dstRepStride, static_cast<int64_t>(32 / sizeof(T))},
        os{p.srcBlkStride, p.srcRepStride, static_cast<int64_t>(32 / sizeof(U))};
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
    PYASC_SIM_VTAINT_CHECKED(bs,
                             sim_detail::check_operand(dst, "Axpy", "dst", od.extent(repeatTimes, m), loc);
                             sim_detail::check_operand_as(dst, "Axpy", "dst", true, od, repeatTimes, m, loc);
                             sim_detail::check_operand(src, "Axpy", "src", os, repeatTimes, m, loc);,
                             const uint64_t ad = dst.mem_offset(bs), as = src.mem_offset(bs);
                             sim_detail::vtaint_apply(bs, dst, [&](auto emit) {
                                 sim_detail::for_each_masked(repeatTimes, m, [&](uint32_t r, uint32_t i) {
                                     emit(od.off(r, i), sim_detail::vtaint_src(bs, dst, ad, od.off(r, i)) ||
                                                            sim_detail::vtaint_src(bs, src, as, os.off(r, i)));
                                 });
                             }));
    sim_detail::for_each_masked(repeatTimes, m, [&](uint32_t r, uint32_t i) {
        T &d = dst.ptr()[od.off(r, i)];
        d = static_cast<T>(static_cast<sim_detail::calc_t<T>>(pyasc_sim::kapi::to_double(src.ptr()[os.off(r, i)]) * s +
                                                               pyasc_sim::kapi::to_double(d)));
    });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTimes));
}

// ---- BlockReduceSum/Max/Min: one result per 32-byte data block; PairReduceSum: per element pair ----
// Repeat r writes its results to dst[r * dstRepStride * R + j] with R = 8 (block) or E / 2 (pair)
// results per repeat; only blocks (pairs) with an active mask element are written.
namespace sim_detail {
enum class GroupOp { Sum, Max, Min };
template <typename T, typename M>
inline void group_reduce(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t repeat, M maskIn,
                         int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, uint32_t group, GroupOp op,
                         const SrcLoc &loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    const Mask m = mask_of<true>(maskIn, epr, api, loc);
    if (repeat < 0 && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-count", loc, "%s: repeatTime %d is negative", api, repeat);
    }
    const uint32_t reps = repeat < 0 ? 0u : static_cast<uint32_t>(repeat);
    const uint32_t per = epr / group;  // results per repeat
    const Opnd os{srcBlkStride, srcRepStride, static_cast<int64_t>(32 / sizeof(T))};
    check_operand(src, api, "src", os, reps, m, loc);
    dst.check_aligned(api, "dst", loc, sizeof(T));
    if (reps > 0) dst.check(0, static_cast<int64_t>(reps - 1) * dstRepStride * per + per, api, loc);
    for (uint32_t r = 0; r < reps; ++r) {
        for (uint32_t g = 0; g < per; ++g) {
            double acc = 0.0;
            bool any = false;
            for (uint32_t k = 0; k < group; ++k) {
                const uint32_t i = g * group + k;
                if (!m.test(i)) continue;
                const double v = pyasc_sim::kapi::to_double(src.ptr()[os.off(r, i)]);
                if (!any) {
                    acc = v;
                } else if (op == GroupOp::Sum) {
                    acc += v;
                } else if (op == GroupOp::Max) {
                    acc = std::max(acc, v);
                } else {
                    acc = std::min(acc, v);
                }
                any = true;
            }
            if (any) dst.ptr()[static_cast<int64_t>(r) * dstRepStride * per + g] = static_cast<T>(acc);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(reps, 2.0));
}
}  // namespace sim_detail

#define PYASC_SIM_GROUP_REDUCE(NAME, GROUP, OP)                                                                      \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,                 \
                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                     \
                     const int32_t srcRepStride, PYASC_SIM_LOC) {                                                    \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        sim_detail::group_reduce(#NAME, dst, src, repeatTime, static_cast<uint64_t>(mask), dstRepStride,             \
                                 srcBlkStride, srcRepStride, GROUP, sim_detail::GroupOp::OP, loc);                   \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,                 \
                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,                  \
                     const int32_t srcRepStride, PYASC_SIM_LOC) {                                                    \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        sim_detail::group_reduce(#NAME, dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, GROUP, \
                                 sim_detail::GroupOp::OP, loc);                                                      \
    }
PYASC_SIM_GROUP_REDUCE(BlockReduceSum, 32 / sizeof(T), Sum)
PYASC_SIM_GROUP_REDUCE(BlockReduceMax, 32 / sizeof(T), Max)
PYASC_SIM_GROUP_REDUCE(BlockReduceMin, 32 / sizeof(T), Min)
PYASC_SIM_GROUP_REDUCE(PairReduceSum, 2, Sum)
#undef PYASC_SIM_GROUP_REDUCE

// ---- Copy: local -> local (VECIN/VECCALC/VECOUT), mask / repeat form --------------------------------
namespace sim_detail {
template <typename T, bool isSetMask = true, typename M>
inline void sim_copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, M mask, const uint8_t repeatTimes,
                     const CopyRepeatParams &p, const pyasc_sim::kapi::SrcLoc &loc) {
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Copy", loc);
    const sim_detail::Opnd od{p.dstStride, p.dstRepeatSize, static_cast<int64_t>(32 / sizeof(T))},
        os{p.srcStride, p.srcRepeatSize, static_cast<int64_t>(32 / sizeof(T))};
    sim_detail::check_operand(dst, "Copy", "dst", od.extent(repeatTimes, m), loc);
    sim_detail::check_operand(src, "Copy", "src", os, repeatTimes, m, loc);
    sim_detail::for_each_masked(repeatTimes, m,
                                [&](uint32_t r, uint32_t i) { dst.ptr()[od.off(r, i)] = src.ptr()[os.off(r, i)]; });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTimes));
}
}  // namespace sim_detail
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTimes,
                 const CopyRepeatParams &repeatParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Copy, T);
    sim_detail::sim_copy<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTimes,
                 const CopyRepeatParams &repeatParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Copy, T);
    sim_detail::sim_copy<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams, loc);
}

// ---- Brcb: each of 8 source elements per repeat fills one 32-byte block of dst --------------------
template <typename T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime,
                 const BrcbRepeatParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Brcb, T);
    constexpr int64_t e = 32 / sizeof(T);
    const int64_t nsrc = static_cast<int64_t>(repeatTime) * 8;
    src.check_aligned("Brcb", "src", loc);
    // elementwise (dst block j of repeat r from source element r * 8 + j): never-written source
    // sectors are taint (kapi/vector_taint.h)
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    std::vector<int64_t> tainted;  // source elements in never-written sectors
    if (b.checks && nsrc > 0) {
        src.check_access(b, 0, nsrc * static_cast<int64_t>(sizeof(T)), LocalTensor<T>::kReadSpan, "Brcb reads", loc);
        const uint64_t at = src.mem_offset(b), bytes = static_cast<uint64_t>(nsrc) * sizeof(T);
        if (pyasc_sim::kapi::local_first_unwritten(b, src.kind(), at, bytes) >= 0) {
            for (int64_t i = 0; i < nsrc; ++i) {
                if (sim_detail::vtaint_src(b, src, at, i)) tainted.push_back(i);
            }
        }
    }
    dst.check_aligned("Brcb", "dst", loc);
    if (repeatTime > 0) {
        dst.check(0, (static_cast<int64_t>(repeatTime) - 1) * p.dstRepStride * e + 7 * p.dstBlkStride * e + e,
                  "Brcb writes", loc);
    }
    if (!tainted.empty()) {
        const uint64_t base = dst.mem_offset(b);
        for (int64_t i : tainted) {
            const int64_t blkAt = (i / 8) * p.dstRepStride * e + (i % 8) * p.dstBlkStride * e;
            pyasc_sim::kapi::local_mark_unwritten(b, dst.kind(), base + static_cast<uint64_t>(blkAt) * sizeof(T), 32);
        }
    }
    for (int64_t r = 0; r < repeatTime; ++r) {
        for (int64_t j = 0; j < 8; ++j) {
            const T v = src.ptr()[r * 8 + j];
            T *blk = dst.ptr() + r * p.dstRepStride * e + j * p.dstBlkStride * e;
            for (int64_t k = 0; k < e; ++k) blk[k] = v;
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTime));
}

// ---- Gather: dst[i] = the element at byte offset srcBaseAddr + srcOffset[i] of src ----------------
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Gather, T);
    sim_detail::check_operand(dst, "Gather", "dst", count, loc);
    sim_detail::check_operand(srcOffset, "Gather", "srcOffset", count, loc);
    src.check_aligned("Gather", "src", loc);
    if (pyasc_sim::kapi::blk().checks && count > 0) {
        // Checked by 32-byte sectors, as bounds, initcheck and pipe-race work: alignment per
        // element; bounds by the element ending last (offsets are unsigned); the reads as runs of
        // the sectors the elements touch (a transposing table touches each sector many times).
        std::vector<uint8_t> seen;
        uint64_t lastOff = 0, lastEnd = 0;
        for (uint32_t i = 0; i < count; ++i) {
            const uint64_t off = static_cast<uint64_t>(srcBaseAddr) + srcOffset.ptr()[i];
            if (off % sizeof(T) != 0) {
                pyasc_sim::kapi::fail("ub-alignment", loc,
                                      "Gather: srcOffset[%u] = %u (+ srcBaseAddr %u) is not a multiple of the %zu-byte "
                                      "element size; offsets are in bytes",
                                      i, srcOffset.ptr()[i], srcBaseAddr, sizeof(T));
            }
            if (off + sizeof(T) > lastEnd) {
                lastOff = off;
                lastEnd = off + sizeof(T);
            }
            const uint64_t sector = off / 32;
            if (sector < (uint64_t{1} << 20)) {
                if (sector >= seen.size()) seen.resize(sector + 1, 0);
                seen[sector] = 1;
            }
        }
        src.check_bytes(static_cast<int64_t>(lastOff), sizeof(T), "Gather reads", loc);
        for (uint64_t a = 0; a < seen.size();) {
            if (!seen[a]) {
                ++a;
                continue;
            }
            uint64_t b = a;
            while (b < seen.size() && seen[b]) ++b;
            const uint64_t lo = a * 32, hi = std::min<uint64_t>(b * 32, lastEnd);
            src.check_bytes(static_cast<int64_t>(lo), static_cast<int64_t>(hi - lo), "Gather reads", loc);
            a = b;
        }
    }
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t off = static_cast<uint64_t>(srcBaseAddr) + srcOffset.ptr()[i];
        std::memcpy(dst.ptr() + i, reinterpret_cast<const uint8_t *>(src.ptr()) + off, sizeof(T));
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(count, sizeof(T)), 2.0));
}

// ---- GatherMask: keep the src0 elements whose pattern bit is set, packed into dst ------------------
// src1Pattern 1..7 is a built-in pattern (1: even indices, 2: odd, 3..6: index % 4 == 0..3, 7: all) that
// every repeat uses from its start; the tensor form reads one bit per element, each repeat's bits starting
// src1RepeatStride 32-byte blocks after the previous repeat's and consumed contiguously within the repeat.
// src0: element i of repeat r at r * src0RepeatStride + (i / per-block) * src0BlockStride blocks (+ i % per-block).
// reduceMode false (Normal): each repeat covers 256 bytes (mask ignored), repeatTimes repeats.
// reduceMode true (Counter), GatherMask page atlasascendc_api_07_0071 (reduceMode row, every edition from
// CANN 8.0): "配置方式一" -- each repeat covers `mask` elements, repeatTimes repeats -- on Atlas A2 / A3, the
// Atlas 200I/500 A2 and the Ascend 950; "配置方式二" -- `mask` elements in all, repeatTimes ignored, 256-byte
// repeats (the last one partial) -- on the Atlas inference series AI Core (__CCE_AICORE__ 200).  In both the
// strides apply as in Normal mode (the page's figures: src0RepeatStride 4 starts repeat 2 at element 33,
// src1RepeatStride 0 re-reads the pattern from its start).  rsvdCnt is the number of elements written.
namespace sim_detail {
struct GatherMaskRepeats {
    uint32_t repeats;
    uint32_t per;   // elements of every repeat but the last
    uint32_t last;  // elements of the last repeat
    uint32_t of(uint32_t r) const { return r + 1 == repeats ? last : per; }
};
template <typename T>
inline GatherMaskRepeats gather_mask_repeats(bool reduceMode, uint32_t mask, const GatherMaskParams &p) {
    constexpr uint32_t epr = 256 / sizeof(T);
    if (!reduceMode) return {p.repeatTimes, epr, epr};
#if __CCE_AICORE__ == 200
    const uint32_t n = (mask + epr - 1) / epr;  // configuration 2: mask elements in all
    return {n, epr, mask - (n == 0 ? 0 : (n - 1) * epr)};
#else
    return {p.repeatTimes, mask, mask};  // configuration 1: mask elements per repeat
#endif
}
// src0 of GatherMask, as the repeat forms' sources (vector.h check_operand_as): bounds and pipe-race over the
// extent the selected elements span; initcheck by the vector-read rule -- the first 32-byte block read and some
// block of every repeat holding a selected element must have been written (a repeat read whole over a partly
// filled tile, e.g. the last 8 points of a point cloud, selects lanes the kernel then ignores).
// extent: one past the last selected element (gather_mask's scan).
template <typename T, typename Bit>
inline void gather_mask_src_check(const LocalTensor<T> &src0, Bit bit, const GatherMaskRepeats &rs, const Opnd &os,
                                  int64_t extent, const SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.checks || extent == 0) return;
    src0.check_read_span(0, extent, "GatherMask reads", loc);
    const int k = src0.kind();
    const uint64_t base = src0.mem_offset(b);
    const int64_t esz = static_cast<int64_t>(sizeof(T));
    bool first = true;
    for (uint32_t r = 0; r < rs.repeats; ++r) {
        int64_t some = -1, seen = -1;
        bool any = false;
        for (uint32_t i = 0, per = rs.of(r); i < per && !any; ++i) {
            if (!bit(r, i)) continue;
            const int64_t at = os.off(r, i) / os.epb * os.epb * esz;  // the element's 32-byte block
            if (at == seen) continue;
            seen = at;
            any = pyasc_sim::kapi::local_any_written(b, k, base + static_cast<uint64_t>(at), 32);
            if (first) {
                first = false;
                if (!any) src0.init_read(at, 32, "GatherMask reads", loc, extent * esz, 0);
            }
            if (some < 0) some = at;
        }
        if (!any && some >= 0) src0.init_read(some, 32, "GatherMask reads", loc, extent * esz, 0);
    }
}
template <typename T, typename Bit>
inline void gather_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, Bit bit, bool reduceMode, uint32_t mask,
                        const GatherMaskParams &p, uint64_t &rsvdCnt, const SrcLoc &loc) {
    if (reduceMode && (mask == 0) && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-mask", loc, "GatherMask: mask 0 in reduceMode (counter mode) selects no element");
    }
    const GatherMaskRepeats rs = gather_mask_repeats<T>(reduceMode, mask, p);
    const Opnd os{p.src0BlockStride, p.src0RepeatStride, static_cast<int64_t>(32 / sizeof(T))};
    src0.check_aligned("GatherMask", "src0", loc);
    dst.check_aligned("GatherMask", "dst", loc);
    uint64_t n = 0;  // the selected elements, and one past the last of them in src0
    int64_t extent = 0;
    for (uint32_t r = 0; r < rs.repeats; ++r) {
        for (uint32_t i = 0, per = rs.of(r); i < per; ++i) {
            if (!bit(r, i)) continue;
            ++n;
            extent = std::max<int64_t>(extent, os.off(r, i) + 1);
        }
    }
    gather_mask_src_check(src0, bit, rs, os, extent, loc);
    dst.check(0, static_cast<int64_t>(n), "GatherMask writes", loc);  // bounds before the copy
    n = 0;
    for (uint32_t r = 0; r < rs.repeats; ++r) {
        for (uint32_t i = 0, per = rs.of(r); i < per; ++i) {
            if (bit(r, i)) dst.ptr()[n++] = src0.ptr()[os.off(r, i)];
        }
    }
    rsvdCnt = n;
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(rs.repeats));
}
inline bool builtin_pattern(uint8_t pattern, uint32_t i) {
    switch (pattern) {
        case 1: return i % 2 == 0;
        case 2: return i % 2 == 1;
        case 3: return i % 4 == 0;
        case 4: return i % 4 == 1;
        case 5: return i % 4 == 2;
        case 6: return i % 4 == 3;
        default: return true;
    }
}
}  // namespace sim_detail
template <typename T, typename U = uint32_t>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                       uint64_t &rsvdCnt, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(GatherMask, T);
    if ((src1Pattern < 1 || src1Pattern > 7) && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-mask", loc, "GatherMask: built-in src1Pattern %u is outside 1..7", src1Pattern);
    }
    sim_detail::gather_mask(dst, src0, [src1Pattern](uint32_t, uint32_t i) { return sim_detail::builtin_pattern(src1Pattern, i); },
                            reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
template <typename T, typename U>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &p, uint64_t &rsvdCnt,
                       PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(GatherMask, T);
    PYASC_SIM_GATHERMASK_PATTERN_CHECK(T, U);
    src1Pattern.check_aligned("GatherMask", "src1Pattern", loc);
    const sim_detail::GatherMaskRepeats rs = sim_detail::gather_mask_repeats<T>(reduceMode, mask, p);
    const uint64_t stride_bytes = static_cast<uint64_t>(p.src1RepeatStride) * 32;
    uint64_t extent = 0;  // pattern bytes the repeats read
    for (uint32_t r = 0; r < rs.repeats; ++r) extent = std::max<uint64_t>(extent, r * stride_bytes + (rs.of(r) + 7) / 8);
    if (extent > 0) src1Pattern.check_bytes(0, static_cast<int64_t>(extent), "GatherMask reads", loc);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(src1Pattern.ptr());
    sim_detail::gather_mask(
        dst, src0,
        [bits, stride_bytes](uint32_t r, uint32_t i) { return sim_detail::get_bit(bits, r * stride_bytes * 8 + i); },
        reduceMode, mask, p, rsvdCnt, loc);
}

// ---- Transpose: one 16x16 matrix of 2-byte elements --------------------------------------------
// The reference lists uint16_t / int16_t / half for this form (Transpose page, atlasascendc_api_07_0199, every
// edition). The SDK checks that list only with ASCENDC_ASSERT, which its CPU-debug build turns into an abort and
// its device build into nothing, and the device implementation moves 16-bit words whatever T is (the dav-c220
// TransposeImpl casts both addresses to uint16_t for vtranspose; asc-devkit
// impl/basic_api/kernel_operator_vec_transpose_intf_impl.h and dav_c220/kernel_operator_vec_transpose_impl.h).
// So another 2-byte type (bfloat16_t) compiles and is transposed bit for bit on the NPU: here it runs the same
// and is the warning dtype-unlisted (an error with PYASC_SIM_STRICT, as the SDK's CPU-debug abort). Types of
// other sizes stay a compile error: the instruction would shuffle their 16-bit halves.
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, PYASC_SIM_LOC) {
    static_assert(sizeof(T) == 2, "Transpose(dst, src) transposes a 16x16 matrix of 2-byte elements (half, int16_t, "
                                  "uint16_t); the TransposeParamsExt overload is not supported by the pyasc simulator");
    if (!PYASC_SIM_DTYPE_OK(Transpose, T)) {
        pyasc_sim::kapi::warn("dtype-unlisted", loc,
                              "AscendC::Transpose(dst, src) on element type %s: the reference lists uint16_t, "
                              "int16_t and half for the 16 x 16 form; the NPU compiler accepts any 2-byte type and "
                              "the instruction transposes 16-bit words, so the result is the bit-exact transpose "
                              "(the SDK's CPU-debug build aborts on this type). Fix: transpose a "
                              "ReinterpretCast<uint16_t>() view of the tensors",
                              pyasc_sim::kapi::dtypes::type_name<T>());
    }
    sim_detail::check_operand(dst, "Transpose", "dst", 256, loc);
    sim_detail::check_operand(src, "Transpose", "src", 256, loc);
    T tmp[256];
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = src.ptr()[i * 16 + j];
    }
    std::memcpy(dst.ptr(), tmp, sizeof(tmp));
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(2));
}

// ---- CompareScalar: Compares under its newer name (count form and the mask/repeat form) -----------
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const pyasc_sim::kapi::ident_t<T> src1Scalar,
                          CMPMODE cmpMode, uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(CompareScalar, T);
    sim_detail::check_compare_mode<T>(cmpMode, "CompareScalar", loc, false);
    Compares(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const pyasc_sim::kapi::ident_t<T> src1Scalar,
                          CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams &p,
                          PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(CompareScalar, T);
    sim_detail::check_compare_mode<T>(cmpMode, "CompareScalar", loc, false);
    constexpr uint32_t epr = 256 / sizeof(T);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, epr, "CompareScalar", loc);
    const sim_detail::Opnd o0{p.srcBlkStride, p.srcRepStride, 32 / sizeof(T)};
    sim_detail::check_operand(src0, "CompareScalar", "src0", o0, repeatTimes, m, loc);
    dst.check_aligned("CompareScalar", "dst", loc);
    dst.check_bytes(0, static_cast<int64_t>(repeatTimes) * epr / 8, "CompareScalar writes", loc);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr());
    const T s = src1Scalar;
    for (uint32_t r = 0; r < repeatTimes; ++r) {
        for (uint32_t i = 0; i < epr; ++i) {
            const bool v = m.test(i) && sim_detail::compare(src0.ptr()[o0.off(r, i)], s, cmpMode);
            sim_detail::set_bit(bits, static_cast<uint64_t>(r) * epr + i, v);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTimes));
}

// ---- scalar helpers -----------------------------------------------------------------------------
namespace sim_detail {
// ScalarCast's documented (srcT, dstT, roundMode) combinations (dtype_tables.h, PYASC_SIM_SCALARCAST_CHECK).
template <typename S, typename D, RoundMode M>
constexpr bool scalar_cast_listed() {
    using S0 = typename std::remove_cv<S>::type;
    using D0 = typename std::remove_cv<D>::type;
    if (!std::is_same<S0, float>::value) return false;
    if (std::is_same<D0, half>::value) return M == RoundMode::CAST_ODD;
    if (std::is_same<D0, int32_t>::value) {
        return M == RoundMode::CAST_ROUND || M == RoundMode::CAST_CEIL || M == RoundMode::CAST_FLOOR ||
               M == RoundMode::CAST_RINT;
    }
    return false;
}
}  // namespace sim_detail
template <typename srcT, typename dstT, RoundMode roundMode>
inline dstT ScalarCast(srcT valueIn) {
    PYASC_SIM_SCALARCAST_CHECK((sim_detail::scalar_cast_listed<srcT, dstT, roundMode>()));
    return sim_detail::round_to<dstT>(pyasc_sim::kapi::to_double(valueIn), roundMode);
}
namespace Std {
template <typename T, typename U>
constexpr auto min(const T a, const U b) {
    return a < b ? a : b;
}
template <typename T, typename U>
constexpr auto max(const T a, const U b) {
    return a > b ? a : b;
}
}  // namespace Std


// ---- always_false: a static_assert that fires only when a template is instantiated ------------------
namespace sim_detail {
template <typename... A>
struct always_false : std::false_type {};
}  // namespace sim_detail

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_VECTOR_MORE_H_
