// Ascend C on the CPU -- the device side of the SHMEM SDK (OpenSHMEM-style communication between NPUs):
// PE identity, symmetric-heap address translation, MTE put / get (nbi), signals, barriers.
//
// Written for the simulator from the SDK's documented interface (names, parameters, semantics); kernels
// include it as the SDK's entry headers `shmem_api.h` (the shmem_* names of the older releases) or
// `shmem.h` (the aclshmem_* names of the newer ones); both name sets are declared by either header.
//
// Model (kapi/shmem_launch.h): the host (pyasc_sim.shmem.Team) creates one heap of the same size per PE
// on the simulated device and launches a kernel once for all PEs: PE p's blocks are p * B .. p * B + B - 1
// of the launch, each with PE p's arguments. A symmetric address is an address inside the calling PE's
// heap; on PE q the same object is at heap_base[q] + (address - heap_base[my PE]) (shmem_ptr). Every
// translation checks the range: an address outside the calling PE's heap, a PE outside 0 .. n_pes - 1
// or a transfer running past the heap's end is the error `shmem-out-of-heap` / `shmem-bad-pe`, naming
// the PE, the offset and the heap size (these are errors even with the checks off: the translated
// address would be meaningless).
//
// Transfers are the Ascend C copies they are on the device: a put / get through a UB buffer is
// DataCopyPad GM -> UB, MTE2 -> MTE3 event, DataCopyPad UB -> GM, chunked to the buffer; an active
// SetAtomicAdd / Max / Min applies to the GM writes (the zccl reduce-scatter idiom); `_nbi` forms leave
// the last copy in flight (shmem_quiet waits for it: PipeBarrier<PIPE_ALL>). The strided forms take a
// non_contiguous_copy_param (rows of `length` elements, src_ld / dst_ld elements apart) in place of the count:
// one strided DataCopyPad between UB and GM, rows staged through a buffer between GM and GM. GM -> GM forms without a
// buffer stage through the UB area the SDK reserves for itself (the last 4 KiB, 188 KiB on a 192 KiB UB).
// Signals are a scalar store written back with DataCacheCleanAndInvalid (a release for
// gm-cross-core-race, kapi/gm_poll.h) and waits poll with invalidate + load (an acquire).
// shmem_barrier_all / shmemx_barrier_all_vec: every block of every PE meets (SyncAll of the launch);
// shmemi_barrier_core_soft: the blocks of the calling PE meet through flags in the state block.
// A SyncAll() the kernel calls itself also meets every PE's blocks (one launch): stronger than on
// hardware, never weaker.
#ifndef PYASC_SIM_KAPI_SHMEM_H_
#define PYASC_SIM_KAPI_SHMEM_H_

#include <algorithm>
#include <cstdint>

#include "kernel_operator.h"
#include "pyasc_sim/kapi/shmem_launch.h"

#define SHMEM_DEVICE __aicore__ inline
#define ACLSHMEM_DEVICE __aicore__ inline
#define SHMEM_GLOBAL __global__ __aicore__
#define ACLSHMEM_GLOBAL __global__ __aicore__

enum shmem_team_index_t { SHMEM_TEAM_INVALID = -1, SHMEM_TEAM_WORLD = 0 };
enum aclshmem_team_index_t { ACLSHMEM_TEAM_INVALID = -1, ACLSHMEM_TEAM_WORLD = 0 };
enum shmem_signal_op_type_t { SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD };
enum aclshmem_signal_op_type_t { ACLSHMEM_SIGNAL_SET, ACLSHMEM_SIGNAL_ADD };
enum shmem_cmp_op_type_t { SHMEM_CMP_EQ = 0, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE };
enum aclshmem_cmp_op_type_t {
    ACLSHMEM_CMP_EQ = 0,
    ACLSHMEM_CMP_NE,
    ACLSHMEM_CMP_GT,
    ACLSHMEM_CMP_GE,
    ACLSHMEM_CMP_LT,
    ACLSHMEM_CMP_LE
};
typedef int shmem_team_t;
typedef int aclshmem_team_t;

// The SDK's device definitions header declares the UB alignment as a global constant; kernels' own headers use it
// (sgl-kernel-npu's deepep shmem_comm_args.h).
constexpr uint32_t UB_ALIGN_SIZE = 32;

// The SDK's non-contiguous copy description: `repeat` rows of `length` elements, row i of the source at
// src + i * src_ld and of the destination at dst + i * dst_ld -- all four counted in ELEMENTS of the copy's type
// (see shmem_detail::put_ub_strided for how the units were decided and where a row sits in UB).
struct non_contiguous_copy_param {
    uint32_t repeat;
    uint32_t length;
    uint32_t src_ld;
    uint32_t dst_ld;
};

