// Ascend C on the CPU -- synchronisation between cores and atomic writes to global memory:
// SyncAll (hard and soft form), IBSet / IBWait, CrossCoreSetFlag / CrossCoreWaitFlag,
// SetAtomicAdd / SetAtomicMax / SetAtomicMin / SetAtomicNone.
//
// Blocks of a launch really run concurrently (kernel ABI v4: the runtime starts extra threads when
// a block waits while others have not started, so a launch never deadlocks on the host's thread
// count).  Waits go through the runtime's cross_core_wait, which reports a wait nothing can ever
// release (every other block ended or waits too) as check 'cross-core-deadlock': a hang on hardware.
// A launch that synchronises across cores with more blocks than the SoC has cores hangs on hardware
// (the later blocks only start after the earlier ones finish): check 'cross-core-too-many-blocks'.
#ifndef PYASC_SIM_KAPI_XCORE_H_
#define PYASC_SIM_KAPI_XCORE_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/gm_copy.h"
#include "pyasc_sim/kapi/mix.h"
#include "pyasc_sim/kapi/order.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

namespace sim_detail {

// ---- the launch's shared cross-core state ---------------------------------------------------------
constexpr uint32_t kCrossCoreFlags = 16;       // flag ids 0..15
constexpr int32_t kCrossCoreFlagMaxCount = 15;  // a flag's counter holds at most 15 pending sets

struct XShared {
    uint32_t sync_all;                       // arrivals at the hard SyncAll (vector cores)
    uint32_t sync_all_mix;                   // arrivals at SyncAll<false> (every core)
    uint32_t soft_sync;                      // arrivals at the soft SyncAll
    uint32_t mode0_aiv[kCrossCoreFlags];     // CrossCoreSetFlag mode 0 arrivals per flag (AIV)
    uint32_t mode0_aic[kCrossCoreFlags];     // ... (AIC)
    // followed by int32_t counters[block_dim * 3][kCrossCoreFlags] (per core: AIC, AIV 0, AIV 1),
    // uint32_t mode1[block_dim][3][kCrossCoreFlags] and mode2[block_dim][3][kCrossCoreFlags]: per AI Core group,
    // the sets of AIV 0 and AIV 1, then the rounds released (kRoundsRow)
};

inline int32_t *xcounters(XShared *s) { return reinterpret_cast<int32_t *>(s + 1); }
inline uint32_t *xmode1(XShared *s, uint32_t blocks) {
    return reinterpret_cast<uint32_t *>(xcounters(s) + static_cast<size_t>(blocks) * 3 * kCrossCoreFlags);
}
inline uint32_t *xmode2(XShared *s, uint32_t blocks) {
    return xmode1(s, blocks) + static_cast<size_t>(blocks) * 3 * kCrossCoreFlags;
}
constexpr uint32_t kRoundsRow = 2;  // row of the mode 1 / mode 2 arrays counting the rounds released
// Counter row of a core: 3 per block (AI Core group): its AIC, then its AIV.
inline uint32_t core_slot(const pyasc_sim::kapi::BlockState &b) {
    return b.group * 3 + (b.core_kind == pyasc_sim::kapi::kCoreAIC ? 0 : 1 + b.sub_idx);
}

inline PyascSimBlockContext *xctx() {
    PyascSimBlockContext *c = pyasc_sim::kapi::blk().ctx;
    return c != nullptr && c->abi_version >= 4 && c->cross_core_wait != nullptr ? c : nullptr;
}

inline XShared *xshared(const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    PyascSimBlockContext *c = xctx();
    if (c == nullptr) {
        if (b.block_dim <= 1) return nullptr;  // one block (a unit test): nothing to meet
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s needs a simulated runtime with kernel ABI 4 (cross-core waits); this one has ABI %u",
                              api, b.ctx != nullptr ? b.ctx->abi_version : 0u);
    }
    const size_t bytes = sizeof(XShared) + sizeof(int32_t) * kCrossCoreFlags * b.block_dim * 9;
    void *p = c->launch_shared(c->runtime_user, bytes);
    if (p == nullptr) pyasc_sim::kapi::fail("unsupported", loc, "%s: the runtime gave no shared cross-core area", api);
    return static_cast<XShared *>(p);
}

