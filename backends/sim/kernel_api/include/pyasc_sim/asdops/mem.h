// Ascend C on the CPU -- our stand-in for `mem.h` of the CANN devkit's asdops-style kernel headers (see
// hardware.h here): `BufferType` and `AsdopsBuffer<ArchType>::GetBuffer<BufferType, T>(offset)`, which public
// kernels use to take a LocalTensor<T> at a byte offset of a core's whole UB / L1 / L0A / L0B / L0C without a TPipe
// (kda-ascendc aclab/k2_m1: `GetBuffer<BufferType::ASCEND_CB, bfloat16_t>(LS_A)` with LS_A = 4096 bytes for a
// 16 x 128 bf16 tile). Modelled by the documented static-tensor constructor `LocalTensor(TPosition pos, uint32_t
// addr, uint32_t tileSize)` (page "LocalTensor构造函数", atlasascendc_api_07_00101): `offset` bytes into the memory
// behind the buffer type's position, up to that memory's end, with that constructor's checks (32-byte aligned
// address, inside the memory). Positions as public code maps them: UB -> VECIN, CB (L1) -> A1, L0A -> A2,
// L0B -> B2, L0C -> CO1.
#ifndef PYASC_SIM_ASDOPS_MEM_H_
#define PYASC_SIM_ASDOPS_MEM_H_

#include "kernel_operator.h"
#include "pyasc_sim/asdops/hardware.h"

enum class BufferType { ASCEND_UB, ASCEND_CB, ASCEND_L0A, ASCEND_L0B, ASCEND_L0C, ASCEND_MAX };

template <BufferType B>
__aicore__ constexpr AscendC::TPosition GetPosition() {
    static_assert(B != BufferType::ASCEND_MAX, "BufferType::ASCEND_MAX names no buffer");
    return B == BufferType::ASCEND_UB    ? AscendC::TPosition::VECIN
           : B == BufferType::ASCEND_CB  ? AscendC::TPosition::A1
           : B == BufferType::ASCEND_L0A ? AscendC::TPosition::A2
           : B == BufferType::ASCEND_L0B ? AscendC::TPosition::B2
                                         : AscendC::TPosition::CO1;
}

template <ArchType Arch>
struct AsdopsBuffer {
    // a tensor of T from byte `offset` of the buffer's memory to its end (the SoC's capacity of that memory)
    template <BufferType B, typename T>
    __aicore__ inline AscendC::LocalTensor<T> GetBuffer(const uint32_t offset) const {
        constexpr AscendC::TPosition pos = GetPosition<B>();
        const int k = pyasc_sim::kapi::mem_of(pos);
        const size_t cap = pyasc_sim::kapi::blk().capacity[k];
        const uint32_t elems = offset < cap ? static_cast<uint32_t>((cap - offset) / sizeof(T)) : 0;
        return AscendC::LocalTensor<T>(pos, offset, elems);
    }
};

#endif  // PYASC_SIM_ASDOPS_MEM_H_