namespace pyasc_sim {
namespace kapi {
namespace shmem_detail {

constexpr uint32_t kStagingBytes = 4096;  // the SDK's own UB area: the last 4 KiB

inline BlockState &in_launch(const char *api, const SrcLoc &loc) {
    BlockState &b = blk();
    if (b.shmem_blocks == 0) {
        fail("shmem-not-initialised", loc,
             "%s: this launch has no SHMEM PEs (launch the kernel through pyasc_sim.shmem.Team.launch, which "
             "creates the PEs' symmetric heaps and runs the kernel on every PE)",
             api);
    }
    return b;
}

inline void check_pe(const BlockState &b, int pe, const char *api, const SrcLoc &loc) {
    if (pe < 0 || static_cast<uint32_t>(pe) >= b.shmem_npes) {
        fail("shmem-bad-pe", loc, "%s on PE %u: PE %d does not exist (the team has PEs 0 .. %u)", api, b.shmem_pe,
             pe, b.shmem_npes - 1);
    }
}

// The address on PE `pe` of the calling PE's symmetric address `p` ([p, p + bytes) must lie in its heap).
inline uint64_t translate(const void *p, uint64_t bytes, int pe, const char *api, const SrcLoc &loc) {
    BlockState &b = in_launch(api, loc);
    check_pe(b, pe, api, loc);
    const uint64_t a = reinterpret_cast<uint64_t>(p);
    const uint64_t base = b.shmem_base[b.shmem_pe];
    const int64_t off = static_cast<int64_t>(a - base);
    if (a < base || a - base >= b.shmem_heap_size || bytes > b.shmem_heap_size - (a - base)) {
        fail("shmem-out-of-heap", loc,
             "%s on PE %u for PE %d: %llu bytes at offset %lld of the symmetric heap (address 0x%llx) are not inside "
             "the %llu-byte heap of PE %u (0x%llx); pass an address from shmem_malloc (pyasc_sim.shmem "
             "Team.malloc) and keep the transfer inside the heap",
             api, b.shmem_pe, pe, static_cast<unsigned long long>(bytes), static_cast<long long>(off),
             static_cast<unsigned long long>(a), static_cast<unsigned long long>(b.shmem_heap_size), b.shmem_pe,
             static_cast<unsigned long long>(base));
    }
    return b.shmem_base[pe] + (a - base);
}

template <typename T>
inline AscendC::GlobalTensor<T> gm_at(uint64_t addr, uint64_t count) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(addr), count);
    return g;
}

// GM -> UB -> GM in chunks of the buffer (whole 32-byte blocks), as the SDK's MTE engine does.
template <typename T>
inline void copy_via_ub(const AscendC::GlobalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                        const AscendC::LocalTensor<T> &buf, uint64_t count, AscendC::TEventID ev, const char *api,
                        const SrcLoc &loc) {
    uint64_t chunk = (static_cast<uint64_t>(buf.GetSize()) * sizeof(T) / 32u * 32u) / sizeof(T);
    if (chunk == 0) {
        fail("shmem-buffer", loc, "%s: the UB buffer holds %u elements of %zu bytes, less than one 32-byte block",
             api, static_cast<unsigned>(buf.GetSize()), sizeof(T));
    }
    if (chunk > 65535u * 32u / sizeof(T)) chunk = 65535u * 32u / sizeof(T);
    for (uint64_t done = 0; done < count;) {
        const uint64_t n = count - done < chunk ? count - done : chunk;
        if (done != 0) {  // the buffer's previous chunk has left for GM
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
        }
        const AscendC::DataCopyExtParams p(1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0);
        AscendC::DataCopyPad(buf, src[done], p, AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}), loc);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(ev, loc);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(ev, loc);
        AscendC::DataCopyPad(dst[done], buf, p, loc);
        done += n;
    }
}

template <typename T>
inline AscendC::LocalTensor<T> staging(const SrcLoc &loc) {
    const uint32_t ub = static_cast<uint32_t>(blk().capacity[kUB]);
    return AscendC::LocalTensor<T>(AscendC::TPosition::VECIN, ub - kStagingBytes, kStagingBytes / sizeof(T), loc);
}

template <typename T>
inline void put(const AscendC::GlobalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                const AscendC::LocalTensor<T> &buf, uint64_t count, int pe, AscendC::TEventID ev, const char *api,
                const SrcLoc &loc) {
    const uint64_t to = translate(dst.GetPhyAddr(), count * sizeof(T), pe, api, loc);
    copy_via_ub(gm_at<T>(to, count), src, buf, count, ev, api, loc);
}

template <typename T>
inline void get(const AscendC::GlobalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                const AscendC::LocalTensor<T> &buf, uint64_t count, int pe, AscendC::TEventID ev, const char *api,
                const SrcLoc &loc) {
    const uint64_t from = translate(src.GetPhyAddr(), count * sizeof(T), pe, api, loc);
    copy_via_ub(dst, gm_at<T>(from, count), buf, count, ev, api, loc);
}

// A get of symmetric GM into UB. A transfer of one word (8 bytes or less) is how SDK kernels poll a peer's
// flag (zccl's reduce-scatter: shmem_get_int32_mem_nbi(ctrlFlag, gvaSyncGm[...], 1, pe) in a loop until the value
// moves): the DMA reads GM, which holds what the writer wrote back, so it is modelled as the poll it is -- the line
// invalidated and the word loaded (an acquire for gm-cross-core-race, kapi/gm_poll.h), then stored into the tensor.
// The tensor receives the same bytes as from the DMA. Longer transfers are one DataCopyPad.
template <typename T>
inline void get_to_ub(const AscendC::LocalTensor<T> &dst, uint64_t from, uint32_t n, const SrcLoc &loc) {
    const AscendC::GlobalTensor<T> g = gm_at<T>(from, n);
    if (uint64_t{n} * sizeof(T) <= 8) {
        AscendC::DataCacheCleanAndInvalid<T, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(
            g, loc);
        for (uint32_t i = 0; i < n; ++i) dst.SetValue(i, g.GetValue(i, loc), loc);
        return;
    }
    AscendC::DataCopyPad(dst, g, AscendC::DataCopyExtParams(1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0),
                         AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}), loc);
}

