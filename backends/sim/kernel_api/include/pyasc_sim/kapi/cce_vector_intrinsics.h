// Ascend C on the CPU -- the CCE vector intrinsics older ops-nn kernels call directly (kernel_api/COMPAT.md,
// round 19 study19b: NPUKernelBench's AddLayerNorm).
//
// The NPU compiler declares these without any header, so g++ needs a declaration even where the call sits
// in a function that only another SoC's build runs (two-phase lookup of a non-dependent call). Each runs
// as the AscendC API with the same semantics on a raw `__ubuf__` pointer viewed as a LocalTensor
// (pyasc_sim::kapi::ub_view), so the operand, alignment and pipe-race checks of that API apply. The mask
// is the vector mask register (set_vector_mask / AscendCUtils::SetMask), as the isSetMask = false forms.
//
// * vcadd(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, mode), half / float: page
//   "vcadd" (cceintrinsicapi 0034), PIPE_V. mode false: each repeat's masked elements summed into
//   dst[r * dstRepeatStride] (WholeReduceSum). mode true: dst is not written; the sum over all repeats goes
//   to SPR.ACC_VAL (cleared first), read back with get_acc_val(). The simulator sums each repeat pairwise
//   (as WholeReduceSum) and then the repeat sums in repeat order, in the element type.
// * int64_t get_acc_val(): SPR.ACC_VAL, the value's bits in the low bytes (the register GetAccVal reads).
// * vector_dup(dst, scalar, repeat, dstBlockStride, srcBlockStride, dstRepeatStride, srcRepeatStride) for
//   bfloat16 / float / int32 / uint16 / uint32 / int16 / half: page "vector_dup" (cceintrinsicapi 0055/0056),
//   Duplicate's repeat form (the source strides of a scalar are accepted and ignored).
// * vor(dst, src0, src1, repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), int16 / uint16: Or.
// * vtranspose(dst, src), int16 / uint16: page "vtranspose" (cceintrinsicapi 0060), a 16x16 transpose
//   (Transpose(dst, src)); the mask does not apply.
// * copy_ubuf_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap): page "copy_ubuf_to_ubuf"
//   (cceintrinsicapi 0070), the general data move parameters in 32-byte blocks (DataCopy UB -> UB).
// * set_va_reg_sb(VAn, uint64_t addrs[8]): writes the eight UB addresses of vector address register VAn
//   (ub_addr8_t VA0..VA7), the registers scatter_vnchwconv_b16 / _b32 (page cceintrinsicapi 0059) take. No
//   public page gives how the 16 addresses of one scatter are spread over the registers, so scatter_vnchwconv
//   is declared (kernels that only call it on another SoC compile) and reports that the simulator lacks it.
// ONE_BLK_FLOAT_NUM (floats in a 32-byte block) and BRCB_BROADCAST_NUMBER (elements Brcb reads per
// repeat, 8) are the SDK's constants next to ONE_BLK_SIZE.
#ifndef PYASC_SIM_KAPI_CCE_VECTOR_INTRINSICS_H_
#define PYASC_SIM_KAPI_CCE_VECTOR_INTRINSICS_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/pad_copy_builtins.h"  // pyasc_sim::kapi::ub_view
#include "pyasc_sim/kapi/reduce.h"
#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/vector_more.h"

namespace AscendC {
#if !PYASC_SIM_DOCUMENTED_ONLY
constexpr int32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / sizeof(float);
constexpr int32_t BRCB_BROADCAST_NUMBER = 8;
#endif
}  // namespace AscendC

// The vector address registers of scatter_vnchwconv (ub_addr8_t in the CCE intrinsic prototypes).
#ifndef PYASC_SIM_HAVE_UB_ADDR8_T
#define PYASC_SIM_HAVE_UB_ADDR8_T
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
#endif

