// Ascend C on the CPU -- the DEQSCALE register and the instructions that convert while they compute:
// SetDeqScale (three documented overloads), CastDeq / CastDequant, AddDeqRelu, AddReluCast,
// SubReluCast, MulCast.  Written from the public Ascend C API reference (pages cited per API); no
// CANN file was used.
//
// DEQSCALE is a 64-bit register per core (kept in BlockState::vregs, so per block): the half scale of
// the s32 -> f16 forms in bits 0..15; the float scale (bits 0..31, read by the hardware as a
// (1, 8, 10) float: the low 13 mantissa bits are dropped), the s9 offset (bits 37..45) and signMode
// (bit 46) of the s16 -> b8 form; or the 128-byte UB tensor of 16 such 64-bit sets (vector mode).
// Conversions follow the reference's precision-conversion rules (asc-devkit
// docs/api/SIMD-API/基础API/数据结构/precision_conversion.md): an instruction without a round-mode
// argument converts as CAST_NONE, i.e. CAST_RINT (ties to even) where precision is lost, and an
// overflow saturates.  A register read before any SetDeqScale, a signMode that disagrees with the
// destination type and a vdeq tensor below 128 bytes are reported (check 'deq-scale').
#ifndef PYASC_SIM_KAPI_DEQUANT_H_
#define PYASC_SIM_KAPI_DEQUANT_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/vector_more.h"

