// Ascend C on the CPU -- register-based SIMD VFs of the Ascend 950 (kapi/reg_simd.h), continued: the address
// register, MaskReg loads / stores, the unaligned store through an UnalignReg, Squeeze (the older name GatherMask)
// with the AR special register, and LocalMemBar -- the compaction idiom of Ascend/DrivingSDK's arch35 unique_voxel
// (compare, store the MaskReg, reload it, squeeze the kept elements and append them to UB with one count in AR).
//
// Semantics from the public reference (CANN 9.0 Reg pages) and, where it is silent, the SDK's public sources
// (cannmirror/asc-devkit include/micro_api/kernel_micro_datacopy_intf.h 3845d39c, impl/micro_api/dav_c310/
// kernel_micro_addrreg_impl.h / kernel_micro_gather_mask_impl.h / kernel_micro_membar_impl.h), read for facts:
// * AddrReg (page atlasascendc_api_07_0317): CreateAddrReg<T>(index0, stride0[, index1, stride1, ...]) holds
//   offset = sum(index_i * stride_i) elements of T (the SDK's CPU-debug path passes sizeof(T) with the indices);
//   a load / store given an AddrReg accesses dstAddr / srcAddr + offset.
// * MaskReg load / store (page 07_0326 "MaskReg搬出", the SDK's pld / pst forms DataCopy(mask, ubPtr, AddrReg) /
//   DataCopy(ubPtr, mask, AddrReg), current names LoadAlign / StoreAlign): DIST_NORM moves VL / 8 = 32 bytes -- one
//   bit per byte of the VL, bit j in byte j / 8 at bit j % 8 -- at a 32-byte aligned UB address.
// * UnalignRegForStore (page 07_0316; the SDK's older single name UnalignReg, which the simulator keeps as the same
//   type, as UnalignRegForLoad): the buffer of a contiguous unaligned store. StoreUnAlign (older name
//   DataCopyUnAlign) writes its elements to UB up to the last 32-byte boundary they reach and keeps the rest in the
//   register; the next unaligned store through the register writes it first, and StoreUnAlignPost (older
//   DataCopyUnAlignPost) writes what the register still holds (page 07_0324 "连续非对齐搬出"; best-practice page
//   atlas_ascendc_best_practices_10_00025: "每次将RegTensor数据搬运至UB后,非对齐寄存器会缓存后续非对齐数据,下一次
//   搬运时非对齐寄存器中缓存的数据将写入UB"). A kernel that forgets the Post loses that tail, as on hardware: those bytes
//   keep what they held, and a later read of never-written ones is `local-uninit-read`.
//   - StoreUnAlign<T, postMode>(T *&dstAddr, srcReg, ureg, uint32_t postUpdateStride) (scenario 1): stores the
//     lowest postUpdateStride elements at dstAddr; POST_MODE_UPDATE then advances dstAddr by postUpdateStride.
//     StoreUnAlignPost<T, postMode>(T *&dstAddr, ureg, int32_t postUpdateStride) flushes, then (UPDATE) advances.
//   - StoreUnAlign(T *dstAddr, srcReg, ureg) (scenario 3, with Squeeze): stores as many elements as the last
//     Squeeze<T, GatherMaskMode::STORE_REG> kept, at dstAddr + AR bytes, and adds their bytes to AR;
//     StoreUnAlignPost(T *dstAddr, ureg) flushes.
// * Squeeze<T, store>(dst, src, mask) (page 07_0420; GatherMask<T, store> is the SDK's older name of the same vsqz):
//   the active elements of src, in order, at the low end of dst, the rest 0; STORE_REG hands their byte count to the
//   AR-form StoreUnAlign ("SqueezeReg矢量计算API会存储有效元素的总字节数到AR特殊寄存器"), and the page requires the two to
//   alternate ("StoreUnAlign指令和Squeeze指令必须交替使用"): a second Squeeze<STORE_REG> before the store, or an AR-form
//   store with no Squeeze<STORE_REG> before it, is the error `vector-register`.
// * The unaligned loads LoadUnAlignPre / LoadUnAlign (older DataCopyUnAlignPre / DataCopyUnAlign; page 07_0323):
//   below, before the end of this file.
// * SpecialPurposeReg::AR (pages 07_00233 GetSpr / 07_00234 ClearSpr): ClearSpr<AR>() zeroes it; GetSpr<AR>() reads
//   it (bytes). AR is the block's, 0 when the block starts.
// * LocalMemBar<src, dst>() (the SDK's mem_bar between the VF's vector / scalar loads and stores): the simulator
//   runs a VF's instructions in program order, so it orders nothing more; the pairs the SDK accepts are checked at
//   compile time.
#ifndef PYASC_SIM_KAPI_REG_SIMD_UNALIGN_H_
#define PYASC_SIM_KAPI_REG_SIMD_UNALIGN_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/reg_simd.h"

