// Ascend C on the CPU -- checks of raw __gm__ pointer loads and stores in kernel code.
//
// `__gm__` means nothing on the CPU (base.h), so `((__gm__ float *)x)[i] = v` is a plain store the
// kernel API never sees.  A kernel whose source does that is compiled with GCC's ThreadSanitizer
// instrumentation (build.py: -fsanitize=thread -static-libtsan, checks on only; nothing of libtsan is
// linked): GCC calls __tsan_readN / __tsan_writeN before every memory access, and this header is the
// only implementation of those hooks.  An access outside the device heap (local memory, the stack,
// host memory) returns after one range compare.  A device-heap access is attributed to its source
// line (the hook's return address, resolved once per address with addr2line); accesses whose
// innermost frame is the kernel API's own code (it checks and records them itself) are ignored, the
// others get the checks of a GlobalTensor scalar access:
//   gm-out-of-allocation / gm-use-after-free  the address is in no live device allocation / a freed block
//   gm-foreign-block                          in a live block the launch's arguments do not reach (state.h)
//   gm-uninit-read                            a load of bytes never written since allocation
//   gm-cross-core-race, gm-write-overlap, gm-cache-line-share  (records for the runtime's launch checks;
//                                              a raw store in scalar code is a data-cache store, like
//                                              SetValue; in a SIMT thread a plain store, like __stg)
// The hooks cannot throw through the instrumented caller (GCC declares them nothrow), so a failed
// check is deferred: the block ends in that error when the kernel returns, and the access itself
// lands; a failing store's target bytes are saved first and put back at the block's next device-memory
// access (after the store landed) and again when the block ends (state.h raw_save / raw_restore_pending /
// raw_restore).  Atomic builtins (__atomic_*, std::atomic, atomicCAS ...) go through __tsan_atomic* hooks,
// performed here with the same builtins; on device memory each is a release / acquire of its address
// for gm-cross-core-race (a spin lock orders what it protects).
#ifndef PYASC_SIM_KAPI_RAW_GM_H_
#define PYASC_SIM_KAPI_RAW_GM_H_

#if defined(__SANITIZE_THREAD__)

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "pyasc_sim/kapi/state.h"

#define PYASC_SIM_RAW_NOSAN __attribute__((no_sanitize_thread, no_sanitize_coverage, noinline))

