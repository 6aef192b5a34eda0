// Ascend C on the CPU -- int4b_t, packed 4-bit signed integers (-8..7), two per byte: element 2i in
// the low nibble of byte i, element 2i + 1 in the high nibble.  LocalTensor<int4b_t> /
// GlobalTensor<int4b_t> count elements (nibbles): operator[] and SetGlobalBuffer sizes are in
// elements, DataCopy's count form copies count elements (count / 2 bytes), ReinterpretCast<int8_t>
// views the bytes; Cast int4b_t -> half and half -> int4b_t (count form) convert, rounding by the
// RoundMode and saturating to [-8, 7].  Written from the public Ascend C API reference.
#ifndef PYASC_SIM_KAPI_INT4_H_
#define PYASC_SIM_KAPI_INT4_H_

#include "pyasc_sim/kapi/data_copy.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

// One storage byte per C++ object (sizeof 1), as two elements share it; a tensor addresses nibbles.
struct int4b_t {
    uint8_t storage;
};

namespace sim_detail {
template <>
struct is_packed4<int4b_t> : std::true_type {};

inline int int4_get(const uint8_t *bytes, uint64_t i) {
    const int v = (i & 1) ? (bytes[i / 2] >> 4) : (bytes[i / 2] & 0xf);
    return v >= 8 ? v - 16 : v;
}
inline void int4_put(uint8_t *bytes, uint64_t i, int v) {
    const uint8_t n = static_cast<uint8_t>(v & 0xf);
    uint8_t &b = bytes[i / 2];
    b = (i & 1) ? static_cast<uint8_t>((b & 0x0f) | (n << 4)) : static_cast<uint8_t>((b & 0xf0) | n);
}
inline void int4_even(uint64_t offset, const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
    if ((offset & 1) && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s an int4b_t tensor at element offset %llu: an odd offset starts inside a byte; the "
                              "simulator addresses int4b_t tensors by whole bytes (even offsets)",
                              what, static_cast<unsigned long long>(offset));
    }
}
}  // namespace sim_detail

// The byte view (LocalTensor<uint8_t>) does every check; this layer turns element counts into bytes.
template <>
class LocalTensor<int4b_t> : public LocalTensor<uint8_t> {
public:
    using PrimType = int4b_t;
    using Bytes = LocalTensor<uint8_t>;

    LocalTensor() = default;
    // From TQue / TBuf / ReinterpretCast: `size` counts bytes (len / sizeof(int4b_t)), so the tensor
    // holds 2 * size elements (TBuf::Get<int4b_t>(len) therefore takes len in bytes here).
    LocalTensor(int4b_t *ptr, uint32_t size, TPosition pos, uint8_t *buf_begin, uint8_t *buf_end)
        : Bytes(reinterpret_cast<uint8_t *>(ptr), size, pos, buf_begin, buf_end) {}
    explicit LocalTensor(const Bytes &b) : Bytes(b) {}

    LocalTensor operator[](const uint32_t offset) const {
        sim_detail::int4_even(offset, "operator[] of", pyasc_sim::kapi::SrcLoc());
        return LocalTensor(Bytes::operator[](offset / 2));
    }
    uint32_t GetSize() const { return Bytes::GetSize() * 2; }
    void SetSize(const uint32_t size) { Bytes::SetSize((size + 1) / 2); }
    uint32_t GetLength() const { return Bytes::GetSize(); }
    int4b_t *GetPhyAddr() const { return ptr(); }
    int4b_t *ptr() const { return reinterpret_cast<int4b_t *>(Bytes::ptr()); }
    const Bytes &bytes() const { return *this; }
    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        return Bytes::template ReinterpretCast<U>();
    }
    // Scalar access: the element as an int (the nibble, sign-extended).
    int GetValue(const uint32_t index, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        Bytes::check(index / 2, 1, "GetValue reads", loc);
        return sim_detail::int4_get(Bytes::ptr(), index);
    }
    void SetValue(const uint32_t index, int value, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) const {
        Bytes::check(index / 2, 1, "SetValue writes", loc);
        sim_detail::int4_put(Bytes::ptr(), index, value);
    }
};

template <>
class GlobalTensor<int4b_t> : public GlobalTensor<uint8_t> {
public:
    using PrimType = int4b_t;
    using Bytes = GlobalTensor<uint8_t>;

    GlobalTensor() = default;
    explicit GlobalTensor(const Bytes &b) : Bytes(b) {}
    void SetGlobalBuffer(__gm__ int4b_t *buffer, uint64_t bufferSize) {
        Bytes::SetGlobalBuffer(reinterpret_cast<uint8_t *>(buffer), (bufferSize + 1) / 2);
    }
    void SetGlobalBuffer(__gm__ int4b_t *buffer) { Bytes::SetGlobalBuffer(reinterpret_cast<uint8_t *>(buffer)); }
    GlobalTensor operator[](const uint64_t offset) const {
        sim_detail::int4_even(offset, "operator[] of", pyasc_sim::kapi::SrcLoc());
        return GlobalTensor(Bytes::operator[](offset / 2));
    }
    uint64_t GetSize() const { return Bytes::GetSize() * 2; }
    __gm__ int4b_t *GetPhyAddr() const { return reinterpret_cast<int4b_t *>(Bytes::GetPhyAddr()); }
    const Bytes &bytes() const { return *this; }
};

