// kapi/local_mem_allocator.h -- LocalMemAllocator<Hardware> (reference page "LocalMemAllocator简介", atlasascendc_api_07_00095 /
// _00096): a bump allocator over one physical memory for static-tensor programming; each Alloc hands out the
// next tileSize elements at a 32-byte aligned address through the static-tensor constructor
// LocalTensor(pos, addr, tileSize), which checks the memory's end.
#ifndef PYASC_SIM_KAPI_LOCAL_MEM_ALLOCATOR_H_
#define PYASC_SIM_KAPI_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>

#include "pyasc_sim/kapi/align_utils.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

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

#endif  // PYASC_SIM_KAPI_LOCAL_MEM_ALLOCATOR_H_