namespace pyasc_sim {
namespace kapi {
namespace raw_gm {

// One instruction address of the binary: whether it belongs to the kernel API, and its source line.
struct Site {
    uintptr_t pc;
    bool kapi;
    std::string file;
    unsigned line;
    const char *name;  // file.c_str(), set once resolved (no instrumented call per access)
};

constexpr size_t kSlots = 4096;
inline std::atomic<const Site *> *slots() {
    static std::atomic<const Site *> table[kSlots];
    return table;
}

// The directory of the kernel API headers (this file's, three levels up): frames there are its code.
inline const std::string &kapi_root() {
    static const std::string root = [] {
        std::string f = __FILE__;
        const size_t at = f.rfind("pyasc_sim/kapi/");
        return at == std::string::npos ? f : f.substr(0, at);
    }();
    return root;
}

inline bool system_header(const std::string &f) {
    return f.compare(0, 13, "/usr/include/") == 0 || f.compare(0, 9, "/usr/lib/") == 0 ||
           f.compare(0, 15, "/usr/local/lib/") == 0;
}

// Resolves pc (a return address in this binary) with addr2line -i: the innermost inlined frame
// decides whether it is the kernel API's; the line reported is the innermost frame outside the
// kernel API and the system headers.
PYASC_SIM_RAW_NOSAN inline Site *resolve(uintptr_t pc) {
    Site *s = new Site{pc, true, std::string(), 0, ""};
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(pc), &info) == 0 || info.dli_fname == nullptr) return s;
    const uintptr_t off = pc - reinterpret_cast<uintptr_t>(info.dli_fbase) - 1;  // the call instruction
    std::string cmd = "addr2line -i -e '";
    for (const char *c = info.dli_fname; *c != '\0'; ++c) {
        if (*c == '\'') cmd += "'\\''";
        else cmd += *c;
    }
    char hex[32];
    std::snprintf(hex, sizeof(hex), "' 0x%llx 2>/dev/null", static_cast<unsigned long long>(off));
    cmd += hex;
    FILE *p = popen(cmd.c_str(), "r");
    if (p == nullptr) return s;
    char buf[4096];
    bool first = true, picked = false;
    while (std::fgets(buf, sizeof(buf), p) != nullptr) {
        std::string ln(buf);
        while (!ln.empty() && (ln.back() == '\n' || ln.back() == '\r')) ln.pop_back();
        const size_t disc = ln.find(" (discriminator");
        if (disc != std::string::npos) ln.resize(disc);
        const size_t colon = ln.rfind(':');
        if (colon == std::string::npos) continue;
        const std::string file = ln.substr(0, colon);
        const unsigned line = static_cast<unsigned>(std::strtoul(ln.c_str() + colon + 1, nullptr, 10));
        if (file == "??" || line == 0) continue;
        const bool in_kapi = file.compare(0, kapi_root().size(), kapi_root()) == 0;
        if (first && !system_header(file)) {  // the C++ library's code the kernel API inlines is the API's
            s->kapi = in_kapi;
            first = false;
        }
        if (!picked && !in_kapi && !system_header(file)) {
            s->file = file;
            s->line = line;
            picked = true;
        }
    }
    pclose(p);
    s->name = s->file.c_str();
    if (!s->kapi && !picked) s->kapi = true;  // no line of the kernel's own: nothing to name, not checked
    return s;
}

PYASC_SIM_RAW_NOSAN inline const Site *site_of(uintptr_t pc) {
    std::atomic<const Site *> &slot = slots()[(pc ^ (pc >> 12)) % kSlots];
    const Site *s = slot.load(std::memory_order_acquire);
    if (s != nullptr && s->pc == pc) return s;
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    s = slot.load(std::memory_order_acquire);
    if (s != nullptr && s->pc == pc) return s;
    const Site *fresh = resolve(pc);  // never freed: records and messages point at its file name
    slot.store(fresh, std::memory_order_release);
    return fresh;
}

// Records [a, a + n) for the launch's checks: a loop's loads and stores alternate, so each extends
// the record its kind last extended (when that one still ends at a, with the same site and tag).
PYASC_SIM_RAW_NOSAN inline void note(BlockState &b, uint64_t a, size_t n, const Site *s, uint32_t kind, int k) {
    uint32_t tag = 0;  // gm_tag(b, kind), computed here (an instrumented call costs its own hooks)
    if (b.xrace) {
        const uint32_t core = b.mixed && b.core_kind != 1 ? 1u + b.sub_idx : 0u;  // 1: kCoreAIC
        tag = kind | ((core & PYASC_SIM_GM_CORE_MASK) << PYASC_SIM_GM_CORE_SHIFT) |
              (b.xseg < PYASC_SIM_GM_SEGMENT_MASK ? b.xseg : PYASC_SIM_GM_SEGMENT_MASK);
    }
    std::vector<PyascSimGmWrite> &w = b.writes;
    const size_t i = b.raw_last[k];
    if (i < w.size() && w[i].end == a && w[i].line == s->line && w[i].file == s->name && w[i].reserved == tag) {
        w[i].end = a + n;
        return;
    }
    record_site(b, a, a + n, SrcLoc(s->name, s->line), tag);
    b.raw_last[k] = w.size() - 1;  // the record just added (or the last one, which it extended)
}

// After the block failed: a raw store outside the extents its checks verified is checked again,
// silently (the first error stays the block's), and saved when it fails, so it is undone too.
PYASC_SIM_RAW_NOSAN inline void guard_store(BlockState &b, const void *p, size_t n, uintptr_t pc) {
    const uint64_t a = reinterpret_cast<uintptr_t>(p), e = a + n;
    if (a >= b.raw_ok_lo[1] && e <= b.raw_ok_hi[1]) return;
    for (const BlockState::AllocRange &c : b.alloc_cache) {
        if (a >= c.base && e <= c.end) return;
    }
    if (site_of(pc)->kapi) return;  // the API checks its own stores (and is not run after a failure)
    const bool failed = b.failed;
    const int32_t status = b.ctx->status;
    char message[sizeof(b.ctx->message)];
    std::memcpy(message, b.ctx->message, sizeof(message));
    try {
        check_gm_alloc(p, n, "a raw __gm__ store writes", SrcLoc());
        return;
    } catch (const KernelAbort &) {
    }
    b.failed = failed;  // keep the block's first error
    b.ctx->status = status;
    std::memcpy(b.ctx->message, message, sizeof(message));
    raw_save(b, a, n);
}

// The checks of one raw access (fast path filtered already: a device-heap address).
PYASC_SIM_RAW_NOSAN inline void access(const void *p, size_t n, bool write, uintptr_t pc) {
    BlockState *bp = current_block_ptr();
    if (bp == nullptr || !bp->checks || bp->ctx == nullptr) return;
    if (__builtin_expect(!bp->raw_pending.empty(), 0) && !bp->raw_busy) raw_restore_pending(*bp);  // they landed
    if (bp->failed || bp->deferred) {
        if (write) guard_store(*bp, p, n, pc);  // the block already failed: its bad stores are still undone
        return;
    }
    BlockState &b = *bp;
    const Site *s = site_of(pc);
    if (s->kapi) return;
    if (b.xpoll_pending) poll_settle(b);  // the polled load before this access acquires first (gm_poll.h)
    const uint64_t a = reinterpret_cast<uintptr_t>(p), e = a + n;
    try {
        const int k = write ? 1 : 0;
        if (a < b.raw_ok_lo[k] || e > b.raw_ok_hi[k]) {  // not in the allocation this kind verified last
            check_gm_alloc(p, n, write ? "a raw __gm__ store writes" : "a raw __gm__ load reads",
                           SrcLoc(s->name, s->line));
            for (const BlockState::AllocRange &c : b.alloc_cache) {
                if (a >= c.base && e <= c.end) {
                    b.raw_ok_lo[k] = c.base;
                    b.raw_ok_hi[k] = c.end;
                    break;
                }
            }
        }
        const bool known_written = a >= b.raw_init_lo && e <= b.raw_init_hi;
        if (write) {
            if (!known_written && (a < b.raw_marked_lo || e > b.raw_marked_hi)) {
                gm_mark_written(a, e);  // the run of stores marked so far grows, or a new one starts
                if (a >= b.raw_marked_lo && a <= b.raw_marked_hi) {
                    b.raw_marked_hi = std::max(b.raw_marked_hi, e);
                } else {
                    b.raw_marked_lo = a;
                    b.raw_marked_hi = e;
                }
            }
            // a plain store (whatever SetAtomic* mode the DMA path is in); in scalar code through the
            // core's data cache, like GlobalTensor::SetValue; a SIMT thread's store is one like __stg
#if __CCE_AICORE__ == 310
            const bool simt = simt::thread_state().in_vf;
#else
            const bool simt = false;
#endif
            b.gm_dirty = b.gm_dirty || !simt;
            b.gm_stored = b.gm_stored || !simt;
            if (!simt) gm_poll_store(b, a, static_cast<uint32_t>(n));  // a flag a write-back may publish
            note(b, a, n, s, simt ? 0u : PYASC_SIM_GM_SCALAR, 1);
            return;
        }
        if (b.gm_uninit != nullptr && !known_written) {
            // a 4 KiB window of the allocation around the load, once all written, is remembered
            // (written bytes never become unwritten during a launch)
            const uint64_t lo = std::max<uint64_t>(b.raw_ok_lo[0], a & ~uint64_t{4095});
            const uint64_t hi = std::min<uint64_t>(b.raw_ok_hi[0], (a | 4095) + 1);
            if (lo <= a && e <= hi && gm_first_uninit(lo, hi) == 0) {
                b.raw_init_lo = lo;
                b.raw_init_hi = hi;
            } else if (const uint64_t u = gm_first_uninit(a, e)) {
                fail("gm-uninit-read", SrcLoc(s->name, s->line),
                     "a raw __gm__ load reads %zu bytes at global address %p: byte 0x%llx was never written since its "
                     "tensor was allocated (an empty() tensor, or an output read before anything wrote it); on hardware "
                     "the load returns whatever the memory held before. Initialise it first",
                     n, p, static_cast<unsigned long long>(u));
            }
        }
        if (b.xrace && !b.xmute && !gm_poll_load(b, a, static_cast<uint32_t>(n), s->name, s->line)) {
            note(b, a, n, s, PYASC_SIM_GM_READ, 0);  // (a poll's read is recorded after its acquire)
        }
    } catch (const KernelAbort &) {
        // fail() filled in the context; the block ends in this error when the kernel returns
        // (end_of_kernel_checks), as nothing can be thrown through the instrumented caller.  A
        // store lands when this hook returns: the bytes it overwrites are saved and put back when
        // the block ends (state.h raw_save / raw_restore), so a neighbour stays intact
        if (write) raw_save(b, a, n);
        b.failed = false;
        std::snprintf(b.deferred_message, sizeof(b.deferred_message), "%s", b.ctx->message);
        b.ctx->status = 0;
        b.ctx->message[0] = '\0';
        b.deferred = true;
    }
}

// An atomic operation on device memory is a synchronisation point for gm-cross-core-race: a
// release before it writes, an acquire after it reads (xcore.h's events, keyed by the address), so
// accesses ordered by a spin lock (atomicCAS ... atomicExch) or a flag are ordered for the check too.
PYASC_SIM_RAW_NOSAN inline void sync_event(const volatile void *a, uint32_t kind) {
    const uint64_t p = reinterpret_cast<uintptr_t>(a);
    if (p - raw_gm_heap_range.lo >= raw_gm_heap_range.span) return;
    BlockState *b = current_block_ptr();
    if (b == nullptr || !b->checks || !b->xrace || b->failed || b->deferred) return;
    AscendC::sim_detail::xrace_event(kind, AscendC::sim_detail::xkey(const_cast<const void *>(a)));
}

}  // namespace raw_gm
}  // namespace kapi
}  // namespace pyasc_sim

