// Ascend C on the CPU -- register-based SIMD VFs of the Ascend 950 (kapi/reg_simd.h), continued: the instructions
// public 950 kernels use next to the VL loads / stores (vllm-ascend's flash_attn_c8_quant_stats and
// kda_rms_norm_gated): type conversion between register layouts (Cast with a CastTrait), whole-register
// reductions, a register broadcast, division with a DivSpecificMode, and the `__VEC_SCOPE__ { ... }` block.
//
// Semantics from the public reference (CANN 9.0 Reg / MicroAPI pages Cast, ReduceSum, Duplicate, Div, LoadAlign,
// StoreAlign):
// * CastTrait {RegLayout layoutMode, SatMode satMode, MaskMergeMode mrgMode, RoundMode roundMode}. A widening Cast
//   (e.g. bfloat16_t -> float) reads, for each wide lane i of the mask, the narrow element in slot
//   i * (wide / narrow) + layout of the source register (RegLayout::ZERO: the lowest part of the lane -- where a
//   DIST_UNPACK load puts it); a narrowing Cast (float -> bfloat16_t) writes lane i's value to that slot and zero
//   to the lane's other slots (a DIST_PACK store then writes them contiguously). Same-size casts are element-wise.
//   Narrowing float conversions round to nearest even (CAST_RINT / CAST_NONE / RoundMode::UNKNOWN); integer
//   results use the trait's round mode and saturate (SatMode::SAT / NO_SAT both clamp on the simulator: a
//   documented difference only for out-of-range values).
// * ReduceSum / ReduceMax / ReduceMin(dst, src, mask): element 0 of dst is the sum / maximum / minimum of src's
//   active elements, the other elements 0 (the sum is accumulated in element order; hardware adds in a tree, so
//   float sums can differ in the last bits -- kernel API README, deviations).
// * Duplicate(dst, srcReg, mask): element 0 of srcReg in every active element of dst.
// * Div<T, &mode>(dst, a, b, mask) with DivSpecificMode {MaskMergeMode mrgMode, bool precisionMode}: a / b under the
//   mode's merge mode (precisionMode picks the hardware's high-precision path; the simulator divides in float).
// * `__VEC_SCOPE__ { ... }` marks the VF body inside an ordinary function; on the simulator it is a plain block.
#ifndef PYASC_SIM_KAPI_REG_SIMD_CONVERT_H_
#define PYASC_SIM_KAPI_REG_SIMD_CONVERT_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "pyasc_sim/kapi/reg_simd.h"

#if __CCE_AICORE__ == 310

#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif

namespace AscendC {
namespace Reg {

enum class RegLayout { UNKNOWN = -1, ZERO = 0, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT = 0, SAT };

struct CastTrait {
    RegLayout layoutMode = RegLayout::ZERO;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    RoundMode roundMode = RoundMode::UNKNOWN;
};

struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
};

namespace sim_detail {
template <typename T>
struct is_reg_tensor : std::false_type {};
template <typename T, const RegTrait &r>
struct is_reg_tensor<RegTensor<T, r>> : std::true_type {};

template <typename D>
inline D cast_value(float x, RoundMode mode) {
    if constexpr (!std::is_integral<D>::value) {
        return static_cast<D>(x);  // float -> float types: nearest even (bfloat16_t / _Float16 / fp8_e4m3fn_t)
    } else {
        double r;
        switch (mode) {
            case RoundMode::CAST_FLOOR: r = std::floor(x); break;
            case RoundMode::CAST_CEIL: r = std::ceil(x); break;
            case RoundMode::CAST_ROUND: r = std::round(x); break;
            case RoundMode::CAST_TRUNC: r = std::trunc(x); break;
            default: r = std::nearbyint(x); break;
        }
        if (std::isnan(r)) return D{};
        const double lo = static_cast<double>(std::numeric_limits<D>::lowest());
        const double hi = static_cast<double>(std::numeric_limits<D>::max());
        return static_cast<D>(r < lo ? lo : (r > hi ? hi : r));
    }
}
}  // namespace sim_detail

// ---- Cast between register layouts ----------------------------------------------------------------------------
inline constexpr CastTrait kDefaultCastTrait{};

// The trait is taken by value (the reference declares `const CastTrait &`): both accept the same arguments -- a
// constexpr CastTrait -- but g++ 12 crashes (internal compiler error) on a reference template argument naming a
// block-scope `static constexpr` object inside a class template's member function, where public kernels declare
// their traits (Ascend/DrivingSDK arch35 point_to_voxel: `static constexpr CastTrait castF2ITrait = {...}` in
// PointToVoxelKernel<T>::EncodeVoxelVF).
template <typename D = DefaultType, typename S = DefaultType, CastTrait trait = kDefaultCastTrait, typename DU,
          typename SU>
inline void Cast(DU &dstReg, const SU &srcReg, const MaskReg &mask) {
    using DE = typename DU::ElementType;
    using SE = typename SU::ElementType;
    static_assert(std::is_same<D, DefaultType>::value || std::is_same<D, DE>::value,
                  "Reg::Cast: the first template argument must be the destination register's element type");
    static_assert(std::is_same<S, DefaultType>::value || std::is_same<S, SE>::value,
                  "Reg::Cast: the second template argument must be the source register's element type");
    constexpr uint32_t dsz = sizeof(DE), ssz = sizeof(SE);
    constexpr int layout = trait.layoutMode == RegLayout::UNKNOWN ? 0 : static_cast<int>(trait.layoutMode);
    const SU src = srcReg;
    if constexpr (dsz > ssz) {  // widening: wide lane i <- narrow slot i * ratio + layout
        constexpr uint32_t ratio = dsz / ssz;
        static_assert(layout < static_cast<int>(ratio), "Reg::Cast: RegLayout beyond the widening ratio");
        for (uint32_t i = 0; i < DU::kLanes; ++i) {
            if (sim_detail::active<DE>(mask, i)) {
                dstReg.v[i] = sim_detail::cast_value<DE>(static_cast<float>(src.v[i * ratio + layout]), trait.roundMode);
            } else if (trait.mrgMode != MaskMergeMode::MERGING) {
                dstReg.v[i] = DE{};
            }
        }
    } else if constexpr (dsz < ssz) {  // narrowing: narrow slot i * ratio + layout <- wide lane i, other slots 0
        constexpr uint32_t ratio = ssz / dsz;
        static_assert(layout < static_cast<int>(ratio), "Reg::Cast: RegLayout beyond the narrowing ratio");
        for (uint32_t i = 0; i < SU::kLanes; ++i) {
            const bool on = sim_detail::active<SE>(mask, i);
            if (!on && trait.mrgMode == MaskMergeMode::MERGING) continue;
            for (uint32_t k = 0; k < ratio; ++k) dstReg.v[i * ratio + k] = DE{};
            if (on) {
                dstReg.v[i * ratio + layout] = sim_detail::cast_value<DE>(static_cast<float>(src.v[i]), trait.roundMode);
            }
        }
    } else {
        for (uint32_t i = 0; i < DU::kLanes; ++i) {
            if (sim_detail::active<DE>(mask, i)) {
                dstReg.v[i] = sim_detail::cast_value<DE>(static_cast<float>(src.v[i]), trait.roundMode);
            } else if (trait.mrgMode != MaskMergeMode::MERGING) {
                dstReg.v[i] = DE{};
            }
        }
    }
    sim_detail::charge_instr();
}

// ---- whole-register reductions: the result in element 0, the other elements 0 ---------------------------------
#define PYASC_REG_REDUCE(NAME, INIT, STEP)                                                                   \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>            \
    inline void NAME(U &dstReg, const U &srcReg, const MaskReg &mask) {                                     \
        using E = typename U::ElementType;                                                                 \
        using C = sim_detail::calc_t<E>;                                                                   \
        const U a = srcReg;                                                                                \
        C acc = INIT;                                                                                      \
        for (uint32_t i = 0; i < U::kLanes; ++i) {                                                         \
            if (sim_detail::active<E>(mask, i)) {                                                          \
                const C x = static_cast<C>(a.v[i]);                                                        \
                acc = STEP;                                                                                \
            }                                                                                              \
        }                                                                                                  \
        for (uint32_t i = 1; i < U::kLanes; ++i) dstReg.v[i] = E{};                                        \
        dstReg.v[0] = static_cast<E>(acc);                                                                 \
        sim_detail::charge_instr();                                                                        \
    }
PYASC_REG_REDUCE(ReduceSum, C{}, acc + x)
PYASC_REG_REDUCE(ReduceMax, std::numeric_limits<C>::lowest(), x > acc ? x : acc)
PYASC_REG_REDUCE(ReduceMin, std::numeric_limits<C>::max(), x < acc ? x : acc)
#undef PYASC_REG_REDUCE

// ---- Duplicate from a register: element 0 of srcReg in every active element -----------------------------------
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Duplicate(U &dstReg, const U &srcReg, const MaskReg &mask) {
    const auto s = srcReg.v[0];
    sim_detail::each<mode>(dstReg, mask, [&](uint32_t) { return s; });
}

// ---- Div with a DivSpecificMode ----------------------------------------------------------------------------------
template <typename T, const DivSpecificMode *divMode, typename U,
          typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>
inline void Div(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {
    using C = sim_detail::calc_t<typename U::ElementType>;
    const U a = srcReg0, b = srcReg1;
    auto f = [&](uint32_t i) { return static_cast<C>(a.v[i]) / static_cast<C>(b.v[i]); };
    if (divMode->mrgMode == MaskMergeMode::MERGING) {
        sim_detail::each<MaskMergeMode::MERGING>(dstReg, mask, f);
    } else {
        sim_detail::each<MaskMergeMode::ZEROING>(dstReg, mask, f);
    }
}

}  // namespace Reg
}  // namespace AscendC

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_REG_SIMD_CONVERT_H_