inline void xnotify() {
    if (PyascSimBlockContext *c = xctx()) c->cross_core_notify(c->runtime_user);
}

// Waits until ready(arg); a wait nothing can release is a hang on hardware.
inline void xwait(const char *what, int (*ready)(void *), void *arg, const pyasc_sim::kapi::SrcLoc &loc) {
    PyascSimBlockContext *c = xctx();
    if (c == nullptr) return;
    char why[512] = {};
    if (c->cross_core_wait(c->runtime_user, c->block_idx, ready, arg, what, why, sizeof(why)) != 0) {
        pyasc_sim::kapi::fail("cross-core-deadlock", loc, "%s", why);
    }
    pyasc_sim::kapi::charge_sync(pyasc_sim::cost::kFlagSyncCycles);
}

inline uint32_t load_u32(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
inline int32_t load_i32(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

// Blocks beyond the SoC's cores run in later waves on hardware: a cross-core wait among them hangs.
inline void check_block_count(const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    const bool v2 = b.ctx != nullptr && b.ctx->abi_version >= 2;
    // a mixed kernel's block takes a whole AI Core (one AIC and its AIV)
    const uint32_t cores = b.mixed ? (v2 && b.ctx->cube_cores != 0 ? b.ctx->cube_cores : 24u)
                                   : (v2 && b.ctx->vector_cores != 0 ? b.ctx->vector_cores : 48u);
    if (b.block_dim > cores) {
        pyasc_sim::kapi::fail("cross-core-too-many-blocks", loc,
                              "%s in a launch of %u blocks, but the SoC (%s) has %u %s: on hardware the "
                              "blocks past the first %u start only after earlier ones end, so the cores already "
                              "waiting hang. Launch at most %u blocks (loop over the work inside each block)",
                              api, b.block_dim, b.ctx != nullptr && b.ctx->soc_name ? b.ctx->soc_name : "?", cores,
                              b.mixed ? "AI Cores (cube cores) for mixed blocks" : "vector cores", cores, cores);
    }
}

struct CountAtLeast {
    const uint32_t *counter;
    uint32_t target;
    static int ready(void *a) {
        const CountAtLeast *s = static_cast<const CountAtLeast *>(a);
        return load_u32(s->counter) >= s->target;
    }
};

// ---- gm-cross-core-race: happens-before edges -----------------------------------------------------
// Each sync call records a release (before it signals) or an acquire (after its wait) of a sync
// object's key with a sequence number from one counter: the runtime orders a core's accesses
// before an acquire's after every release of the same key with a smaller number (vector clocks).
// The counter (one per kernel binary: an order for every launch of it) is gm_poll.h's, shared with
// the releases / acquires of hand-written GM flag polling.
inline void xrace_event(uint32_t kind, uint64_t key) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.xrace || !b.checks) return;
    pyasc_sim::kapi::poll_settle(b);  // a polled load before this call acquires first
    const uint64_t seq = pyasc_sim::kapi::xrace_next_seq();
    b.writes.push_back({key, seq, nullptr, kind, pyasc_sim::kapi::gm_tag(b, PYASC_SIM_GM_EVENT)});
    ++b.xseg;  // what follows is a new segment of this core
    if (kind == PYASC_SIM_GM_EVENT_ACQUIRE) pyasc_sim::kapi::gm_poll::acquired(b);  // as gm_poll::event_at
}
inline uint64_t xkey(const void *p, uint64_t k = 0) { return reinterpret_cast<uintptr_t>(p) + (k << 48); }

// Silences GM read records while a sync call reads its own workspace.
struct XMute {
    bool old;
    XMute() : old(pyasc_sim::kapi::blk().xmute) { pyasc_sim::kapi::blk().xmute = true; }
    ~XMute() { pyasc_sim::kapi::blk().xmute = old; }
};

