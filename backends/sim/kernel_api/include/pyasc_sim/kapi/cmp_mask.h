// Ascend C on the CPU -- the 128-bit CmpMask register: Compare's register form writes it,
// GetCmpMask reads it into UB, SetCmpMask loads it from UB, and the Select forms without a mask
// argument read it (mode 0: the selection bits; mode 1: the scalar src1; mode 2: the address of the
// selection mask).  The reduce-result readers GetAccVal / GetReduceRepeatSumSpr (the ReduceSum
// count form's result) and GetReduceRepeatMaxMinSpr (CANN 9 name of GetReduceMaxMinCount).
// Written from the public Ascend C API reference (asc-devkit docs/api/SIMD-API/基础API/Memory矢量计算/
// 比较与选择/Compare（结果存入寄存器）.md, GetCmpMask(ISASI).md, SetCmpMask(ISASI).md, Select.md;
// atlasascendc_api_07_0225 / 0226); no CANN file was used.  Per block (BlockState::vregs): a read
// of a register no instruction of the block wrote is reported (check 'vector-register').
#ifndef PYASC_SIM_KAPI_CMP_MASK_H_
#define PYASC_SIM_KAPI_CMP_MASK_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/vector_extra.h"

namespace AscendC {

namespace sim_detail {
inline pyasc_sim::kapi::VecRegs &cmp_regs() { return pyasc_sim::kapi::blk().vregs; }
inline void reg_require(bool set, const char *api, const char *reg, const char *writers, const SrcLoc &loc) {
    if (!set && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-register", loc,
                              "%s reads the %s register, which no earlier instruction of this block wrote; set it "
                              "first (%s)",
                              api, reg, writers);
    }
}
template <typename T>
constexpr bool is_b8_to_b64 = std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 ||
                                                                        sizeof(T) == 4 || sizeof(T) == 8);
}  // namespace sim_detail

#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ != 220 && __CCE_AICORE__ != 200
#define PYASC_SIM_CMPMASK_SOC_OK 0
#else
#define PYASC_SIM_CMPMASK_SOC_OK 1
#endif

// ---- Compare (result in the register): one 256-byte repeat, bit i = cmp(src0[i], src1[i]) ---------
// Masked-off elements give 0; the register's bits past 256 / sizeof(T) are 0.  half / float.
namespace sim_detail {
template <typename T, bool isSetMask = true, typename M>
inline void compare_to_register(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode, M maskIn,
                                const BinaryRepeatParams &p, const pyasc_sim::kapi::SrcLoc &loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "AscendC::Compare (result in the CmpMask register) takes half or float");
    constexpr uint32_t epr = 256 / sizeof(T);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(maskIn, epr, "Compare", loc);
    const sim_detail::Opnd o0{p.src0BlkStride, p.src0RepStride, 32 / sizeof(T)},
        o1{p.src1BlkStride, p.src1RepStride, 32 / sizeof(T)};
    sim_detail::check_operand(src0, "Compare", "src0", o0, 1, m, loc);
    sim_detail::check_operand(src1, "Compare", "src1", o1, 1, m, loc);
    pyasc_sim::kapi::VecRegs &r = sim_detail::cmp_regs();
    r.cmpmask[0] = r.cmpmask[1] = 0;
    for (uint32_t i = 0; i < epr; ++i) {
        if (m.test(i) && sim_detail::compare(src0.GetPhyAddr()[o0.off(0, i)], src1.GetPhyAddr()[o1.off(0, i)], cmpMode)) {
            r.cmpmask[i >> 6] |= 1ull << (i & 63);
        }
    }
    r.cmp_set = true;
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(1));
}
}  // namespace sim_detail
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask[],
                    const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    sim_detail::compare_to_register<T, isSetMask>(src0, src1, cmpMode, mask, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask,
                    const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    sim_detail::compare_to_register<T, isSetMask>(src0, src1, cmpMode, mask, repeatParams, loc);
}