// ---- strided copies (non_contiguous_copy_param) ---------------------------------------------------
// Units. The SDK's struct comment (include/device/shmem_def.h: "repeat: Data move times, length: Data move unit
// length, src_ld / dst_ld: leading dimension, interval between the heads of two repeats") names no unit. Elements:
// the SDK's device code (read for this fact only) builds from it a DataCopyExtParams of blockLen length * sizeof(T),
// a GM gap of (ld - length) * sizeof(T) bytes and a UB gap of (ld - length) / (32 / sizeof(T)) blocks; its tests
// pass element counts (length = col / 2 floats of a row of col), and so do the public kernels: sgl-kernel-npu's
// deepep shmem_moe_distribute_dispatch sends a token with {1, axisHCommu_, 0, 0}, axisHCommu_ = the token's bytes /
// sizeof(T) -- in bytes a half / bfloat16 token would arrive half copied.
// Layout in UB (DataCopyPad's, which the SDK uses): row i starts at a 32-byte boundary, i * (align32(length *
// sizeof(T)) + floor((ld - length) / (32 / sizeof(T))) * 32) bytes into the tensor -- i * ld elements whenever
// length and ld - length fill whole 32-byte blocks. GM rows are exactly ld elements apart. With one row the leading
// dimensions are not used (the deepep kernels pass 0).
constexpr uint32_t kMaxRepeat = 4095;  // bursts of one DMA (nBurst, [0, 2^12 - 1]: CCE intrinsic "copy with pad")

inline uint64_t strided_extent(const non_contiguous_copy_param &p, uint32_t ld) {
    return p.repeat == 0 || p.length == 0 ? 0 : uint64_t{p.repeat - 1} * ld + p.length;
}

// A leading dimension shorter than a row makes the DMA's gap (ld - length) wrap around (rows far outside the
// buffers on hardware); a UB form moves its rows in one DMA of at most kMaxRepeat bursts.
inline void check_copy_param(const non_contiguous_copy_param &p, bool one_dma, const char *api, const SrcLoc &loc) {
    if (p.repeat > 1 && (p.src_ld < p.length || p.dst_ld < p.length)) {
        fail("shmem-bad-copy-param", loc,
             "%s: non_contiguous_copy_param{repeat %u, length %u, src_ld %u, dst_ld %u}: a leading dimension is "
             "shorter than a row of %u elements, so the rows overlap and the DMA's gap (ld - length) wraps around; "
             "pass src_ld and dst_ld >= length (all four count elements)",
             api, p.repeat, p.length, p.src_ld, p.dst_ld, p.length);
    }
    if (one_dma && p.repeat > kMaxRepeat) {
        fail("shmem-bad-copy-param", loc,
             "%s: non_contiguous_copy_param{repeat %u, length %u, src_ld %u, dst_ld %u}: %u rows in one DMA between "
             "UB and GM, more than its %u bursts; split the copy into pieces of at most %u rows",
             api, p.repeat, p.length, p.src_ld, p.dst_ld, p.repeat, kMaxRepeat, kMaxRepeat);
    }
}

// The DataCopyExtParams of one strided DMA between UB and GM: the GM side's gap in bytes, the UB side's in blocks.
template <typename T>
inline AscendC::DataCopyExtParams strided_dma(const non_contiguous_copy_param &p, uint32_t gm_ld, uint32_t ub_ld,
                                              bool ub_is_src) {
    const uint32_t gm_gap = p.repeat > 1 ? static_cast<uint32_t>((gm_ld - p.length) * sizeof(T)) : 0;
    const uint32_t ub_gap = p.repeat > 1 ? static_cast<uint32_t>((ub_ld - p.length) / (32 / sizeof(T))) : 0;
    return AscendC::DataCopyExtParams(static_cast<uint16_t>(p.repeat), static_cast<uint32_t>(p.length * sizeof(T)),
                                      ub_is_src ? ub_gap : gm_gap, ub_is_src ? gm_gap : ub_gap, 0);
}

// UB (src_ld) -> symmetric GM on PE pe (dst_ld): one DMA; every GM element it writes is checked against the heap.
template <typename T>
inline void put_ub_strided(const AscendC::GlobalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                           const non_contiguous_copy_param &p, int pe, const char *api, const SrcLoc &loc) {
    check_copy_param(p, true, api, loc);
    const uint64_t n = strided_extent(p, p.dst_ld);
    const uint64_t to = translate(dst.GetPhyAddr(), n * sizeof(T), pe, api, loc);
    if (n == 0) return;
    AscendC::DataCopyPad(gm_at<T>(to, n), src, strided_dma<T>(p, p.dst_ld, p.src_ld, true), loc);
}