// Meets the other `parties` blocks at the k-th call (k = ++calls): arrivals only grow.  Every
// access before the k-th meeting happens before every access after it (SyncAll's epochs).
inline void meet(uint32_t *arrivals, uint32_t &calls, uint32_t parties, const char *what,
                 const pyasc_sim::kapi::SrcLoc &loc) {
    const uint32_t k = ++calls;
    pyasc_sim::kapi::gm_fence();  // this block's streamed GM stores are seen by the others after the meeting
    xrace_event(PYASC_SIM_GM_EVENT_RELEASE, xkey(arrivals, k));
    __atomic_add_fetch(arrivals, 1u, __ATOMIC_ACQ_REL);
    xnotify();
    CountAtLeast c{arrivals, k * parties};
    xwait(what, &CountAtLeast::ready, &c, loc);
    xrace_event(PYASC_SIM_GM_EVENT_ACQUIRE, xkey(arrivals, k));
}

// ---- atomic GM writes ------------------------------------------------------------------------------
enum AtomicOp : int { kAtomicNone = 0, kAtomicAdd, kAtomicMax, kAtomicMin };
enum AtomicElem : int { kElemNone = 0, kElemF32, kElemF16, kElemBF16, kElemI32, kElemI16, kElemI8 };

template <typename T>
constexpr int atomic_elem() {
    return std::is_same<T, float>::value       ? kElemF32
           : std::is_same<T, half>::value      ? kElemF16
           : std::is_same<T, bfloat16_t>::value ? kElemBF16
           : std::is_same<T, int32_t>::value   ? kElemI32
           : std::is_same<T, int16_t>::value   ? kElemI16
           : std::is_same<T, int8_t>::value    ? kElemI8
                                               : kElemNone;
}

template <typename T>
inline T atomic_combine(int op, T old, T v) {
    switch (op) {
        case kAtomicAdd: return static_cast<T>(old + v);
        case kAtomicMax: return v > old ? v : old;
        default: return v < old ? v : old;
    }
}
template <>
inline half atomic_combine<half>(int op, half old, half v) {
    const float a = static_cast<float>(old), b = static_cast<float>(v);
    return static_cast<half>(op == kAtomicAdd ? a + b : op == kAtomicMax ? (b > a ? b : a) : (b < a ? b : a));
}
template <>
inline bfloat16_t atomic_combine<bfloat16_t>(int op, bfloat16_t old, bfloat16_t v) {
    const float a = static_cast<float>(old), b = static_cast<float>(v);
    return bfloat16_t(op == kAtomicAdd ? a + b : op == kAtomicMax ? (b > a ? b : a) : (b < a ? b : a));
}

// One element at p, atomically: old = *p; *p = combine(old, v) (a compare-and-swap loop on the
// element's bits, so concurrent blocks never lose an update).
template <typename T, typename Bits>
inline void atomic_element(int op, uint8_t *p, const uint8_t *src) {
    static_assert(sizeof(T) == sizeof(Bits), "element and bits differ in size");
    Bits *word = reinterpret_cast<Bits *>(p);
    T v;
    std::memcpy(&v, src, sizeof(T));
    Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
        T old;
        std::memcpy(&old, &expected, sizeof(T));
        const T next = atomic_combine<T>(op, old, v);
        Bits desired;
        std::memcpy(&desired, &next, sizeof(T));
        if (__atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return;
    }
}

template <typename T, typename Bits>
inline void atomic_range(int op, uint8_t *dst, const uint8_t *src, uint64_t bytes) {
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) atomic_element<T, Bits>(op, dst + i, src + i);
}

