// Ascend C on the CPU -- what the tenth public-kernel study needed (kernel_api/COMPAT.md, round 10).
//
// * block_idx / block_num: the CPU-debug build's globals naming the running block and the launch's
//   block count (older samples and operator projects read them directly); get_block_idx() /
//   get_block_num(): the same as the NPU compiler's builtins. block_idx / block_num are read-only
//   values converting to int64_t at each use, so every block (and thread) sees its own.
// * float32_t: the NPU toolchain's alias of float (global; a repeated `typedef float float32_t` is fine).
// * likely(x) / unlikely(x): the toolchain's branch hints (__builtin_expect), unless already defined.
// * AscendC::AlignUp(value, align): value rounded up to a multiple of align (0 when align is 0).
// * std::cout under __CCE_KT_TEST__ (the CPU-debug build, which the compile step defines).
// * TBuf::AllocTensor / FreeTensor live in kapi/pipe.h (TBuf inherits TQueBind on the NPU).
// * LocalMemAllocator<Hardware> (reference page "LocalMemAllocator简介", atlasascendc_api_07_00095 /
//   _00096): a bump allocator over one physical memory for static-tensor programming; each Alloc
//   hands out the next tileSize elements at a 32-byte aligned address through the static-tensor
//   constructor LocalTensor(pos, addr, tileSize), which checks the memory's end.
// * copy_ubuf_to_gm_align_b8/b16/b32 and copy_gm_to_ubuf_align_b8/b16/b32: the CCE data-move
//   builtins behind DataCopyPad (dst, src, sid, nBurst, lenBurst in bytes, left / right padding
//   counts, srcGap, dstGap), run as DataCopyPad with DataCopyExtParams{nBurst, lenBurst, srcGap,
//   dstGap} (UB gaps in 32-byte blocks, GM gaps in bytes) on 8/16/32-bit elements, so the same
//   checks apply. The pointers are untyped (a float tensor may move through the b16 form: same bytes).
#ifndef PYASC_SIM_KAPI_STUDY10_H_
#define PYASC_SIM_KAPI_STUDY10_H_

#include <cstdint>
#include <type_traits>
#ifdef __CCE_KT_TEST__
#include <iostream>  // CANN's CPU-debug headers make std::cout visible to kernels built for the CPU
#endif

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/tensor.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace AscendC {

// ---- AlignUp -------------------------------------------------------------------------------------
template <typename T, typename U>
constexpr T AlignUp(const T value, const U align) {
    return align == 0 ? T(0) : static_cast<T>((value + static_cast<T>(align) - 1) / static_cast<T>(align) * static_cast<T>(align));
}

// ---- LocalMemAllocator ---------------------------------------------------------------------------
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace sim_detail {
// The TPosition a tensor of each physical memory gets when Alloc names none.
constexpr TPosition default_position(const Hardware h) {
    return h == Hardware::L1 ? TPosition::A1
         : h == Hardware::L0A ? TPosition::A2
         : h == Hardware::L0B ? TPosition::B2
         : h == Hardware::L0C ? TPosition::CO1
         : h == Hardware::BIAS ? TPosition::C2
         : h == Hardware::FIXBUF ? TPosition::C2PIPE2GM
         : TPosition::VECCALC;
}
}  // namespace sim_detail

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                  "LocalMemAllocator: hard must be a local memory (UB, L1, L0A, L0B, L0C, BIAS, FIXBUF)");

public:
    LocalMemAllocator() = default;
    uint32_t GetCurAddr() const { return addr_; }

    template <class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return take<DataType>(sim_detail::default_position(hard), tileSize, loc);
    }
    template <TPosition pos, class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return take<DataType>(pos, tileSize, loc);
    }
    template <class DataType>
    LocalTensor<DataType> Alloc(const uint32_t tileSize, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return take<DataType>(sim_detail::default_position(hard), tileSize, loc);
    }
    template <TPosition pos, class DataType>
    LocalTensor<DataType> Alloc(const uint32_t tileSize, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        return take<DataType>(pos, tileSize, loc);
    }