// Symmetric GM on PE pe (src_ld) -> UB (dst_ld): one DMA.
template <typename T>
inline void get_ub_strided(const AscendC::LocalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                           const non_contiguous_copy_param &p, int pe, const char *api, const SrcLoc &loc) {
    check_copy_param(p, true, api, loc);
    const uint64_t n = strided_extent(p, p.src_ld);
    const uint64_t from = translate(src.GetPhyAddr(), n * sizeof(T), pe, api, loc);
    if (n == 0) return;
    AscendC::DataCopyPad(dst, gm_at<T>(from, n), strided_dma<T>(p, p.src_ld, p.dst_ld, false),
                         AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}), loc);
}

// GM (src_ld) -> GM (dst_ld) through a UB buffer, as the SDK's engine does: as many whole rows per round as the
// buffer holds (each row in a 32-byte slot), GM -> UB, MTE2 -> MTE3, UB -> GM; a row longer than the buffer goes
// in pieces. `to` / `from` are the translated addresses.
template <typename T>
inline void copy_strided_via_ub(uint64_t to, uint64_t from, const AscendC::LocalTensor<T> &buf,
                                const non_contiguous_copy_param &p, AscendC::TEventID ev, const char *api,
                                const SrcLoc &loc) {
    const uint64_t slot = (uint64_t{p.length} * sizeof(T) + 31) / 32 * 32;
    const uint64_t cap = static_cast<uint64_t>(buf.GetSize()) * sizeof(T) / 32u * 32u;
    if (cap == 0) {
        fail("shmem-buffer", loc, "%s: the UB buffer holds %u elements of %zu bytes, less than one 32-byte block",
             api, static_cast<unsigned>(buf.GetSize()), sizeof(T));
    }
    if (slot > cap) {  // a row does not fit: each row as a contiguous copy in chunks of the buffer
        for (uint32_t r = 0; r < p.repeat; ++r) {
            if (r != 0) {
                AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
                AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
            }
            copy_via_ub(gm_at<T>(to + uint64_t{r} * p.dst_ld * sizeof(T), p.length),
                        gm_at<T>(from + uint64_t{r} * p.src_ld * sizeof(T), p.length), buf, p.length, ev, api, loc);
        }
        return;
    }
    const uint32_t per = static_cast<uint32_t>(std::min<uint64_t>(cap / slot, kMaxRepeat));
    for (uint32_t r = 0; r < p.repeat; r += per) {
        if (r != 0) {  // the buffer's previous rows have left for GM
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ev, loc);
        }
        const non_contiguous_copy_param part{std::min(per, p.repeat - r), p.length, p.src_ld, p.dst_ld};
        const uint64_t src_n = strided_extent(part, p.src_ld), dst_n = strided_extent(part, p.dst_ld);
        AscendC::DataCopyPad(buf, gm_at<T>(from + uint64_t{r} * p.src_ld * sizeof(T), src_n),
                             strided_dma<T>(part, p.src_ld, p.length, false),
                             AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}), loc);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(ev, loc);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(ev, loc);
        AscendC::DataCopyPad(gm_at<T>(to + uint64_t{r} * p.dst_ld * sizeof(T), dst_n), buf,
                             strided_dma<T>(part, p.dst_ld, p.length, true), loc);
    }
}

template <typename T>
inline void put_strided(const AscendC::GlobalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                        const AscendC::LocalTensor<T> &buf, const non_contiguous_copy_param &p, int pe,
                        AscendC::TEventID ev, const char *api, const SrcLoc &loc) {
    check_copy_param(p, false, api, loc);
    const uint64_t to = translate(dst.GetPhyAddr(), strided_extent(p, p.dst_ld) * sizeof(T), pe, api, loc);
    if (strided_extent(p, p.dst_ld) == 0) return;
    copy_strided_via_ub(to, reinterpret_cast<uint64_t>(src.GetPhyAddr()), buf, p, ev, api, loc);
}

template <typename T>
inline void get_strided(const AscendC::GlobalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                        const AscendC::LocalTensor<T> &buf, const non_contiguous_copy_param &p, int pe,
                        AscendC::TEventID ev, const char *api, const SrcLoc &loc) {
    check_copy_param(p, false, api, loc);
    const uint64_t from = translate(src.GetPhyAddr(), strided_extent(p, p.src_ld) * sizeof(T), pe, api, loc);
    if (strided_extent(p, p.src_ld) == 0) return;
    copy_strided_via_ub(reinterpret_cast<uint64_t>(dst.GetPhyAddr()), from, buf, p, ev, api, loc);
}

inline bool compare(int32_t v, int cmp, int32_t ref) {
    switch (cmp) {
        case SHMEM_CMP_EQ: return v == ref;
        case SHMEM_CMP_NE: return v != ref;
        case SHMEM_CMP_GT: return v > ref;
        case SHMEM_CMP_GE: return v >= ref;
        case SHMEM_CMP_LT: return v < ref;
        default: return v <= ref;
    }
}

// Loads a GM int32 flag as a poll does: invalidate the line, then load (an acquire, kapi/gm_poll.h).
inline int32_t poll_load(const AscendC::GlobalTensor<int32_t> &g, const SrcLoc &loc) {
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(
        g, loc);
    return g.GetValue(0, loc);
}

// Stores a GM int32 flag and writes its line back (a release).
inline void publish(const AscendC::GlobalTensor<int32_t> &g, int32_t v, const SrcLoc &loc) {
    g.SetValue(0, v, loc);
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(
        g, loc);
}