// ---- GetCmpMask / SetCmpMask ---------------------------------------------------------------------
// GetCmpMask(dst): the 16 register bytes to dst (b8 / b16 / b32; dst of at least 128 bytes, 16-byte
// aligned, as documented).  SetCmpMask(src): the register from the first 16 bytes of src (b8 .. b64).
template <typename T>
inline void GetCmpMask(const LocalTensor<T> &dst, PYASC_SIM_LOC) {
    static_assert(sim_detail::is_b8_to_b64<T> && sizeof(T) <= 4, "AscendC::GetCmpMask: dst is a b8, b16 or b32 tensor");
    static_assert(PYASC_SIM_CMPMASK_SOC_OK || sizeof(T) == 0, "AscendC::GetCmpMask is documented for Atlas A2 and the Atlas inference series AI Core only");
    dst.check_aligned("GetCmpMask", "dst", loc, 16);
    if (pyasc_sim::kapi::blk().checks && static_cast<uint64_t>(dst.GetSize()) * sizeof(T) < 128) {
        pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                              "GetCmpMask: dst holds %llu bytes; the documented minimum is 128 bytes",
                              static_cast<unsigned long long>(dst.GetSize() * sizeof(T)));
    }
    sim_detail::reg_require(sim_detail::cmp_regs().cmp_set, "GetCmpMask", "CmpMask",
                            "Compare without dst, or SetCmpMask", loc);
    dst.check_bytes(0, 16, "GetCmpMask writes", loc);
    std::memcpy(dst.GetPhyAddr(), sim_detail::cmp_regs().cmpmask, 16);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(1));
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T> &src, PYASC_SIM_LOC) {
    static_assert(sim_detail::is_b8_to_b64<T>, "AscendC::SetCmpMask: src is a b8, b16, b32 or b64 tensor");
    static_assert(PYASC_SIM_CMPMASK_SOC_OK || sizeof(T) == 0, "AscendC::SetCmpMask is documented for Atlas A2 and the Atlas inference series AI Core only");
    src.check_aligned("SetCmpMask", "src", loc, 16);
    src.check_bytes(0, 16, "SetCmpMask reads", loc);
    pyasc_sim::kapi::VecRegs &r = sim_detail::cmp_regs();
    std::memcpy(r.cmpmask, src.GetPhyAddr(), 16);
    r.cmp_set = true;
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(1));
}

// ---- Select without a mask argument (mask from SetVectorMask, the rest from CmpMask) ---------------
namespace sim_detail {
template <typename T, typename Bit, typename Src1>
inline void select_register(const LocalTensor<T> &dst, const LocalTensor<T> &src0, uint8_t repeats,
                            const BinaryRepeatParams &p, Bit bit, Src1 src1, const SrcLoc &loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    const Mask m = mask_of<false>(uint64_t{0}, epr, "Select", loc);
    const Opnd od{p.dstBlkStride, p.dstRepStride, 32 / sizeof(T)}, o0{p.src0BlkStride, p.src0RepStride, 32 / sizeof(T)};
    check_operand(src0, "Select", "src0", o0, repeats, m, loc);
    check_operand(dst, "Select", "dst", od, repeats, m, loc);
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
        dst.GetPhyAddr()[od.off(r, i)] = bit(r, i) ? src0.GetPhyAddr()[o0.off(r, i)] : src1(r, i);
    });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
// Mode 2: the register's low 64 bits hold the address of the selection mask (GetPhyAddr() of a UB
// tensor, as the reference's CPU-debug example stores it); it must point into this block's UB.
inline const uint8_t *select_mask_address(uint64_t bytes, const SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    const uint8_t *p = reinterpret_cast<const uint8_t *>(static_cast<uintptr_t>(cmp_regs().cmpmask[0]));
    const uint8_t *ub = b.mem[pyasc_sim::kapi::kUB];
    const uint64_t cap = b.capacity[pyasc_sim::kapi::kUB];
    if (ub == nullptr || p < ub || p + bytes > ub + cap) {
        pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                              "Select (VSEL_TENSOR_TENSOR_MODE, no mask argument): the CmpMask register holds %p, "
                              "which is not the address of %llu bytes in this block's UB; store the selection "
                              "mask's GetPhyAddr() in the tensor passed to SetCmpMask",
                              static_cast<const void *>(p), static_cast<unsigned long long>(bytes));
    }
    return p;
}
}  // namespace sim_detail