// ---- the hooks GCC's -fsanitize=thread calls ------------------------------------------------------
#define PYASC_SIM_RAW_HOOK __attribute__((no_sanitize_thread, weak, used))
#define PYASC_SIM_RAW_ACCESS(name, n, write)                                                          \
    extern "C" PYASC_SIM_RAW_HOOK void name(void *p) {                                                 \
        const pyasc_sim::kapi::RawGmHeap &h = pyasc_sim::kapi::raw_gm_heap_range;                          \
        if (__builtin_expect(reinterpret_cast<uintptr_t>(p) - h.lo >= h.span, 1)) return;             \
        pyasc_sim::kapi::raw_gm::access(p, n, write,                                                   \
                                        reinterpret_cast<uintptr_t>(__builtin_return_address(0)));     \
    }
PYASC_SIM_RAW_ACCESS(__tsan_read1, 1, false)
PYASC_SIM_RAW_ACCESS(__tsan_read2, 2, false)
PYASC_SIM_RAW_ACCESS(__tsan_read4, 4, false)
PYASC_SIM_RAW_ACCESS(__tsan_read8, 8, false)
PYASC_SIM_RAW_ACCESS(__tsan_read16, 16, false)
PYASC_SIM_RAW_ACCESS(__tsan_write1, 1, true)
PYASC_SIM_RAW_ACCESS(__tsan_write2, 2, true)
PYASC_SIM_RAW_ACCESS(__tsan_write4, 4, true)
PYASC_SIM_RAW_ACCESS(__tsan_write8, 8, true)
PYASC_SIM_RAW_ACCESS(__tsan_write16, 16, true)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_read2, 2, false)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_read4, 4, false)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_read8, 8, false)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_read16, 16, false)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_write2, 2, true)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_write4, 4, true)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_write8, 8, true)
PYASC_SIM_RAW_ACCESS(__tsan_unaligned_write16, 16, true)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_read1, 1, false)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_read2, 2, false)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_read4, 4, false)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_read8, 8, false)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_read16, 16, false)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_write1, 1, true)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_write2, 2, true)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_write4, 4, true)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_write8, 8, true)
PYASC_SIM_RAW_ACCESS(__tsan_volatile_write16, 16, true)
#undef PYASC_SIM_RAW_ACCESS