inline void signal_op(__gm__ int32_t *sig, int32_t signal, int op, int pe, const char *api, const SrcLoc &loc) {
    const uint64_t at = translate(sig, sizeof(int32_t), pe, api, loc);
    AscendC::PipeBarrier<PIPE_ALL>(loc);  // the data the signal announces has landed
    const AscendC::GlobalTensor<int32_t> g = gm_at<int32_t>(at, 1);
    publish(g, op == SHMEM_SIGNAL_ADD ? poll_load(g, loc) + signal : signal, loc);
    AscendC::sim_detail::xnotify();  // wake the blocks waiting for a signal
}

// A wait's condition, evaluated by the runtime (cross_core_wait) after every notify: a plain load.
struct WaitCond {
    const int32_t *word;
    int cmp;
    int32_t ref;
};
PYASC_SIM_REACH_NOSAN inline int wait_ready(void *arg) {
    const WaitCond *w = static_cast<const WaitCond *>(arg);
    return compare(__atomic_load_n(w->word, __ATOMIC_ACQUIRE), w->cmp, w->ref) ? 1 : 0;
}

// Polls (invalidate + load, the acquire) until the word satisfies the condition; between polls the block
// sleeps in the runtime's cross-core wait (so a block that waits never holds a core another PE's block
// needs, and a wait nothing can satisfy is reported as a deadlock instead of hanging).
inline int32_t wait_word(const AscendC::GlobalTensor<int32_t> &g, int cmp, int32_t ref, const char *what,
                         const SrcLoc &loc) {
    WaitCond cond{reinterpret_cast<const int32_t *>(g.GetPhyAddr()), cmp, ref};
    for (;;) {
        const int32_t v = poll_load(g, loc);
        if (compare(v, cmp, ref)) return v;
        AscendC::sim_detail::xwait(what, &wait_ready, &cond, loc);
    }
}

inline int32_t wait_until(__gm__ int32_t *sig, int cmp, int32_t ref, const char *api, const SrcLoc &loc) {
    in_launch(api, loc);
    return wait_word(gm_at<int32_t>(reinterpret_cast<uint64_t>(sig), 1), cmp, ref, api, loc);
}

// The blocks of the calling PE meet: each publishes its round in its flag and polls the others'.
inline void barrier_core(const char *api, const SrcLoc &loc) {
    BlockState &b = in_launch(api, loc);
    AscendC::PipeBarrier<PIPE_ALL>(loc);
    const int32_t round = static_cast<int32_t>(++b.shmem_core_gen);
    const uint64_t flags = b.shmem_state + kShmemFlagsOffset + uint64_t{b.shmem_pe} * kShmemMaxBlocks * kShmemFlagStride;
    const uint32_t me = static_cast<uint32_t>(AscendC::GetBlockIdx()) / b.ratio;
    publish(gm_at<int32_t>(flags + me * kShmemFlagStride, 1), round, loc);
    AscendC::sim_detail::xnotify();
    for (uint32_t j = 0; j < b.shmem_blocks; ++j) {
        if (j == me) continue;
        wait_word(gm_at<int32_t>(flags + j * kShmemFlagStride, 1), SHMEM_CMP_GE, round, api, loc);
    }
}

}  // namespace shmem_detail
}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_SHMEM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()

// ---- PE identity ---------------------------------------------------------------------------------
inline int shmem_my_pe(PYASC_SIM_SHMEM_LOC) {
    return static_cast<int>(pyasc_sim::kapi::shmem_detail::in_launch("shmem_my_pe", loc).shmem_pe);
}
inline int shmem_n_pes(PYASC_SIM_SHMEM_LOC) {
    return static_cast<int>(pyasc_sim::kapi::shmem_detail::in_launch("shmem_n_pes", loc).shmem_npes);
}
// Only the world team exists on the simulator (team 0, SHMEM_TEAM_WORLD).
inline int shmem_team_my_pe(shmem_team_t team, PYASC_SIM_SHMEM_LOC) {
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::shmem_detail::in_launch("shmem_team_my_pe", loc);
    return team == SHMEM_TEAM_WORLD ? static_cast<int>(b.shmem_pe) : -1;
}
inline int shmem_team_n_pes(shmem_team_t team, PYASC_SIM_SHMEM_LOC) {
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::shmem_detail::in_launch("shmem_team_n_pes", loc);
    return team == SHMEM_TEAM_WORLD ? static_cast<int>(b.shmem_npes) : -1;
}

// ---- address translation -------------------------------------------------------------------------
inline __gm__ void *shmem_ptr(__gm__ void *ptr, int pe, PYASC_SIM_SHMEM_LOC) {
    return reinterpret_cast<__gm__ void *>(pyasc_sim::kapi::shmem_detail::translate(ptr, 1, pe, "shmem_ptr", loc));
}
template <typename T>
inline __gm__ T *shmem_ptr(__gm__ T *ptr, int pe, PYASC_SIM_SHMEM_LOC) {
    return reinterpret_cast<__gm__ T *>(pyasc_sim::kapi::shmem_detail::translate(ptr, 1, pe, "shmem_ptr", loc));
}

