// Ascend C on the CPU -- the running block: its context, local memories, sanitizer and cost.
//
// One BlockState exists per running block, reached through a thread-local pointer that
// the entry stub (entry.h) sets before calling the kernel.  A failed check writes
// ctx->status = ACL_ERROR_RT_AICORE_EXCEPTION and a message, then throws KernelAbort,
// which the entry stub catches so the block ends cleanly.
#ifndef PYASC_SIM_KAPI_STATE_H_
#define PYASC_SIM_KAPI_STATE_H_

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#if __has_include(<pyasc_sim/kernel_abi.h>)
#include <pyasc_sim/kernel_abi.h>
#include <pyasc_sim/cost_model.h>
#else  // source checkout: backends/sim/include next to backends/sim/kernel_api/include
#include "../../../../include/pyasc_sim/cost_model.h"
#include "../../../../include/pyasc_sim/kernel_abi.h"
#endif

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/race.h"
#include "pyasc_sim/kapi/timeline.h"
#include "pyasc_sim/kapi/core_usage.h"

namespace pyasc_sim {
namespace kapi {

// Where an API call was made: filled in at the call site by default arguments, so a
// sanitizer message points at the kernel's source line.
struct SrcLoc {
    const char *file;
    unsigned line;
    // explicit: a stray argument must never convert into a source location
    explicit constexpr SrcLoc(const char *f = __builtin_FILE(), unsigned l = __builtin_LINE()) : file(f), line(l) {}
};

// Thrown by a failed check; caught by the entry stub.
struct KernelAbort {};

// Physical memories of a core.
enum MemKind : int { kUB = 0, kL1, kL0A, kL0B, kL0C, kBT, kFB, kMemKinds, kGM = -1 };

inline const char *mem_name(int k) {
    switch (k) {
        case kUB: return "UB";
        case kL1: return "L1";
        case kL0A: return "L0A";
        case kL0B: return "L0B";
        case kL0C: return "L0C";
        case kBT: return "BT (bias table)";
        case kFB: return "FB (fixpipe buffer)";
        default: return "GM";
    }
}

inline MemKind mem_of(AscendC::TPosition p) {
    using AscendC::TPosition;
    switch (p) {
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM: return kL1;
        case TPosition::A2: return kL0A;
        case TPosition::B2: return kL0B;
        case TPosition::CO1: return kL0C;
        case TPosition::C2: return kBT;
        case TPosition::C2PIPE2GM: return kFB;
        case TPosition::GM: return kGM;
        default: return kUB;  // VECIN, VECOUT, VECCALC, CO2, SPM, ...
    }
}

inline const char *pos_name(AscendC::TPosition p) {
    using AscendC::TPosition;
    switch (p) {
        case TPosition::GM: return "GM";
        case TPosition::A1: return "A1";
        case TPosition::A2: return "A2";
        case TPosition::B1: return "B1";
        case TPosition::B2: return "B2";
        case TPosition::C1: return "C1";
        case TPosition::C2: return "C2";
        case TPosition::CO1: return "CO1";
        case TPosition::CO2: return "CO2";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        case TPosition::SPM: return "SPM";
        case TPosition::TSCM: return "TSCM";
        case TPosition::C2PIPE2GM: return "C2PIPE2GM";
        case TPosition::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
        default: return "?";
    }
}

// Hardware pipes the cost model charges.
enum Pipe : int { kPipeS = 0, kPipeV, kPipeM, kPipeMTE1, kPipeMTE2, kPipeMTE3, kPipeFIX, kPipes };

// Backing store of a thread's local memories, reused by every block the thread runs.
struct Arena {
    struct Deleter {
        void operator()(uint8_t *p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, Deleter> mem[kMemKinds];
    size_t cap[kMemKinds] = {};
    std::vector<uint8_t> written[kMemKinds];  // initcheck: one bit per 32-byte sector, set = written
    uint8_t *get(int kind, size_t bytes) {
        if (cap[kind] < bytes) {
            const size_t rounded = (bytes + 4095) / 4096 * 4096;
            void *p = std::aligned_alloc(4096, rounded);
            if (p == nullptr) std::abort();
            std::memset(p, 0, rounded);
            mem[kind].reset(static_cast<uint8_t *>(p));
            cap[kind] = rounded;
        }
        return mem[kind].get();
    }
};
inline Arena &thread_arena() {
    thread_local Arena arena;
    return arena;
}

constexpr int kHardEvents = static_cast<int>(AscendC::HardEvent::MAX);
constexpr int kEventIds = 8;  // event ids 0..7 (Atlas A2)

// Vector special registers of one core (dequant.h, cmp_mask.h, vector_extra.h GetAccVal): DEQSCALE,
// CmpMask and the count-form ReduceSum result. Per block: a register read before any write is reported.
struct VecRegs {
    uint64_t deqscale = 0;   // the 64-bit DEQSCALE register, in its documented bit layout
    int deq_kind = 0;        // 0 never set, 1 half scale, 2 float scale/offset/signMode, 3 vdeq tensor
    const uint64_t *vdeq = nullptr;  // mode 3: the 128-byte UB tensor of 16 parameter sets
    uint64_t cmpmask[2] = {0, 0};    // the 128-bit CmpMask register
    bool cmp_set = false;
    unsigned char acc[8] = {};       // ReduceSum (count form) / vcadd mode-1 result (SPR.ACC_VAL)
    bool acc_set = false;
    uint64_t va[8][8] = {};          // the vector address registers VA0..VA7 (set_va_reg_sb), 8 UB addresses each
    uint8_t va_set = 0;              // bit r: VAr was written
    // The Ascend 950's AR special register (reg_simd_unalign.h: ClearSpr / GetSpr, the AR-form StoreUnAlign), bytes,
    // and the byte count of the last Reg Squeeze<STORE_REG> that no AR-form StoreUnAlign has stored yet.
    int64_t ar = 0;
    uint32_t sqz_bytes = 0;
    bool sqz_pending = false;
};

// The newest kGmPollSlots entries of one of gm_poll.h's per-core tables (kernel API README, "GM flag
// polling": what happens past the limit).  push() drops the oldest entry when the ring is full and
// hands it back; erase() keeps the others in age order.
constexpr uint32_t kGmPollSlots = 8;
template <typename T>
struct PollRing {
    T at[kGmPollSlots] = {};
    uint32_t n = 0;
    bool full() const { return n == kGmPollSlots; }
    T *begin() { return at; }
    T *end() { return at + n; }
    // Appends v; returns true (the dropped oldest entry in *dropped) when the ring was full.
    bool push(const T &v, T *dropped) {
        const bool was_full = full();
        if (was_full) {
            *dropped = at[0];
            erase(0);
        }
        at[n++] = v;
        return was_full;
    }
    void erase(uint32_t i) {
        for (uint32_t j = i + 1; j < n; ++j) at[j - 1] = at[j];
        --n;
    }
    void clear() { n = 0; }
};

struct BlockState {
    PyascSimBlockContext *ctx = nullptr;
    // The next GM tile's prefetch, fed to the memory system while this tile computes (gm_copy.h,
    // gm_load_tile; charge and fed_run below): [pf_next, pf_end) still to prefetch.
    uintptr_t pf_next = 0;
    uintptr_t pf_end = 0;
    uint32_t pf_early = 0;   // loads that came before the last one's prefetch was fed
    bool pf_drip = false;    // every charged instruction feeds the pending tile (AVX2), not only fed_run's steps
    bool pf_inline = false;  // this block loads tiles too close together: prefetch inside the copy
    const char *kernel = "kernel";
    uint32_t block_idx = 0;   // GetBlockIdx(): the block, or on a mixed kernel's AIV group * ratio + sub
    uint32_t block_dim = 1;
    // Mixed cube/vector kernels (mix.h): which core of the block's AI Core this is.
    uint32_t group = 0;       // the runtime's block (AI Core group)
    int core_kind = 0;        // 0 vector kernel (AIV only), 1 AIC, 2 AIV of a mixed kernel
    uint32_t sub_idx = 0;     // GetSubBlockIdx()
    uint32_t ratio = 1;       // GetTaskRation(): AIV per AIC on this core's side
    bool mixed = false;       // KERNEL_TYPE_MIX_AIC_1_1 / 1_2: AIC + AIV cores per block
    uint32_t mix_aiv = 0;     // AIV per block of a mixed kernel (2 for MIX_AIC_1_2)
    bool task_type_set = false;
    // A SHMEM launch (kapi/shmem_launch.h): the PEs' blocks run as one launch, PE p's blocks
    // p * shmem_blocks .. (p + 1) * shmem_blocks - 1 (AI Core groups); 0: not a SHMEM launch.
    uint32_t shmem_blocks = 0;
    uint32_t shmem_pe = 0;      // this block's PE
    uint32_t shmem_npes = 0;
    uint32_t shmem_core_gen = 0;  // shmemi_barrier_core_soft rounds this block passed
    uint64_t shmem_state = 0;   // the device-memory state block (ShmemState)
    uint64_t shmem_heap_size = 0;
    uint64_t shmem_base[16] = {};  // heap base of every PE (kShmemMaxPes)
    // Starts the block's vector cores (set by the entry stub for the primary core only).
    void (*spawn_subcores)(void *self, uint32_t ratio) = nullptr;
    void *spawn_self = nullptr;
    bool checks = true;
    bool strict = false;  // warnings are errors (PYASC_SIM_STRICT)
    bool failed = false;
    size_t capacity[kMemKinds] = {};
    uint8_t *mem[kMemKinds] = {};
    Timeline tl;  // per-pipe clocks and, when profiling, the spans (timeline.h): the block's cost
    int32_t flags[kHardEvents][kEventIds] = {};
    SrcLoc flag_loc[kHardEvents][kEventIds];
    bool event_alloc[kHardEvents][kEventIds] = {};
    std::vector<PyascSimGmWrite> writes;  // GM ranges written, with the line that wrote them
    size_t writes_compact_at = 1u << 16;
    struct AllocRange {
        uint64_t base = 0, end = 0;
        bool tensor = false;  // a tensor block of the caching allocator (else an allocation)
    } alloc_cache[4];
    // Initcheck: local sectors written by this block (per memory, 1 bit per 32 bytes; null until
    // the memory is first used) and the runtime's GM shadow (ABI v4; null: no GM initcheck).
    uint8_t *written[kMemKinds] = {};
    // Initcheck: a few byte ranges [lo, hi) of local memory `kind` whose every 32-byte sector is
    // written (bits are only ever set within a block, so a range stays whole): ranges recently marked
    // written, merged when they touch. A read inside one needs no walk over the shadow (state.h,
    // local_known_written); kind -1: an empty slot.
    struct WrittenSpan {
        int kind = -1;
        uint64_t lo = 0, hi = 0;
    } wspan[4];
    unsigned wspan_next = 0;
    // A vector instruction's destination is marked written only after its sources were checked
    // (in place, dst == src, must still see a never-written source): held here until the next
    // access that is not a source of the same instruction.
    int pend_kind = -1;
    uint64_t pend_off = 0, pend_bytes = 0;
    const char *pend_file = nullptr;  // the instruction's source line: a source access of
    unsigned pend_line = 0;           // another line belongs to a later instruction
    // The vector taint (kapi/vector_taint.h): while an elementwise vector instruction checks its
    // operands (vtaint_on), a source with a never-written repeat but some written sector is noted
    // (vtaint_hit) instead of reported; the instruction then leaves the destination lanes computed
    // from never-written source sectors unwritten.
    bool vtaint_on = false, vtaint_hit = false;
    uint8_t *gm_uninit = nullptr;
    uint64_t gm_uninit_base = 0, gm_uninit_span = 0;
    unsigned alloc_next = 0;
    uint64_t mask[2] = {~0ull, ~0ull};  // SetVectorMask state (isSetMask = false)
    VecRegs vregs;  // DEQSCALE, CmpMask, ReduceSum result
    bool mask_counter = false;
    void *pipe_obj = nullptr;  // the live TPipe
    // First deferred error (a leak noticed by a destructor): reported after the kernel returns.
    bool deferred = false;
    char deferred_message[PYASC_SIM_MESSAGE_SIZE] = {};
    // Warnings (checks hardware tolerates), handed to the runtime when the kernel ends.
    std::vector<std::string> warnings;
    // Cross-core state (sync.h, xcore.h): SyncAll calls so far, atomic mode of GM writes.
    uint32_t sync_all_count = 0;
    uint32_t soft_sync_count = 0;
    bool soft_sync_checked = false;
    int atomic_op = 0;       // 0 none, 1 add, 2 max, 3 min
    int atomic_type = 0;     // AtomicElem of the SetAtomic*<T> call
    // hccl_context.h: the context (message area) address of communication domains 0 and 1 on this core
    uint8_t *hccl_context[2] = {};
    RaceState race;          // pipe-race: per-pipe vector clocks and per-sector last accesses (race.h)
    // gm-cross-core-race (xcore.h): on when the runtime reads tagged records (PYASC_SIM_FLAG_XRACE);
    // xseg counts the core's sync events, xmute silences read records (sync workspaces).
    bool xrace = false;
    bool gm_scalar = false;  // the write being recorded is a data-cache store (PYASC_SIM_GM_SCALAR)
    bool gm_dirty = false;   // a data-cache store since the last whole-cache DataCacheCleanAndInvalid
    bool gm_stored = false;  // a data-cache store since the last flush record (cache.h)
    uint64_t gm_flushed_lo = 0, gm_flushed_hi = 0;  // the last flush record's range
    bool xmute = false;
    uint32_t xseg = 0;
    // gm_poll.h: hand-written GM flag polling -- this core's scalar stores not yet written back (release
    // candidates), the lines it invalidated and not yet loaded, the last value it polled per word, the
    // latest poll per word, each the newest kGmPollSlots (PollRing); a raw load to settle at its next GM
    // access; and the DMA side: a small DMA write to GM to publish when it has landed, whether a DMA
    // write to GM since the last fence (PipeBarrier<PIPE_MTE3 / PIPE_ALL>, WaitFlag MTE3_S) is pending,
    // and the segment that fence closed
    struct PollStore {
        uint64_t addr;
        uint32_t n;
        uint64_t seq;
    };
    struct PollSeen {
        uint64_t addr, value;
    };
    struct PollLoad {
        uint64_t addr;
        uint32_t n;
        uint64_t before;  // the word's value just before the load
        const char *file;
        unsigned line;
    };
    struct PollRead {  // the latest poll of a word: its read record, written when the block ends
        uint64_t addr;
        uint32_t n;
        const char *file;
        unsigned line;
        uint32_t tag;
    };
    struct PollDma {  // a DMA write of a flag-sized GM range, published (released) once it has landed
        uint64_t begin, end, seq;
        uint32_t segment;
    };
    PollRing<PollStore> xpub;
    PollRing<uint64_t> xfresh;  // invalidated lines (SINGLE_CACHE_LINE)
    PollRing<uint64_t> xused;   // lines loaded since a whole-cache invalidate (xfresh_all)
    PollRing<PollSeen> xseen;
    PollRing<PollRead> xlast;
    bool xfresh_all = false;
    bool xpoll_pending = false;  // xpoll and / or xdma_flag wait to be settled (poll_settle)
    bool xpoll_load = false;
    PollLoad xpoll = {};
    bool xdma_flag_set = false;
    PollDma xdma_flag = {};
    bool xdma_unfenced = false;  // a DMA write to GM no fence has completed yet
    bool xdma_fenced = false;    // xdma_fence_seg is set
    uint32_t xdma_fence_seg = 0;
    // The same for the scalar unit's flag stores (gm_poll.h, release): a DMA write to GM since the last fence
    // that holds the scalar unit (PipeBarrier<PIPE_ALL>, WaitFlag MTE3_S; not PipeBarrier<PIPE_MTE3>), and
    // the segment that fence closed (set: no acquire since the write)
    bool xdma_s_unfenced = false;
    bool xdma_s_fenced = false;
    uint32_t xdma_s_fence_seg = 0;
    // gm_poll.h, DMA polls: the latest DMA read of each 32-byte block this core read as a possible flag (its
    // read record, written when the block ends or when more than kDmaPollSlots blocks are kept, and the key
    // of the content it saw)
    struct DmaPollRead {
        uint64_t addr, key;
        const char *file;
        unsigned line;
        uint32_t tag;
    };
    std::vector<DmaPollRead> xdma_last;
    // gm_poll_yield.h (checks on or off): the small GM reads this core may be polling (DMA reads of at
    // most kPollMaxBytes, DataCacheCleanAndInvalid of one line) -- where, the hash of what it saw and the
    // core's access epoch then --, the epoch (bumped by every GM access that is not an unchanged re-read),
    // the unchanged re-reads in a row, and the yields in a row that found nothing else able to run
    struct PollSpot {
        uint64_t addr, count, burst, pitch, hash, epoch;
    };
    PollRing<PollSpot> pspot;
    uint64_t pepoch = 0;
    uint64_t pwait_epoch = ~uint64_t{0};  // pepoch at the last poll_wait
    uint32_t pstreak = 0;
    uint32_t phopeless = 0;
    // raw_gm.h: the record its last raw load / store extended, the allocation extent its bounds
    // check last verified, and a window of device memory known to be written (initcheck)
    size_t raw_last[2] = {~size_t{0}, ~size_t{0}};
    uint64_t raw_ok_lo[2] = {}, raw_ok_hi[2] = {};  // per kind (load, store)
    uint64_t raw_init_lo = 0, raw_init_hi = 0, raw_marked_lo = 0, raw_marked_hi = 0;
    // raw_gm.h: the device bytes this block's failing raw stores overwrote (their first values are
    // kept process-wide, raw_gm::saved()); put back when the block ends (~BlockScope), and those of
    // the latest failing stores (raw_pending, [address, address + bytes)) already at the block's next
    // device-memory access, which runs after the store landed (raw_restore_pending)
    std::unordered_set<uint64_t> raw_saved;
    std::vector<std::pair<uint64_t, size_t>> raw_pending;
    bool raw_busy = false;  // inside raw_save (its instrumented callees' hooks must not restore)
    size_t raw_unsaved = 0;  // bytes past the save budget (not restored)
    // gm-foreign-block: the device blocks reachable from the launch's arguments ([base, end)),
    // found on the first GM access that misses the allocation cache (reach_state 1: the blocks the
    // argument blob's words point into; 2: also what the conservative scan of their contents found)
    int reach_state = 0;
    size_t reach_roots = 0;  // reach[0, reach_roots): pointed to by the argument blob itself
    std::vector<std::pair<uint64_t, uint64_t>> reach;