// Modes 0 and 2: template <T, SELMODE selMode> Select(dst, src0, src1, repeatTime, repeatParams).
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                   uint8_t repeatTime, const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "AscendC::Select<T, VSEL_TENSOR_SCALAR_MODE> without a mask takes (dst, selMask, src0, repeatTime, "
                  "repeatParams)");
    constexpr uint32_t epr = 256 / sizeof(T);
    sim_detail::reg_require(sim_detail::cmp_regs().cmp_set, "Select", "CmpMask", "SetCmpMask or Compare without dst",
                            loc);
    const sim_detail::Mask m = sim_detail::mask_of<false>(uint64_t{0}, epr, "Select", loc);
    const sim_detail::Opnd o1{repeatParams.src1BlkStride, repeatParams.src1RepStride, 32 / sizeof(T)};
    sim_detail::check_operand(src1, "Select", "src1", o1, repeatTime, m, loc);
    const T *s1 = src1.GetPhyAddr();
    auto src1f = [&](uint32_t r, uint32_t i) { return s1[o1.off(r, i)]; };
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        const uint64_t w0 = sim_detail::cmp_regs().cmpmask[0], w1 = sim_detail::cmp_regs().cmpmask[1];
        sim_detail::select_register(
            dst, src0, repeatTime, repeatParams,
            [w0, w1](uint32_t, uint32_t i) { return (((i < 64 ? w0 : w1) >> (i & 63)) & 1u) != 0; }, src1f, loc);
    } else {
        const uint8_t *bits = sim_detail::select_mask_address(static_cast<uint64_t>(repeatTime) * epr / 8, loc);
        sim_detail::select_register(
            dst, src0, repeatTime, repeatParams,
            [bits](uint32_t r, uint32_t i) { return sim_detail::get_bit(bits, static_cast<uint64_t>(r) * epr + i); },
            src1f, loc);
    }
}
// Mode 1: Select(dst, selMask, src0, repeatTime, repeatParams); src1 is the scalar SetCmpMask loaded.
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   uint8_t repeatTime, const BinaryRepeatParams &repeatParams, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    constexpr uint32_t epr = 256 / sizeof(T);
    sim_detail::reg_require(sim_detail::cmp_regs().cmp_set, "Select", "CmpMask", "SetCmpMask with the scalar", loc);
    T s;
    std::memcpy(&s, sim_detail::cmp_regs().cmpmask, sizeof(T));
    selMask.check_aligned("Select", "selMask", loc);
    selMask.check_bytes(0, static_cast<int64_t>(repeatTime) * epr / 8, "Select reads", loc);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.GetPhyAddr());
    sim_detail::select_register(
        dst, src0, repeatTime, repeatParams,
        [bits](uint32_t r, uint32_t i) { return sim_detail::get_bit(bits, static_cast<uint64_t>(r) * epr + i); },
        [s](uint32_t, uint32_t) { return s; }, loc);
}

// ---- GetAccVal / GetReduceRepeatSumSpr: the result of the last ReduceSum count form -----------------
// half / float; Atlas A2 only (the pages mark the Atlas inference series x).
// source: atlasascendc_api_07_0225 (GetAccVal(ISASI); CANN 9: GetReduceRepeatSumSpr(ISASI))
template <typename T>
inline T GetReduceRepeatSumSpr(PYASC_SIM_LOC) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "AscendC::GetAccVal / GetReduceRepeatSumSpr: T is half or float");
#if defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 200
    static_assert(sim_detail::always_false<T>::value,
                  "AscendC::GetAccVal / GetReduceRepeatSumSpr is not documented for the Atlas inference series AI Core");
#endif
    sim_detail::reg_require(sim_detail::cmp_regs().acc_set, "GetAccVal", "ReduceSum result",
                            "ReduceSum(dst, src, work, count)", loc);
    T v;
    std::memcpy(&v, sim_detail::cmp_regs().acc, sizeof(T));
    return v;
}
template <typename T>
inline T GetAccVal(PYASC_SIM_LOC) {
    return GetReduceRepeatSumSpr<T>(loc);
}
#if !(defined(PYASC_SIM_DT_SOC) && !defined(PYASC_SIM_NO_DTYPE_TABLES) && __CCE_AICORE__ == 200)
// The untemplated forms the SDK headers also declare (the pages document only the template): the raw
// SPR.ACC_VAL as int64_t, the sum's bits in the low bytes, the rest zero. Public kernels call
// `uint64_t v = GetAccVal(); float s = *reinterpret_cast<float *>(&v);` -- GetAccVal<T>() with the
// cast done by hand (the CCE intrinsic get_acc_val() returns the same register).
inline int64_t GetReduceRepeatSumSpr(PYASC_SIM_LOC) {
    sim_detail::reg_require(sim_detail::cmp_regs().acc_set, "GetAccVal", "ReduceSum result",
                            "ReduceSum(dst, src, work, count)", loc);
    int64_t v;
    std::memcpy(&v, sim_detail::cmp_regs().acc, sizeof(v));
    return v;
}
inline int64_t GetAccVal(PYASC_SIM_LOC) {
    return GetReduceRepeatSumSpr(loc);
}
#endif
// GetReduceRepeatMaxMinSpr: the CANN 9 name of GetReduceMaxMinCount (same page, 07_0226).
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T &maxMinValue, T &maxMinIndex) {
    GetReduceMaxMinCount<T>(maxMinValue, maxMinIndex);
}
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T &maxMinValue) {
    GetReduceMaxMinCount<T>(maxMinValue);
}

#undef PYASC_SIM_CMPMASK_SOC_OK

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CMP_MASK_H_