// ---- MTE put / get through a UB buffer (GlobalTensor forms; NAME: shmem_mte_put_mem_nbi, aclshmemx_mte_..., ...) ----
// The strided forms take a non_contiguous_copy_param instead of the count (rows of `length` elements, src_ld /
// dst_ld apart; shmem_detail::put_ub_strided); the UB forms move between a LocalTensor and symmetric GM in one DMA
// (`ev` orders nothing more there: the copy is a single DataCopyPad).
#define PYASC_SIM_SHMEM_MTE(NAME, OP)                                                                             \
    template <typename T>                                                                                         \
    inline void NAME(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src, AscendC::LocalTensor<T> buf,    \
                     uint32_t elem_size, int pe, AscendC::TEventID ev, PYASC_SIM_SHMEM_LOC) {                     \
        pyasc_sim::kapi::shmem_detail::OP(dst, src, buf, elem_size, pe, ev, #NAME, loc);                          \
    }                                                                                                             \
    template <typename T>                                                                                         \
    inline void NAME(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src, AscendC::LocalTensor<T> buf,    \
                     const non_contiguous_copy_param &copy_params, int pe, AscendC::TEventID ev,                  \
                     PYASC_SIM_SHMEM_LOC) {                                                                       \
        pyasc_sim::kapi::shmem_detail::OP##_strided(dst, src, buf, copy_params, pe, ev, #NAME, loc);              \
    }
PYASC_SIM_SHMEM_MTE(shmem_mte_put_mem_nbi, put)
PYASC_SIM_SHMEM_MTE(shmem_mte_get_mem_nbi, get)
PYASC_SIM_SHMEM_MTE(aclshmemx_mte_put_mem_nbi, put)
PYASC_SIM_SHMEM_MTE(aclshmemx_mte_get_mem_nbi, get)
#undef PYASC_SIM_SHMEM_MTE

// UB <-> symmetric GM through the MTE names (the SDK's UB forms: `shmem_mte_put_mem_nbi(dst_gm, buf_tensor,
// copy_params, pe, EVENT_ID0)`).
#define PYASC_SIM_SHMEM_MTE_UB(PUT, GET)                                                                          \
    template <typename T>                                                                                         \
    inline void PUT(AscendC::GlobalTensor<T> dst, AscendC::LocalTensor<T> src, const non_contiguous_copy_param &p, \
                    int pe, AscendC::TEventID ev, PYASC_SIM_SHMEM_LOC) {                                          \
        (void)ev;                                                                                                 \
        pyasc_sim::kapi::shmem_detail::put_ub_strided(dst, src, p, pe, #PUT, loc);                                \
    }                                                                                                             \
    template <typename T>                                                                                         \
    inline void GET(AscendC::LocalTensor<T> dst, AscendC::GlobalTensor<T> src, const non_contiguous_copy_param &p, \
                    int pe, AscendC::TEventID ev, PYASC_SIM_SHMEM_LOC) {                                          \
        (void)ev;                                                                                                 \
        pyasc_sim::kapi::shmem_detail::get_ub_strided(dst, src, p, pe, #GET, loc);                                \
    }
PYASC_SIM_SHMEM_MTE_UB(shmem_mte_put_mem_nbi, shmem_mte_get_mem_nbi)
PYASC_SIM_SHMEM_MTE_UB(aclshmemx_mte_put_mem_nbi, aclshmemx_mte_get_mem_nbi)
#undef PYASC_SIM_SHMEM_MTE_UB

// The `__gm__ T *` form of a GM <-> symmetric GM transfer: the GlobalTensor form over n elements.
#define PYASC_SIM_SHMEM_PTR_FORM(FN, TYPE)                                                                          \
    inline void FN(__gm__ TYPE *dst, __gm__ TYPE *src, uint32_t n, int pe, PYASC_SIM_SHMEM_LOC) {                   \
        FN(pyasc_sim::kapi::shmem_detail::gm_at<TYPE>(reinterpret_cast<uint64_t>(dst), n),                          \
           pyasc_sim::kapi::shmem_detail::gm_at<TYPE>(reinterpret_cast<uint64_t>(src), n), n, pe, loc);             \
    }

// The `__gm__ T *` form of a strided GM <-> symmetric GM transfer: the GlobalTensor form over each side's extent.
#define PYASC_SIM_SHMEM_STRIDED_PTR(FN, TYPE)                                                                       \
    inline void FN(__gm__ TYPE *dst, __gm__ TYPE *src, const non_contiguous_copy_param &p, int pe,                  \
                   PYASC_SIM_SHMEM_LOC) {                                                                           \
        FN(pyasc_sim::kapi::shmem_detail::gm_at<TYPE>(reinterpret_cast<uint64_t>(dst),                              \
                                                      pyasc_sim::kapi::shmem_detail::strided_extent(p, p.dst_ld)),  \
           pyasc_sim::kapi::shmem_detail::gm_at<TYPE>(reinterpret_cast<uint64_t>(src),                              \
                                                      pyasc_sim::kapi::shmem_detail::strided_extent(p, p.src_ld)),  \
           p, pe, loc);                                                                                             \
    }

// The strided typed forms (a non_contiguous_copy_param in place of the count): UB <-> symmetric GM in one DMA,
// GM <-> symmetric GM staged in the SDK's UB area; GlobalTensor and `__gm__ T *` forms.
#define PYASC_SIM_SHMEM_STRIDED(PFX, NAME, TYPE)                                                                     \
    inline void PFX##_put_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::LocalTensor<TYPE> src,          \
                                           const non_contiguous_copy_param &p, int pe, PYASC_SIM_SHMEM_LOC) {        \
        pyasc_sim::kapi::shmem_detail::put_ub_strided(dst, src, p, pe, #PFX "_put_" #NAME "_mem_nbi", loc);          \
    }                                                                                                                \
    inline void PFX##_get_##NAME##_mem_nbi(AscendC::LocalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,          \
                                           const non_contiguous_copy_param &p, int pe, PYASC_SIM_SHMEM_LOC) {        \
        pyasc_sim::kapi::shmem_detail::get_ub_strided(dst, src, p, pe, #PFX "_get_" #NAME "_mem_nbi", loc);          \
    }                                                                                                                \
    inline void PFX##_put_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,         \
                                           const non_contiguous_copy_param &p, int pe, PYASC_SIM_SHMEM_LOC) {        \
        pyasc_sim::kapi::shmem_detail::put_strided(dst, src, pyasc_sim::kapi::shmem_detail::staging<TYPE>(loc), p,  \
                                                   pe, 0, #PFX "_put_" #NAME "_mem_nbi", loc);                       \
    }                                                                                                                \
    inline void PFX##_get_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,         \
                                           const non_contiguous_copy_param &p, int pe, PYASC_SIM_SHMEM_LOC) {        \
        pyasc_sim::kapi::shmem_detail::get_strided(dst, src, pyasc_sim::kapi::shmem_detail::staging<TYPE>(loc), p,  \
                                                   pe, 0, #PFX "_get_" #NAME "_mem_nbi", loc);                       \
    }                                                                                                                \
    PYASC_SIM_SHMEM_STRIDED_PTR(PFX##_put_##NAME##_mem_nbi, TYPE)                                                    \
    PYASC_SIM_SHMEM_STRIDED_PTR(PFX##_get_##NAME##_mem_nbi, TYPE)

// ---- typed put / get: UB <-> symmetric GM, and GM <-> symmetric GM (staged in the SDK's UB area) ----
#define PYASC_SIM_SHMEM_TYPED(PFX, NAME, TYPE)                                                                       \
    inline void PFX##_put_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::LocalTensor<TYPE> src,          \
                                           uint32_t n, int pe, PYASC_SIM_SHMEM_LOC) {                                \
        const uint64_t to = pyasc_sim::kapi::shmem_detail::translate(dst.GetPhyAddr(), uint64_t{n} * sizeof(TYPE),  \
                                                                     pe, #PFX "_put_" #NAME "_mem_nbi", loc);        \
        AscendC::DataCopyPad(pyasc_sim::kapi::shmem_detail::gm_at<TYPE>(to, n), src,                                 \
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(n * sizeof(TYPE)), 0, 0, 0), loc);  \
    }                                                                                                                \
    inline void PFX##_get_##NAME##_mem_nbi(AscendC::LocalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,          \
                                           uint32_t n, int pe, PYASC_SIM_SHMEM_LOC) {                                \
        const uint64_t from = pyasc_sim::kapi::shmem_detail::translate(src.GetPhyAddr(), uint64_t{n} * sizeof(TYPE), \
                                                                       pe, #PFX "_get_" #NAME "_mem_nbi", loc);      \
        pyasc_sim::kapi::shmem_detail::get_to_ub(dst, from, n, loc);                                                 \
    }                                                                                                                \
    inline void PFX##_put_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,         \
                                           uint32_t n, int pe, PYASC_SIM_SHMEM_LOC) {                                \
        pyasc_sim::kapi::shmem_detail::put(dst, src, pyasc_sim::kapi::shmem_detail::staging<TYPE>(loc), n, pe, 0,    \
                                           #PFX "_put_" #NAME "_mem_nbi", loc);                                      \
    }                                                                                                                \
    inline void PFX##_get_##NAME##_mem_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,         \
                                           uint32_t n, int pe, PYASC_SIM_SHMEM_LOC) {                                \
        pyasc_sim::kapi::shmem_detail::get(dst, src, pyasc_sim::kapi::shmem_detail::staging<TYPE>(loc), n, pe, 0,    \
                                           #PFX "_get_" #NAME "_mem_nbi", loc);                                      \
    }                                                                                                                \
    PYASC_SIM_SHMEM_PTR_FORM(PFX##_put_##NAME##_mem_nbi, TYPE)                                                       \
    PYASC_SIM_SHMEM_PTR_FORM(PFX##_get_##NAME##_mem_nbi, TYPE)                                                       \
    PYASC_SIM_SHMEM_STRIDED(PFX, NAME, TYPE)

#define PYASC_SIM_SHMEM_TYPES(PFX)                   \
    PYASC_SIM_SHMEM_TYPED(PFX, half, half)           \
    PYASC_SIM_SHMEM_TYPED(PFX, float, float)         \
    PYASC_SIM_SHMEM_TYPED(PFX, int8, int8_t)         \
    PYASC_SIM_SHMEM_TYPED(PFX, int16, int16_t)       \
    PYASC_SIM_SHMEM_TYPED(PFX, int32, int32_t)       \
    PYASC_SIM_SHMEM_TYPED(PFX, int64, int64_t)       \
    PYASC_SIM_SHMEM_TYPED(PFX, uint8, uint8_t)       \
    PYASC_SIM_SHMEM_TYPED(PFX, uint16, uint16_t)     \
    PYASC_SIM_SHMEM_TYPED(PFX, uint32, uint32_t)     \
    PYASC_SIM_SHMEM_TYPED(PFX, uint64, uint64_t)     \
    PYASC_SIM_SHMEM_TYPED(PFX, bfloat16, bfloat16_t)

PYASC_SIM_SHMEM_TYPES(shmem)
PYASC_SIM_SHMEM_TYPES(aclshmem)

// ---- signals -------------------------------------------------------------------------------------
// sig_op SHMEM_SIGNAL_SET stores `signal` at sig_addr on PE pe, SHMEM_SIGNAL_ADD adds it (not atomic, as
// the SDK documents); the PE's earlier copies land first.
inline void shmemx_signal_op(__gm__ int32_t *sig_addr, int32_t signal, int sig_op, int pe, PYASC_SIM_SHMEM_LOC) {
    pyasc_sim::kapi::shmem_detail::signal_op(sig_addr, signal, sig_op, pe, "shmemx_signal_op", loc);
}
// Blocks until the int32 at sig_addr satisfies `cmp` against cmp_val; returns the value seen.
inline int32_t shmem_signal_wait_until(__gm__ int32_t *sig_addr, int cmp, int32_t cmp_val, PYASC_SIM_SHMEM_LOC) {
    return pyasc_sim::kapi::shmem_detail::wait_until(sig_addr, cmp, cmp_val, "shmem_signal_wait_until", loc);
}

// ---- ordering and barriers -----------------------------------------------------------------------
// Completes the calling core's outstanding puts / gets.
inline void shmem_quiet(PYASC_SIM_SHMEM_LOC) { AscendC::PipeBarrier<PIPE_ALL>(loc); }
inline void shmem_fence(PYASC_SIM_SHMEM_LOC) { AscendC::PipeBarrier<PIPE_ALL>(loc); }
// Every block of every PE meets (the blocks of all PEs are one launch).
inline void shmem_barrier_all(PYASC_SIM_SHMEM_LOC) {
    pyasc_sim::kapi::shmem_detail::in_launch("shmem_barrier_all", loc);
    AscendC::SyncAll<true>(loc);
}
inline void shmemx_barrier_all_vec(PYASC_SIM_SHMEM_LOC) {
    pyasc_sim::kapi::shmem_detail::in_launch("shmemx_barrier_all_vec", loc);
    AscendC::SyncAll<true>(loc);
}
// The blocks of the calling PE meet (the SDK's internal core barrier).
inline void shmemi_barrier_core_soft(PYASC_SIM_SHMEM_LOC) {
    pyasc_sim::kapi::shmem_detail::barrier_core("shmemi_barrier_core_soft", loc);
}
// The FFTS base address the SDK's cross-core sync uses: no effect on the simulator (as SetSyncBaseAddr).
inline void shmemx_set_ffts_config(uint64_t config) { (void)config; }

// ---- the aclshmem_* names of newer releases ------------------------------------------------------
inline int aclshmem_my_pe(PYASC_SIM_SHMEM_LOC) { return shmem_my_pe(loc); }
inline int aclshmem_n_pes(PYASC_SIM_SHMEM_LOC) { return shmem_n_pes(loc); }
inline int aclshmem_team_my_pe(aclshmem_team_t team, PYASC_SIM_SHMEM_LOC) { return shmem_team_my_pe(team, loc); }
inline int aclshmem_team_n_pes(aclshmem_team_t team, PYASC_SIM_SHMEM_LOC) { return shmem_team_n_pes(team, loc); }
inline __gm__ void *aclshmem_ptr(__gm__ void *ptr, int pe, PYASC_SIM_SHMEM_LOC) { return shmem_ptr(ptr, pe, loc); }
template <typename T>
inline __gm__ T *aclshmem_ptr(__gm__ T *ptr, int pe, PYASC_SIM_SHMEM_LOC) {
    return shmem_ptr(ptr, pe, loc);
}
inline void aclshmemx_signal_op(__gm__ int32_t *sig_addr, int32_t signal, int sig_op, int pe, PYASC_SIM_SHMEM_LOC) {
    pyasc_sim::kapi::shmem_detail::signal_op(sig_addr, signal, sig_op, pe, "aclshmemx_signal_op", loc);
}
inline int32_t aclshmem_signal_wait_until(__gm__ int32_t *sig_addr, int cmp, int32_t cmp_val, PYASC_SIM_SHMEM_LOC) {
    return pyasc_sim::kapi::shmem_detail::wait_until(sig_addr, cmp, cmp_val, "aclshmem_signal_wait_until", loc);
}
inline void aclshmem_quiet(PYASC_SIM_SHMEM_LOC) { shmem_quiet(loc); }
inline void aclshmem_fence(PYASC_SIM_SHMEM_LOC) { shmem_fence(loc); }
inline void aclshmem_barrier_all(PYASC_SIM_SHMEM_LOC) { shmem_barrier_all(loc); }
inline void aclshmemx_barrier_all_vec(PYASC_SIM_SHMEM_LOC) { shmemx_barrier_all_vec(loc); }
inline void aclshmemx_set_ffts_config(uint64_t config) { shmemx_set_ffts_config(config); }

#undef PYASC_SIM_SHMEM_LOC

#endif  // PYASC_SIM_KAPI_SHMEM_H_