#if __CCE_AICORE__ == 310

namespace AscendC {

// The special-purpose registers GetSpr / ClearSpr name (the SDK: impl/basic_api/utils/kernel_utils_mode.h).
enum class SpecialPurposeReg { AR = 0 };

// GetSpr / ClearSpr are both AscendC's (the SDK's basic_api/kernel_operator_sys_var_intf.h, for the 950) and the
// Reg namespace's (include/micro_api/kernel_micro_gather_mask_intf.h): kernels call them either way.
template <SpecialPurposeReg spr>
inline void ClearSpr() {
    static_assert(spr == SpecialPurposeReg::AR, "ClearSpr: only SpecialPurposeReg::AR is provided");
    pyasc_sim::kapi::blk().vregs.ar = 0;
}
template <SpecialPurposeReg spr>
inline int64_t GetSpr() {
    static_assert(spr == SpecialPurposeReg::AR, "GetSpr: only SpecialPurposeReg::AR is provided");
    return pyasc_sim::kapi::blk().vregs.ar;
}

namespace Reg {

enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskDist { DIST_NORM, DIST_PACK };
enum class GatherMaskMode { NO_STORE_REG, STORE_REG };
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };

// An address offset in bytes (CreateAddrReg: elements of its T times sizeof(T)).
struct AddrReg {
    uint64_t bytes = 0;
};

template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "CreateAddrReg: T must be a b8 / b16 / b32 / b64 type (page atlasascendc_api_07_0317)");
    return AddrReg{static_cast<uint64_t>(index0) * stride0 * sizeof(T)};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1) {
    return AddrReg{CreateAddrReg<T>(index0, stride0).bytes + CreateAddrReg<T>(index1, stride1).bytes};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
                             uint32_t stride2) {
    return AddrReg{CreateAddrReg<T>(index0, stride0, index1, stride1).bytes + CreateAddrReg<T>(index2, stride2).bytes};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
                             uint32_t stride2, uint16_t index3, uint32_t stride3) {
    return AddrReg{CreateAddrReg<T>(index0, stride0, index1, stride1, index2, stride2).bytes +
                   CreateAddrReg<T>(index3, stride3).bytes};
}

// The buffer register of contiguous unaligned stores (`bytes` bytes for UB address `addr` not yet written) and loads
// (`load_ready`: LoadUnAlignPre initialised it).
struct UnalignReg {
    uintptr_t addr = 0;
    uint32_t bytes = 0;
    uint8_t data[32] = {};
    bool load_ready = false;
};
using UnalignRegForStore = UnalignReg;
using UnalignRegForLoad = UnalignReg;

