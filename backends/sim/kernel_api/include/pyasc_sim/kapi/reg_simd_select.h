// Ascend C on the CPU -- register-based SIMD VFs of the Ascend 950 (kapi/reg_simd.h), continued: comparisons into a
// MaskReg and the select that consumes one, as vllm-ascend's flash_attn_c8_prepare replaces a zero scale by one
// (`CompareScalar<float, CMPMODE::EQ>(zeros, scale, 0.0f, mask); Select(scale, one, scale, zeros);`).
//
// Semantics from the public reference (CANN 9.0 Reg / MicroAPI pages Compare, CompareScalar, Select):
// * Compare<T, CMPMODE>(dstMask, src0, src1, mask) / CompareScalar<T, CMPMODE>(dstMask, src, scalar, mask): element i of
//   dstMask is set when element i is active in mask and src0[i] (cmp) src1[i] (the scalar) holds; cleared otherwise.
// * Select(dst, src0, src1, selMask): dst[i] = selMask[i] ? src0[i] : src1[i] for every element.
// Masks are per byte (kapi/reg_simd.h): an element's flag is set on all of its bytes.
#ifndef PYASC_SIM_KAPI_REG_SIMD_SELECT_H_
#define PYASC_SIM_KAPI_REG_SIMD_SELECT_H_

#include <cstring>

#include "pyasc_sim/kapi/reg_simd.h"

#if __CCE_AICORE__ == 310

namespace AscendC {
namespace Reg {
namespace sim_detail {
template <CMPMODE cmp, typename C>
inline bool compare(C x, C y) {
    switch (cmp) {
        case CMPMODE::LT: return x < y;
        case CMPMODE::GT: return x > y;
        case CMPMODE::EQ: return x == y;
        case CMPMODE::LE: return x <= y;
        case CMPMODE::GE: return x >= y;
        case CMPMODE::NE: return x != y;
    }
    return false;
}
template <typename U, typename F>
inline void compare_into(MaskReg &dstMask, const MaskReg &mask, F pred) {
    using E = typename U::ElementType;
    MaskReg out;
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        const uint8_t f = (active<E>(mask, i) && pred(i)) ? 1 : 0;
        std::memset(out.on + i * sizeof(E), f, sizeof(E));
    }
    dstMask = out;
    charge_instr();
}
}  // namespace sim_detail

template <typename T = DefaultType, CMPMODE cmp = CMPMODE::EQ, typename U>
inline void Compare(MaskReg &dstMask, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {
    using C = sim_detail::calc_t<typename U::ElementType>;
    const U a = srcReg0, b = srcReg1;
    sim_detail::compare_into<U>(dstMask, mask, [&](uint32_t i) {
        return sim_detail::compare<cmp>(static_cast<C>(a.v[i]), static_cast<C>(b.v[i]));
    });
}

template <typename T = DefaultType, CMPMODE cmp = CMPMODE::EQ, typename U, typename S>
inline void CompareScalar(MaskReg &dstMask, const U &srcReg, S scalarValue, const MaskReg &mask) {
    using C = sim_detail::calc_t<typename U::ElementType>;
    const U a = srcReg;
    const C y = static_cast<C>(static_cast<typename U::ElementType>(scalarValue));
    sim_detail::compare_into<U>(dstMask, mask,
                                [&](uint32_t i) { return sim_detail::compare<cmp>(static_cast<C>(a.v[i]), y); });
}

// Compares: the SDK's name of the register-with-scalar compare (asc-devkit kernel_micro_vec_cmpsel_intf.h:
// Compares<T, mode>(dst, srcReg, scalarValue, mask)), the one DrivingSDK's arch35 msda.h calls; = CompareScalar.
template <typename T = DefaultType, CMPMODE cmp = CMPMODE::EQ, typename U, typename S>
inline void Compares(MaskReg &dstMask, const U &srcReg, S scalarValue, const MaskReg &mask) {
    CompareScalar<T, cmp>(dstMask, srcReg, scalarValue, mask);
}

// And / Not of MaskRegs (the Reg And page: "将两个输入MaskReg的有效bit进行逻辑与运算"; kernel_reg_compute_maskreg_intf.h):
// bit by bit inside `mask`, cleared outside it.
inline void And(MaskReg &dst, const MaskReg &src0, const MaskReg &src1, const MaskReg &mask) {
    MaskReg out;
    for (uint32_t i = 0; i < kVecLenBytes; ++i) out.on[i] = (mask.on[i] && src0.on[i] && src1.on[i]) ? 1 : 0;
    dst = out;
    sim_detail::charge_instr();
}
inline void Not(MaskReg &dst, const MaskReg &src, const MaskReg &mask) {
    MaskReg out;
    for (uint32_t i = 0; i < kVecLenBytes; ++i) out.on[i] = (mask.on[i] && !src.on[i]) ? 1 : 0;
    dst = out;
    sim_detail::charge_instr();
}

template <typename T = DefaultType, typename U>
inline void Select(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &selMask) {
    using E = typename U::ElementType;
    const U a = srcReg0, b = srcReg1;
    for (uint32_t i = 0; i < U::kLanes; ++i) dstReg.v[i] = sim_detail::active<E>(selMask, i) ? a.v[i] : b.v[i];
    sim_detail::charge_instr();
}

}  // namespace Reg
}  // namespace AscendC

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_REG_SIMD_SELECT_H_