// A write of `bytes` bytes from local memory to GM: a plain copy (gm_copy.h: streaming stores when
// large), or (after SetAtomicAdd/Max/Min) element-wise atomic read-modify-write in the type the
// SetAtomic call named.
inline void gm_store(pyasc_sim::kapi::BlockState &b, void *dst, const void *src, uint64_t bytes) {
    pyasc_sim::kapi::poll_gm_written(b);  // not a poll round (gm_poll_yield.h)
    if (b.atomic_op == kAtomicNone || bytes == 0) {
        pyasc_sim::kapi::gm_copy(dst, src, bytes);
        return;
    }
    pyasc_sim::kapi::gm_fence();  // streamed stores before the atomic ones (a reader may sync on them)
    uint8_t *d = static_cast<uint8_t *>(dst);
    const uint8_t *s = static_cast<const uint8_t *>(src);
    switch (b.atomic_type) {
        case kElemF32: atomic_range<float, uint32_t>(b.atomic_op, d, s, bytes); break;
        case kElemF16: atomic_range<half, uint16_t>(b.atomic_op, d, s, bytes); break;
        case kElemBF16: atomic_range<bfloat16_t, uint16_t>(b.atomic_op, d, s, bytes); break;
        case kElemI32: atomic_range<int32_t, uint32_t>(b.atomic_op, d, s, bytes); break;
        case kElemI16: atomic_range<int16_t, uint16_t>(b.atomic_op, d, s, bytes); break;
        default: atomic_range<int8_t, uint8_t>(b.atomic_op, d, s, bytes); break;
    }
}
inline void gm_store(void *dst, const void *src, uint64_t bytes) { gm_store(pyasc_sim::kapi::blk(), dst, src, bytes); }

// blockCount bursts to GM (the atomic-aware twin of copy_bursts).
inline void gm_store_bursts(uint8_t *dst, const uint8_t *src, uint64_t count, uint64_t burst, uint64_t src_pitch,
                            uint64_t dst_pitch) {
    if (pyasc_sim::kapi::blk().atomic_op == kAtomicNone && src_pitch == burst && dst_pitch == burst) {
        pyasc_sim::kapi::poll_gm_written(pyasc_sim::kapi::blk());  // not a poll round (gm_poll_yield.h)
        pyasc_sim::kapi::gm_copy(dst, src, count * burst);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) gm_store(dst + i * dst_pitch, src + i * src_pitch, burst);
}

template <typename T>
inline void set_atomic(int op, const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    constexpr int elem = atomic_elem<T>();
    if (elem == kElemNone) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s<T> with an element type the hardware's atomic unit lacks (documented: float, half, "
                              "bfloat16_t, int32_t, int16_t, int8_t)",
                              api);
    }
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    b.atomic_op = op;
    b.atomic_type = elem;
}

}  // namespace sim_detail

// ---- atomics -------------------------------------------------------------------------------------
// Until SetAtomicNone, every DataCopy / DataCopyPad to GM adds (takes the max / min) into what
// global memory holds, element by element in type T, atomically with respect to other blocks.
// The element type is checked against the dtype table when the call runs, not at compile time:
// CANN checks it with a run-time assertion in its CPU-debug build and the NPU compiler accepts any
// T, so a call in a branch never taken on this SoC (e.g. SetAtomicAdd<uint16_t> in a 310P-only
// helper) compiles, as on the NPU; executing it is a `dtype-table` error naming the listed types.
template <typename T>
inline void SetAtomicAdd(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_AT_RUN(SetAtomicAdd, T, loc);
    sim_detail::set_atomic<T>(sim_detail::kAtomicAdd, "SetAtomicAdd", loc);
}
template <typename T>
inline void SetAtomicMax(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_AT_RUN(SetAtomicMax, T, loc);
    sim_detail::set_atomic<T>(sim_detail::kAtomicMax, "SetAtomicMax", loc);
}
template <typename T>
inline void SetAtomicMin(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_AT_RUN(SetAtomicMin, T, loc);
    sim_detail::set_atomic<T>(sim_detail::kAtomicMin, "SetAtomicMin", loc);
}
inline void SetAtomicNone() {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    b.atomic_op = sim_detail::kAtomicNone;
    b.atomic_type = sim_detail::kElemNone;
}
// SetAtomicType<T>(): keeps the operation, changes the element type.
template <typename T>
inline void SetAtomicType(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_AT_RUN(SetAtomicType, T, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (b.atomic_op != sim_detail::kAtomicNone) sim_detail::set_atomic<T>(b.atomic_op, "SetAtomicType", loc);
}

// ---- SyncAll -------------------------------------------------------------------------------------
// Hard form: every block of the launch meets here.  Before the meeting the core drains its own pipes
// (PipeBarrier<PIPE_ALL>: the A2 implementation of the hard SyncAll starts with it, and its FFTS set is sent
// on PIPE_MTE3), so local-memory accesses before a SyncAll are ordered before the core's accesses after it.
template <bool isAIVOnly = true>
inline void SyncAll(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::check_block_count("SyncAll()", loc);
    pyasc_sim::kapi::order_barrier_all(loc);
    sim_detail::XShared *s = sim_detail::xshared("SyncAll", loc);
    if (s == nullptr) return;
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.mixed) {
        sim_detail::meet(&s->sync_all, b.sync_all_count, b.block_dim, "SyncAll()", loc);
    } else if (!isAIVOnly) {  // every core of a mixed kernel: N AIC + N * ratio AIV
        sim_detail::meet(&s->sync_all_mix, b.sync_all_count, b.block_dim * (1 + b.mix_aiv), "SyncAll<false>()",
                         loc);
    } else if (b.core_kind != pyasc_sim::kapi::kCoreAIC) {  // the vector cores of a mixed kernel
        sim_detail::meet(&s->sync_all, b.sync_all_count, b.block_dim * b.mix_aiv, "SyncAll()", loc);
    }
}

