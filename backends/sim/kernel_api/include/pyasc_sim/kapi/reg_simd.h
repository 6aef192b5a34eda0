// Ascend C on the CPU -- register-based SIMD vector functions (the "Regbase" programming model) of the
// Atlas 350 / Ascend 950 (kernels built with soc="Ascend950PR_9599", __CCE_AICORE__ == 310).
//
// A SIMD VF is a plain function started with asc_vf_call<f>(args...) (its older spelling VF_CALL<f>(args...),
// as in Ascend/RecSDK's c310 optimiser kernels) that works on vector registers instead of LocalTensors:
// AscendC::Reg::RegTensor<T> (one vector length, VL = 256 bytes, of T), AscendC::Reg::MaskReg (which
// elements take part), UpdateMask<T>(count) / CreateMask<T, pattern>(), loads and stores between UB and
// registers (LoadAlign / StoreAlign and their older names DataCopy(reg, ubPtr) / DataCopy(ubPtr, reg, mask)),
// and element-wise register instructions. `AscendC::MicroAPI` is the older name of the same namespace
// (the reference: `namespace MicroAPI = Reg;`).
//
// Semantics from the public reference (CANN 9.0 ascendcopapi pages MaskReg, MaskMergeMode, And, asc_vf_call):
// * UpdateMask<T>(uint32_t &n): the lowest min(n, VL_T) elements active (VL_T = 256 / sizeof(T)); then
//   n = n < VL_T ? 0 : n - VL_T.
// * CreateMask<T, MaskPattern>(): ALL, VL1..VL128 (lowest k elements), M3 / M4 (every 3rd / 4th element),
//   H / Q (lowest half / quarter), ALLF (none).
// * Compute instructions take MaskMergeMode (default ZEROING: elements the mask leaves out are 0 in dst;
//   MERGING: they keep dst's value).
// * A load reads a whole VL from a T-aligned UB address; a store writes the mask's elements only.
//
// On the simulator a VF runs directly on the calling block's thread; registers are host arrays (zeroed when
// declared). Checks: every load / store address must be a UB address of the block (`local-out-of-bounds`,
// the whole VL of a load, the active elements of a store must fit) and T-aligned (`ub-alignment`). Stores mark
// the bytes written for the initcheck; loads are not checked for never-written bytes (a VL load reads the
// inactive tail too, as on hardware) nor seen by the pipe-race check (kernel API README, deviations).
#ifndef PYASC_SIM_KAPI_REG_SIMD_H_
#define PYASC_SIM_KAPI_REG_SIMD_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "pyasc_sim/kapi/simt.h"
#include "pyasc_sim/kapi/state.h"

#if __CCE_AICORE__ == 310

#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif

namespace AscendC {

// Vector length in bytes of a SIMD VF register (the 950's VL).
constexpr uint32_t GetVecLen() { return 256; }

namespace Reg {

constexpr uint32_t kVecLenBytes = 256;

struct DefaultType {};
struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne{1};
constexpr RegTrait RegTraitNumTwo{2};

enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
// Distribution modes of the VL loads and stores (LoadAlign / StoreAlign pages). Besides the plain VL copies: the
// UNPACK loads place each narrow element in the lowest part of a wider lane (DIST_UNPACK_B8: 128 bytes into the
// low byte of 64... 16-bit lanes; DIST_UNPACK_B16: 64 b16 elements into the low halves of the 32-bit lanes;
// DIST_UNPACK4_B8: 64 bytes into the lowest byte of the 32-bit lanes), the rest of each lane zero; BRC_B8/B16/B32
// broadcasts one element to every lane; the PACK stores write the lowest part of each active wider lane
// contiguously (DIST_PACK_B16: a byte per 16-bit lane, DIST_PACK_B32: a b16 per 32-bit lane, DIST_PACK4_B32: a
// byte per 32-bit lane); DIST_FIRST_ELEMENT_B32 stores element 0 only. Other modes are not provided.
enum class LoadDist { DIST_NORM, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_UNPACK4_B8 };
enum class StoreDist {
    DIST_NORM,
    DIST_NORM_B8,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_PACK4_B32
};

template <typename T, const RegTrait &regTrait = RegTraitNumOne>
struct RegTensor {
    using ElementType = T;
    static constexpr uint32_t kLanes = kVecLenBytes / sizeof(T);
    T v[kLanes] = {};
};

// One flag per byte of the VL (the reference: a MaskReg is VL / 8 bits wide, one bit per byte); element i of
// a T register is active when the flag of its first byte is set.
struct MaskReg {
    uint8_t on[kVecLenBytes] = {};
};

namespace sim_detail {
template <typename T>
inline bool active(const MaskReg &m, uint32_t i) {
    return m.on[i * sizeof(T)] != 0;
}
template <typename T>
inline void set_lanes(MaskReg &m, uint32_t lanes, bool (*pick)(uint32_t, uint32_t)) {
    constexpr uint32_t n = kVecLenBytes / sizeof(T);
    for (uint32_t i = 0; i < n; ++i) {
        const uint8_t f = pick(i, lanes) ? 1 : 0;
        std::memset(m.on + i * sizeof(T), f, sizeof(T));
    }
}
template <typename T>
using calc_t = std::conditional_t<std::is_arithmetic<T>::value, T, float>;

// Host address p of `bytes` bytes must lie in the block's UB and be aligned to `align`.
inline uint64_t ub_offset(const void *p, uint64_t bytes, uint64_t align, const char *api) {
    namespace k = pyasc_sim::kapi;
    k::BlockState &b = k::blk();
    const auto a = reinterpret_cast<uintptr_t>(p);
    const auto base = reinterpret_cast<uintptr_t>(b.mem[k::kUB]);
    const uint64_t cap = b.capacity[k::kUB];
    if (b.checks && (base == 0 || a < base || a + bytes > base + cap)) {
        k::fail("local-out-of-bounds", k::SrcLoc(), "%s: %llu bytes at %p are not inside the block's UB (%llu bytes)",
                api, static_cast<unsigned long long>(bytes), p, static_cast<unsigned long long>(cap));
    }
    if (b.checks && (a - base) % align != 0) {
        k::fail("ub-alignment", k::SrcLoc(), "%s: UB offset %llu is not a multiple of %llu (the element size)", api,
                static_cast<unsigned long long>(a - base), static_cast<unsigned long long>(align));
    }
    return a - base;
}
inline void charge_instr() { pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(1)); }

template <MaskMergeMode mode, typename U, typename F>
inline void each(U &dst, const MaskReg &mask, F f) {
    using T = typename U::ElementType;
    static_assert(mode != MaskMergeMode::UNKNOWN, "Reg compute: MaskMergeMode::UNKNOWN is for conversions only");
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        if (active<T>(mask, i)) {
            dst.v[i] = static_cast<T>(f(i));
        } else if (mode == MaskMergeMode::ZEROING) {
            dst.v[i] = T{};
        }
    }
    charge_instr();
}
}  // namespace sim_detail

template <typename T, const RegTrait &regTrait = RegTraitNumOne>
inline MaskReg UpdateMask(uint32_t &scalarValue) {
    constexpr uint32_t lanes = kVecLenBytes / sizeof(T);
    MaskReg m;
    sim_detail::set_lanes<T>(m, scalarValue < lanes ? scalarValue : lanes, [](uint32_t i, uint32_t k) { return i < k; });
    scalarValue = scalarValue < lanes ? 0 : scalarValue - lanes;
    return m;
}