#define PYASC_SIM_RAW_RANGE(name, write)                                                              \
    extern "C" PYASC_SIM_RAW_HOOK void name(void *p, unsigned long n) {                                \
        const pyasc_sim::kapi::RawGmHeap &h = pyasc_sim::kapi::raw_gm_heap_range;                          \
        if (__builtin_expect(reinterpret_cast<uintptr_t>(p) - h.lo >= h.span, 1) || n == 0) return;   \
        pyasc_sim::kapi::raw_gm::access(p, n, write,                                                   \
                                        reinterpret_cast<uintptr_t>(__builtin_return_address(0)));     \
    }
PYASC_SIM_RAW_RANGE(__tsan_read_range, false)
PYASC_SIM_RAW_RANGE(__tsan_write_range, true)
#undef PYASC_SIM_RAW_RANGE

extern "C" PYASC_SIM_RAW_HOOK void __tsan_init() {}
extern "C" PYASC_SIM_RAW_HOOK void __tsan_func_entry(void *) {}
extern "C" PYASC_SIM_RAW_HOOK void __tsan_func_exit(void *) {}
extern "C" PYASC_SIM_RAW_HOOK void __tsan_vptr_update(void *, void *) {}
extern "C" PYASC_SIM_RAW_HOOK void __tsan_vptr_read(void *) {}