namespace AscendC {

// ---- per-SoC (source, destination) type pairs of the pages' 数据类型 tables --------------------------
#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES)
#define PYASC_SIM_DQ_CHECKED 1
#else
#define PYASC_SIM_DQ_CHECKED 0
#endif
namespace sim_detail {
template <typename D, typename S, typename D2, typename S2>
constexpr bool pair_is = std::is_same<D, D2>::value && std::is_same<S, S2>::value;
// AddReluCast / SubReluCast: half -> int8_t, int16_t -> int8_t, float -> half on Atlas A2 and the
// Atlas inference series AI Core. source: asc-devkit 复合计算/AddReluCast.md, SubReluCast.md (数据类型)
template <typename D, typename S>
constexpr bool relu_cast_pair = pair_is<D, S, int8_t, half> || pair_is<D, S, int8_t, int16_t> || pair_is<D, S, half, float>;
// MulCast: half -> int8_t / uint8_t on both families. source: asc-devkit 复合计算/MulCast.md
template <typename D, typename S>
constexpr bool mul_cast_pair = pair_is<D, S, int8_t, half> || pair_is<D, S, uint8_t, half>;
// CastDeq / CastDequant: int16_t -> int8_t / uint8_t on both; int32_t -> half on Atlas A2 only.
// source: asc-devkit 复合计算/CastDequant.md (数据类型), atlasascendc_api_07_0074 (CastDeq)
template <typename D, typename S>
constexpr bool cast_deq_pair = pair_is<D, S, int8_t, int16_t> || pair_is<D, S, uint8_t, int16_t>
#if __CCE_AICORE__ != 200
                               || pair_is<D, S, half, int32_t>
#endif
    ;
}  // namespace sim_detail

#define PYASC_SIM_DQ_PAIR(API, PRED, D, S)                                                                       \
    static_assert(!PYASC_SIM_DQ_CHECKED || sim_detail::PRED<D, S>,                                              \
                  "AscendC::" #API ": this (dst, src) type pair is not in the page's data-type table for the "  \
                  "simulated SoC (see the kernel API reference, backends/sim/kernel_api/README.md)")

// ---- VdeqInfo and SetDeqScale ------------------------------------------------------------------------
// source: atlasascendc_api_07_0099 (SetDeqScale; VdeqInfo with VDEQ_TENSOR_SIZE = 16 sets) and
// asc-devkit 类型转换/寄存器配置说明/SetDeqScale.md (表1: the register's bit layout)
constexpr uint8_t VDEQ_TENSOR_SIZE = 16;
struct VdeqInfo {
    VdeqInfo() {}
    VdeqInfo(const float vdeqScaleIn[VDEQ_TENSOR_SIZE], const int16_t vdeqOffsetIn[VDEQ_TENSOR_SIZE],
             const bool vdeqSignModeIn[VDEQ_TENSOR_SIZE]) {
        for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            vdeqScale[i] = vdeqScaleIn[i];
            vdeqOffset[i] = vdeqOffsetIn[i];
            vdeqSignMode[i] = vdeqSignModeIn[i];
        }
    }
    float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
    int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
    bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

namespace sim_detail {
// One 64-bit parameter set: float scale in bits 0..31, s9 offset in 37..45, signMode in bit 46.
inline uint64_t deq_pack(float scale, int16_t offset, bool signMode) {
    uint32_t sb;
    std::memcpy(&sb, &scale, 4);
    return static_cast<uint64_t>(sb) | (static_cast<uint64_t>(static_cast<uint16_t>(offset) & 0x1ffu) << 37) |
           (static_cast<uint64_t>(signMode ? 1 : 0) << 46);
}
struct DeqSet {
    double scale;
    double offset;
    bool sign;
};
inline DeqSet deq_unpack(uint64_t v) {
    uint32_t sb = static_cast<uint32_t>(v) & 0xffffe000u;  // read as (1, 8, 10): 10 mantissa bits
    float s;
    std::memcpy(&s, &sb, 4);
    int32_t off = static_cast<int32_t>((v >> 37) & 0x1ffu);
    if (off & 0x100) off -= 0x200;  // s9
    return DeqSet{static_cast<double>(s), static_cast<double>(off), ((v >> 46) & 1u) != 0};
}
inline pyasc_sim::kapi::VecRegs &vregs() { return pyasc_sim::kapi::blk().vregs; }
inline void deq_require(int kind, const char *api, const char *what, const SrcLoc &loc) {
    if (vregs().deq_kind != kind && pyasc_sim::kapi::blk().checks) {
        static const char *const set_by[] = {"nothing", "SetDeqScale(half scale)",
                                             "SetDeqScale(float scale, int16_t offset, bool signMode)",
                                             "SetDeqScale(vdeqTensor, vdeqInfo)"};
        pyasc_sim::kapi::fail("deq-scale", loc,
                              "%s (%s) reads the DEQSCALE register as set by %s, but it was last set by %s; call "
                              "%s first",
                              api, what, set_by[kind], set_by[vregs().deq_kind], set_by[kind]);
    }
}
// The conversion of an instruction without a round mode: CAST_RINT, saturating (half: +-65504).
template <typename D>
inline D conv_sat(double x) {
    if constexpr (std::is_integral<D>::value) {
        return round_to<D>(x, RoundMode::CAST_RINT);
    } else {
        if (std::isfinite(x) && std::fabs(x) > 65504.0) x = std::copysign(65504.0, x);
        return round_to<D>(x, RoundMode::CAST_RINT);
    }
}
}  // namespace sim_detail

// SetDeqScale(half): the scale of AddDeqRelu / Cast / CastDequant s32 -> f16.
inline void SetDeqScale(half scale) {
    uint16_t b;
    std::memcpy(&b, &scale, 2);
    pyasc_sim::kapi::VecRegs &r = sim_detail::vregs();
    r.deqscale = b;
    r.deq_kind = 1;
}
// SetDeqScale(float, int16_t, bool): CastDeq / CastDequant s16 -> b8 with isVecDeq = false.
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
    pyasc_sim::kapi::VecRegs &r = sim_detail::vregs();
    r.deqscale = sim_detail::deq_pack(scale, offset, signMode);
    r.deq_kind = 2;
}
// SetDeqScale(vdeq, vdeqInfo): writes the 16 parameter sets into the 128-byte UB tensor vdeq
// (uint64_t, VECIN / VECCALC / VECOUT, 32-byte aligned) and points the register at it; CastDeq with
// isVecDeq = true reads the sets from the tensor when it runs.
template <typename T>
inline void SetDeqScale(const LocalTensor<T> &vdeq, const VdeqInfo &vdeqInfo, PYASC_SIM_LOC) {
    static_assert(std::is_same<T, uint64_t>::value, "AscendC::SetDeqScale(vdeq, vdeqInfo): vdeq is a uint64_t tensor");
    vdeq.check_aligned("SetDeqScale", "vdeq", loc);
    if (pyasc_sim::kapi::blk().checks && vdeq.GetSize() < VDEQ_TENSOR_SIZE) {
        pyasc_sim::kapi::fail("deq-scale", loc,
                              "SetDeqScale: the vdeq tensor holds %u uint64_t elements; the vector-quantisation "
                              "parameters need 16 (128 bytes)",
                              static_cast<unsigned>(vdeq.GetSize()));
    }
    vdeq.check_bytes(0, 128, "SetDeqScale writes", loc);
    for (int i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
        vdeq.GetPhyAddr()[i] =
            sim_detail::deq_pack(vdeqInfo.vdeqScale[i], vdeqInfo.vdeqOffset[i], vdeqInfo.vdeqSignMode[i]);
    }
    pyasc_sim::kapi::VecRegs &r = sim_detail::vregs();
    r.vdeq = vdeq.GetPhyAddr();
    r.deqscale = static_cast<uint64_t>(vdeq.mem_offset());
    r.deq_kind = 3;
}