template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait &regTrait = RegTraitNumOne>
inline MaskReg CreateMask() {
    constexpr uint32_t lanes = kVecLenBytes / sizeof(T);
    MaskReg m;
    uint32_t k = lanes;
    switch (mode) {
        case MaskPattern::ALL: k = lanes; break;
        case MaskPattern::VL1: k = 1; break;
        case MaskPattern::VL2: k = 2; break;
        case MaskPattern::VL3: k = 3; break;
        case MaskPattern::VL4: k = 4; break;
        case MaskPattern::VL8: k = 8; break;
        case MaskPattern::VL16: k = 16; break;
        case MaskPattern::VL32: k = 32; break;
        case MaskPattern::VL64: k = 64; break;
        case MaskPattern::VL128: k = 128; break;
        case MaskPattern::H: k = lanes / 2; break;
        case MaskPattern::Q: k = lanes / 4; break;
        case MaskPattern::ALLF: k = 0; break;
        case MaskPattern::M3:
            sim_detail::set_lanes<T>(m, 3, [](uint32_t i, uint32_t s) { return i % s == 0; });
            return m;
        case MaskPattern::M4:
            sim_detail::set_lanes<T>(m, 4, [](uint32_t i, uint32_t s) { return i % s == 0; });
            return m;
    }
    sim_detail::set_lanes<T>(m, k < lanes ? k : lanes, [](uint32_t i, uint32_t n) { return i < n; });
    return m;
}

namespace sim_detail {
// The PACK / FIRST_ELEMENT stores: lane i of width `wide` bytes (active by the mask at that width) writes its
// lowest sizeof(E) bytes -- register slot i * step -- to UB element i; FIRST_ELEMENT writes element 0 only.
template <StoreDist dist, typename P, typename U>
inline void store_packed(P *dstAddr, const U &srcReg, const MaskReg &mask) {
    using E = typename U::ElementType;
    constexpr uint32_t wide = dist == StoreDist::DIST_PACK_B16 ? 2 : 4;
    constexpr uint32_t step = dist == StoreDist::DIST_FIRST_ELEMENT_B32 ? 1 : wide / static_cast<uint32_t>(sizeof(E));
    static_assert(dist != StoreDist::DIST_FIRST_ELEMENT_B32 || sizeof(E) == 4,
                  "Reg::StoreAlign: DIST_FIRST_ELEMENT_B32 needs a 32-bit register element type");
    static_assert(dist == StoreDist::DIST_FIRST_ELEMENT_B32 ||
                      (sizeof(E) < wide && (dist != StoreDist::DIST_PACK4_B32 || sizeof(E) == 1) &&
                       (dist != StoreDist::DIST_PACK_B32 || sizeof(E) == 2)),
                  "Reg::StoreAlign: DIST_PACK_B16 needs an 8-bit, DIST_PACK_B32 a 16-bit, DIST_PACK4_B32 an 8-bit "
                  "register element type");
    const uint32_t count = dist == StoreDist::DIST_FIRST_ELEMENT_B32 ? 1 : kVecLenBytes / wide;
    int64_t first = -1, last = -1;
    for (uint32_t i = 0; i < count; ++i) {
        if (mask.on[i * wide] != 0) {
            if (first < 0) first = i;
            last = i;
        }
    }
    if (first < 0) {
        charge_instr();
        return;
    }
    const uint64_t off = ub_offset(dstAddr, static_cast<uint64_t>(last + 1) * sizeof(E), sizeof(E),
                                   "Reg::StoreAlign (DIST_PACK / DIST_FIRST_ELEMENT, RegTensor -> UB)");
    auto *d = reinterpret_cast<E *>(static_cast<void *>(dstAddr));
    for (int64_t i = first; i <= last; ++i) {
        if (mask.on[i * wide] != 0) d[i] = srcReg.v[i * step];
    }
    pyasc_sim::kapi::local_mark_written(pyasc_sim::kapi::kUB, off + first * sizeof(E), (last - first + 1) * sizeof(E));
    charge_instr();
}
}  // namespace sim_detail