private:
    template <class DataType>
    LocalTensor<DataType> take(const TPosition pos, const uint32_t tileSize, const pyasc_sim::kapi::SrcLoc &loc) {
        LocalTensor<DataType> t(pos, addr_, tileSize, loc);  // checks alignment and the memory's end
        const uint64_t next = AlignUp<uint64_t>(static_cast<uint64_t>(addr_) + uint64_t(tileSize) * sizeof(DataType), 32);
        addr_ = static_cast<uint32_t>(next);
        return t;
    }
    uint32_t addr_ = 0;
};

}  // namespace AscendC

// ---- float32_t: the NPU toolchain's name for float (public kernels declare tensors of it) ------------
using float32_t = float;

// ---- block_idx / block_num, get_block_idx() / get_block_num() --------------------------------------
namespace pyasc_sim {
namespace kapi {
// The builtins count AI Cores: on the vector cores of a mixed (AIC:AIV = 1:2) kernel get_block_idx() is the
// AI Core (group) index, GetBlockIdx() / GetTaskRation(), not GetBlockIdx() (= group * 2 + get_subblockid());
// kernels build the vector-core index as get_block_idx() * get_subblockdim() + get_subblockid() (kapi/study15b.h).
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

// ---- copy_ubuf_to_gm_align_* / copy_gm_to_ubuf_align_* ---------------------------------------------
namespace pyasc_sim {
namespace kapi {
template <int bits>
using uint_of_bits = std::conditional_t<bits == 8, uint8_t, std::conditional_t<bits == 16, uint16_t, uint32_t>>;
template <typename T>
AscendC::LocalTensor<T> ub_view(T *p) {
    BlockState &b = blk();
    uint8_t *base = b.memory(kUB);
    uint8_t *end = base + b.capacity[kUB];
    uint8_t *at = reinterpret_cast<uint8_t *>(p);
    const uint32_t n = (at >= base && at < end) ? static_cast<uint32_t>((end - at) / sizeof(T)) : 0;
    return AscendC::LocalTensor<T>(p, n, AscendC::TPosition::VECCALC, base, end);
}
template <typename T>
void copy_ub_to_gm_align(T *dst, T *src, uint16_t nBurst, uint32_t lenBurst, uint32_t srcGap, uint32_t dstGap,
                         const SrcLoc &loc) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(dst);
    AscendC::DataCopyPad(g, ub_view(src), AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), loc);
}
template <typename T>
void copy_gm_to_ub_align(T *dst, T *src, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad,
                         uint32_t srcGap, uint32_t dstGap, const SrcLoc &loc) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(src);
    AscendC::DataCopyPad(ub_view(dst), g, AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0),
                         AscendC::DataCopyPadExtParams<T>(leftPad != 0 || rightPad != 0, leftPad, rightPad, T(0)), loc);
}
}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_COPY_ALIGN(bits)                                                                                     \
    inline void copy_ubuf_to_gm_align_b##bits(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst, \
                                              uint8_t /*leftPaddingNum*/, uint8_t /*rightPaddingNum*/, uint32_t srcGap, \
                                              uint32_t dstGap, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { \
        using E = pyasc_sim::kapi::uint_of_bits<bits>;                                                                 \
        pyasc_sim::kapi::copy_ub_to_gm_align(static_cast<E *>(dst), static_cast<E *>(src), nBurst, lenBurst, srcGap,    \
                                             dstGap, loc);                                                             \
    }                                                                                                                  \
    inline void copy_gm_to_ubuf_align_b##bits(void *dst, void *src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst, \
                                              uint8_t leftPaddingNum, uint8_t rightPaddingNum, uint32_t srcGap,         \
                                              uint32_t dstGap, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { \
        using E = pyasc_sim::kapi::uint_of_bits<bits>;                                                                 \
        pyasc_sim::kapi::copy_gm_to_ub_align(static_cast<E *>(dst), static_cast<E *>(src), nBurst, lenBurst,            \
                                             leftPaddingNum, rightPaddingNum, srcGap, dstGap, loc);                    \
    }
PYASC_SIM_COPY_ALIGN(8)
PYASC_SIM_COPY_ALIGN(16)
PYASC_SIM_COPY_ALIGN(32)
#undef PYASC_SIM_COPY_ALIGN

#endif  // PYASC_SIM_KAPI_STUDY10_H_