// ---- DataCopy count form: count elements = count / 2 bytes ---------------------------------------
namespace sim_detail {
// The count form moves whole 32-byte blocks (64 int4b_t elements); a shorter length is reported
// in int4b_t terms before the byte copy (which would report it in bytes).
inline uint32_t int4_copy_bytes(uint32_t count, const pyasc_sim::kapi::SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && (count % 64) != 0) {
        pyasc_sim::kapi::fail("datacopy-length", loc,
                              "DataCopy of %u int4b_t elements = %u.%u bytes, which is not a multiple of 32 bytes (64 "
                              "int4b_t elements); the hardware copies whole 32-byte blocks only. Copy a multiple of "
                              "64 elements, or use DataCopyPad on ReinterpretCast<int8_t>() for an unaligned length",
                              count, count / 2, (count % 2) * 5);
    }
    return count / 2;
}
}  // namespace sim_detail
inline void DataCopy(const LocalTensor<int4b_t> &dst, const GlobalTensor<int4b_t> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopy(dst.bytes(), src.bytes(), sim_detail::int4_copy_bytes(count, loc), loc);
}
inline void DataCopy(const GlobalTensor<int4b_t> &dst, const LocalTensor<int4b_t> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopy(dst.bytes(), src.bytes(), sim_detail::int4_copy_bytes(count, loc), loc);
}
inline void DataCopy(const LocalTensor<int4b_t> &dst, const LocalTensor<int4b_t> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopy(dst.bytes(), src.bytes(), sim_detail::int4_copy_bytes(count, loc), loc);
}

// ---- Cast int4b_t <-> half (count form); reached from AscendC::Cast through is_packed4 ---------------
template <typename T, typename U>
inline void sim_int4_cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, RoundMode mode, uint32_t count,
                          const pyasc_sim::kapi::SrcLoc &loc) {
    constexpr bool from4 = std::is_same<U, int4b_t>::value, to4 = std::is_same<T, int4b_t>::value;
    static_assert((from4 && std::is_same<T, half>::value) || (to4 && std::is_same<U, half>::value),
                  "pyasc simulator: Cast with int4b_t converts int4b_t -> half and half -> int4b_t (the documented "
                  "pairs)");
    if constexpr (from4) {
        src.check_aligned("Cast", "src", loc);
        src.bytes().check_read(0, (count + 1) / 2, "Cast", loc);
        sim_detail::check_operand(dst, "Cast", "dst", count, loc);
        for (uint32_t i = 0; i < count; ++i) dst.ptr()[i] = static_cast<half>(sim_detail::int4_get(src.bytes().ptr(), i));
    } else {
        sim_detail::check_operand(src, "Cast", "src", count, loc);
        dst.check_aligned("Cast", "dst", loc);
        dst.bytes().check_vec_dst(0, (count + 1) / 2, "Cast", loc);
        for (uint32_t i = 0; i < count; ++i) {
            int32_t r = sim_detail::round_to<int32_t>(pyasc_sim::kapi::to_double(src.ptr()[i]), mode);
            r = r < -8 ? -8 : (r > 7 ? 7 : r);
            sim_detail::int4_put(dst.bytes().ptr(), i, r);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(count, 2)));
}

// ---- Cast int4b_t <-> half, mask forms: 128 elements per repeat (the half side's 256 bytes); the
// int4b_t operand holds 64 elements per 32-byte block, so its strides count 32-byte blocks of 64 ----
template <typename T, typename U>
inline void sim_int4_cast_repeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, RoundMode mode,
                                 const sim_detail::Mask &m, uint8_t repeats, const UnaryRepeatParams &p,
                                 const pyasc_sim::kapi::SrcLoc &loc) {
    constexpr bool from4 = std::is_same<U, int4b_t>::value, to4 = std::is_same<T, int4b_t>::value;
    static_assert((from4 && std::is_same<T, half>::value) || (to4 && std::is_same<U, half>::value),
                  "pyasc simulator: Cast with int4b_t converts int4b_t -> half and half -> int4b_t (the documented "
                  "pairs)");
    const sim_detail::Opnd od{p.dstBlkStride, p.dstRepStride, to4 ? 64 : 16},
        os{p.srcBlkStride, p.srcRepStride, from4 ? 64 : 16};
    if constexpr (from4) {
        src.check_aligned("Cast", "src", loc);
        src.bytes().check_read(0, (os.extent(repeats, m) + 1) / 2, "Cast", loc);
        sim_detail::check_operand(dst, "Cast", "dst", od, repeats, m, loc);
        sim_detail::for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
            dst.ptr()[od.off(r, i)] = static_cast<half>(sim_detail::int4_get(src.bytes().ptr(), os.off(r, i)));
        });
    } else {
        sim_detail::check_operand(src, "Cast", "src", os, repeats, m, loc);
        dst.check_aligned("Cast", "dst", loc);
        dst.bytes().check_vec_dst(0, (od.extent(repeats, m) + 1) / 2, "Cast", loc);
        sim_detail::for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
            int32_t v = sim_detail::round_to<int32_t>(pyasc_sim::kapi::to_double(src.ptr()[os.off(r, i)]), mode);
            v = v < -8 ? -8 : (v > 7 ? 7 : v);
            sim_detail::int4_put(dst.bytes().ptr(), od.off(r, i), v);
        });
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_INT4_H_