// Soft form: the same meeting, with the documented workspace checks (gmWorkspace >= cores x 32
// bytes and zeroed when first used, ubWorkspace >= cores x 32 bytes).  The simulator keeps the
// counters itself and leaves both workspaces unchanged.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                    const int32_t usedCores = 0, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    static_assert(isAIVOnly, "the soft SyncAll (with workspaces) supports isAIVOnly = true only (documented)");
    if (usedCores < 0 || static_cast<uint32_t>(usedCores) > b.block_dim) {
        pyasc_sim::kapi::fail("cross-core-workspace", loc,
                              "SyncAll(gmWorkspace, ubWorkspace, usedCores = %d): usedCores must be in [0, %u] (the "
                              "launch's block count; 0 means all blocks)",
                              usedCores, b.block_dim);
    }
    const uint32_t parties = usedCores == 0 ? b.block_dim : static_cast<uint32_t>(usedCores);
    sim_detail::check_block_count("SyncAll(gmWorkspace, ubWorkspace)", loc);
    const uint64_t need = static_cast<uint64_t>(parties) * 32u;
    if (b.checks) {
        if (static_cast<uint64_t>(gmWorkspace.GetSize()) * sizeof(int32_t) < need) {
            pyasc_sim::kapi::fail("cross-core-workspace", loc,
                                  "SyncAll: gmWorkspace holds %llu bytes (%llu int32_t), but %u cores need at least %llu "
                                  "bytes (cores x 32 bytes, zeroed before the launch)",
                                  static_cast<unsigned long long>(gmWorkspace.GetSize() * sizeof(int32_t)),
                                  static_cast<unsigned long long>(gmWorkspace.GetSize()), parties,
                                  static_cast<unsigned long long>(need));
        }
        if (static_cast<uint64_t>(ubWorkspace.GetSize()) * sizeof(int32_t) < need) {
            pyasc_sim::kapi::fail("cross-core-workspace", loc,
                                  "SyncAll: ubWorkspace holds %llu bytes, but %u cores need at least %llu bytes (cores x "
                                  "32 bytes)",
                                  static_cast<unsigned long long>(ubWorkspace.GetSize() * sizeof(int32_t)), parties,
                                  static_cast<unsigned long long>(need));
        }
        if (!b.soft_sync_checked) {
            b.soft_sync_checked = true;
            sim_detail::XMute mute;
            gmWorkspace.check_bytes(0, need, false, "SyncAll reads its gmWorkspace", loc);
            const int32_t *w = reinterpret_cast<const int32_t *>(gmWorkspace.GetPhyAddr());
            for (uint32_t i = 0; i < parties * 8u; ++i) {
                const int32_t v = sim_detail::load_i32(w + i);
                if (v != 0) {
                    pyasc_sim::kapi::fail("cross-core-workspace", loc,
                                          "SyncAll: gmWorkspace[%u] is %d when first used; the workspace must be "
                                          "zeroed before the launch (on the host, or by every core before its first "
                                          "SyncAll), else the cores' counters start wrong and they hang or pass early",
                                          i, v);
                }
            }
        }
    }
    sim_detail::XShared *s = sim_detail::xshared("SyncAll", loc);
    if (s == nullptr) return;
    if (b.block_idx >= parties) return;  // not one of the usedCores
    sim_detail::meet(&s->soft_sync, b.soft_sync_count, parties, "SyncAll(gmWorkspace, ubWorkspace)", loc);
}