// ---- UB <-> register -------------------------------------------------------------------------------------
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, typename P>
inline void LoadAlign(U &dstReg, P *srcAddr) {
    using E = typename U::ElementType;
    static_assert(sizeof(P) == sizeof(E), "Reg::LoadAlign: the UB pointer's element size must match the register's");
    constexpr uint32_t lanes = U::kLanes;
    if constexpr (dist == LoadDist::DIST_NORM) {
        sim_detail::ub_offset(srcAddr, kVecLenBytes, sizeof(E), "Reg::LoadAlign / DataCopy (UB -> RegTensor)");
        std::memcpy(dstReg.v, static_cast<const void *>(srcAddr), kVecLenBytes);
    } else if constexpr (dist == LoadDist::DIST_BRC_B8 || dist == LoadDist::DIST_BRC_B16 ||
                         dist == LoadDist::DIST_BRC_B32) {
        constexpr size_t w = dist == LoadDist::DIST_BRC_B8 ? 1 : dist == LoadDist::DIST_BRC_B16 ? 2 : 4;
        static_assert(sizeof(E) == w, "Reg::LoadAlign: a DIST_BRC_Bn load needs an n-bit register element type");
        sim_detail::ub_offset(srcAddr, sizeof(E), sizeof(E), "Reg::LoadAlign (DIST_BRC, UB -> RegTensor)");
        E first;
        std::memcpy(&first, static_cast<const void *>(srcAddr), sizeof(E));
        for (uint32_t i = 0; i < lanes; ++i) dstReg.v[i] = first;
    } else {
        // UNPACK: element i of UB goes to slot i * step of the register (the lowest part of a wider lane)
        constexpr uint32_t step = dist == LoadDist::DIST_UNPACK4_B8 ? 4 : 2;
        constexpr size_t w = dist == LoadDist::DIST_UNPACK_B16 ? 2 : 1;
        static_assert(sizeof(E) == w, "Reg::LoadAlign: DIST_UNPACK_B16 needs a 16-bit register element type, "
                                      "DIST_UNPACK_B8 / DIST_UNPACK4_B8 an 8-bit one");
        constexpr uint32_t count = lanes / step;
        sim_detail::ub_offset(srcAddr, count * sizeof(E), sizeof(E), "Reg::LoadAlign (DIST_UNPACK, UB -> RegTensor)");
        const auto *s = reinterpret_cast<const E *>(static_cast<const void *>(srcAddr));
        std::memset(static_cast<void *>(dstReg.v), 0, kVecLenBytes);
        for (uint32_t i = 0; i < count; ++i) dstReg.v[i * step] = s[i];
    }
    sim_detail::charge_instr();
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, typename P>
inline void StoreAlign(P *dstAddr, const U &srcReg, const MaskReg &mask) {
    using E = typename U::ElementType;
    static_assert(sizeof(P) == sizeof(E), "Reg::StoreAlign: the UB pointer's element size must match the register's");
    if constexpr (dist == StoreDist::DIST_FIRST_ELEMENT_B32 || dist == StoreDist::DIST_PACK_B16 ||
                  dist == StoreDist::DIST_PACK_B32 || dist == StoreDist::DIST_PACK4_B32) {
        sim_detail::store_packed<dist>(dstAddr, srcReg, mask);
        return;
    }
    int64_t first = -1, last = -1;
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        if (sim_detail::active<E>(mask, i)) {
            if (first < 0) first = i;
            last = i;
        }
    }
    if (first < 0) {
        sim_detail::charge_instr();
        return;
    }
    const uint64_t off = sim_detail::ub_offset(dstAddr, static_cast<uint64_t>(last + 1) * sizeof(E), sizeof(E),
                                               "Reg::StoreAlign / DataCopy (RegTensor -> UB)");
    auto *d = reinterpret_cast<E *>(static_cast<void *>(dstAddr));
    for (int64_t i = first; i <= last; ++i) {
        if (sim_detail::active<E>(mask, static_cast<uint32_t>(i))) d[i] = srcReg.v[i];
    }
    pyasc_sim::kapi::local_mark_written(pyasc_sim::kapi::kUB, off + first * sizeof(E), (last - first + 1) * sizeof(E));
    sim_detail::charge_instr();
}