// Atomics: performed (sequentially consistent: at least what was asked), not recorded as accesses;
// on device memory each is a release (before it writes) and / or an acquire (after it reads).
#define PYASC_SIM_RAW_REL(a) pyasc_sim::kapi::raw_gm::sync_event(a, PYASC_SIM_GM_EVENT_RELEASE)
#define PYASC_SIM_RAW_ACQ(a) pyasc_sim::kapi::raw_gm::sync_event(a, PYASC_SIM_GM_EVENT_ACQUIRE)
#define PYASC_SIM_RAW_RMW(bits, T, op)                                                                           \
    extern "C" PYASC_SIM_RAW_HOOK T __tsan_atomic##bits##_##op(volatile void *a, T v, int) {                     \
        PYASC_SIM_RAW_REL(a);                                                                                     \
        const T r = __atomic_##op(static_cast<volatile T *>(a), v, __ATOMIC_SEQ_CST);                             \
        PYASC_SIM_RAW_ACQ(a);                                                                                     \
        return r;                                                                                                 \
    }
#define PYASC_SIM_RAW_ATOMICS(bits, T)                                                                           \
    extern "C" PYASC_SIM_RAW_HOOK T __tsan_atomic##bits##_load(const volatile void *a, int) {                    \
        const T r = __atomic_load_n(static_cast<const volatile T *>(a), __ATOMIC_SEQ_CST);                       \
        PYASC_SIM_RAW_ACQ(a);                                                                                     \
        return r;                                                                                                 \
    }                                                                                                             \
    extern "C" PYASC_SIM_RAW_HOOK void __tsan_atomic##bits##_store(volatile void *a, T v, int) {                 \
        PYASC_SIM_RAW_REL(a);                                                                                     \
        __atomic_store_n(static_cast<volatile T *>(a), v, __ATOMIC_SEQ_CST);                                     \
    }                                                                                                             \
    extern "C" PYASC_SIM_RAW_HOOK T __tsan_atomic##bits##_exchange(volatile void *a, T v, int) {                 \
        PYASC_SIM_RAW_REL(a);                                                                                     \
        const T r = __atomic_exchange_n(static_cast<volatile T *>(a), v, __ATOMIC_SEQ_CST);                      \
        PYASC_SIM_RAW_ACQ(a);                                                                                     \
        return r;                                                                                                 \
    }                                                                                                             \
    PYASC_SIM_RAW_RMW(bits, T, fetch_add)                                                                         \
    PYASC_SIM_RAW_RMW(bits, T, fetch_sub)                                                                         \
    PYASC_SIM_RAW_RMW(bits, T, fetch_and)                                                                         \
    PYASC_SIM_RAW_RMW(bits, T, fetch_or)                                                                          \
    PYASC_SIM_RAW_RMW(bits, T, fetch_xor)                                                                         \
    PYASC_SIM_RAW_RMW(bits, T, fetch_nand)                                                                        \
    extern "C" PYASC_SIM_RAW_HOOK bool __tsan_atomic##bits##_compare_exchange_strong(volatile void *a, void *e,  \
                                                                                   T v, int, int) {               \
        PYASC_SIM_RAW_REL(a);                                                                                     \
        const bool r = __atomic_compare_exchange_n(static_cast<volatile T *>(a), static_cast<T *>(e), v, false,   \
                                                   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                           \
        PYASC_SIM_RAW_ACQ(a);                                                                                     \
        return r;                                                                                                 \
    }                                                                                                             \
    extern "C" PYASC_SIM_RAW_HOOK bool __tsan_atomic##bits##_compare_exchange_weak(volatile void *a, void *e,    \
                                                                                 T v, int, int) {                 \
        return __tsan_atomic##bits##_compare_exchange_strong(a, e, v, 0, 0); /* a strong CAS is a valid weak one */ \
    }                                                                                                             \
    extern "C" PYASC_SIM_RAW_HOOK T __tsan_atomic##bits##_compare_exchange_val(volatile void *a, T e, T v, int,  \
                                                                              int) {                              \
        __tsan_atomic##bits##_compare_exchange_strong(a, &e, v, 0, 0);                                            \
        return e;                                                                                                 \
    }
PYASC_SIM_RAW_ATOMICS(8, unsigned char)
PYASC_SIM_RAW_ATOMICS(16, unsigned short)
PYASC_SIM_RAW_ATOMICS(32, unsigned int)
PYASC_SIM_RAW_ATOMICS(64, unsigned long)
#undef PYASC_SIM_RAW_ATOMICS
#undef PYASC_SIM_RAW_RMW
#undef PYASC_SIM_RAW_REL
#undef PYASC_SIM_RAW_ACQ
extern "C" PYASC_SIM_RAW_HOOK void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" PYASC_SIM_RAW_HOOK void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#undef PYASC_SIM_RAW_HOOK
#undef PYASC_SIM_RAW_NOSAN

#endif  // __SANITIZE_THREAD__

#endif  // PYASC_SIM_KAPI_RAW_GM_H_