namespace sim_detail {
template <typename P>
inline P *byte_add(P *p, uint64_t bytes) {
    return reinterpret_cast<P *>(reinterpret_cast<uintptr_t>(p) + bytes);
}

constexpr uint64_t kMaskBytes = kVecLenBytes / 8;  // a MaskReg in UB (DIST_NORM): one bit per VL byte

inline uint64_t mask_ub_offset(const void *p, const char *api) {
    namespace k = pyasc_sim::kapi;
    const uint64_t off = ub_offset(p, kMaskBytes, 1, api);
    if (k::blk().checks && off % kMaskBytes != 0) {
        k::fail("ub-alignment", k::SrcLoc(),
                "%s: UB offset %llu is not a multiple of 32 (a MaskReg moves VL/8 = 32 bytes at a 32-byte aligned "
                "address with MaskDist::DIST_NORM, page atlasascendc_api_07_0326)",
                api, static_cast<unsigned long long>(off));
    }
    return off;
}
inline void mask_store(void *dst, const MaskReg &mask, const char *api) {
    const uint64_t off = mask_ub_offset(dst, api);
    uint8_t bits[kMaskBytes] = {};
    for (uint32_t j = 0; j < kVecLenBytes; ++j) {
        if (mask.on[j] != 0) bits[j / 8] = static_cast<uint8_t>(bits[j / 8] | (1u << (j % 8)));
    }
    std::memcpy(dst, bits, kMaskBytes);
    pyasc_sim::kapi::local_mark_written(pyasc_sim::kapi::kUB, off, kMaskBytes);
    charge_instr();
}
inline void mask_load(MaskReg &mask, const void *src, const char *api) {
    mask_ub_offset(src, api);
    uint8_t bits[kMaskBytes];
    std::memcpy(bits, src, kMaskBytes);
    for (uint32_t j = 0; j < kVecLenBytes; ++j) mask.on[j] = (bits[j / 8] >> (j % 8)) & 1u;
    charge_instr();
}

// Writes `bytes` bytes at UB address `addr` (already checked) and marks them written.
inline void ub_write(uintptr_t addr, const uint8_t *src, uint64_t bytes) {
    if (bytes == 0) return;
    namespace k = pyasc_sim::kapi;
    std::memcpy(reinterpret_cast<void *>(addr), src, bytes);
    const auto base = reinterpret_cast<uintptr_t>(k::blk().mem[k::kUB]);
    k::local_mark_written(k::kUB, addr - base, bytes);
}
inline void unalign_flush(UnalignReg &ureg) {
    ub_write(ureg.addr, ureg.data, ureg.bytes);
    ureg.bytes = 0;
}
// The unaligned store of `bytes` bytes from `src` at `dst`: the register's tail first (it continues there, or is
// written where it belongs), then everything up to the last 32-byte UB boundary; the rest stays in the register.
inline void unalign_store(void *dst, const void *src, uint64_t bytes, uint64_t elem, UnalignReg &ureg,
                          const char *api) {
    namespace k = pyasc_sim::kapi;
    if (bytes == 0) {
        charge_instr();
        return;
    }
    const uint64_t off = ub_offset(dst, bytes, elem, api);
    const auto base = reinterpret_cast<uintptr_t>(k::blk().mem[k::kUB]);
    const auto d = reinterpret_cast<uintptr_t>(dst);
    if (ureg.bytes != 0 && ureg.addr + ureg.bytes != d) unalign_flush(ureg);
    const uintptr_t start = ureg.bytes != 0 ? ureg.addr : d;
    const uintptr_t end = d + bytes;
    const uintptr_t boundary = base + ((off + bytes) / 32) * 32;
    const auto *s = static_cast<const uint8_t *>(src);
    if (boundary > start) {
        unalign_flush(ureg);
        ub_write(d, s, (boundary > d ? boundary : d) - d);
    }
    // [max(start, boundary), end) stays in the register (less than 32 bytes, inside one 32-byte block)
    const uintptr_t keep = boundary > start ? boundary : start;
    uint8_t tail[32];
    uint32_t n = 0;
    for (uintptr_t a = keep; a < end; ++a) tail[n++] = a < d ? ureg.data[a - ureg.addr] : s[a - d];
    std::memcpy(ureg.data, tail, n);
    ureg.addr = keep;
    ureg.bytes = n;
    charge_instr();
}
}  // namespace sim_detail

// ---- loads / stores through an AddrReg -------------------------------------------------------------------
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, typename P,
          typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>