namespace pyasc_sim {
namespace kapi {
namespace cce {
using SrcLocT = pyasc_sim::kapi::SrcLoc;

template <typename T>
inline void vcadd(T *dst, T *src, uint8_t repeat, uint16_t dstRepeatStride, uint16_t srcBlockStride,
                  uint16_t srcRepeatStride, bool mode, const SrcLocT &loc) {
    if (!mode) {
        AscendC::WholeReduceSum<T, false>(ub_view(dst), ub_view(src), 0, repeat, dstRepeatStride, srcBlockStride,
                                          srcRepeatStride, loc);
        return;
    }
    namespace sd = AscendC::sim_detail;
    const sd::Mask m = sd::mask_of<false>(uint64_t{0}, 256 / sizeof(T), "vcadd", loc);
    const sd::Opnd os{srcBlockStride, srcRepeatStride, static_cast<int64_t>(32 / sizeof(T))};
    const AscendC::LocalTensor<T> s = ub_view(src);
    sd::check_operand(s, "vcadd", "src", os, repeat, m, loc);
    T total = T(0);
    for (uint32_t r = 0; r < repeat; ++r) {
        T g[256];
        int64_t k = 0;
        for (uint32_t i = 0; i < m.n; ++i) {
            if (m.test(i)) g[k++] = s.ptr()[os.off(r, i)];
        }
        total = static_cast<T>(total + sd::pairwise_sum(g, k));
    }
    VecRegs &vr = blk().vregs;
    std::memset(vr.acc, 0, sizeof(vr.acc));
    std::memcpy(vr.acc, &total, sizeof(T));
    vr.acc_set = true;
    charge(kPipeV, vector_cycles(repeat, 2.0) + pyasc_sim::cost::kReduceTailCycles);
}

inline int64_t get_acc_val(const SrcLocT &loc) {
    VecRegs &vr = blk().vregs;
    AscendC::sim_detail::reg_require(vr.acc_set, "get_acc_val", "SPR.ACC_VAL", "vcadd with mode 1", loc);
    int64_t v;
    std::memcpy(&v, vr.acc, sizeof(v));
    return v;
}

template <typename T>
inline void vector_dup(T *dst, T src, uint8_t repeat, uint16_t dstBlockStride, uint16_t dstRepeatStride,
                       const SrcLocT &loc) {
    AscendC::Duplicate<T, false>(ub_view(dst), src, uint64_t{0}, repeat, dstBlockStride,
                                 static_cast<uint8_t>(dstRepeatStride), loc);
}

template <typename T>
inline void vor(T *dst, T *src0, T *src1, uint8_t repeat, uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk,
                uint8_t dstRep, uint8_t src0Rep, uint8_t src1Rep, const SrcLocT &loc) {
    AscendC::Or<T, false>(ub_view(dst), ub_view(src0), ub_view(src1), uint64_t{0}, repeat,
                          AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc);
}

inline void scatter_unsupported(const char *api, const SrcLocT &loc) {
    fail("unsupported", loc,
         "%s is not supported by the pyasc simulator: no public reference page gives how the 16 UB addresses of the "
         "instruction are spread over the VA registers; use AscendC::TransDataTo5HD with address lists",
         api);
}
}  // namespace cce
}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_CCE_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()

inline void vcadd(__ubuf__ half *dst, __ubuf__ half *src, uint8_t repeat, uint16_t dstRepeatStride,
                  uint16_t srcBlockStride, uint16_t srcRepeatStride, bool mode, PYASC_SIM_CCE_LOC) {
    pyasc_sim::kapi::cce::vcadd(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, mode, loc);
}
inline void vcadd(__ubuf__ float *dst, __ubuf__ float *src, uint8_t repeat, uint16_t dstRepeatStride,
                  uint16_t srcBlockStride, uint16_t srcRepeatStride, bool mode, PYASC_SIM_CCE_LOC) {
    pyasc_sim::kapi::cce::vcadd(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, mode, loc);
}

inline int64_t get_acc_val(PYASC_SIM_CCE_LOC) { return pyasc_sim::kapi::cce::get_acc_val(loc); }

// A template over the seven documented element types (not seven plain overloads): a plain function's body would
// instantiate Duplicate<bfloat16_t> in every kernel, which the dtype tables refuse on the Atlas inference series.
template <typename T, typename S,
          std::enable_if_t<std::is_same<T, bfloat16_t>::value || std::is_same<T, float>::value ||
                               std::is_same<T, int32_t>::value || std::is_same<T, uint16_t>::value ||
                               std::is_same<T, uint32_t>::value || std::is_same<T, int16_t>::value ||
                               std::is_same<T, half>::value,
                           int> = 0>
inline void vector_dup(__ubuf__ T *dst, S src, uint8_t repeat, uint16_t dstBlockStride, uint16_t /*srcBlockStride*/,
                       uint16_t dstRepeatStride, uint16_t /*srcRepeatStride*/, PYASC_SIM_CCE_LOC) {
    pyasc_sim::kapi::cce::vector_dup(dst, static_cast<T>(src), repeat, dstBlockStride, dstRepeatStride, loc);
}

#define PYASC_SIM_VOR(T)                                                                                          \
    inline void vor(__ubuf__ T *dst, __ubuf__ T *src0, __ubuf__ T *src1, uint8_t repeat, uint8_t dstBlockStride,  \
                    uint8_t src0BlockStride, uint8_t src1BlockStride, uint8_t dstRepeatStride,                    \
                    uint8_t src0RepeatStride, uint8_t src1RepeatStride, PYASC_SIM_CCE_LOC) {                      \
        pyasc_sim::kapi::cce::vor(dst, src0, src1, repeat, dstBlockStride, src0BlockStride, src1BlockStride,      \
                                  dstRepeatStride, src0RepeatStride, src1RepeatStride, loc);                      \
    }
PYASC_SIM_VOR(int16_t)
PYASC_SIM_VOR(uint16_t)
#undef PYASC_SIM_VOR

inline void vtranspose(__ubuf__ int16_t *dst, __ubuf__ int16_t *src, PYASC_SIM_CCE_LOC) {
    AscendC::Transpose(pyasc_sim::kapi::ub_view(dst), pyasc_sim::kapi::ub_view(src), loc);
}
inline void vtranspose(__ubuf__ uint16_t *dst, __ubuf__ uint16_t *src, PYASC_SIM_CCE_LOC) {
    AscendC::Transpose(pyasc_sim::kapi::ub_view(dst), pyasc_sim::kapi::ub_view(src), loc);
}

inline void copy_ubuf_to_ubuf(__ubuf__ void *dst, __ubuf__ void *src, uint8_t /*sid*/, uint16_t nBurst,
                              uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap, PYASC_SIM_CCE_LOC) {
    AscendC::DataCopy(pyasc_sim::kapi::ub_view(static_cast<uint8_t *>(dst)),
                      pyasc_sim::kapi::ub_view(static_cast<uint8_t *>(src)),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

inline void set_va_reg_sb(ub_addr8_t reg, uint64_t *addrs) {
    pyasc_sim::kapi::VecRegs &vr = pyasc_sim::kapi::blk().vregs;
    std::memcpy(vr.va[reg & 7], addrs, sizeof(vr.va[0]));
    vr.va_set = static_cast<uint8_t>(vr.va_set | (1u << (reg & 7)));
}

inline void scatter_vnchwconv_b16(ub_addr8_t, ub_addr8_t, uint8_t, uint16_t, uint16_t, PYASC_SIM_CCE_LOC) {
    pyasc_sim::kapi::cce::scatter_unsupported("scatter_vnchwconv_b16", loc);
}
inline void scatter_vnchwconv_b32(ub_addr8_t, ub_addr8_t, uint8_t, uint16_t, uint16_t, PYASC_SIM_CCE_LOC) {
    pyasc_sim::kapi::cce::scatter_unsupported("scatter_vnchwconv_b32", loc);
}

#undef PYASC_SIM_CCE_LOC

#endif  // PYASC_SIM_KAPI_CCE_VECTOR_INTRINSICS_H_