// The older names (MicroAPI::DataCopy): a load has two operands, a store three.
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, typename P>
inline void DataCopy(U &dstReg, P *srcAddr) {
    LoadAlign<T, dist>(dstReg, srcAddr);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, typename P>
inline void DataCopy(P *dstAddr, const U &srcReg, const MaskReg &mask) {
    StoreAlign<T, dist>(dstAddr, srcReg, mask);
}

// ---- element-wise instructions -----------------------------------------------------------------------------
#define PYASC_REG_BINARY(NAME, EXPR)                                                                         \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>            \
    inline void NAME(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {                 \
        using C = sim_detail::calc_t<typename U::ElementType>;                                             \
        const U a = srcReg0, b = srcReg1;                                                                  \
        sim_detail::each<mode>(dstReg, mask, [&](uint32_t i) {                                             \
            const C x = static_cast<C>(a.v[i]), y = static_cast<C>(b.v[i]);                                \
            return EXPR;                                                                                   \
        });                                                                                                \
    }
PYASC_REG_BINARY(Add, x + y)
PYASC_REG_BINARY(Sub, x - y)
PYASC_REG_BINARY(Mul, x * y)
PYASC_REG_BINARY(Div, x / y)
PYASC_REG_BINARY(Max, x > y ? x : y)
PYASC_REG_BINARY(Min, x < y ? x : y)
#undef PYASC_REG_BINARY

// MulAddDst: dst = src0 * src1 + dst in the mask's elements (CANN 9.0 Reg page atlasascendc_api_07_0380, Atlas 350;
// MERGING is not supported there), computed in double and rounded once to the element type as the LocalTensor
// MulAddDst of kapi/vector_more.h does (Ascend/DrivingSDK's arch35 sigmoid_focal_loss_grad).
namespace sim_detail {
// dst = p * q + r in the mask's elements, computed in double and rounded once (dst may alias any source)
template <MaskMergeMode mode, typename U>
inline void mul_add_once(U &dstReg, const U &p, const U &q, const U &r, const MaskReg &mask) {
    using C = calc_t<typename U::ElementType>;
    const U a = p, b = q, c = r;
    each<mode>(dstReg, mask, [&](uint32_t i) {
        return static_cast<double>(static_cast<C>(a.v[i])) * static_cast<double>(static_cast<C>(b.v[i])) +
               static_cast<double>(static_cast<C>(c.v[i]));
    });
}
}  // namespace sim_detail
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulAddDst(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {
    sim_detail::mul_add_once<mode>(dstReg, srcReg0, srcReg1, dstReg, mask);
}

// MulDstAdd: dst = dst * src0 + src1 in the mask's elements (CANN 9.0 Reg page atlasascendc_api_07_00007, Atlas
// 350, half / bfloat16_t / float, ZEROING only); FusedMulDstAdd is the SDK's other spelling of the same instruction
// (asc-devkit kernel_micro_vec_fused_intf.h forwards both to FusedMulDstAddImpl), the one DrivingSDK's arch35 msda.h
// calls. Rounded once from double, as MulAddDst.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void MulDstAdd(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {
    sim_detail::mul_add_once<mode>(dstReg, dstReg, srcReg0, srcReg1, mask);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void FusedMulDstAdd(U &dstReg, const U &srcReg0, const U &srcReg1, const MaskReg &mask) {
    MulDstAdd<T, mode>(dstReg, srcReg0, srcReg1, mask);
}

// Interleave / DeInterleave of two registers (CANN 9.0 Reg pages atlasascendc_api_07_0405 / 07_0406, Atlas 350):
// Interleave writes src0[0], src1[0], src0[1], src1[1], ... over dst0 then dst1; DeInterleave is its inverse -- the
// even elements of src0 followed by src1 go to dst0, the odd ones to dst1 (x / y pairs split into two registers).
template <typename T = DefaultType, typename U>
inline void Interleave(U &dstReg0, U &dstReg1, const U &srcReg0, const U &srcReg1) {
    constexpr uint32_t n = U::kLanes;
    const U a = srcReg0, b = srcReg1;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const auto v = (j % 2 == 0 ? a : b).v[j / 2];
        (j < n ? dstReg0 : dstReg1).v[j % n] = v;
    }
    sim_detail::charge_instr();
}
template <typename T = DefaultType, typename U>
inline void DeInterleave(U &dstReg0, U &dstReg1, const U &srcReg0, const U &srcReg1) {
    constexpr uint32_t n = U::kLanes;
    const U a = srcReg0, b = srcReg1;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const auto v = (j < n ? a : b).v[j % n];
        (j % 2 == 0 ? dstReg0 : dstReg1).v[j / 2] = v;
    }
    sim_detail::charge_instr();
}

#define PYASC_REG_SCALAR(NAME, EXPR)                                                                         \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S> \
    inline void NAME(U &dstReg, const U &srcReg, S scalarValue, const MaskReg &mask) {                     \
        using C = sim_detail::calc_t<typename U::ElementType>;                                             \
        const U a = srcReg;                                                                                \
        const C y = static_cast<C>(static_cast<typename U::ElementType>(scalarValue));                     \
        sim_detail::each<mode>(dstReg, mask, [&](uint32_t i) {                                             \
            const C x = static_cast<C>(a.v[i]);                                                            \
            return EXPR;                                                                                   \
        });                                                                                                \
    }
PYASC_REG_SCALAR(Adds, x + y)
PYASC_REG_SCALAR(Muls, x * y)
PYASC_REG_SCALAR(Maxs, x > y ? x : y)
PYASC_REG_SCALAR(Mins, x < y ? x : y)
#undef PYASC_REG_SCALAR

namespace sim_detail {
// The scalar shift count of Reg ShiftLefts / ShiftRights as an unsigned count: their pages (07_0386 / 07_0387) do
// not support a negative one, which is reported naming the API and its page.
template <typename U>
inline uint32_t shift_count(U scalarValue, const char *api, const char *page) {
    if constexpr (std::is_signed<U>::value) {
        if (scalarValue < 0) {
            namespace k = pyasc_sim::kapi;
            k::fail("unsupported", k::SrcLoc(), "%s: shift count %lld is negative (page %s: negative counts are not "
                    "supported)", api, static_cast<long long>(scalarValue), page);
        }
    }
    return static_cast<uint32_t>(scalarValue);
}
}  // namespace sim_detail

// ShiftLefts (CANN 9.0 Reg page atlasascendc_api_07_0386, Atlas 350): each active element shifted left by
// scalarValue bits as a logical shift -- the high bits dropped, zeros shifted in -- for the 8- to 64-bit integer
// types (scalar int16_t; ZEROING). A count of the element's width or more leaves 0 (the Reg ShiftLeft page, 07_0374,
// for logical shifts); a negative count, which the page does not support, is reported.
template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void ShiftLefts(S &dstReg, const S &srcReg, U scalarValue, const MaskReg &mask) {
    using E = typename S::ElementType;
    static_assert(std::is_integral<E>::value, "ShiftLefts: the reference lists integer element types only");
    using UE = std::make_unsigned_t<E>;
    const S a = srcReg;
    const uint32_t n = sim_detail::shift_count(scalarValue, "ShiftLefts", "atlasascendc_api_07_0386");
    sim_detail::each<mode>(dstReg, mask, [&](uint32_t i) {
        return n >= 8 * sizeof(E) ? E{} : static_cast<E>(static_cast<UE>(static_cast<UE>(a.v[i]) << n));
    });
}

// ShiftRights (CANN 9.0 Reg page atlasascendc_api_07_0387, Atlas 350): each active element shifted right by
// scalarValue bits -- a logical shift (zeros shifted in) for the unsigned types, an arithmetic shift (the sign bit
// copied in) for the signed ones (the page's int16_t examples); scalar int16_t; ZEROING. A count of the element's
// width or more leaves 0 (unsigned) or the sign fill, 0 or -1 (signed) -- every bit shifted out, as ShiftLefts; a
// negative count, which the page does not support, is reported.
template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void ShiftRights(S &dstReg, const S &srcReg, U scalarValue, const MaskReg &mask) {
    using E = typename S::ElementType;
    static_assert(std::is_integral<E>::value, "ShiftRights: the reference lists integer element types only");
    const S a = srcReg;
    const uint32_t width = 8 * sizeof(E);
    const uint32_t count = sim_detail::shift_count(scalarValue, "ShiftRights", "atlasascendc_api_07_0387");
    sim_detail::each<mode>(dstReg, mask, [&](uint32_t i) {
        if constexpr (std::is_signed<E>::value) {  // arithmetic (C++20: >> of a negative value copies the sign bit)
            return static_cast<E>(a.v[i] >> (count < width ? count : width - 1));
        } else {
            return count >= width ? E{} : static_cast<E>(a.v[i] >> count);
        }
    });
}

#define PYASC_REG_UNARY(NAME, EXPR)                                                                          \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>            \
    inline void NAME(U &dstReg, const U &srcReg, const MaskReg &mask) {                                     \
        using C = sim_detail::calc_t<typename U::ElementType>;                                             \
        const U a = srcReg;                                                                                \
        sim_detail::each<mode>(dstReg, mask, [&](uint32_t i) {                                             \
            const C x = static_cast<C>(a.v[i]);                                                            \
            return EXPR;                                                                                   \
        });                                                                                                \
    }
PYASC_REG_UNARY(Abs, x < C{} ? -x : x)
PYASC_REG_UNARY(Neg, -x)
PYASC_REG_UNARY(Relu, x > C{} ? x : C{})
PYASC_REG_UNARY(Sqrt, static_cast<C>(std::sqrt(x)))
PYASC_REG_UNARY(Exp, static_cast<C>(std::exp(x)))
PYASC_REG_UNARY(Ln, static_cast<C>(std::log(x)))
// Log: the natural logarithm under the name of the CANN 9.0 Reg page (atlasascendc_api_07_0349, Atlas 350,
// half / float, ZEROING), as Ascend/DrivingSDK's arch35 sigmoid_focal_loss_grad calls it (MicroAPI::Log).
PYASC_REG_UNARY(Log, static_cast<C>(std::log(x)))
#undef PYASC_REG_UNARY

// dst = scalar in the mask's elements (ZEROING / MERGING elsewhere), or in every element.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S,
          typename = std::enable_if_t<std::is_arithmetic<S>::value || std::is_same<S, half>::value ||
                                      std::is_same<S, bfloat16_t>::value>>
inline void Duplicate(U &dstReg, S scalarValue, const MaskReg &mask) {
    const auto s = static_cast<typename U::ElementType>(scalarValue);
    sim_detail::each<mode>(dstReg, mask, [&](uint32_t) { return s; });
}
template <typename T = DefaultType, typename U, typename S,
          typename = std::enable_if_t<!std::is_same<std::decay_t<S>, MaskReg>::value>>
inline void Duplicate(U &dstReg, S scalarValue) {
    for (uint32_t i = 0; i < U::kLanes; ++i) dstReg.v[i] = static_cast<typename U::ElementType>(scalarValue);
    sim_detail::charge_instr();
}

}  // namespace Reg
}  // namespace AscendC