inline void LoadAlign(U &dstReg, P *srcAddr, AddrReg offset) {
    LoadAlign<T, dist>(dstReg, sim_detail::byte_add(srcAddr, offset.bytes));
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, typename P,
          typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>
inline void DataCopy(U &dstReg, P *srcAddr, AddrReg offset) {
    LoadAlign<T, dist>(dstReg, sim_detail::byte_add(srcAddr, offset.bytes));
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, typename P>
inline void StoreAlign(P *dstAddr, const U &srcReg, AddrReg offset, const MaskReg &mask) {
    StoreAlign<T, dist>(sim_detail::byte_add(dstAddr, offset.bytes), srcReg, mask);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, typename P>
inline void DataCopy(P *dstAddr, const U &srcReg, AddrReg offset, const MaskReg &mask) {
    StoreAlign<T, dist>(sim_detail::byte_add(dstAddr, offset.bytes), srcReg, mask);
}

// ---- MaskReg <-> UB (DIST_NORM) ---------------------------------------------------------------------------
#define PYASC_REG_MASK_MOVES(LOAD, STORE)                                                                     \
    template <typename T = DefaultType, MaskDist dist = MaskDist::DIST_NORM, typename P>                     \
    inline void LOAD(MaskReg &mask, P *srcAddr, AddrReg offset) {                                             \
        static_assert(dist == MaskDist::DIST_NORM, "Reg MaskReg load: only MaskDist::DIST_NORM is provided"); \
        sim_detail::mask_load(mask, sim_detail::byte_add(srcAddr, offset.bytes),                               \
                              "Reg::" #LOAD " (UB -> MaskReg, AddrReg offset)");                               \
    }                                                                                                        \
    template <typename T = DefaultType, MaskDist dist = MaskDist::DIST_NORM, typename P>                     \
    inline void STORE(P *dstAddr, const MaskReg &mask, AddrReg offset) {                                      \
        static_assert(dist == MaskDist::DIST_NORM, "Reg MaskReg store: only MaskDist::DIST_NORM is provided"); \
        sim_detail::mask_store(sim_detail::byte_add(dstAddr, offset.bytes), mask,                              \
                               "Reg::" #STORE " (MaskReg -> UB, AddrReg offset)");                             \
    }                                                                                                        \
    template <typename T = DefaultType, MaskDist dist = MaskDist::DIST_NORM, typename P>                     \
    inline void STORE(P *dstAddr, const MaskReg &mask) {                                                      \
        static_assert(dist == MaskDist::DIST_NORM, "Reg MaskReg store: only MaskDist::DIST_NORM is provided"); \
        sim_detail::mask_store(dstAddr, mask, "Reg::" #STORE " (MaskReg -> UB)");                              \
    }
PYASC_REG_MASK_MOVES(LoadAlign, StoreAlign)
PYASC_REG_MASK_MOVES(DataCopy, DataCopy)
#undef PYASC_REG_MASK_MOVES

// ---- Squeeze / GatherMask and the AR register --------------------------------------------------------------
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
inline void Squeeze(U &dstReg, const U &srcReg, const MaskReg &mask) {
    using E = typename U::ElementType;
    static_assert(sizeof(E) <= 4, "Reg::Squeeze: the reference lists 8- to 32-bit element types (page 07_0420)");
    namespace k = pyasc_sim::kapi;
    const U a = srcReg;
    U out;
    uint32_t n = 0;
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        if (sim_detail::active<E>(mask, i)) out.v[n++] = a.v[i];
    }
    dstReg = out;
    if constexpr (store == GatherMaskMode::STORE_REG) {
        k::VecRegs &r = k::blk().vregs;
        if (k::blk().checks && r.sqz_pending) {
            k::fail("vector-register", k::SrcLoc(),
                    "Reg::Squeeze / GatherMask<T, GatherMaskMode::STORE_REG>: the count of the previous STORE_REG "
                    "squeeze (%u bytes) was never stored -- the reference requires Squeeze and the AR-form "
                    "StoreUnAlign (DataCopyUnAlign(dstAddr, reg, ureg)) to alternate (page atlasascendc_api_07_0420)",
                    r.sqz_bytes);
        }
        r.sqz_bytes = n * static_cast<uint32_t>(sizeof(E));
        r.sqz_pending = true;
    }
    sim_detail::charge_instr();
}
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
inline void GatherMask(U &dstReg, const U &srcReg, const MaskReg &mask) {
    Squeeze<T, store>(dstReg, srcReg, mask);
}

using AscendC::ClearSpr;
using AscendC::GetSpr;

template <MemType src, MemType dst>
inline void LocalMemBar() {
    static_assert((src == MemType::VEC_STORE && (dst == MemType::VEC_LOAD || dst == MemType::VEC_STORE ||
                                                 dst == MemType::SCALAR_LOAD || dst == MemType::SCALAR_STORE)) ||
                      (src == MemType::VEC_LOAD && (dst == MemType::VEC_STORE || dst == MemType::SCALAR_STORE)) ||
                      (src == MemType::SCALAR_STORE && (dst == MemType::VEC_LOAD || dst == MemType::VEC_STORE)) ||
                      (src == MemType::SCALAR_LOAD && dst == MemType::VEC_STORE) ||
                      (src == MemType::VEC_ALL && (dst == MemType::VEC_ALL || dst == MemType::SCALAR_ALL)) ||
                      (src == MemType::SCALAR_ALL && dst == MemType::VEC_ALL),
                  "LocalMemBar: the SDK accepts no barrier between these MemType values");
}

// ---- unaligned stores ---------------------------------------------------------------------------------------
#define PYASC_REG_UNALIGN_STORES(STORE, POST)                                                                  \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U,      \
              typename P, typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>                   \
    inline void STORE(P *&dstAddr, const U &srcReg, UnalignReg &ureg, uint32_t postUpdateStride) {            \
        using E = typename U::ElementType;                                                                     \
        static_assert(sizeof(P) == sizeof(E), "Reg::" #STORE ": the UB pointer's element size must match the " \
                                              "register's");                                                   \
        namespace k = pyasc_sim::kapi;                                                                         \
        if (k::blk().checks && postUpdateStride > U::kLanes) {                                                 \
            k::fail("local-out-of-bounds", k::SrcLoc(),                                                        \
                    "Reg::" #STORE ": postUpdateStride %u is more elements than the register holds (%u)",        \
                    postUpdateStride, static_cast<unsigned>(U::kLanes));                                       \
        }                                                                                                      \
        const uint32_t count = postUpdateStride < U::kLanes ? postUpdateStride : U::kLanes;                    \
        sim_detail::unalign_store(dstAddr, srcReg.v, static_cast<uint64_t>(count) * sizeof(E),                 \
                                  sizeof(E), ureg, "Reg::" #STORE " (RegTensor -> UB, unaligned)");             \
        if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;                            \
    }                                                                                                          \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U,      \
              typename P, typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>                   \
    inline void STORE(P *dstAddr, const U &srcReg, UnalignReg &ureg) {                                         \
        using E = typename U::ElementType;                                                                     \
        static_assert(sizeof(P) == sizeof(E), "Reg::" #STORE ": the UB pointer's element size must match the " \
                                              "register's");                                                   \
        namespace k = pyasc_sim::kapi;                                                                         \
        k::VecRegs &r = k::blk().vregs;                                                                        \
        if (!r.sqz_pending && k::blk().checks) {                                                               \
            k::fail("vector-register", k::SrcLoc(),                                                            \
                    "Reg::" #STORE "(dstAddr, reg, ureg) stores the count of the last Squeeze / GatherMask<T, " \
                    "GatherMaskMode::STORE_REG>, and none came before it (page atlasascendc_api_07_0420: the two " \
                    "alternate); give the element count instead: " #STORE "(dstAddr, reg, ureg, count)");       \
        }                                                                                                      \
        const uint32_t bytes = r.sqz_bytes;                                                                    \
        r.sqz_pending = false;                                                                                 \
        sim_detail::unalign_store(sim_detail::byte_add(dstAddr, static_cast<uint64_t>(r.ar)), srcReg.v, bytes, \
                                  sizeof(E), ureg, "Reg::" #STORE " (RegTensor -> UB at dstAddr + AR)");       \
        r.ar += bytes;                                                                                         \
    }                                                                                                          \
    template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>                                \
    inline void POST(T *&dstAddr, UnalignReg &ureg, int32_t postUpdateStride) {                                \
        sim_detail::unalign_flush(ureg);                                                                       \
        sim_detail::charge_instr();                                                                            \
        if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;                            \
    }                                                                                                          \
    template <typename T>                                                                                      \
    inline void POST(T *dstAddr, UnalignReg &ureg) {                                                           \
        (void)dstAddr;                                                                                         \
        sim_detail::unalign_flush(ureg);                                                                       \
        sim_detail::charge_instr();                                                                            \
    }
PYASC_REG_UNALIGN_STORES(StoreUnAlign, StoreUnAlignPost)
PYASC_REG_UNALIGN_STORES(DataCopyUnAlign, DataCopyUnAlignPost)
#undef PYASC_REG_UNALIGN_STORES

// ---- unaligned loads (page 07_0323 "连续非对齐搬入"): a whole VL from an element-aligned UB address ------------------
// LoadUnAlignPre(ureg, srcAddr) initialises the register (a LoadUnAlign through a register no Pre initialised is
// `vector-register`); LoadUnAlign<T, postMode>(dstReg, ureg, T *&srcAddr, postUpdateStride) loads the VL at srcAddr
// and (POST_MODE_UPDATE, the default and the only mode the page allows) advances srcAddr by postUpdateStride
// elements; LoadUnAlign(dstReg, ureg, T *srcAddr) loads without moving srcAddr. Older names DataCopyUnAlignPre /
// DataCopyUnAlign. The AddrReg forms are not provided.
namespace sim_detail {
template <typename U, typename P>
inline void unalign_load(U &dstReg, UnalignReg &ureg, P *srcAddr, const char *api) {
    using E = typename U::ElementType;
    static_assert(sizeof(P) == sizeof(E), "Reg unaligned load: the UB pointer's element size must match the register's");
    namespace k = pyasc_sim::kapi;
    if (!ureg.load_ready && k::blk().checks) {
        k::fail("vector-register", k::SrcLoc(),
                "%s: the UnalignReg was not initialised for loads -- call LoadUnAlignPre(ureg, srcAddr) "
                "(DataCopyUnAlignPre) before the first unaligned load (page atlasascendc_api_07_0323)", api);
    }
    ub_offset(srcAddr, kVecLenBytes, sizeof(E), api);
    std::memcpy(dstReg.v, static_cast<const void *>(srcAddr), kVecLenBytes);
    charge_instr();
}
}  // namespace sim_detail
#define PYASC_REG_UNALIGN_LOADS(PRE, LOAD)                                                                      \
    template <typename T = DefaultType, typename P>                                                            \
    inline void PRE(UnalignReg &ureg, P *srcAddr) {                                                            \
        sim_detail::ub_offset(srcAddr, 1, 1, "Reg::" #PRE);                                                     \
        ureg.load_ready = true;                                                                                \
        sim_detail::charge_instr();                                                                            \
    }                                                                                                          \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U,      \
              typename P, typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>                   \
    inline void LOAD(U &dstReg, UnalignReg &ureg, P *&srcAddr, uint32_t postUpdateStride) {                    \
        static_assert(postMode == PostLiteral::POST_MODE_UPDATE,                                               \
                      "Reg::" #LOAD ": the unaligned load supports POST_MODE_UPDATE only (PostLiteral page)");  \
        sim_detail::unalign_load(dstReg, ureg, srcAddr, "Reg::" #LOAD " (UB -> RegTensor, unaligned)");         \
        srcAddr += postUpdateStride;                                                                           \
    }                                                                                                          \
    template <typename T = DefaultType, typename U, typename P,                                                \
              typename = std::enable_if_t<sim_detail::is_reg_tensor<U>::value>>                               \
    inline void LOAD(U &dstReg, UnalignReg &ureg, P *srcAddr) {                                                \
        sim_detail::unalign_load(dstReg, ureg, srcAddr, "Reg::" #LOAD " (UB -> RegTensor, unaligned)");         \
    }
PYASC_REG_UNALIGN_LOADS(LoadUnAlignPre, LoadUnAlign)
PYASC_REG_UNALIGN_LOADS(DataCopyUnAlignPre, DataCopyUnAlign)
#undef PYASC_REG_UNALIGN_LOADS

}  // namespace Reg
}  // namespace AscendC

#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_REG_SIMD_UNALIGN_H_