// ---- IBSet / IBWait ------------------------------------------------------------------------------
namespace sim_detail {
// The 32-byte slot of (blockIdx, eventID) in the workspace: eventID * cores + blockIdx.
inline int32_t *ib_slot(const char *api, const GlobalTensor<int32_t> &gm, const LocalTensor<int32_t> &ub,
                        int32_t blockIdx, int32_t eventID, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    check_block_count(api, loc);
    const uint32_t cores = b.block_dim;
    if (blockIdx < 0 || static_cast<uint32_t>(blockIdx) >= cores || eventID < 0) {
        pyasc_sim::kapi::fail("cross-core-workspace", loc,
                              "%s(blockIdx = %d, eventID = %d): blockIdx must be in [0, %u) (the launch's blocks) and "
                              "eventID >= 0",
                              api, blockIdx, eventID, cores);
    }
    const uint64_t slot = static_cast<uint64_t>(eventID) * cores + static_cast<uint64_t>(blockIdx);
    const uint64_t need = (slot + 1) * 32u;
    if (b.checks) {
        if (static_cast<uint64_t>(gm.GetSize()) * sizeof(int32_t) < need) {
            pyasc_sim::kapi::fail("cross-core-workspace", loc,
                                  "%s(blockIdx = %d, eventID = %d): gmWorkspace holds %llu bytes, but this flag's slot "
                                  "needs %llu (cores x 32 bytes x eventID + blockIdx x 32 bytes + 32 bytes)",
                                  api, blockIdx, eventID,
                                  static_cast<unsigned long long>(gm.GetSize() * sizeof(int32_t)),
                                  static_cast<unsigned long long>(need));
        }
        if (static_cast<uint64_t>(ub.GetSize()) * sizeof(int32_t) < 32u) {
            pyasc_sim::kapi::fail("cross-core-workspace", loc, "%s: ubWorkspace holds %llu bytes; it needs 32", api,
                                  static_cast<unsigned long long>(ub.GetSize() * sizeof(int32_t)));
        }
        XMute mute;
        gm.check_bytes(slot * 32u, sizeof(int32_t), false, api, loc);
    }
    return reinterpret_cast<int32_t *>(reinterpret_cast<uint8_t *>(gm.GetPhyAddr()) + slot * 32u);
}

struct Positive {
    int32_t *p;
    static int ready(void *a) { return load_i32(static_cast<Positive *>(a)->p) > 0; }
};
}  // namespace sim_detail

// Sets the flag of (blockIdx, eventID) in gmWorkspace (a counter in its 32-byte slot).
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx,
                  int32_t eventID, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    int32_t *slot = sim_detail::ib_slot("IBSet", gmWorkspace, ubWorkspace, blockIdx, eventID, loc);
    pyasc_sim::kapi::gm_fence();  // this block's streamed GM stores, before the flag that publishes them
    sim_detail::xrace_event(PYASC_SIM_GM_EVENT_RELEASE, sim_detail::xkey(slot));
    __atomic_add_fetch(slot, 1, __ATOMIC_ACQ_REL);
    sim_detail::xnotify();
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE3, pyasc_sim::kapi::dma_cycles(32, 1));
}

// Waits until the flag of (blockIdx, eventID) is set, then consumes it (the slot returns to 0, so
// a zeroed workspace stays zeroed after paired IBSet / IBWait).
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx,
                   int32_t eventID, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    int32_t *slot = sim_detail::ib_slot("IBWait", gmWorkspace, ubWorkspace, blockIdx, eventID, loc);
    sim_detail::Positive c{slot};
    char what[96];
    std::snprintf(what, sizeof(what), "IBWait(blockIdx = %d, eventID = %d)", blockIdx, eventID);
    if (sim_detail::xctx() == nullptr) {
        if (!sim_detail::Positive::ready(&c)) {
            pyasc_sim::kapi::fail("cross-core-deadlock", loc, "%s: the flag is not set and no other block can set it",
                                  what);
        }
    } else {
        sim_detail::xwait(what, &sim_detail::Positive::ready, &c, loc);
    }
    sim_detail::xrace_event(PYASC_SIM_GM_EVENT_ACQUIRE, sim_detail::xkey(slot));
    __atomic_sub_fetch(slot, 1, __ATOMIC_ACQ_REL);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2, pyasc_sim::kapi::dma_cycles(32, 1));
}