// ---- CastDeq / CastDequant: int16_t -> int8_t / uint8_t (and int32_t -> half) ----------------------
// s16 -> b8: dst = saturate(rint(src * scale + offset)); per tensor (isVecDeq = false) or with the
// parameter set i % 16 for the i-th element of each 32-byte source block (isVecDeq = true).  The 16
// results of a source block go to one half of the matching 32-byte destination block: the upper
// half (bytes 16..31) with halfBlock = true, the lower half otherwise; the other half is untouched.
// s32 -> f16: dst = rint(src * scale) with SetDeqScale(half).  source: asc-devkit
// 复合计算/CastDequant.md (formulas, halfBlock example), atlasascendc_api_07_0074 (CastDeq)
namespace sim_detail {
template <typename T, bool isVecDeq>
inline void deq_params(DeqSet *sets, const char *api, const SrcLoc &loc) {
    if (isVecDeq) {
        deq_require(3, api, "isVecDeq = true", loc);
        const uint64_t *v = vregs().vdeq;
        for (int j = 0; j < 16; ++j) sets[j] = v != nullptr ? deq_unpack(v[j]) : DeqSet{1.0, 0.0, true};
    } else {
        deq_require(2, api, "isVecDeq = false", loc);
        sets[0] = deq_unpack(vregs().deqscale);
        for (int j = 1; j < 16; ++j) sets[j] = sets[0];
    }
    const bool want = std::is_signed<T>::value;
    for (int j = 0; j < 16 && pyasc_sim::kapi::blk().checks; ++j) {
        if (sets[j].sign != want) {
            pyasc_sim::kapi::fail("deq-scale", loc,
                                  "%s: signMode%s is %s but dst is %s; signMode = true goes with int8_t, false with "
                                  "uint8_t",
                                  api, isVecDeq ? "[j] of the vdeq set" : "", sets[j].sign ? "true" : "false",
                                  want ? "int8_t" : "uint8_t");
        }
    }
}
template <typename T>
inline T deq_one(int16_t s, const DeqSet &p) {
    return conv_sat<T>(static_cast<double>(s) * p.scale + p.offset);
}
inline double deq_half_scale() {
    const uint16_t b = static_cast<uint16_t>(vregs().deqscale & 0xffffu);
    half h;
    std::memcpy(&h, &b, 2);
    return pyasc_sim::kapi::to_double(h);
}

template <typename T, typename U, bool isVecDeq, bool halfBlock>
inline void cast_deq_count(const char *api, const LocalTensor<T> &dst, const LocalTensor<U> &src, int64_t count,
                           const SrcLoc &loc) {
    count = check_count(count, api, loc);
    if constexpr (std::is_same<U, int32_t>::value) {
        deq_require(1, api, "int32_t -> half", loc);
        const double sc = deq_half_scale();
        unary_count(api, dst, src, count, 1.0, loc, [sc](U a) -> T { return conv_sat<T>(static_cast<double>(a) * sc); });
    } else {
        DeqSet sets[16];
        deq_params<T, isVecDeq>(sets, api, loc);
        check_operand(src, api, "src", count, loc);
        const int64_t extent = count == 0 ? 0 : ((count - 1) / 16) * 32 + 32;  // int8 elements (bytes)
        check_operand(dst, api, "dst", extent, loc);
        const int64_t hb = halfBlock ? 16 : 0;
        for (int64_t i = 0; i < count; ++i) {
            dst.GetPhyAddr()[(i / 16) * 32 + hb + i % 16] = deq_one<T>(src.GetPhyAddr()[i], sets[i % 16]);
        }
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(count, 2)));
    }
}
template <typename T, typename U, bool isSetMask, bool isVecDeq, bool halfBlock, typename M>
inline void cast_deq_repeat(const char *api, const LocalTensor<T> &dst, const LocalTensor<U> &src, M maskIn,
                            uint8_t repeats, const UnaryRepeatParams &p, const SrcLoc &loc) {
    if constexpr (std::is_same<U, int32_t>::value) {
        deq_require(1, api, "int32_t -> half", loc);
        const double sc = deq_half_scale();
        unary_repeat(api, dst, src, mask_of<isSetMask>(maskIn, 64, api, loc), repeats, p, 1.0, loc,
                     [sc](U a) -> T { return conv_sat<T>(static_cast<double>(a) * sc); });
    } else {
        const Mask m = mask_of<isSetMask>(maskIn, 128, api, loc);
        DeqSet sets[16];
        deq_params<T, isVecDeq>(sets, api, loc);
        const Opnd os{p.srcBlkStride, p.srcRepStride, 16};
        const Opnd od{p.dstBlkStride, p.dstRepStride, 32};  // in bytes: one 32-byte block per 16 results
        check_operand(src, api, "src", os, repeats, m, loc);
        const int64_t extent = repeats == 0 || m.n == 0
                                   ? 0
                                   : (repeats - 1) * od.rep * 32 + ((m.n - 1) / 16) * od.blk * 32 + 32;
        check_operand(dst, api, "dst", extent, loc);
        const int64_t hb = halfBlock ? 16 : 0;
        for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
            const int64_t at = r * od.rep * 32 + (i / 16) * od.blk * 32 + hb + i % 16;
            dst.GetPhyAddr()[at] = deq_one<T>(src.GetPhyAddr()[os.off(r, i)], sets[i % 16]);
        });
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
    }
}
}  // namespace sim_detail