    // Memory of kind k; allocated on first use.
    uint8_t *memory(int k) {
        if (mem[k] == nullptr) {
            Arena &a = thread_arena();
            mem[k] = a.get(k, capacity[k]);
            std::vector<uint8_t> &w = a.written[k];
            w.assign((capacity[k] + 255) / 256, 0);  // nothing written yet by this block
            written[k] = w.data();
        }
        return mem[k];
    }
};

// The device heap (the initcheck shadow's range) as the raw __gm__ access hooks see it (raw_gm.h):
// one range compare tells a device-heap access from any other.  Set by each block of a launch with
// checks on (all set the same values); span 0: no checks.
struct RawGmHeap {
    uint64_t lo = 0, span = 0;
};
inline RawGmHeap raw_gm_heap_range;  // a variable, not a function: the hooks inline nothing instrumented

inline BlockState *&current_block_ptr() {
    thread_local BlockState *p = nullptr;
    return p;
}

// Default capacities (Ascend910B1) when the runtime does not pass the SoC's (ABI v1).
inline void default_capacities(size_t cap[kMemKinds]) {
    cap[kUB] = 192 * 1024;
    cap[kL1] = 512 * 1024;
    cap[kL0A] = 64 * 1024;
    cap[kL0B] = 64 * 1024;
    cap[kL0C] = 128 * 1024;
    cap[kBT] = 1024;
    cap[kFB] = 2048;
}

// The running block.  Outside a launch (e.g. a unit test calling the API directly) a
// per-thread default block with checks on is used.
inline BlockState &blk() {
    BlockState *p = current_block_ptr();
    if (p != nullptr) return *p;
    thread_local BlockState standalone;
    thread_local bool init = false;
    if (!init) {
        default_capacities(standalone.capacity);
        init = true;
    }
    return standalone;
}

inline const char *short_file(const char *f) { return f != nullptr ? f : "?"; }

// "sanitizer check '<check>' failed at <file>:<line>: <detail>" into out.
inline void compose_message(char *out, size_t size, const char *check, const SrcLoc &loc, const char *fmt,
                            va_list ap) {
    int n = std::snprintf(out, size, "sanitizer check '%s' failed at %s:%u: ", check, short_file(loc.file), loc.line);
    if (n < 0) n = 0;
    if (static_cast<size_t>(n) < size) std::vsnprintf(out + n, size - static_cast<size_t>(n), fmt, ap);
}

// The report of a check failed by a block that had already failed one (see vfail), kept for the
// device's crash report.
inline char (&unwind_failure())[1024] {
    thread_local char text[1024] = {};
    return text;
}

// Formats a sanitizer failure into the block's context and aborts the block.  A block that already
// failed keeps its first report: a second failure can only come from a destructor run while the
// first one's KernelAbort unwinds; its throw ends the process through std::terminate, and the device's crash report then names the
// first failure (__pyasc_sim_failed_block, entry.h) rather than only the abort.
[[noreturn]] inline void vfail(const char *check, const SrcLoc &loc, const char *fmt, va_list ap) {
    BlockState &b = blk();
    const bool first = !b.failed || b.ctx == nullptr || b.ctx->status == 0;
    b.failed = true;
    if (b.ctx != nullptr) {
        if (first) {
            b.ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
            compose_message(b.ctx->message, sizeof(b.ctx->message), check, loc, fmt, ap);
        } else {
            compose_message(unwind_failure(), sizeof(unwind_failure()), check, loc, fmt, ap);
        }
    } else {
        char msg[PYASC_SIM_MESSAGE_SIZE];
        compose_message(msg, sizeof(msg), check, loc, fmt, ap);
        std::fprintf(stderr, "pyasc_sim: %s\n", msg);
    }
    throw KernelAbort{};
}

[[noreturn]] inline void fail(const char *check, const SrcLoc &loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
[[noreturn]] inline void fail(const char *check, const SrcLoc &loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(check, loc, fmt, ap);
}

// Records the first error noticed where throwing is not possible (destructors).
inline void defer_failure(const char *check, const SrcLoc &loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
inline void defer_failure(const char *check, const SrcLoc &loc, const char *fmt, ...) {
    BlockState &b = blk();
    if (b.failed || b.deferred) return;
    va_list ap;
    va_start(ap, fmt);
    compose_message(b.deferred_message, sizeof(b.deferred_message), check, loc, fmt, ap);
    va_end(ap);
    b.deferred = true;
}

// "sanitizer warning '<check>' at <file>:<line>: <detail>" into out.
inline void compose_warning(char *out, size_t size, const char *check, const SrcLoc &loc, const char *fmt,
                            va_list ap) {
    int n = std::snprintf(out, size, "sanitizer warning '%s' at %s:%u: ", check, short_file(loc.file), loc.line);
    if (n < 0) n = 0;
    if (static_cast<size_t>(n) < size) std::vsnprintf(out + n, size - static_cast<size_t>(n), fmt, ap);
}

constexpr size_t kMaxWarningsPerBlock = 8;

// A check hardware tolerates (severity "warning"): recorded and reported after the launch while
// the block goes on; with PYASC_SIM_STRICT it is an error.  `deferred` is for callers that cannot
// throw (destructors, end-of-kernel sweeps): a strict failure is then deferred like defer_failure.
inline void vwarn(bool deferred, const char *check, const SrcLoc &loc, const char *fmt, va_list ap) {
    BlockState &b = blk();
    if (b.failed) return;  // the block already failed: its leftovers are no news
    if (b.strict) {
        if (deferred) {
            if (b.failed || b.deferred) return;
            compose_message(b.deferred_message, sizeof(b.deferred_message), check, loc, fmt, ap);
            b.deferred = true;
            return;
        }
        vfail(check, loc, fmt, ap);
    }
    if (b.warnings.size() >= kMaxWarningsPerBlock) return;
    char msg[PYASC_SIM_MESSAGE_SIZE];
    compose_warning(msg, sizeof(msg), check, loc, fmt, ap);
    if (b.ctx == nullptr) std::fprintf(stderr, "pyasc_sim: %s\n", msg);
    b.warnings.emplace_back(msg);
}

inline void warn(const char *check, const SrcLoc &loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
inline void warn(const char *check, const SrcLoc &loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(false, check, loc, fmt, ap);
    va_end(ap);
}

inline void defer_warning(const char *check, const SrcLoc &loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
inline void defer_warning(const char *check, const SrcLoc &loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(true, check, loc, fmt, ap);
    va_end(ap);
}

// ---- cost model ---------------------------------------------------------------------------------
// ---- pipe-race (race.h) ---------------------------------------------------------------------------
// The block's race state, tracking only inside a launch with checks on.  On in every kernel by
// default; a kernel compiled with PYASC_SIM_RACECHECK=0 (-DPYASC_SIM_RACECHECK=0, or #define before
// kernel_operator.h) opts out of this one check and keeps the others.
#ifndef PYASC_SIM_RACECHECK
#define PYASC_SIM_RACECHECK 1
#endif
// The BiSheng compiler's automatic synchronisation (--cce-auto-sync, "enabled in kernel launch projects and
// custom operator projects by default", atlas_bisheng_10_0008): on by default, so the Scalar Unit's pairs with
// MTE2 / MTE3 / V are ordered as the compiler's inserted SetFlag / WaitFlag orders them (race.h, auto_synced).
// A build with it off -- extra_flags=["--cce-auto-sync=off"] (pyasc_sim.build.auto_sync_flags translates it),
// -DPYASC_SIM_AUTO_SYNC=0, or #define PYASC_SIM_AUTO_SYNC 0 before kernel_operator.h -- is checked for the
// pairs the kernel writes itself.
#ifndef PYASC_SIM_AUTO_SYNC
#define PYASC_SIM_AUTO_SYNC 1
#endif
inline RaceState &race(BlockState &b) {
    b.race.on = PYASC_SIM_RACECHECK != 0 && b.checks && b.ctx != nullptr;
    b.race.auto_sync = PYASC_SIM_AUTO_SYNC != 0;
    return b.race;
}
inline RaceState &race() { return race(blk()); }
// What the report says about the compiler's automatic synchronisation: with it off, that a Scalar Unit pair is
// needed because of that; with it on (every pair still reported is one the compiler does not insert), that the
// kernel must write this one.
inline const char *race_auto_sync_note(int pipe, int other_pipe) {
    if (PYASC_SIM_AUTO_SYNC == 0) {
        return RaceState::compiler_synced_pair(pipe, other_pipe)
                   ? ". This pair is needed because the kernel is built with the compiler's automatic synchronisation "
                     "off (--cce-auto-sync=off / PYASC_SIM_AUTO_SYNC=0); with it on (the BiSheng default of kernel "
                     "launch and custom operator projects) the compiler inserts the Scalar Unit's pairs with MTE2 / "
                     "MTE3 / V itself"
                   : "";
    }
    return ". The compiler's automatic synchronisation (--cce-auto-sync, on in this build) inserts only the Scalar "
           "Unit's pairs with MTE2 / MTE3 / V, not this one: the kernel has to order it";
}
// The conflict the last commit found (out of line: off the path of every checked instruction).
[[noreturn]] __attribute__((noinline, cold)) inline void race_report(BlockState &b) {
    const RaceState::Conflict &c = b.race.conflict;
    const SrcLoc at(b.race.pend_file, b.race.pend_line);
    fail("pipe-race", at,
         "%s between pipes: this %s instruction %s %s bytes [%llu, %llu) (32-byte sector at offset %llu), which the %s "
         "instruction at %s:%u %s with nothing ordering the two pipes; on hardware they run concurrently. Add "
         "SetFlag<HardEvent::%s_%s>(id) after the first and WaitFlag<HardEvent::%s_%s>(id) before the second%s%s",
         c.kind_name, race_pipe_name(c.pipe), std::strncmp(c.kind_name, "read", 4) == 0 ? "reads" : "writes",
         mem_name(c.mem), static_cast<unsigned long long>(c.off), static_cast<unsigned long long>(c.off + c.bytes),
         static_cast<unsigned long long>(c.sector * 32), race_pipe_name(c.other_pipe), short_file(c.other_file),
         c.other_line, std::strcmp(c.kind_name, "write-after-read") == 0 ? "reads" : "wrote",
         race_pipe_name(c.other_pipe), race_pipe_name(c.pipe), race_pipe_name(c.other_pipe), race_pipe_name(c.pipe),
         // a TQue orders the producer pipe's work, not a scalar store (EnQue is the producer pipe's SetFlag: the
         // SetFlag/WaitFlag page's SetValue-then-DataCopy example needs its own PIPE_S -> PIPE_MTE3 pair), nor the
         // Scalar Unit's later accesses (DeQue is the consumer pipe's WaitFlag)
         c.other_pipe == 0 && std::strcmp(c.kind_name, "write-after-read") != 0
             ? " (a TQue would not order it either: EnQue / DeQue is the producer pipe's flag, not the Scalar Unit's, so a "
               "SetValue before EnQue needs this pair too)"
         : c.pipe == 0
             ? " (a TQue would not order it either: DeQue is a WaitFlag of the consumer pipe -- MTE2 -> V for VECIN, V -> MTE3 "
               "for VECOUT -- which does not stall the Scalar Unit, so a GetValue / SetValue after DeQue needs this "
               "pair too)"
             : " (or move the buffer through a TQue)",
         race_auto_sync_note(c.pipe, c.other_pipe));
}
// The pending instruction's local accesses run on pipe p: a conflict is an error.
inline void race_commit(BlockState &b, Pipe p) {
    if (b.race.commit(static_cast<int>(p), b.capacity)) race_report(b);
}
// Lines of the next GM tile prefetched per charged instruction (gm_copy.h, gm_load_tile).
constexpr uintptr_t kPrefetchLinesPerInstr = 32;
// Prefetches (into L2) the next `bytes` of the pending tile (default kPrefetchLinesPerInstr lines; fewer
// where the tile ends). A prefetch changes no value and never faults.
inline void prefetch_pending(BlockState &b, uintptr_t bytes = 64 * kPrefetchLinesPerInstr) {
    uintptr_t at = b.pf_next;
    const uintptr_t end = at + bytes < b.pf_end ? at + bytes : b.pf_end;
    for (; at < end; at += 64) __builtin_prefetch(reinterpret_cast<const void *>(at), 0, 2);
    b.pf_next = end;
}
// Bytes of input per step of fed_run: after each step, as many lines of the pending tile as the step read
// are prefetched (8 lines per 512 bytes; measured best of 128-2048 bytes per step with the lines scaled alike).
constexpr int64_t kFeedStepBytes = 512;
// run(offset, count) over [0, n) elements of in_bytes each: one call when no tile is pending (or n is short),
// else in steps of kFeedStepBytes of input, each followed by the prefetch of as many lines of the pending
// tile: the next tile streams in at the rate this instruction consumes its operand, while it computes, with
// never more than a few misses in flight (a burst of a tile's lines at once fills the core's miss buffers and
// stalls the instruction: kPrefetchLinesPerInstr). For elementwise work whose result does not depend on how
// it is split (each element computed alone; dst and src the same or apart).
template <class Run>
inline void fed_run(BlockState &b, int64_t n, int64_t in_bytes, Run &&run) {
    const int64_t step = kFeedStepBytes / in_bytes;
    if (b.pf_next >= b.pf_end || n <= 2 * step) {
        run(0, n);
        return;
    }
    for (int64_t i = 0; i < n; i += step) {
        run(i, n - i < step ? n - i : step);
        prefetch_pending(b, kFeedStepBytes);
    }
}
// An instruction of `cycles` on pipe p: runs from the pipe's clock (timeline.h).
inline void charge(BlockState &b, Pipe p, double cycles) {
    if (b.pf_drip && b.pf_next < b.pf_end) prefetch_pending(b);
    b.tl.run(p, cycles);
    if (!b.race.pending.empty()) race_commit(b, p);
}
inline void charge(Pipe p, double cycles) { charge(blk(), p, cycles); }
// Synchronisation with no pipe of its own (cross-core waits): every pipe lines up, then pays it.
inline void charge_sync(double cycles, const SrcLoc &loc = SrcLoc(nullptr, 0)) {
    blk().tl.barrier_all(cycles, loc.file, loc.line);
}
// Where the instruction about to be charged was called (its operand checks): its spans' source.
inline void timeline_loc(BlockState &b, const SrcLoc &loc) {
    if (!kTimelineSpans) return;
    b.tl.loc_file = loc.file;
    b.tl.loc_line = loc.line;
}
inline void timeline_loc(const SrcLoc &loc) {
    if (kTimelineSpans) timeline_loc(blk(), loc);
}
inline double dma_cycles(size_t bytes, size_t bursts) {
    if (kTimelineSpans) blk().tl.bytes += bytes;  // the DMA charged next moves them (profiler's bytes moved)
    return cost::kDmaIssueCycles + cost::kDmaBurstCycles * static_cast<double>(bursts) +
           static_cast<double>(bytes) / cost::kGmBytesPerCycle;
}
inline double vector_cycles(double repeats, double factor = 1.0) {
    uses_vector_unit();  // every vector compute instruction charges through here (core_usage.h)
    return cost::kVectorIssueCycles + repeats * cost::kVectorRepeatCycles * factor;
}
// The block's simulated time: startup plus the makespan of its scheduled timeline.
inline double block_cycles(const BlockState &b) { return cost::kBlockStartupCycles + b.tl.makespan(); }

// ---- global memory checks -----------------------------------------------------------------------
inline bool same_site(const PyascSimGmWrite &a, const PyascSimGmWrite &b) {
    return a.line == b.line && a.file == b.file && a.reserved == b.reserved;
}

// Compacts the recorded write ranges: sorts them by source line, then address, and merges the
// overlapping or adjacent ranges of one line (a loop writing tile after tile becomes one range).
// The records are ordered through an index permutation: sorting the C ABI structs themselves would swap them with
// an unqualified swap() that finds, by argument-dependent lookup in the global namespace, a kernel's own global
// `template <class T> void swap(T &, T &)` (public SIMT code declares one) and is ambiguous.
inline void compact_writes(std::vector<PyascSimGmWrite> &w) {
    if (w.empty()) return;
    std::vector<uint32_t> order(w.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
    std::sort(order.begin(), order.end(), [&w](uint32_t ia, uint32_t ib) {
        const PyascSimGmWrite &a = w[ia], &b = w[ib];
        if (a.file != b.file) return std::less<const char *>()(a.file, b.file);
        if (a.line != b.line) return a.line < b.line;
        if (a.reserved != b.reserved) return a.reserved < b.reserved;
        if (a.begin != b.begin) return a.begin < b.begin;
        return ia < ib;
    });
    {
        std::vector<PyascSimGmWrite> sorted;
        sorted.reserve(w.size());
        for (uint32_t i : order) sorted.push_back(w[i]);
        w.swap(sorted);
    }
    size_t out = 0;
    for (size_t i = 1; i < w.size(); ++i) {
        if (same_site(w[i], w[out]) && w[i].begin <= w[out].end) {
            w[out].end = std::max(w[out].end, w[i].end);
        } else {
            w[++out] = w[i];
        }
    }
    w.resize(out + 1);
}

inline void gm_mark_written(uint64_t begin, uint64_t end);

// The core wrote GM (a DMA copy, a scalar store): what it re-reads next is not a poll of unchanged bytes
// (gm_poll_yield.h).
inline void poll_gm_written(BlockState &b) {
    ++b.pepoch;
    b.pstreak = 0;
}

// The tag of a GM record of block state b (PYASC_SIM_GM_*: kind, core, segment); 0 without xrace.
inline uint32_t gm_tag(const BlockState &b, uint32_t kind) {
    if (!b.xrace) return 0;
    const uint32_t core = b.mixed && b.core_kind != 1 ? 1u + b.sub_idx : 0u;  // 1: kCoreAIC
    return kind | ((core & PYASC_SIM_GM_CORE_MASK) << PYASC_SIM_GM_CORE_SHIFT) |
           std::min<uint32_t>(b.xseg, PYASC_SIM_GM_SEGMENT_MASK);
}

inline void record_site(BlockState &b, uint64_t begin, uint64_t end, const SrcLoc &loc, uint32_t tag);
inline void poll_settle(BlockState &b);  // gm_poll.h
inline void gm_poll_dma_write(BlockState &b, uint64_t begin, uint64_t end, const SrcLoc &loc, uint32_t kind);

// Records that the instruction at `loc` read global memory [begin, end) (gm-cross-core-race).
inline void record_read(uint64_t begin, uint64_t end, const SrcLoc &loc) {
    BlockState &b = blk();
    if (!b.xrace || b.xmute || end <= begin) return;
    record_site(b, begin, end, loc, gm_tag(b, PYASC_SIM_GM_READ));
}

// Records that the instruction at `loc` wrote global memory [begin, end) (and, for initcheck,
// that those bytes now hold data); `dma`: a DMA copy to GM (DataCopy / DataCopyPad), not a scalar store.
inline void record_write(uint64_t begin, uint64_t end, const SrcLoc &loc, bool dma = false) {
    BlockState &b = blk();
    if (!b.checks || end <= begin) return;
    gm_mark_written(begin, end);
    // atomic writes (SetAtomicAdd/Max/Min) of several blocks to the same bytes do not race; they
    // do with plain reads and writes of other blocks (recorded as atomic for gm-cross-core-race)
    if (b.atomic_op != 0 && !b.xrace) return;
    const uint32_t kind = b.atomic_op != 0 ? PYASC_SIM_GM_ATOMIC : (b.gm_scalar ? PYASC_SIM_GM_SCALAR : 0u);
    b.gm_dirty = b.gm_dirty || b.gm_scalar;
    b.gm_stored = b.gm_stored || b.gm_scalar;
    if (dma && kind == 0 && b.xrace) {
        gm_poll_dma_write(b, begin, end, loc, kind);  // a flag a poller may observe (gm_poll.h)
        return;
    }
    record_site(b, begin, end, loc, gm_tag(b, kind));
}

inline void record_site(BlockState &b, uint64_t begin, uint64_t end, const SrcLoc &loc, uint32_t tag) {
    if (__builtin_expect(b.xpoll_pending, 0)) {  // a polled raw load before this access: its acquire first
        poll_settle(b);
        tag = (tag & ~PYASC_SIM_GM_SEGMENT_MASK) | std::min<uint32_t>(b.xseg, PYASC_SIM_GM_SEGMENT_MASK);
    }
    std::vector<PyascSimGmWrite> &w = b.writes;
    const PyascSimGmWrite site{begin, end, loc.file, loc.line, tag};
    if (!w.empty() && w.back().end == begin && same_site(w.back(), site)) {
        w.back().end = end;
        return;
    }
    w.push_back(site);
    if (w.size() >= b.writes_compact_at) {
        compact_writes(w);
        if (w.size() * 2 > b.writes_compact_at) b.writes_compact_at *= 2;
    }
}

// ---- initcheck ------------------------------------------------------------------------------------
// Device memory: the runtime's shadow (ABI v4) has a bit per 32-byte sector, set while nothing
// wrote the sector since its caching-allocator block was handed out.  Writes clear the bits of
// every sector they touch (a partial write counts: no false positives at sector edges).
inline void gm_mark_written(uint64_t begin, uint64_t end) {
    BlockState &b = blk();
    if (b.gm_uninit == nullptr || begin < b.gm_uninit_base || end > b.gm_uninit_base + b.gm_uninit_span) return;
    const uint64_t first = (begin - b.gm_uninit_base) / 32, last = (end - b.gm_uninit_base + 31) / 32;
    if (first < last && reinterpret_cast<uintptr_t>(b.gm_uninit) % 8 == 0) {
        // a shadow word (64 sectors) at a time, the first and last under a mask: one load per word,
        // and an atomic only where a bit is still set (a write into fresh memory at any alignment)
        uint64_t *words = reinterpret_cast<uint64_t *>(b.gm_uninit);
        for (uint64_t w = first / 64; w <= (last - 1) / 64; ++w) {
            const uint64_t lo = w == first / 64 ? first % 64 : 0, hi = w == (last - 1) / 64 ? (last - 1) % 64 : 63;
            const uint64_t mask = (~uint64_t{0} >> (63 - hi)) & (~uint64_t{0} << lo);
            if ((__atomic_load_n(words + w, __ATOMIC_RELAXED) & mask) != 0) {
                __atomic_fetch_and(words + w, ~mask, __ATOMIC_RELAXED);
            }
        }
        return;
    }
    for (uint64_t s = first; s < last;) {
        if (s % 64 == 0 && s + 64 <= last && reinterpret_cast<uintptr_t>(b.gm_uninit) % 8 == 0) {  // one shadow word
            uint64_t *word = reinterpret_cast<uint64_t *>(b.gm_uninit + s / 8);
            if (__atomic_load_n(word, __ATOMIC_RELAXED) != 0) __atomic_store_n(word, uint64_t{0}, __ATOMIC_RELAXED);
            s += 64;
            continue;
        }
        uint8_t *byte = b.gm_uninit + s / 8;
        const uint64_t stop = std::min<uint64_t>(last, (s / 8 + 1) * 8);
        uint8_t bits = 0;
        for (uint64_t k = s; k < stop; ++k) bits = static_cast<uint8_t>(bits | (1u << (k % 8)));
        if ((__atomic_load_n(byte, __ATOMIC_RELAXED) & bits) != 0) {
            __atomic_fetch_and(byte, static_cast<uint8_t>(~bits), __ATOMIC_RELAXED);
        }
        s = stop;
    }
}

// The first never-written byte address in [begin, end) of device memory, or 0.
inline uint64_t gm_first_uninit(uint64_t begin, uint64_t end) {
    BlockState &b = blk();
    if (b.gm_uninit == nullptr || begin < b.gm_uninit_base || end > b.gm_uninit_base + b.gm_uninit_span) return 0;
    const uint64_t first = (begin - b.gm_uninit_base) / 32, last = (end - b.gm_uninit_base + 31) / 32;
    for (uint64_t s = first; s < last; ++s) {
        if (s % 64 == 0 && s + 64 <= last && reinterpret_cast<uintptr_t>(b.gm_uninit) % 8 == 0 &&
            __atomic_load_n(reinterpret_cast<const uint64_t *>(b.gm_uninit + s / 8), __ATOMIC_RELAXED) == 0) {
            s += 63;
            continue;
        }
        if (s % 8 == 0 && s + 8 <= last && __atomic_load_n(b.gm_uninit + s / 8, __ATOMIC_RELAXED) == 0) {
            s += 7;
            continue;
        }
        if ((__atomic_load_n(b.gm_uninit + s / 8, __ATOMIC_RELAXED) >> (s % 8)) & 1u) {
            return std::max<uint64_t>(begin, b.gm_uninit_base + s * 32);
        }
    }
    return 0;
}

// Whether every sector of [offset, offset + bytes) of memory `kind` is known written (BlockState::wspan).
inline bool local_known_written(const BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    for (const BlockState::WrittenSpan &r : b.wspan) {
        if (r.kind == kind && offset >= r.lo && offset + bytes <= r.hi) return true;
    }
    return false;
}
// Notes sectors [s0, s1) of memory `kind` (just marked written) in BlockState::wspan: merged into a
// range they touch or overlap, else in the next slot round robin.
inline void local_note_written_span(BlockState &b, int kind, uint64_t s0, uint64_t s1) {
    const uint64_t lo = s0 * 32, hi = s1 * 32;
    for (BlockState::WrittenSpan &r : b.wspan) {
        if (r.kind == kind && lo <= r.hi && r.lo <= hi) {
            r.lo = std::min(r.lo, lo);
            r.hi = std::max(r.hi, hi);
            return;
        }
    }
    BlockState::WrittenSpan &r = b.wspan[b.wspan_next++ % 4];
    r.kind = kind;
    r.lo = lo;
    r.hi = hi;
}

// Local memory: each block starts with nothing written; an instruction's writes set the bits of
// the sectors they touch, a read of a sector no instruction of this kernel wrote is an error.
inline void local_mark_written(BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    if (kind < 0 || b.written[kind] == nullptr || bytes == 0) return;
    if (local_known_written(b, kind, offset, bytes)) return;  // its bits are set already (a buffer written again)
    const uint64_t last = std::min<uint64_t>((offset + bytes + 31) / 32, (b.capacity[kind] + 31) / 32);
    if (offset / 32 < last) local_note_written_span(b, kind, offset / 32, last);
    uint8_t *w = b.written[kind];
    uint64_t s = offset / 32;
    for (; s < last && s % 8 != 0; ++s) w[s / 8] = static_cast<uint8_t>(w[s / 8] | (1u << (s % 8)));
    if (last - std::min(s, last) >= 8) {  // whole shadow bytes at once
        const uint64_t whole = (last - s) / 8;
        std::memset(w + s / 8, 0xff, whole);
        s += whole * 8;
    }
    for (; s < last; ++s) w[s / 8] = static_cast<uint8_t>(w[s / 8] | (1u << (s % 8)));
}
inline void local_mark_written(int kind, uint64_t offset, uint64_t bytes) {
    local_mark_written(blk(), kind, offset, bytes);
}
// Marks the whole 32-byte sectors of [offset, offset + bytes) of memory `kind` unwritten again (the
// taint of the cube and vector paths: data computed from never-written data), and forgets the
// known-written spans (BlockState::wspan) that overlap them.
inline void local_mark_unwritten(BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    if (kind < 0 || b.written[kind] == nullptr || bytes == 0) return;
    const uint64_t first = (offset + 31) / 32;
    const uint64_t last = std::min<uint64_t>((offset + bytes) / 32, (b.capacity[kind] + 31) / 32);
    if (first >= last) return;
    for (BlockState::WrittenSpan &r : b.wspan) {
        if (r.kind == kind && first * 32 < r.hi && r.lo < last * 32) r.kind = -1;
    }
    uint8_t *w = b.written[kind];
    for (uint64_t s = first; s < last; ++s) w[s / 8] = static_cast<uint8_t>(w[s / 8] & ~(1u << (s % 8)));
}
// Whether the 32-byte sector holding byte `offset` of memory `kind` was written (true when
// unchecked or past the memory: bounds checks report that).
inline bool local_sector_written(const BlockState &b, int kind, uint64_t offset) {
    if (kind < 0 || b.written[kind] == nullptr || offset >= b.capacity[kind]) return true;
    const uint64_t s = offset / 32;
    return ((b.written[kind][s / 8] >> (s % 8)) & 1u) != 0;
}

inline void local_flush_pending(BlockState &b) {
    if (b.pend_kind < 0) return;
    const int k = b.pend_kind;
    b.pend_kind = -1;
    local_mark_written(b, k, b.pend_off, b.pend_bytes);
}
inline void local_flush_pending() { local_flush_pending(blk()); }

inline void local_defer_written(BlockState &b, int kind, uint64_t offset, uint64_t bytes, const SrcLoc &loc) {
    local_flush_pending(b);
    b.pend_kind = kind;
    b.pend_off = offset;
    b.pend_bytes = bytes;
    b.pend_file = loc.file;
    b.pend_line = loc.line;
}
inline void local_defer_written(int kind, uint64_t offset, uint64_t bytes, const SrcLoc &loc) {
    local_defer_written(blk(), kind, offset, bytes, loc);
}

// A vector source access: the pending destination belongs to an earlier instruction unless it
// was checked at the same source line.
inline void local_flush_pending_before_source(BlockState &b, const SrcLoc &loc) {
    if (b.pend_kind >= 0 && (b.pend_line != loc.line || b.pend_file != loc.file)) local_flush_pending(b);
}
inline void local_flush_pending_before_source(const SrcLoc &loc) { local_flush_pending_before_source(blk(), loc); }

// The first byte offset of a read at [offset, offset + bytes) whose 32-byte sector no instruction
// of this kernel wrote, else -1.  Every sector the read touches counts (callers pass only what an
// instruction reads: exact counts, per-burst / per-block parts of strided reads); whole shadow
// bytes (8 sectors, 256 bytes) are tested at once.
inline int64_t local_first_unwritten(const BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    if (kind < 0 || b.written[kind] == nullptr || bytes == 0 || b.ctx == nullptr) return -1;
    if (local_known_written(b, kind, offset, bytes)) return -1;
    const uint8_t *w = b.written[kind];
    const uint64_t last = std::min<uint64_t>((offset + bytes + 31) / 32, (b.capacity[kind] + 31) / 32);
    for (uint64_t s = offset / 32; s < last;) {
        if (s % 8 == 0 && s + 8 <= last && w[s / 8] == 0xff) {
            s += 8;
            continue;
        }
        if (((w[s / 8] >> (s % 8)) & 1u) == 0) return static_cast<int64_t>(std::max<uint64_t>(offset, s * 32));
        ++s;
    }
    return -1;
}
inline int64_t local_first_unwritten(int kind, uint64_t offset, uint64_t bytes) {
    return local_first_unwritten(blk(), kind, offset, bytes);
}

// Initcheck of a vector-pipe read of [offset, offset + bytes) (vector instructions, local -> local
// DataCopy): its first 32-byte sector, and some sector of each 256-byte repeat from the read's
// start, must have been written (reading whole repeats past the data and ignoring those lanes is
// a documented idiom: a count form that must cover whole repeats, a full mask over a partly
// filled repeat).  Returns the first offending byte offset (the read's start, or the start of a
// repeat with no written sector), else -1.  One pass over the shadow, 8 sectors per load.
inline int64_t local_vec_first_unwritten(const BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    if (kind < 0 || b.written[kind] == nullptr || bytes == 0 || b.ctx == nullptr) return -1;
    if (local_known_written(b, kind, offset, bytes)) return -1;  // every sector written: nothing to find
    const uint8_t *w = b.written[kind];
    const uint64_t nsec = (b.capacity[kind] + 31) / 32;
    const uint64_t nbytes = (nsec + 7) / 8;  // shadow bytes holding sectors (the shadow has at least these)
    const uint64_t first = offset / 32;
    if (first < nsec && ((w[first / 8] >> (first % 8)) & 1u) == 0) return static_cast<int64_t>(offset);
    const uint64_t end = offset + bytes;
    uint64_t a = offset;
    if (offset % 32 == 0) {  // each repeat is 8 whole sectors: one shadow byte once the bits are shifted
        const unsigned sh = static_cast<unsigned>(first % 8);
        // 8 repeats at a time: the 64 shadow bits from sector a / 32 on, one byte per repeat
        while (a + 8 * 256 <= end && a / 32 + 64 <= nsec && a / 256 + 16 <= nbytes) {
            uint64_t x, y;
            std::memcpy(&x, w + a / 256, 8);
            std::memcpy(&y, w + a / 256 + 8, 8);
            const uint64_t v = sh == 0 ? x : (x >> sh) | (y << (64 - sh));
            if (((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull) != 0) break;  // a zero byte: found below
            a += 8 * 256;
        }
    }
    for (; a < end; a += 256) {
        const uint64_t s0 = a / 32, s1 = std::min<uint64_t>((std::min<uint64_t>(a + 256, end) + 31) / 32, nsec);
        if (s0 >= s1) break;  // past the memory: bounds checks report it
        const uint64_t i = s0 / 8;
        uint32_t bits = w[i];
        if (i + 1 < nbytes) bits |= static_cast<uint32_t>(w[i + 1]) << 8;
        bits = (bits >> (s0 % 8)) & ((1u << (s1 - s0)) - 1u);  // s1 - s0 <= 9 sectors
        if (bits == 0) return static_cast<int64_t>(a);
    }
    return -1;
}

// Whether some 32-byte sector of [offset, offset + bytes) was written by this kernel (true when
// there is nothing to check).
inline bool local_any_written(const BlockState &b, int kind, uint64_t offset, uint64_t bytes) {
    if (kind < 0 || b.written[kind] == nullptr || bytes == 0 || b.ctx == nullptr) return true;
    const uint8_t *w = b.written[kind];
    const uint64_t last = std::min<uint64_t>((offset + bytes + 31) / 32, (b.capacity[kind] + 31) / 32);
    if (offset / 32 >= last) return true;
    for (uint64_t s = offset / 32; s < last; ++s) {
        if ((w[s / 8] >> (s % 8)) & 1u) return true;
    }
    return false;
}
inline bool local_any_written(int kind, uint64_t offset, uint64_t bytes) {
    return local_any_written(blk(), kind, offset, bytes);
}

// ---- gm-foreign-block: which device blocks a launch may touch ----------------------------------
// A kernel may touch the device blocks (caching-allocator tensor blocks, else allocations) that an
// 8-byte word of its argument blob points into (its GM arguments, workspace, addresses inside
// tiling structs passed by value), and, as a conservative garbage collector finds them, the blocks
// that an 8-byte-aligned word stored in a reachable block points into (tensor lists /
// ListTensorDesc tables, tiling data in GM carrying addresses): the first kReachScanBlock bytes of
// each block, kReachScanTotal bytes in all per core.  A launch without an argument blob is not
// checked (every launch path packs one: a CPU-debug ICPU_RUN_KF too, cpu_debug_cores.h pack_args).
constexpr uint64_t kReachScanBlock = 64u << 10;
constexpr uint64_t kReachScanTotal = 4u << 20;
constexpr size_t kReachArgScan = 64u << 10;  // bytes of the argument blob read for addresses

#if defined(__SANITIZE_THREAD__)
#define PYASC_SIM_REACH_NOSAN __attribute__((no_sanitize_thread, noinline))
#else
#define PYASC_SIM_REACH_NOSAN
#endif

PYASC_SIM_REACH_NOSAN inline bool reach_has(const BlockState &b, uint64_t a) {
    for (const auto &r : b.reach) {
        if (a >= r.first && a < r.second) return true;
    }
    return false;
}

// Adds the block that word w points into (when it is a live one).
PYASC_SIM_REACH_NOSAN inline void reach_word(BlockState &b, uint64_t w) {
    if (w == 0) return;
    if (b.gm_uninit_span != 0 && w - b.gm_uninit_base >= b.gm_uninit_span) return;  // not the device heap
    if (reach_has(b, w)) return;
    uint64_t base = 0, size = 0;
    if (b.ctx->gm_query(b.ctx->runtime_user, reinterpret_cast<const void *>(w), &base, &size, nullptr, 0) != 0 &&
        size != 0) {
        b.reach.emplace_back(base, base + size);
    }
}

// Whether the live block [base, end) is reachable from the launch's arguments (see above).
PYASC_SIM_REACH_NOSAN inline bool gm_reachable(BlockState &b, uint64_t base) {
    const PyascSimBlockContext *c = b.ctx;
    if (c->args == nullptr || c->args_size == 0) return true;
    if (b.reach_state == 0) {
        b.reach_state = 1;
        const unsigned char *blob = static_cast<const unsigned char *>(c->args);
        for (size_t off = 0; off + 8 <= c->args_size && off < kReachArgScan; off += 4) {  // 4: packed structs too
            uint64_t w;
            std::memcpy(&w, blob + off, 8);
            reach_word(b, w);
        }
        b.reach_roots = b.reach.size();
    }
    if (reach_has(b, base)) return true;
    if (b.reach_state == 1) {
        b.reach_state = 2;
        uint64_t budget = kReachScanTotal;
        for (size_t i = 0; i < b.reach.size() && budget >= 8; ++i) {
            const uint64_t lo = (b.reach[i].first + 7) & ~uint64_t{7};
            const uint64_t hi = std::min<uint64_t>(b.reach[i].second, lo + std::min(kReachScanBlock, budget));
            for (uint64_t a = lo; a + 8 <= hi; a += 8) {
                uint64_t w;
                std::memcpy(&w, reinterpret_cast<const void *>(a), 8);
                reach_word(b, w);
            }
            budget -= hi > lo ? hi - lo : 0;
        }
        if (reach_has(b, base)) return true;
    }
    return false;
}

// ---- raw stores that failed a check: their target bytes are put back ---------------------------
// A raw __gm__ store's hook runs before the store and cannot stop it (raw_gm.h), so a store that
// fails an address check first saves the bytes it is about to overwrite.  The first value of each
// byte is kept process-wide with a count of the cores that saved it (several blocks of a launch
// may run the same wrong store, in any interleaving); each core puts back the bytes it saved when
// it ends (~BlockScope), before the runtime sees the block end, and the last one drops the entry.
constexpr size_t kRawSaveCap = 4u << 20;  // bytes saved at once in the process

struct RawSaved {
    std::mutex mu;
    std::unordered_map<uint64_t, std::pair<uint8_t, uint32_t>> bytes;  // address -> first value, cores
};
inline RawSaved &raw_saved_bytes() {
    static RawSaved s;
    return s;
}

// Saves [a, a + n) (device memory about to be overwritten by a failing raw store) for b.
PYASC_SIM_REACH_NOSAN inline void raw_save(BlockState &b, uint64_t a, size_t n) {
    RawSaved &s = raw_saved_bytes();
    b.raw_busy = true;  // the map's instrumented code reads the device byte through a hook
    std::lock_guard<std::mutex> lock(s.mu);
    if (b.raw_pending.size() < 64) b.raw_pending.emplace_back(a, n);  // else the block end puts them back
    for (uint64_t x = a; x < a + n; ++x) {
        if (b.raw_saved.count(x) != 0) continue;
        auto it = s.bytes.find(x);
        if (it == s.bytes.end()) {
            if (s.bytes.size() >= kRawSaveCap) {
                ++b.raw_unsaved;
                continue;
            }
            it = s.bytes.emplace(x, std::make_pair(*reinterpret_cast<const volatile uint8_t *>(x), 0u)).first;
        }
        ++it->second.second;
        b.raw_saved.insert(x);
    }
    b.raw_busy = false;
}

// Puts back the first values of the bytes b's latest failing raw stores overwrote (raw_pending),
// keeping them saved: called at the block's next device-memory access (raw_gm.h), after those stores
// landed, so the wrong bytes are visible only between the store and the block's next GM access, not
// until the block ends.  A byte another core's failing store also saved gets the same first value.
PYASC_SIM_REACH_NOSAN inline void raw_restore_pending(BlockState &b) {
    {
        RawSaved &s = raw_saved_bytes();
        std::lock_guard<std::mutex> lock(s.mu);
        for (const auto &r : b.raw_pending) {
            for (uint64_t x = r.first; x < r.first + r.second; ++x) {
                auto it = s.bytes.find(x);
                if (it != s.bytes.end()) *reinterpret_cast<volatile uint8_t *>(x) = it->second.first;
            }
        }
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    b.raw_pending.clear();
}

// Puts back the bytes b's failing raw stores overwrote (the block ends).
PYASC_SIM_REACH_NOSAN inline void raw_restore(BlockState &b) {
    b.raw_pending.clear();
    if (b.raw_saved.empty() && b.raw_unsaved == 0) return;
    {
        RawSaved &s = raw_saved_bytes();
        std::lock_guard<std::mutex> lock(s.mu);
        for (uint64_t x : b.raw_saved) {
            auto it = s.bytes.find(x);
            if (it == s.bytes.end()) continue;
            *reinterpret_cast<volatile uint8_t *>(x) = it->second.first;
            if (--it->second.second == 0) s.bytes.erase(it);
        }
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (b.raw_unsaved != 0 && b.ctx != nullptr && b.ctx->status != 0) {
        const size_t len = std::strlen(b.ctx->message);
        std::snprintf(b.ctx->message + len, sizeof(b.ctx->message) - len,
                      " (%zu overwritten bytes past the %zu-byte restore budget were not put back)", b.raw_unsaved,
                      kRawSaveCap);
    }
    b.raw_saved.clear();
    b.raw_unsaved = 0;
}

// "[0x.., 0x..), ..." of the blocks the argument blob points into, for messages.
inline std::string reach_roots_text(const BlockState &b) {
    if (b.reach_roots == 0) return "no device block";
    std::string out;
    char buf[64];
    for (size_t i = 0; i < b.reach_roots && i < 8; ++i) {
        std::snprintf(buf, sizeof(buf), "%s[0x%llx, 0x%llx)", i ? ", " : "",
                      static_cast<unsigned long long>(b.reach[i].first),
                      static_cast<unsigned long long>(b.reach[i].second));
        out += buf;
    }
    if (b.reach_roots > 8) out += ", ...";
    return out;
}

// Where cached_alloc found the live memory block holding an address.
enum class AllocFound { kNone, kCached, kQueried };

// The live tensor block (or else device allocation) holding global address `o`: from the block's
// alloc_cache, else from the runtime (ABI v2 gm_query; `why` gets its reason when it finds none).  `r` is
// the range found (r.tensor: a tensor block).  The caller caches a queried range (check_gm_alloc does,
// once the access is checked).  The one lookup of check_gm_alloc and gm_block_of.
inline AllocFound cached_alloc(BlockState &b, uint64_t o, BlockState::AllocRange &r, char *why, size_t why_size) {
    for (const BlockState::AllocRange &c : b.alloc_cache) {
        if (o >= c.base && o < c.end) {
            r = c;
            return AllocFound::kCached;
        }
    }
    uint64_t base = 0, size = 0;
    why[0] = '\0';
    const int found = b.ctx->gm_query(b.ctx->runtime_user, reinterpret_cast<const void *>(o), &base, &size, why,
                                      why_size);
    if (!found) return AllocFound::kNone;
    r = {base, base + size, found == PYASC_SIM_GM_TENSOR};
    return AllocFound::kQueried;
}

// The live tensor block (or else device allocation) that `origin` points into, without failing:
// false when the runtime cannot say (ABI v1, no gm_query) or `origin` is in none.  Used to explain a
// GlobalTensor access past its declared size that still stays inside the memory it points into
// (the NPU does not check a GlobalTensor's size, so such an access lands where the kernel meant).
inline bool gm_block_of(const void *origin, uint64_t &base, uint64_t &end) {
    BlockState &b = blk();
    if (origin == nullptr || b.ctx == nullptr || b.ctx->abi_version < 2 || b.ctx->gm_query == nullptr) return false;
    BlockState::AllocRange r;
    char why[256];
    if (cached_alloc(b, reinterpret_cast<uintptr_t>(origin), r, why, sizeof(why)) == AllocFound::kNone) return false;
    base = r.base;
    end = r.end;
    return true;
}

// Checks that [p, p + n) lies inside what the runtime let the kernel touch (ABI v2 runtimes
// only): the tensor block (or else the allocation) that `origin` — the address the GlobalTensor
// was set to — points into, so an access past a tensor never lands in its neighbour.  Nothing
// is written before this check passes.
inline void check_gm_alloc(const void *p, size_t n, const char *what, const SrcLoc &loc,
                           const void *origin = nullptr) {
    BlockState &b = blk();
    if (!b.checks || n == 0 || b.ctx == nullptr || b.ctx->abi_version < 2 || b.ctx->gm_query == nullptr) return;
    const uint64_t a = reinterpret_cast<uintptr_t>(p);
    const uint64_t o = origin != nullptr ? reinterpret_cast<uintptr_t>(origin) : a;
    BlockState::AllocRange r;
    char why[256];  // (cached_alloc fills it in on a miss only: no 256-byte clear per access)
    const AllocFound found = cached_alloc(b, o, r, why, sizeof(why));
    if (found == AllocFound::kNone) {
        const size_t prefix = std::strlen(PYASC_SIM_WHY_USE_AFTER_FREE);
        if (std::strncmp(why, PYASC_SIM_WHY_USE_AFTER_FREE, prefix) == 0) {
            if (origin == nullptr) {
                fail("gm-use-after-free", loc, "%s %zu bytes at global address %p: %s", what, n, p, why + prefix);
            }
            fail("gm-use-after-free", loc,
                 "%s %zu bytes at global address %p through a GlobalTensor set to %p: %s", what, n, p,
                 reinterpret_cast<const void *>(o), why + prefix);
        }
        if (o != a) {
            fail("gm-out-of-allocation", loc,
                 "%s %zu bytes at global address %p through a GlobalTensor set to %p, which is not inside any live "
                 "device allocation: %s", what, n, p, reinterpret_cast<const void *>(o), why);
        }
        fail("gm-out-of-allocation", loc,
             "%s %zu bytes at global address %p, which is not inside any live device allocation: %s", what, n, p, why);
    }
    if (found == AllocFound::kQueried) {
        if (!gm_reachable(b, r.base)) {
            const std::string roots = reach_roots_text(b);
            const size_t more = b.reach.size() - b.reach_roots;
            char through[96] = "";
            if (origin != nullptr) std::snprintf(through, sizeof(through), " through a GlobalTensor set to %p", reinterpret_cast<const void *>(o));
            fail("gm-foreign-block", loc,
                 "%s %zu bytes at global address %p%s, inside the live %s [0x%llx, 0x%llx) (%llu bytes), which this "
                 "kernel was not given: no word of its arguments points into it (they point into %s), nor does any "
                 "address stored in the first %llu KiB of the blocks they reach (%zu more found). A pointer computed "
                 "from one tensor landed in another's memory: on hardware this corrupts or leaks an unrelated tensor. "
                 "Pass the tensor as an argument (or in a tensor list), or fix the offset; its bytes are left intact",
                 what, n, p, through, r.tensor ? "tensor block" : "device allocation",
                 static_cast<unsigned long long>(r.base), static_cast<unsigned long long>(r.end),
                 static_cast<unsigned long long>(r.end - r.base), roots.c_str(),
                 static_cast<unsigned long long>(kReachScanBlock >> 10), more);
        }
        b.alloc_cache[b.alloc_next++ % 4] = r;
    }
    if (a >= r.base && a + n <= r.end) return;
    const bool past = a + n > r.end;
    const unsigned long long by = past ? a + n - r.end : r.base - a;
    if (r.tensor) {
        fail("gm-out-of-tensor", loc,
             "%s %zu bytes at global address %p ([%p, %p)), %s the tensor [0x%llx, 0x%llx) (%llu bytes, with the "
             "padding aclrtMalloc documents) that the GlobalTensor set to %p points into, by %llu bytes: those bytes "
             "belong to a neighbouring tensor or to free memory (they were not touched)",
             what, n, p, p, reinterpret_cast<const void *>(a + n), past ? "past the end of" : "before the start of",
             static_cast<unsigned long long>(r.base), static_cast<unsigned long long>(r.end),
             static_cast<unsigned long long>(r.end - r.base), reinterpret_cast<const void *>(o), by);
    }
    fail("gm-out-of-allocation", loc,
         "%s %zu bytes at global address %p: the access ends %llu bytes %s the %llu-byte device allocation at 0x%llx",
         what, n, p, by, past ? "past the end of" : "before the start of",
         static_cast<unsigned long long>(r.end - r.base), static_cast<unsigned long long>(r.base));
}

}  // namespace kapi
}  // namespace pyasc_sim

#include "pyasc_sim/kapi/gm_poll.h"  // poll_settle (record_site), after BlockState
#include "pyasc_sim/kapi/gm_poll_yield.h"  // poll_read (DMA reads, DataCacheCleanAndInvalid)

#endif  // PYASC_SIM_KAPI_STATE_H_
