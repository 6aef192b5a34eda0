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
#include <functional>
#include <memory>
#include <string>
#include <vector>

#if __has_include(<pyasc_sim/kernel_abi.h>)
#include <pyasc_sim/kernel_abi.h>
#include <pyasc_sim/cost_model.h>
#else  // source checkout: backends/sim/include next to backends/sim/kernel_api/include
#include "../../../../include/pyasc_sim/cost_model.h"
#include "../../../../include/pyasc_sim/kernel_abi.h"
#endif

#include "pyasc_sim/kapi/base.h"

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

struct BlockState {
    PyascSimBlockContext *ctx = nullptr;
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
    // Starts the block's vector cores (set by the entry stub for the primary core only).
    void (*spawn_subcores)(void *self, uint32_t ratio) = nullptr;
    void *spawn_self = nullptr;
    bool checks = true;
    bool strict = false;  // warnings are errors (PYASC_SIM_STRICT)
    bool failed = false;
    size_t capacity[kMemKinds] = {};
    uint8_t *mem[kMemKinds] = {};
    double pipe[kPipes] = {};
    double sync = 0.0;
    int32_t flags[kHardEvents][kEventIds] = {};
    SrcLoc flag_loc[kHardEvents][kEventIds];
    bool event_alloc[kHardEvents][kEventIds] = {};
    std::vector<PyascSimGmWrite> writes;  // GM ranges written, with the line that wrote them
    size_t writes_compact_at = 1u << 16;
    struct AllocRange {
        uint64_t base = 0, end = 0;
    } alloc_cache[4];
    unsigned alloc_next = 0;
    uint64_t mask[2] = {~0ull, ~0ull};  // SetVectorMask state (isSetMask = false)
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

    // Memory of kind k; allocated on first use.
    uint8_t *memory(int k) {
        if (mem[k] == nullptr) mem[k] = thread_arena().get(k, capacity[k]);
        return mem[k];
    }
};

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

// Formats a sanitizer failure into the block's context and aborts the block.
[[noreturn]] inline void vfail(const char *check, const SrcLoc &loc, const char *fmt, va_list ap) {
    BlockState &b = blk();
    b.failed = true;
    if (b.ctx != nullptr) {
        b.ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        compose_message(b.ctx->message, sizeof(b.ctx->message), check, loc, fmt, ap);
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
inline void charge(Pipe p, double cycles) { blk().pipe[p] += cycles; }
inline void charge_sync(double cycles) { blk().sync += cycles; }
inline double dma_cycles(size_t bytes, size_t bursts) {
    return cost::kDmaIssueCycles + cost::kDmaBurstCycles * static_cast<double>(bursts) +
           static_cast<double>(bytes) / cost::kGmBytesPerCycle;
}
inline double vector_cycles(double repeats, double factor = 1.0) {
    return cost::kVectorIssueCycles + repeats * cost::kVectorRepeatCycles * factor;
}
inline double block_cycles(const BlockState &b) {
    double busiest = 0.0;
    for (double c : b.pipe) busiest = std::max(busiest, c);
    return cost::kBlockStartupCycles + busiest + b.sync;
}

// ---- global memory checks -----------------------------------------------------------------------
inline bool same_site(const PyascSimGmWrite &a, const PyascSimGmWrite &b) {
    return a.line == b.line && a.file == b.file;
}

// Compacts the recorded write ranges: sorts them by source line, then address, and merges the
// overlapping or adjacent ranges of one line (a loop writing tile after tile becomes one range).
inline void compact_writes(std::vector<PyascSimGmWrite> &w) {
    if (w.empty()) return;
    std::sort(w.begin(), w.end(), [](const PyascSimGmWrite &a, const PyascSimGmWrite &b) {
        if (a.file != b.file) return std::less<const char *>()(a.file, b.file);
        if (a.line != b.line) return a.line < b.line;
        return a.begin < b.begin;
    });
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

// Records that the instruction at `loc` wrote global memory [begin, end).
inline void record_write(uint64_t begin, uint64_t end, const SrcLoc &loc) {
    BlockState &b = blk();
    // atomic writes (SetAtomicAdd/Max/Min) of several blocks to the same bytes do not race
    if (!b.checks || end <= begin || b.atomic_op != 0) return;
    std::vector<PyascSimGmWrite> &w = b.writes;
    const PyascSimGmWrite site{begin, end, loc.file, loc.line, 0};
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

// Checks that [p, p + n) lies in one live device allocation (ABI v2 runtimes only).
inline void check_gm_alloc(const void *p, size_t n, const char *what, const SrcLoc &loc) {
    BlockState &b = blk();
    if (!b.checks || n == 0 || b.ctx == nullptr || b.ctx->abi_version < 2 || b.ctx->gm_query == nullptr) return;
    const uint64_t a = reinterpret_cast<uintptr_t>(p);
    for (const auto &c : b.alloc_cache) {
        if (a >= c.base && a + n <= c.end) return;
    }
    uint64_t base = 0, size = 0;
    char why[256] = {};
    if (!b.ctx->gm_query(b.ctx->runtime_user, p, &base, &size, why, sizeof(why))) {
        fail("gm-out-of-allocation", loc,
             "%s %zu bytes at global address %p, which is not inside any live device allocation: %s", what, n, p, why);
    }
    if (a + n > base + size) {
        fail("gm-out-of-allocation", loc,
             "%s %zu bytes at global address %p: the access ends %llu bytes past the end of the %llu-byte device "
             "allocation at 0x%llx",
             what, n, p, static_cast<unsigned long long>(a + n - (base + size)),
             static_cast<unsigned long long>(size), static_cast<unsigned long long>(base));
    }
    b.alloc_cache[b.alloc_next++ % 4] = {base, base + size};
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_STATE_H_