#define PYASC_SIM_CAST_DEQ(NAME, VECDEQ_DEFAULT)                                                                  \
    template <typename T, typename U, bool isVecDeq = VECDEQ_DEFAULT, bool halfBlock = true>                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint32_t count, PYASC_SIM_LOC) { \
        PYASC_SIM_DQ_PAIR(NAME, cast_deq_pair, T, U);                                                            \
        sim_detail::cast_deq_count<T, U, isVecDeq, halfBlock>(#NAME, dst, src, count, loc);                      \
    }                                                                                                            \
    template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],                \
                     uint8_t repeatTime, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {                 \
        PYASC_SIM_DQ_PAIR(NAME, cast_deq_pair, T, U);                                                            \
        sim_detail::cast_deq_repeat<T, U, isSetMask, isVecDeq, halfBlock>(#NAME, dst, src, mask, repeatTime,     \
                                                                          repeatParams, loc);                    \
    }                                                                                                            \
    template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>         \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,                   \
                     uint8_t repeatTime, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {                 \
        PYASC_SIM_DQ_PAIR(NAME, cast_deq_pair, T, U);                                                            \
        sim_detail::cast_deq_repeat<T, U, isSetMask, isVecDeq, halfBlock>(                                       \
            #NAME, dst, src, static_cast<uint64_t>(mask), repeatTime, repeatParams, loc);                        \
    }
// The count form's isVecDeq default is true in the current reference (false in 8.0.RC1-RC3).
PYASC_SIM_CAST_DEQ(CastDeq, true)
PYASC_SIM_CAST_DEQ(CastDequant, true)
#undef PYASC_SIM_CAST_DEQ

// ---- binary instructions that convert: dst (type T) = conv(f(src0, src1)) (src type U) ---------------
// The mask counts elements of the wider type (256 / max(sizeof(T), sizeof(U)) per repeat); each
// operand's blocks hold 32 / sizeof(its type) elements.
namespace sim_detail {
template <typename T, typename U, typename F>
inline void binary_cast_count(const char *api, const LocalTensor<T> &dst, const LocalTensor<U> &s0,
                              const LocalTensor<U> &s1, int64_t count, const SrcLoc &loc, F f) {
    count = check_count(count, api, loc);
    check_operand(s0, api, "src0", count, loc);
    check_operand(s1, api, "src1", count, loc);
    check_operand(dst, api, "dst", count, loc);
    T *d = dst.GetPhyAddr();
    const U *a = s0.GetPhyAddr();
    const U *b = s1.GetPhyAddr();
    for (int64_t i = 0; i < count; ++i) d[i] = f(a[i], b[i]);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, std::max(sizeof(T), sizeof(U)))));
}
template <typename T, typename U, typename F>
inline void binary_cast_repeat(const char *api, const LocalTensor<T> &dst, const LocalTensor<U> &s0,
                               const LocalTensor<U> &s1, const Mask &m, uint8_t repeats, const BinaryRepeatParams &p,
                               const SrcLoc &loc, F f) {
    const Opnd od{p.dstBlkStride, p.dstRepStride, static_cast<int64_t>(32 / sizeof(T))},
        o0{p.src0BlkStride, p.src0RepStride, static_cast<int64_t>(32 / sizeof(U))},
        o1{p.src1BlkStride, p.src1RepStride, static_cast<int64_t>(32 / sizeof(U))};
    check_operand(s0, api, "src0", o0, repeats, m, loc);
    check_operand(s1, api, "src1", o1, repeats, m, loc);
    check_operand(dst, api, "dst", od, repeats, m, loc);
    T *d = dst.GetPhyAddr();
    const U *a = s0.GetPhyAddr();
    const U *b = s1.GetPhyAddr();
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) { d[od.off(r, i)] = f(a[o0.off(r, i)], b[o1.off(r, i)]); });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
// relu(src0 +/- src1) computed in the source type, then converted
template <typename T, typename U, bool sub>
inline T relu_cast(U a, U b) {
    double s;
    if constexpr (std::is_integral<U>::value) {
        s = static_cast<double>(static_cast<int64_t>(a) + (sub ? -static_cast<int64_t>(b) : static_cast<int64_t>(b)));
        const double lo = std::numeric_limits<U>::min(), hi = std::numeric_limits<U>::max();
        s = s < lo ? lo : (s > hi ? hi : s);
    } else {
        const U r = sub ? static_cast<U>(a - b) : static_cast<U>(a + b);
        s = pyasc_sim::kapi::to_double(r);
    }
    return conv_sat<T>(s > 0 ? s : 0.0);
}
template <typename T, typename U>
inline T mul_cast(U a, U b) {
    const double pr = pyasc_sim::kapi::to_double(static_cast<U>(a * b));
    // uint8_t: a negative product is "abnormal input" in the conversion rules; it saturates to 0 here
    return conv_sat<T>(pr);
}
}  // namespace sim_detail