// ---- CrossCoreSetFlag / CrossCoreWaitFlag --------------------------------------------------------
// Each core has a counter per flag id.  Mode 0: when every block of the launch has set flag f, each
// block's counter of f grows by one.  Mode 1 (the vector cores of one AI Core) and mode 2 (cube
// with vector cores of one AI Core): in a vector-only launch each block is its own AI Core's only
// participant, so its own counter grows.  CrossCoreWaitFlag waits for a positive counter and
// decrements it.
namespace sim_detail {
inline void check_flag_id(const char *api, uint16_t flagId, const pyasc_sim::kapi::SrcLoc &loc) {
    if (flagId >= kCrossCoreFlags) {
        pyasc_sim::kapi::fail("event-id", loc, "%s(flagId = %u): flag ids range over 0..%u", api,
                              static_cast<unsigned>(flagId), kCrossCoreFlags - 1);
    }
}

inline void bump_counter(int32_t *counter, uint16_t flagId, uint32_t core, const pyasc_sim::kapi::SrcLoc &loc,
                         const char *api = "CrossCoreSetFlag") {
    pyasc_sim::kapi::gm_fence();  // this core's streamed GM stores, before the flag that publishes them
    const int32_t v = __atomic_add_fetch(counter, 1, __ATOMIC_ACQ_REL);
    if (v > kCrossCoreFlagMaxCount) {
        pyasc_sim::kapi::fail("cross-core-flag-overflow", loc,
                              "%s(flagId = %u): the counter of core %u reached %d pending sets; the "
                              "hardware counts at most %d (set 16 times without a wait the counter "
                              "overflows)",
                              api, static_cast<unsigned>(flagId), core, v, kCrossCoreFlagMaxCount);
    }
}

// The body of CrossCoreSetFlag<modeId, pipe> (and of the intrinsic ffts_cross_core_sync, kapi/ffts_sync.h):
// the pipe only says which pipeline's earlier instructions the set waits for, which the simulator's in-order
// core has completed already.  `api` names the caller in messages.
inline void cross_core_set(const char *api, uint8_t modeId, uint16_t flagId, const pyasc_sim::kapi::SrcLoc &loc);
// The body of CrossCoreWaitFlag (and of the intrinsic wait_flag_dev).
inline void cross_core_wait(const char *api, uint16_t flagId, const pyasc_sim::kapi::SrcLoc &loc);

// Modes 1 and 2 count per AIV: the documented "when both AIV have set" means the k-th release needs the k-th set
// of every AIV of the group, not any mix_aiv sets (one AIV running a round ahead must not stand in for the other).
// `rows` is the group's [3][kCrossCoreFlags] block of xmode1 / xmode2; each completed round calls release() once.
template <typename Release>
inline void aiv_round_arrive(uint32_t *rows, uint32_t sub, uint32_t aivs, uint16_t flagId, Release release) {
    __atomic_add_fetch(&rows[sub * kCrossCoreFlags + flagId], 1u, __ATOMIC_ACQ_REL);
    uint32_t m = UINT32_MAX;
    for (uint32_t v = 0; v < aivs; ++v) {
        const uint32_t c = __atomic_load_n(&rows[v * kCrossCoreFlags + flagId], __ATOMIC_ACQUIRE);
        m = c < m ? c : m;
    }
    uint32_t *released = &rows[kRoundsRow * kCrossCoreFlags + flagId];
    uint32_t r = __atomic_load_n(released, __ATOMIC_ACQUIRE);
    while (r < m) {
        if (__atomic_compare_exchange_n(released, &r, r + 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            release();
            ++r;
        }
    }
}
}  // namespace sim_detail

namespace sim_detail {
inline void cross_core_set(const char *api, uint8_t modeId, uint16_t flagId, const pyasc_sim::kapi::SrcLoc &loc) {
    check_flag_id(api, flagId, loc);
    pyasc_sim::kapi::gm_fence();  // this core's streamed GM stores, before the flag that publishes them
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (modeId == 0) check_block_count(api, loc);  // mode 0 meets every core of the launch
    XShared *s = xshared(api, loc);
    // one key per flag id: a set orders this core's accesses before any later wait on the id
    if (s != nullptr) xrace_event(PYASC_SIM_GM_EVENT_RELEASE, xkey(&s->mode0_aiv[flagId]));
    if (s != nullptr) {
        using pyasc_sim::kapi::kCoreAIC;
        int32_t *counters = xcounters(s);
        const uint32_t F = kCrossCoreFlags;
        const bool aic = b.core_kind == kCoreAIC;
        auto bump = [&](uint32_t slot) { bump_counter(&counters[slot * F + flagId], flagId, slot, loc, api); };
        auto bump_aiv_of = [&](uint32_t g, uint32_t n) {
            for (uint32_t v = 0; v < n; ++v) bump(g * 3 + 1 + v);
        };
        if (modeId == 0) {  // every core of the same kind
            uint32_t *arr = aic ? &s->mode0_aic[flagId] : &s->mode0_aiv[flagId];
            const uint32_t kind_cores = aic ? b.block_dim : b.block_dim * (b.mixed ? b.mix_aiv : 1u);
            const uint32_t n = __atomic_add_fetch(arr, 1u, __ATOMIC_ACQ_REL);
            if (n % kind_cores == 0) {
                for (uint32_t g = 0; g < b.block_dim; ++g) {
                    if (aic) {
                        bump(g * 3);
                    } else {
                        bump_aiv_of(g, b.mixed ? b.mix_aiv : 1u);
                    }
                }
            }
        } else if (!b.mixed) {  // a vector-only block is its AI Core's only participant
            bump(core_slot(b));
        } else if (modeId == 1) {  // the AIV of this AI Core
            if (!aic) {
                aiv_round_arrive(&xmode1(s, b.block_dim)[b.group * 3 * F], b.sub_idx, b.mix_aiv, flagId,
                                 [&] { bump_aiv_of(b.group, b.mix_aiv); });
            }
        } else if (aic) {  // mode 2, AIC -> its AIV
            bump_aiv_of(b.group, b.mix_aiv);
        } else {  // mode 2, AIV -> the AIC once all AIV of the AI Core set
            aiv_round_arrive(&xmode2(s, b.block_dim)[b.group * 3 * F], b.sub_idx, b.mix_aiv, flagId,
                             [&] { bump(b.group * 3); });
        }
        xnotify();
    }
    pyasc_sim::kapi::charge_sync(pyasc_sim::cost::kFlagSyncCycles);
}

inline void cross_core_wait(const char *api, uint16_t flagId, const pyasc_sim::kapi::SrcLoc &loc) {
    check_flag_id(api, flagId, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    XShared *s = xshared(api, loc);
    if (s == nullptr) return;
    int32_t *counter = &xcounters(s)[core_slot(b) * kCrossCoreFlags + flagId];
    Positive c{counter};
    char what[64];
    std::snprintf(what, sizeof(what), "%s(flagId = %u)", api, static_cast<unsigned>(flagId));
    xwait(what, &Positive::ready, &c, loc);
    xrace_event(PYASC_SIM_GM_EVENT_ACQUIRE, xkey(&s->mode0_aiv[flagId]));
    __atomic_sub_fetch(counter, 1, __ATOMIC_ACQ_REL);
}
}  // namespace sim_detail

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    static_assert(modeId <= 2, "CrossCoreSetFlag: modeId is 0, 1 or 2");
    static_assert(pipe != PIPE_S && pipe != PIPE_ALL, "CrossCoreSetFlag: PIPE_S and PIPE_ALL are not supported");
    sim_detail::cross_core_set("CrossCoreSetFlag", modeId, flagId, loc);
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_MTE3>
inline void CrossCoreWaitFlag(uint16_t flagId, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::cross_core_wait("CrossCoreWaitFlag", flagId, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_XCORE_H_