#include "pyasc_sim/kapi/reg_simd_convert.h"
#include "pyasc_sim/kapi/reg_simd_select.h"
#include "pyasc_sim/kapi/reg_simd_unalign.h"

namespace AscendC {
namespace MicroAPI = Reg;

namespace sim_detail {
template <typename... Args>
struct first_is_dim3 : std::false_type {};
template <typename A, typename... Rest>
struct first_is_dim3<A, Rest...> : std::is_same<std::decay_t<A>, Simt::Dim3> {};
}  // namespace sim_detail

// Starts a SIMD VF: on the simulator, a direct call on the block's thread (the SIMT form with a Dim3 is
// Simt::VF_CALL / asc_vf_call in kapi/simt.h).
template <auto funcPtr, typename... Args, typename = std::enable_if_t<!sim_detail::first_is_dim3<Args...>::value>>
inline void VF_CALL(Args &&...args) {
    funcPtr(static_cast<Args &&>(args)...);
}

}  // namespace AscendC

template <auto funcPtr, typename... Args,
          typename = std::enable_if_t<!AscendC::sim_detail::first_is_dim3<Args...>::value>>
inline void asc_vf_call(Args &&...args) {
    funcPtr(static_cast<Args &&>(args)...);
}

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_REG_SIMD_H_