#define PYASC_SIM_BINARY_CAST(NAME, PRED, EXPR)                                                                   \
    template <typename T, typename U>                                                                            \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,          \
                     const uint32_t count, PYASC_SIM_LOC) {                                                      \
        PYASC_SIM_DQ_PAIR(NAME, PRED, T, U);                                                                     \
        sim_detail::binary_cast_count(#NAME, dst, src0, src1, count, loc, [](U a, U b) -> T { return EXPR; });  \
    }                                                                                                            \
    template <typename T, typename U, bool isSetMask = true>                                                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,          \
                     const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,    \
                     PYASC_SIM_LOC) {                                                                            \
        PYASC_SIM_DQ_PAIR(NAME, PRED, T, U);                                                                     \
        sim_detail::binary_cast_repeat(                                                                          \
            #NAME, dst, src0, src1,                                                                              \
            sim_detail::mask_of<isSetMask>(mask, 256 / std::max(sizeof(T), sizeof(U)), #NAME, loc), repeatTime,  \
            repeatParams, loc, [](U a, U b) -> T { return EXPR; });                                              \
    }                                                                                                            \
    template <typename T, typename U, bool isSetMask = true>                                                     \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,          \
                     const uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,      \
                     PYASC_SIM_LOC) {                                                                            \
        PYASC_SIM_DQ_PAIR(NAME, PRED, T, U);                                                                     \
        sim_detail::binary_cast_repeat(                                                                          \
            #NAME, dst, src0, src1,                                                                              \
            sim_detail::mask_of<isSetMask>(mask, 256 / std::max(sizeof(T), sizeof(U)), #NAME, loc), repeatTime,  \
            repeatParams, loc, [](U a, U b) -> T { return EXPR; });                                              \
    }
// source: atlasascendc_api_07_0044 (AddReluCast), asc-devkit 复合计算/SubReluCast.md, atlasascendc_api_07_0049 (MulCast)
PYASC_SIM_BINARY_CAST(AddReluCast, relu_cast_pair, (sim_detail::relu_cast<T, U, false>(a, b)))
PYASC_SIM_BINARY_CAST(SubReluCast, relu_cast_pair, (sim_detail::relu_cast<T, U, true>(a, b)))
PYASC_SIM_BINARY_CAST(MulCast, mul_cast_pair, (sim_detail::mul_cast<T, U>(a, b)))
#undef PYASC_SIM_BINARY_CAST

// ---- AddDeqRelu: dst (half) = relu(rint((src0 + src1) * scale)), int32_t sources, SetDeqScale(half) --
// source: atlasascendc_api_07_0045 (AddDeqRelu), asc-devkit 复合计算/AddDeqRelu.md (formula, RINT)
namespace sim_detail {
inline half add_deq_relu(int32_t a, int32_t b, double sc) {
    const double s = static_cast<double>(static_cast<int64_t>(a) + static_cast<int64_t>(b)) * sc;
    const half h = conv_sat<half>(s);
    return pyasc_sim::kapi::to_double(h) > 0 ? h : half(0.0f);
}
}  // namespace sim_detail
template <typename T, typename U>
inline void AddDeqRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       const int32_t &count, PYASC_SIM_LOC) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value,
                  "AscendC::AddDeqRelu: dst is half and src0 / src1 are int32_t (the page's data-type table)");
    sim_detail::deq_require(1, "AddDeqRelu", "int32_t -> half", loc);
    const double sc = sim_detail::deq_half_scale();
    sim_detail::binary_cast_count("AddDeqRelu", dst, src0, src1, count, loc,
                                  [sc](U a, U b) -> T { return sim_detail::add_deq_relu(a, b, sc); });
}
namespace sim_detail {
template <typename T, typename U, bool isSetMask = true, typename M>
inline void add_deq_relu_repeat(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                                M mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                                const pyasc_sim::kapi::SrcLoc &loc) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value,
                  "AscendC::AddDeqRelu: dst is half and src0 / src1 are int32_t (the page's data-type table)");
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, 64, "AddDeqRelu", loc);
    sim_detail::deq_require(1, "AddDeqRelu", "int32_t -> half", loc);
    const double sc = sim_detail::deq_half_scale();
    sim_detail::binary_cast_repeat("AddDeqRelu", dst, src0, src1, m, repeatTime, repeatParams, loc,
                                   [sc](U a, U b) -> T { return sim_detail::add_deq_relu(a, b, sc); });
}
}  // namespace sim_detail
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                       PYASC_SIM_LOC) {
    sim_detail::add_deq_relu_repeat<T, U, isSetMask>(dst, src0, src1, static_cast<const uint64_t *>(mask), repeatTime,
                                         repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                       uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    sim_detail::add_deq_relu_repeat<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams, loc);
}
// The documented non-template spellings (half dst, int32_t sources; `template <bool isSetMask>` mask forms).
template <bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                       const LocalTensor<int32_t> &src1, uint64_t mask[], const uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    sim_detail::add_deq_relu_repeat<half, int32_t, isSetMask>(dst, src0, src1, static_cast<const uint64_t *>(mask), repeatTime,
                                                  repeatParams, loc);
}
template <bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<half> &dst, const LocalTensor<int32_t> &src0,
                       const LocalTensor<int32_t> &src1, uint64_t mask, const uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    sim_detail::add_deq_relu_repeat<half, int32_t, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams, loc);
}

#undef PYASC_SIM_DQ_PAIR
#undef PYASC_SIM_DQ_CHECKED

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_DEQUANT_H_
