// kapi/builtins.h -- the NPU compiler's builtins and toolchain names, global as the compiler declares them:
// * set_mask_count() / set_mask_norm() / set_vector_mask(high, low): the CCE intrinsics of the mask mode
//   (SetMaskCount / SetMaskNorm / SetVectorMask); AscendC::AscendCUtils::ResetMask() / SetMask, the utility-class
//   spellings. Count-form vector calls (`Add(dst, a, b, count)`) process `count` elements in either mode, as
//   documented for the counter mode; repeat forms with isSetMask = false read the mask register.
// * scalar min(a, b) / max(a, b) (both operands of one type).
// * block_idx / block_num (the CPU-debug build's globals) and get_block_idx() / get_block_num(): they count AI
//   Cores, so on a vector core of a mixed AIC:AIV = 1:2 kernel get_block_idx() is the group; get_subblockid() /
//   get_subblockdim() are GetSubBlockIdx() / GetSubBlockNum() (0 and 1 on the cube core and in vector-only
//   kernels); get_block_idx() * get_subblockdim() + get_subblockid() is the vector core's GetBlockIdx().
// * g_coreType: the kind of core running the block (AscendC::AIC / AIV; the constant AIC in cube-only builds).
// * float32_t / float16_t: the toolchain's names for float and half; likely(x) / unlikely(x) branch hints;
//   std::cout under __CCE_KT_TEST__ (the CPU-debug build, which the compile step defines).
// * set_atomic_none(): the CCE intrinsic behind SetAtomicNone; GetSysWorkSpacePtr() callable unqualified
//   (a using-declaration, like GetTPipePtr in compat.h), so calls after `using namespace AscendC` stay unambiguous.
#ifndef PYASC_SIM_KAPI_BUILTINS_H_
#define PYASC_SIM_KAPI_BUILTINS_H_

#include <cstdint>
#include <type_traits>
#ifdef __CCE_KT_TEST__
#include <iostream>  // CANN's CPU-debug headers make std::cout visible to kernels built for the CPU
#endif

#include "pyasc_sim/kapi/mix.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/tiling.h"
#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/xcore.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace AscendC {

// ---- mask-mode intrinsics ------------------------------------------------------------------------
// (the NPU compiler's builtins, global; AscendC:: spellings and AscendCUtils are undocumented)
namespace sim_detail {
inline void set_mask_count() { SetMaskCount(); }
inline void set_mask_norm() { SetMaskNorm(); }
inline void set_vector_mask(const uint64_t maskHigh, const uint64_t maskLow) { SetVectorMask<uint16_t>(maskHigh, maskLow); }
}  // namespace sim_detail

#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::set_mask_count;
using sim_detail::set_mask_norm;
using sim_detail::set_vector_mask;

struct AscendCUtils {
    static inline void ResetMask() { AscendC::ResetMask(); }
    template <typename T, MaskMode mode = MaskMode::NORMAL>
    static inline void SetMask(const uint64_t maskHigh, const uint64_t maskLow) { SetVectorMask<T, mode>(maskHigh, maskLow); }
    // The length form public kernels call (vllm-ascend adn_rms_norm): the documented SetVectorMask(len).
    template <typename T, MaskMode mode = MaskMode::NORMAL>
    static inline void SetMask(const int32_t len) { SetVectorMask<T, mode>(len); }
    // The SDK's size helpers (kernel_utils.h, class AscendCUtils: GetBitSize = byteSize * ONE_BYTE_BIT_SIZE (8),
    // GetC0Size = DEFAULT_C0_SIZE, GetC0Count = GetC0Size() / dtypeSize, asserting dtypeSize != 0,
    // GetDefaultBlockNum = DEFAULT_BLK_NUM); DrivingSDK scatter_add_v3 sizes its CompareScalar masks with
    // GetBitSize(sizeof(uint8_t)). No reference page documents them.
    static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
    static inline int32_t GetC0Size() { return 32; }  // DEFAULT_C0_SIZE: one 32-byte block
    static inline int32_t GetC0Count(const int32_t dtypeSize,
                                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        if (dtypeSize == 0) {
            pyasc_sim::kapi::fail("invalid-argument", loc,
                                  "AscendCUtils::GetC0Count(dtypeSize 0): dtypeSize is sizeof(T) of the element "
                                  "type, a positive byte count");
        }
        return GetC0Size() / dtypeSize;
    }
    static inline int32_t GetDefaultBlockNum() { return DEFAULT_BLK_NUM; }
};
#endif

// ---- scalar min / max (both operands of one type, as the builtins) --------------------------------
namespace sim_detail {
template <typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
inline T min(const T a, const T b) { return b < a ? b : a; }
template <typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
inline T max(const T a, const T b) { return a < b ? b : a; }
}  // namespace sim_detail
#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::max;
using sim_detail::min;
#endif

}  // namespace AscendC

