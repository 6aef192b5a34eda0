// Ascend C on the CPU -- `LocalTensor::address_`, the SDK's internal buffer address record (TBuffAddr).
//
// Not documented API, but SDK code built on Ascend C uses it to turn a LocalTensor into a raw `__ubuf__`
// pointer and back (Ascend/memfabric_hybrid's SHMEM device layer, smem_shm_aicore_base_copy.h:
// `ubTensor.address_.logicPos = (uint8_t)TPosition::VECIN; ubTensor.address_.bufferAddr = (uint64_t)srcUb;`
// then DataCopyPad(gm, ubTensor, ...); its examples read `(__ubuf__ int64_t *)t.address_.bufferAddr` and store
// through the pointer). The fields kept here, with their meaning on the simulator:
//
// * bufferAddr: the tensor's start address. On the NPU a Unified Buffer address, here the host address of that
//   byte of the block's simulated memory (the value GetPhyAddr() returns), so a raw `__ubuf__ T *` made from it
//   reads and writes the same bytes as the tensor. Assigning it re-points the tensor: an address inside the
//   memory of the tensor's position gives a view from there to the end of that memory (bounds are that
//   memory, as `ub_view` in study10.h); a value below that memory's size is the NPU's own form, a byte address
//   in it (`(__ubuf__ T *)(96)`), and means that byte of the block's memory (round 31); any other address leaves
//   the tensor unallocated, so the first API that uses it reports local-out-of-bounds.
// * logicPos: the TPosition as uint8_t; assigning it moves the tensor to that position's memory.
// * dataLen: the tensor's length in bytes (size * sizeof(T)); assigning it sets the size.
//
// Deviation (kernel API README): the sanitizer cannot see scalar loads and stores through raw pointers, so
// reading bufferAddr marks the tensor's bytes (to the end of its buffer) as written for the initcheck: a kernel
// that takes the raw pointer is assumed to fill what it later copies out through it.
//
// The fields are empty objects ([[no_unique_address]]: LocalTensor keeps its size and stays trivially
// copyable); each finds its tensor through an offset measured once on a probe object, so no layout
// assumption is made.
#ifndef PYASC_SIM_KAPI_LOCAL_ADDR_H_
#define PYASC_SIM_KAPI_LOCAL_ADDR_H_

#include <cstddef>
#include <cstdint>

namespace pyasc_sim {
namespace kapi {

template <typename Tensor>
struct LocalBuffAddr {
    // Byte offset of member m of a Tensor's address_ inside the tensor (measured once on a probe object).
    template <typename Field>
    static std::ptrdiff_t offset_of(Field LocalBuffAddr::*m) {
        static const Tensor probe{};
        return reinterpret_cast<const char *>(&(probe.address_.*m)) - reinterpret_cast<const char *>(&probe);
    }
    template <typename Field>
    static Tensor &owner(Field *f, Field LocalBuffAddr::*m) {
        return *reinterpret_cast<Tensor *>(reinterpret_cast<char *>(f) - offset_of(m));
    }
    template <typename Field>
    static const Tensor &owner(const Field *f, Field LocalBuffAddr::*m) {
        return *reinterpret_cast<const Tensor *>(reinterpret_cast<const char *>(f) - offset_of(m));
    }

    struct BufferAddr {
        operator uint64_t() const { return owner(this, &LocalBuffAddr::bufferAddr).sim_raw_addr(); }
        // `(__ubuf__ T *)t.address_.bufferAddr`
        template <typename P>
        explicit operator P *() const {
            return reinterpret_cast<P *>(static_cast<uintptr_t>(static_cast<uint64_t>(*this)));
        }
        BufferAddr &operator=(uint64_t a) {
            owner(this, &LocalBuffAddr::bufferAddr).sim_set_raw_addr(a);
            return *this;
        }
    };
    struct LogicPos {
        operator uint8_t() const { return owner(this, &LocalBuffAddr::logicPos).sim_pos_byte(); }
        LogicPos &operator=(uint8_t p) {
            owner(this, &LocalBuffAddr::logicPos).sim_set_pos_byte(p);
            return *this;
        }
    };
    struct DataLen {
        operator uint32_t() const { return owner(this, &LocalBuffAddr::dataLen).GetLength(); }
        DataLen &operator=(uint32_t bytes) {
            Tensor &t = owner(this, &LocalBuffAddr::dataLen);
            t.SetSize(static_cast<uint32_t>(bytes / sizeof(typename Tensor::PrimType)));
            return *this;
        }
    };

    [[no_unique_address]] BufferAddr bufferAddr;
    [[no_unique_address]] LogicPos logicPos;
    [[no_unique_address]] DataLen dataLen;
    // The fields hold nothing: copying a tensor copies its own members (the copies stay trivial), so
    // `a.address_.bufferAddr = b.address_.bufferAddr` (field to field) copies nothing; assign a value
    // (`= static_cast<uint64_t>(b.address_.bufferAddr)`).
};

}  // namespace kapi
}  // namespace pyasc_sim

namespace AscendC {

// TBuffAddr: the same record as a value of its own, which SDK-style helpers fill and hand to
// `LocalTensor::SetAddr(const TBuffAddr &)` to make a tensor over a raw `__ubuf__` address (sgl-kernel-npu's
// deepep data_copy.h CopyUB2UB: `TBuffAddr a; a.bufferAddr = (uint64_t)ubPtr; t.SetAddr(a);`). The reference
// names the type only in LocalTensor's prototype (`LocalTensor<T>(TBuffAddr &address)`, CPU-debug build); the
// fields are the three kept above, with the same meaning: bufferAddr the address (on the simulator the host
// address of the byte in the block's simulated memory, as `address_.bufferAddr` reads), logicPos the TPosition
// as uint8_t, dataLen the length in bytes. A field left at its default leaves that property of the tensor
// as it was: logicPos kUnsetPos keeps the tensor's position (VECCALC for a default-constructed tensor), dataLen
// 0 gives a view from bufferAddr to the end of that position's memory.
struct TBuffAddr {
    static constexpr uint8_t kUnsetPos = 0xff;
    uint8_t logicPos = kUnsetPos;
    uint32_t dataLen = 0;
    uint64_t bufferAddr = 0;
};

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_LOCAL_ADDR_H_