// g_coreType: the kind of core running the block (AscendC::AIC = 1, AscendC::AIV = 2): the AIC of a
// mixed launch too (as ASCEND_IS_AIC), or a core set by the CPU-debug SetKernelMode.
// A cube-only build (core="cube": __DAV_C220_CUBE__ without __DAV_C220_VEC__, as the NPU compiler's
// dav-c220-cube pass) runs on AICs only, so there it is the constant AscendC::AIC, and
// `if constexpr (g_coreType == AIC)` compiles as on the NPU (MindSpore Lite's ascend_native Matmul).
#ifndef g_coreType
#if defined(__DAV_C220_CUBE__) && !defined(__DAV_C220_VEC__)
#define g_coreType (::AscendC::AIC)
#elif defined(PYASC_SIM_SPLIT_PASS) && PYASC_SIM_SPLIT_PASS == 2
// the vector pass of a kernel built once per core kind (pyasc_sim.mix_build) runs on AIVs only
#define g_coreType (::AscendC::AIV)
#else
#define g_coreType (::pyasc_sim::kapi::core_is_aic() ? ::AscendC::AIC : ::AscendC::AIV)
#endif
#endif

// ---- float16_t / float32_t / float64_t: the NPU toolchain's names for half, float and double ----------
// (public kernels declare tensors of them; float64_t is not in the Ascend C type list, which names
// double, but the toolchain accepts it beside the other two: memfabric_hybrid's collectives switch on it)
using float32_t = float;
using float64_t = double;

using float16_t = half;

// ---- block_idx / block_num, get_block_idx() / get_block_num() --------------------------------------
namespace pyasc_sim {
namespace kapi {
// The builtins count AI Cores: on the vector cores of a mixed (AIC:AIV = 1:2) kernel get_block_idx() is the
// AI Core (group) index, GetBlockIdx() / GetTaskRation(), not GetBlockIdx() (= group * 2 + get_subblockid());
// kernels build the vector-core index as get_block_idx() * get_subblockdim() + get_subblockid() (below).
struct BlockIdxValue {
    operator int64_t() const { return AscendC::GetBlockIdx() / AscendC::GetTaskRation(); }
};
struct BlockNumValue {
    operator int64_t() const { return AscendC::GetBlockNum(); }
};
}  // namespace kapi
}  // namespace pyasc_sim

inline constexpr pyasc_sim::kapi::BlockIdxValue block_idx{};
inline constexpr pyasc_sim::kapi::BlockNumValue block_num{};
inline int64_t get_block_idx() { return AscendC::GetBlockIdx() / AscendC::GetTaskRation(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }

inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }
inline int64_t get_subblockdim() { return AscendC::GetSubBlockNum(); }

using AscendC::GetSysWorkSpacePtr;

inline void set_atomic_none() { AscendC::SetAtomicNone(); }

// ---- sbitset0(value, bit) / sbitset1(value, bit): the NPU compiler's scalar bit builtins -----------------
// value with bit `bit` (0 = least significant) cleared / set. The SDK's own code spells its control-register
// updates set_ctrl(sbitset1(get_ctrl(), bit)) / set_ctrl(sbitset0(get_ctrl(), bit)); kernels clear the bits of a
// 64-bit compare mask one by one with them (DrivingSDK scatter_add_v3: p = ScalarGetSFFValue<1>(mask);
// mask = sbitset0(mask, p)). No reference page documents them; a bit outside 0..63 is `invalid-argument`.
namespace pyasc_sim {
namespace kapi {
inline uint64_t scalar_bitset(uint64_t value, int64_t bit, bool one, const SrcLoc &loc) {
    if (bit < 0 || bit > 63) {
        fail("invalid-argument", loc, "%s(0x%llx, %lld): the bit position is 0..63 (the scalar is 64 bits)",
             one ? "sbitset1" : "sbitset0", static_cast<unsigned long long>(value), static_cast<long long>(bit));
    }
    const uint64_t m = uint64_t{1} << bit;
    return one ? (value | m) : (value & ~m);
}
}  // namespace kapi
}  // namespace pyasc_sim
inline uint64_t sbitset0(uint64_t value, int64_t bit, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    return pyasc_sim::kapi::scalar_bitset(value, bit, false, loc);
}
inline uint64_t sbitset1(uint64_t value, int64_t bit, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    return pyasc_sim::kapi::scalar_bitset(value, bit, true, loc);
}

using AscendC::sim_detail::max;
using AscendC::sim_detail::min;
using AscendC::sim_detail::set_mask_count;
using AscendC::sim_detail::set_mask_norm;
using AscendC::sim_detail::set_vector_mask;

#endif  // PYASC_SIM_KAPI_BUILTINS_H_
