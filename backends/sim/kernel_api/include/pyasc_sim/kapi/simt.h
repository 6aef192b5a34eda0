// Ascend C on the CPU -- the SIMT programming model basics of the Atlas 350 / Ascend 950 (kernels built
// with soc="Ascend950PR_9599"): AscendC::Simt::VF_CALL<f>(Simt::Dim3{x, y, z}, args...) and its C form
// asc_vf_call<f>(dim3{...}, args...), __simt_vf__, LAUNCH_BOUND(n) / __launch_bounds__(n),
// Simt::GetThreadIdx<k>() / GetThreadNum<k>() / GetBlockIdx() / GetBlockNum() / GetWarpSize(), and the
// threadIdx / blockIdx / blockDim / gridDim built-ins of the reference's examples.
//
// How the simulator runs a VF call: its x * y * z threads (at most 2048, the reference's limit) are fibers on the
// calling block's host thread; its warps run one after another, each warp's lanes in lockstep (see Fiber below),
// and Simt::ThreadBarrier() and the warp functions (shuffles, votes, reductions) release as on hardware.
// LAUNCH_BOUND / __launch_bounds__ (a register-allocation hint) change nothing on the CPU.
#ifndef PYASC_SIM_KAPI_SIMT_H_
#define PYASC_SIM_KAPI_SIMT_H_

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "pyasc_sim/kapi/state.h"

#if __CCE_AICORE__ == 310

#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(n)
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

namespace pyasc_sim {
namespace kapi {
namespace simt {
struct Uint3 {
    uint32_t x = 0, y = 0, z = 0;
};
struct ThreadState {
    Uint3 idx;
    Uint3 dim{1, 1, 1};
    bool in_vf = false;
};
inline ThreadState &thread_state() {
    thread_local ThreadState s;
    return s;
}
constexpr uint32_t kMaxThreads = 2048;  // x * y * z of one VF call (asc_vf_call page, threadNums)
constexpr int32_t kWarpSize = 32;       // ACL_DEV_ATTR_WARP_SIZE of the Ascend 950

// Each SIMT thread of a VF call is a fiber on its own stack; the block's host thread runs them.  Warps (32
// consecutive threads, x fastest) run one after another and independently; within a warp the lanes advance
// together as on the NPU, where a warp is a set of threads that execute the same instruction:
//   - a kernel that uses a VF call is compiled with GCC's -fsanitize-coverage=trace-pc (build.py), which calls
//     __sanitizer_cov_trace_pc() at the start of every basic block; in a basic block of the VF function's own
//     code (callees inlined into it included) the lane records the block's address and goes on only while no
//     other runnable lane of its warp is at a lower address (the "min-PC" rule: the lanes furthest behind run
//     first, one basic block each, in lane order), so every lane finishes a statement before any lane runs
//     the code after it, and lanes that skip a branch or leave a loop early wait at the code that follows it
//     until the others reach it (the reconvergence of divergent lanes);
//   - warp functions (shuffles, votes, reductions) wait until no lane of the warp can run on; the lanes
//     waiting at the same call are its active lanes and get their results together;
//   - Simt::ThreadBarrier() releases when every thread of the VF call that has not ended waits there.
// A callee the compiler did not inline runs without interruption (its code is outside the VF function's).
enum class FiberState : uint8_t { kReady, kBarrier, kWarp, kDone };
struct Fiber;
// One warp function's result for `self`, from the lanes of its warp (`warp`, 32 or fewer) in `mask`.
using WarpOp = uint64_t (*)(const Fiber *warp, uint32_t mask, uint32_t self);
struct Fiber {
    void *sp = nullptr;  // saved stack pointer while switched out (x86-64)
#if !defined(__x86_64__)
    ucontext_t ctx;
#endif
    Uint3 idx;
    FiberState st = FiberState::kReady;
    bool fenced = false;     // yielded at a memory fence: not run again in this pass over its warp
    uintptr_t pc = 0;        // the basic block of the VF function the lane is at (0: not started)
    uintptr_t back_from = 0; // after a jump back (a loop's next iteration): the block it jumped from
    uint64_t shfl_in = 0, shfl_out = 0;  // the bits of the value offered to / returned by a warp function
    int32_t shfl_src = -1;               // for a shuffle: the warp lane read, -1: the thread's own value
    WarpOp op = nullptr;                 // the warp function the lane waits at
};
// The code of a VF function: its own symbol and the parts GCC split off it (name.part.N, name.cold, clones
// name.constprop.N / name.isra.N), each [lo, hi).
struct CodeRanges {
    static constexpr int kMax = 8;
    uintptr_t lo[kMax] = {}, hi[kMax] = {};
    int n = 0;
    __attribute__((always_inline, no_sanitize_coverage)) bool has(uintptr_t pc) const {
        for (int i = 0; i < n; ++i) {
            if (pc - lo[i] < hi[i] - lo[i]) return true;
        }
        return false;
    }
};
struct VfRun {
    void *sched_sp = nullptr;
#if !defined(__x86_64__)
    ucontext_t sched;
#endif
    std::vector<Fiber> fibers;
    Fiber *cur = nullptr;
    const struct CodeRanges *code = nullptr;  // the VF function's code
    uintptr_t limit = UINTPTR_MAX;    // the lowest basic block another runnable lane of cur's warp is at
    void (*body)(void *) = nullptr;
    void *arg = nullptr;
    bool aborted = false;
};
// The code of every VF function of this binary started so far (all host threads): the lockstep hook, called at
// every basic block of the binary, returns at once for a block outside them.  `n` is read and written with
// GCC's __atomic builtins, not std::atomic: at -O0 std::atomic<int>::load calls std::operator&(memory_order, ...)
// out of line, a function of this binary with a coverage hook of its own, so the hook recursed until the stack
// overflowed (at dlopen, from the first static constructor: tests/test_sim_reg_simd.py, -O0).
struct AllRanges {
    static constexpr int kMax = 64;
    int n = 0;
    uintptr_t lo[kMax] = {}, hi[kMax] = {};
};
inline AllRanges all_ranges;
// (no coverage hook of its own: the hook calls it)
__attribute__((always_inline, no_sanitize_coverage)) inline VfRun *&vf_run() {
    thread_local VfRun *r = nullptr;
    return r;
}
constexpr size_t kFiberStack = 256 * 1024;  // virtual; a thread touches a few pages of it

#if defined(__x86_64__)
// Saves the callee-saved registers, the SSE and x87 control words and the stack pointer of the running
// context in *save, and resumes the context whose stack pointer is `load` (System V x86-64).
[[maybe_unused]] __attribute__((naked, noinline, no_sanitize_coverage, no_sanitize_thread)) static void
fiber_switch(void ** /*save*/, void * /*load*/) {
    __asm__ volatile(
        "pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n\t"
        "subq $16, %rsp\n\tstmxcsr 8(%rsp)\n\tfnstcw (%rsp)\n\t"
        "movq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
        "ldmxcsr 8(%rsp)\n\tfldcw (%rsp)\n\taddq $16, %rsp\n\t"
        "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n\tret\n\t");
}
// A new fiber's first instructions: call the entry function the initial frame left in r12.
[[maybe_unused]] __attribute__((naked, noinline, no_sanitize_coverage, no_sanitize_thread)) static void fiber_start() {
    __asm__ volatile("call *%r12\n\tud2\n\t");
}
#endif

__attribute__((no_sanitize_coverage)) inline void to_scheduler(VfRun *r) {
#if defined(__x86_64__)
    fiber_switch(&r->cur->sp, r->sched_sp);
#else
    swapcontext(&r->cur->ctx, &r->sched);
#endif
}
inline void to_fiber(VfRun &r, Fiber &f) {
#if defined(__x86_64__)
    fiber_switch(&r.sched_sp, f.sp);
#else
    swapcontext(&r.sched, &f.ctx);
#endif
}
inline void fiber_entry() {
    VfRun *r = vf_run();
    try {
        r->body(r->arg);
    } catch (const ::pyasc_sim::kapi::KernelAbort &) {
        r->aborted = true;
    }
    r->cur->st = FiberState::kDone;
    to_scheduler(r);  // never resumed
    __builtin_unreachable();
}
// Lays out a new fiber's stack so that its first switch-in starts fiber_entry.
inline void fiber_init(VfRun &r, Fiber &f, char *stack) {
#if defined(__x86_64__)
    (void)r;
    auto *top = reinterpret_cast<uint64_t *>(stack + kFiberStack);  // 16-byte aligned
    uint64_t *sp = top - 11;                                         // sp % 16 == 8: fiber_start runs at % 16 == 0
    uint32_t mxcsr = 0;
    uint16_t fcw = 0;
    __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(mxcsr), "=m"(fcw));
    std::memset(sp, 0, 11 * sizeof(uint64_t));
    std::memcpy(reinterpret_cast<char *>(sp), &fcw, sizeof(fcw));
    std::memcpy(reinterpret_cast<char *>(sp) + 8, &mxcsr, sizeof(mxcsr));
    sp[5] = reinterpret_cast<uint64_t>(&fiber_entry);  // r12
    sp[8] = reinterpret_cast<uint64_t>(&fiber_start);  // return address
    f.sp = sp;
#else
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = stack;
    f.ctx.uc_stack.ss_size = kFiberStack;
    f.ctx.uc_link = &r.sched;
    makecontext(&f.ctx, fiber_entry, 0);
#endif
}
// Called by a waiting thread: back to the scheduler until it is released.
inline void fiber_wait(FiberState why, const char *api) {
    VfRun *r = vf_run();
    if (r == nullptr || r->cur == nullptr) {
        ::pyasc_sim::kapi::fail("invalid-argument", ::pyasc_sim::kapi::SrcLoc(),
                                "%s outside a SIMT VF function (call it from a function started by Simt::VF_CALL / "
                                "asc_vf_call)", api);
    }
    r->cur->st = why;
    to_scheduler(r);
}
// A memory fence (asc_threadfence / __threadfence): orders this thread's memory accesses for the others and
// lets the other threads of the VF call run before this one goes on, so a thread spinning on memory another
// thread of its block will write (a lock, a flag) sees that write, as with threads running concurrently.
inline void fiber_fence() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    VfRun *r = vf_run();
    if (r == nullptr || r->cur == nullptr) return;  // outside a VF call: a fence only
    r->cur->st = FiberState::kReady;
    r->cur->fenced = true;
    to_scheduler(r);
}
// The code of the function that starts at fn, from the .symtab of its binary (a kernel binary's functions are
// hidden, so dladdr does not know them): its symbol and the symbols named after it with a '.' suffix.
inline CodeRanges code_ranges(const void *fn) {
    CodeRanges out;
    Dl_info info{};
    if (dladdr(fn, &info) == 0 || info.dli_fname == nullptr) return out;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(fn), base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    // (the main program, as in a CPU-debug executable, may be named "" or relative to a former directory)
    int fd = info.dli_fname[0] != '\0' ? open(info.dli_fname, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0) fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return out;
    struct stat stt{};
    void *map = fstat(fd, &stt) == 0 ? mmap(nullptr, static_cast<size_t>(stt.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                                     : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED) return out;
    const auto *img = static_cast<const unsigned char *>(map);
    const auto *eh = reinterpret_cast<const ElfW(Ehdr) *>(img);
    const size_t size = static_cast<size_t>(stt.st_size);
    if (size >= sizeof(ElfW(Ehdr)) && std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
        eh->e_shoff + static_cast<size_t>(eh->e_shnum) * sizeof(ElfW(Shdr)) <= size) {
        const auto *sh = reinterpret_cast<const ElfW(Shdr) *>(img + eh->e_shoff);
        for (size_t s = 0; s < eh->e_shnum && out.n == 0; ++s) {
            if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_offset + sh[s].sh_size > size || sh[s].sh_link >= eh->e_shnum)
                continue;
            const ElfW(Shdr) &strs = sh[sh[s].sh_link];
            if (strs.sh_offset + strs.sh_size > size) continue;
            const char *names = reinterpret_cast<const char *>(img + strs.sh_offset);
            const auto *syms = reinterpret_cast<const ElfW(Sym) *>(img + sh[s].sh_offset);
            const size_t count = sh[s].sh_size / sizeof(ElfW(Sym));
            auto func = [&](size_t k) {
                return ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC && syms[k].st_size != 0 && syms[k].st_name < strs.sh_size;
            };
            const char *name = nullptr;
            uintptr_t load = 0;  // added to a symbol's value: the load base (a shared object), 0 (absolute values)
            for (size_t k = 0; k < count && name == nullptr; ++k) {
                if (!func(k)) continue;
                if (syms[k].st_value == addr - base) {
                    name = names + syms[k].st_name;
                    load = base;
                } else if (syms[k].st_value == addr) {
                    name = names + syms[k].st_name;
                }
            }
            if (name == nullptr) continue;
            const size_t len = std::strlen(name);
            for (size_t k = 0; k < count && out.n < CodeRanges::kMax; ++k) {
                if (!func(k)) continue;
                const char *nm = names + syms[k].st_name;
                if (std::strncmp(nm, name, len) != 0 || (nm[len] != '\0' && nm[len] != '.')) continue;
                const uintptr_t lo = load + syms[k].st_value;
                out.lo[out.n] = lo;
                out.hi[out.n] = lo + syms[k].st_size;
                ++out.n;
            }
        }
    }
    munmap(map, size);
    static std::mutex mu;  // publishes the ranges to the hook of every host thread
    std::lock_guard<std::mutex> lock(mu);
    AllRanges &all = all_ranges;
    for (int i = 0; i < out.n; ++i) {
        const int k = __atomic_load_n(&all.n, __ATOMIC_RELAXED);
        if (k == AllRanges::kMax) {
            out.n = i;  // past the table: the rest runs without lockstep
            break;
        }
        all.lo[k] = out.lo[i];
        all.hi[k] = out.hi[i];
        __atomic_store_n(&all.n, k + 1, __ATOMIC_RELEASE);
    }
    return out;
}
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim

#if defined(PYASC_SIM_SIMT_LOCKSTEP)
// The hook GCC's -fsanitize-coverage=trace-pc calls at every basic block: in the running VF function's own
// code, the lane records where it is and lets the lanes of its warp that are behind it run first.  It calls
// nothing that has a hook of its own (builtins and always_inline helpers only): at -O0 nothing else is inlined.
#pragma GCC visibility push(hidden)
extern "C" __attribute__((weak, no_sanitize_coverage, no_sanitize_thread)) void __sanitizer_cov_trace_pc() {
    const uintptr_t at = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    ::pyasc_sim::kapi::simt::AllRanges &all = ::pyasc_sim::kapi::simt::all_ranges;
    const int n = __atomic_load_n(&all.n, __ATOMIC_ACQUIRE);
    int i = 0;
    while (i < n && at - all.lo[i] >= all.hi[i] - all.lo[i]) ++i;
    if (__builtin_expect(i == n, 1)) return;
    ::pyasc_sim::kapi::simt::VfRun *r = ::pyasc_sim::kapi::simt::vf_run();
    if (r == nullptr || r->cur == nullptr) return;
    const uintptr_t pc = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    if (r->code == nullptr || !r->code->has(pc)) return;
    ::pyasc_sim::kapi::simt::Fiber *f = r->cur;
    if (pc < f->pc) {
        f->back_from = f->pc;
        f->pc = pc;
        ::pyasc_sim::kapi::simt::to_scheduler(r);
    } else {
        f->pc = pc;
        if (pc > r->limit) ::pyasc_sim::kapi::simt::to_scheduler(r);
    }
}
#pragma GCC visibility pop
#endif

// threadIdx / blockDim / blockIdx / gridDim: variables of the block's host thread that VF_CALL sets
// for each SIMT thread it runs (blocks are one-dimensional; a kernel's own local of the same name, as
// public kernels declare, shadows them).
inline thread_local ::pyasc_sim::kapi::simt::Uint3 threadIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockDim;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 gridDim;

namespace pyasc_sim {
namespace kapi {
namespace simt {
// The next lane of warp [w, end) to run: the runnable lane at the lowest basic block (the lowest lane on a
// tie).  A lane that jumped back (a loop's next iteration) is held until no other runnable lane is still at
// or before the block it jumped from, then all such lanes go on together: lanes start an iteration together.
inline Fiber *pick_lane(VfRun &r, size_t w, size_t end) {
    auto runnable = [](const Fiber &f) { return f.st == FiberState::kReady && !f.fenced; };
    uintptr_t lowest = UINTPTR_MAX;  // the lowest block a runnable lane that did not jump back is at
    for (size_t i = w; i < end; ++i) {
        const Fiber &f = r.fibers[i];
        if (runnable(f) && f.back_from == 0 && f.pc < lowest) lowest = f.pc;
    }
    for (size_t i = w; i < end; ++i) {  // released together: none is held by another that jumped back
        Fiber &f = r.fibers[i];
        if (runnable(f) && f.back_from != 0 && lowest > f.back_from) f.back_from = 0;
    }
    Fiber *pick = nullptr;
    for (size_t i = w; i < end; ++i) {
        Fiber &f = r.fibers[i];
        if (runnable(f) && f.back_from == 0 && (pick == nullptr || f.pc < pick->pc)) pick = &f;
    }
    if (pick == nullptr) return nullptr;
    r.limit = UINTPTR_MAX;
    for (size_t i = w; i < end; ++i) {
        const Fiber &f = r.fibers[i];
        if (&f != pick && runnable(f) && f.back_from == 0 && f.pc < r.limit) r.limit = f.pc;
    }
    return pick;
}
// Gives the lanes of warp [w, end) waiting at warp functions their results, the lanes waiting at the same
// call (same basic block and function) together; returns whether any were waiting.
inline bool release_warp(VfRun &r, size_t w, size_t end) {
    bool any = false;
    for (size_t i = w; i < end; ++i) {
        const Fiber &lead = r.fibers[i];
        if (lead.st != FiberState::kWarp) continue;
        uint32_t mask = 0;
        for (size_t k = i; k < end; ++k) {
            const Fiber &f = r.fibers[k];
            if (f.st == FiberState::kWarp && f.op == lead.op && f.pc == lead.pc) mask |= 1u << (k - w);
        }
        for (size_t k = i; k < end; ++k) {
            if ((mask >> (k - w) & 1u) != 0) r.fibers[k].shfl_out = lead.op(&r.fibers[w], mask, static_cast<uint32_t>(k - w));
        }
        for (size_t k = i; k < end; ++k) {
            if ((mask >> (k - w) & 1u) != 0) r.fibers[k].st = FiberState::kReady;
        }
        any = true;
    }
    return any;
}
// Runs warp [w, end) until none of its lanes can run in this pass (all ended, waiting at a barrier, or
// yielded at a fence), releasing its warp functions as its lanes reach them.
inline void run_warp(VfRun &r, size_t w, size_t end, ThreadState &s) {
    for (;;) {
        while (!r.aborted) {
            Fiber *f = pick_lane(r, w, end);
            if (f == nullptr) break;
            s.idx = f->idx;
            ::threadIdx = f->idx;
            r.cur = f;
            to_fiber(r, *f);
        }
        if (r.aborted) return;
        bool fenced = false;
        for (size_t i = w; i < end; ++i) fenced |= r.fibers[i].st == FiberState::kReady;
        if (fenced || !release_warp(r, w, end)) return;
    }
}
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim


namespace AscendC {
namespace Simt {
struct Dim3 {
    uint32_t x = 1u, y = 1u, z = 1u;
    Dim3(uint32_t dx = 1u, uint32_t dy = 1u, uint32_t dz = 1u) : x(dx), y(dy), z(dz) {}
};

namespace detail {
// One VF-call argument as the VF function's parameter P takes it: LocalTensor::GetPhyAddr() is documented to
// return the uint64_t address on the NPU (a T* in CPU debug, as here), and public SIMT code passes it straight to
// a uint64_t parameter, so a pointer argument for a pointer-sized integer parameter passes its address.
template <typename P, typename A>
inline decltype(auto) vf_arg(A &&a) {
    using PD = std::decay_t<P>;
    if constexpr (std::is_pointer_v<std::decay_t<A>> && std::is_integral_v<PD> && sizeof(PD) == sizeof(void *)) {
        return static_cast<PD>(reinterpret_cast<uintptr_t>(a));
    } else {
        return static_cast<A &&>(a);
    }
}
template <typename R, typename... P, typename... A>
inline void vf_invoke(R (*f)(P...), A &&...a) {
    R (*volatile call)(P...) = f;  // called through memory: never inlined here, so its code is its own (lockstep)
    if constexpr (sizeof...(P) == sizeof...(A)) {
        call(vf_arg<P>(static_cast<A &&>(a))...);
    } else {
        call(static_cast<A &&>(a)...);
    }
}
// A direct call of the VF function, never executed (VF_CALL guards it with `if (false)`): g++ 12 instantiates a
// function template specialization named only as a template argument inside a template (VF_CALL<Vf<16>> in a
// member of a class template, as IndexSDK's ivf_rabitq SIMT kernel calls it) only when a call expression names it
// (GCC PR c++/53164), so without this the kernel binary refers to a VF function it never defines.
template <auto funcPtr, typename R, typename... P, typename... A>
inline void vf_odr_use(R (*)(P...), A &&...a) {
    if constexpr (sizeof...(P) == sizeof...(A)) {
        funcPtr(vf_arg<P>(static_cast<A &&>(a))...);
    } else {
        funcPtr(static_cast<A &&>(a)...);
    }
}
}  // namespace detail

// Runs funcPtr(args...) once per thread of `threads`, in order, with the thread's index set.
template <auto funcPtr, typename... Args>
inline void VF_CALL(Dim3 threads, Args &&...args) {
    if (false) detail::vf_odr_use<funcPtr>(funcPtr, args...);  // instantiates funcPtr (see vf_odr_use)
    namespace st = pyasc_sim::kapi::simt;
    const uint64_t total = static_cast<uint64_t>(threads.x) * threads.y * threads.z;
    if (total == 0 || total > st::kMaxThreads) {
        pyasc_sim::kapi::fail("invalid-argument", pyasc_sim::kapi::SrcLoc(),
                              "VF_CALL / asc_vf_call: %u x %u x %u = %llu threads; a SIMT VF call runs 1 to %u "
                              "threads (threadNums, the reference's limit)",
                              threads.x, threads.y, threads.z, static_cast<unsigned long long>(total), st::kMaxThreads);
    }
    st::ThreadState &s = st::thread_state();
    const st::ThreadState saved = s;
    s.dim = {threads.x, threads.y, threads.z};
    s.in_vf = true;
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    ::blockDim = s.dim;
    ::blockIdx = {b.block_idx, 0u, 0u};
    ::gridDim = {b.block_dim, 1u, 1u};
    auto call = [&]() { detail::vf_invoke(funcPtr, args...); };
    using Call = decltype(call);
    st::VfRun run;
    run.body = [](void *p) { (*static_cast<Call *>(p))(); };
    run.arg = &call;
    run.fibers.resize(total);
    const size_t bytes = total * st::kFiberStack;
    void *stacks = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stacks == MAP_FAILED) {
        pyasc_sim::kapi::fail("invalid-argument", pyasc_sim::kapi::SrcLoc(),
                              "VF_CALL / asc_vf_call: cannot map %llu bytes of SIMT thread stacks",
                              static_cast<unsigned long long>(bytes));
    }
    static const st::CodeRanges code = st::code_ranges(reinterpret_cast<const void *>(funcPtr));
    run.code = &code;
    size_t i = 0;
    for (uint32_t z = 0; z < threads.z; ++z) {
        for (uint32_t y = 0; y < threads.y; ++y) {
            for (uint32_t x = 0; x < threads.x; ++x, ++i) {
                st::Fiber &f = run.fibers[i];
                f.idx = {x, y, z};
                st::fiber_init(run, f, static_cast<char *>(stacks) + i * st::kFiberStack);
            }
        }
    }
    st::VfRun *const outer = st::vf_run();
    st::vf_run() = &run;
    bool deadlock = false;
    const size_t warp = static_cast<size_t>(st::kWarpSize);
    for (;;) {
        for (size_t w = 0; w < total && !run.aborted; w += warp) {
            st::run_warp(run, w, w + warp < total ? w + warp : total, s);
        }
        run.cur = nullptr;
        if (run.aborted) break;
        size_t done = 0, barrier = 0, fenced = 0;
        for (st::Fiber &f : run.fibers) {
            done += f.st == st::FiberState::kDone;
            barrier += f.st == st::FiberState::kBarrier;
            fenced += f.st == st::FiberState::kReady;  // yielded at a memory fence: runs again next pass
            f.fenced = false;
        }
        if (done == total) break;
        if (fenced != 0) continue;
        if (done + barrier == total) {
            for (st::Fiber &f : run.fibers) {
                if (f.st == st::FiberState::kBarrier) f.st = st::FiberState::kReady;
            }
            continue;
        }
        deadlock = true;
        break;
    }
    st::vf_run() = outer;
    munmap(stacks, bytes);
    s = saved;
    if (run.aborted) throw pyasc_sim::kapi::KernelAbort{};
    if (deadlock) {
        pyasc_sim::kapi::fail("simt-deadlock", pyasc_sim::kapi::SrcLoc(),
                              "VF_CALL / asc_vf_call: the SIMT threads wait for each other and none can go on");
    }
}

// SIMT atomics on GM or UB (AtomicAdd / AtomicSub / AtomicExch / AtomicMax / AtomicMin / AtomicCas pages): each
// returns the value before the operation; atomic across the threads of all blocks (blocks run concurrently).
namespace detail {
template <typename T>
inline void check_atomic_type() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "Simt atomics take integer or float values");
}
}  // namespace detail
template <typename T>
inline T AtomicAdd(T *address, T val) {
    detail::check_atomic_type<T>();
    return std::atomic_ref<T>(*address).fetch_add(val);
}
template <typename T>
inline T AtomicSub(T *address, T val) {
    detail::check_atomic_type<T>();
    return std::atomic_ref<T>(*address).fetch_sub(val);
}
template <typename T>
inline T AtomicExch(T *address, T val) {
    detail::check_atomic_type<T>();
    return std::atomic_ref<T>(*address).exchange(val);
}
template <typename T>
inline T AtomicMax(T *address, T val) {
    detail::check_atomic_type<T>();
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (old < val && !ref.compare_exchange_weak(old, val)) {
    }
    return old;
}
template <typename T>
inline T AtomicMin(T *address, T val) {
    detail::check_atomic_type<T>();
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (val < old && !ref.compare_exchange_weak(old, val)) {
    }
    return old;
}
// Stores val when *address == compare; returns the old value either way.  A failed compare inside a VF call
// lets the other threads run first (as a fence does): a thread spinning on a lock another thread of its block
// holds would otherwise never let that thread release it.
template <typename T>
inline T AtomicCas(T *address, T compare, T val) {
    detail::check_atomic_type<T>();
    if (!std::atomic_ref<T>(*address).compare_exchange_strong(compare, val)) {
        pyasc_sim::kapi::simt::fiber_fence();
    }
    return compare;
}

// The 1-based position of the lowest set bit of x, 0 when x is 0 (the documented __ffs of
// simt_api/device_functions.h under the Simt-namespace spelling public SIMT kernels use).
inline int32_t Ffs(int32_t x) { return __builtin_ffs(x); }

// The larger / smaller of two values of one type: the Simt-namespace spelling of the documented max / min of
// simt_api/math_functions.h that public SIMT kernels use (Simt::Min(blockSize * (i + 1), count)).
template <typename T>
inline T Max(T x, T y) { return x < y ? y : x; }
template <typename T>
inline T Min(T x, T y) { return y < x ? y : x; }
// The largest integer value not above x (NaN / +-inf unchanged), of a float / half: the Simt-namespace spelling of
// the documented floorf (simt_api/math_functions.h, page atlasascendc_api_07_10510) that CANN's own SIMT kernels
// and DrivingSDK's arch35 multi_scale_deformable_attn use (Simt::Floor(location.y)).
template <typename T>
inline T Floor(T x) { return static_cast<T>(std::floor(static_cast<float>(x))); }

// Waits until every thread of the VF call that has not ended reaches this barrier (ThreadBarrier page).
inline void ThreadBarrier() { pyasc_sim::kapi::simt::fiber_wait(pyasc_sim::kapi::simt::FiberState::kBarrier, "Simt::ThreadBarrier"); }

namespace detail {
namespace st_ = pyasc_sim::kapi::simt;
// One warp function: the calling lane offers `in` (and, for a shuffle, the lane `src` it reads) and waits until
// no lane of its warp can run on; `op` computes each waiting lane's result from the lanes at the same call.
inline uint64_t warp_call(uint64_t in, st_::WarpOp op, int32_t src, const char *api) {
    st_::VfRun *r = st_::vf_run();
    if (r != nullptr && r->cur != nullptr) {
        r->cur->shfl_in = in;
        r->cur->shfl_src = src;
        r->cur->op = op;
    }
    st_::fiber_wait(st_::FiberState::kWarp, api);
    return st_::vf_run()->cur->shfl_out;
}
// A shuffle reads its source lane's value when that lane takes part in it, else (undefined on the NPU) its own.
inline uint64_t shfl_op(const st_::Fiber *warp, uint32_t mask, uint32_t self) {
    const int32_t src = warp[self].shfl_src;
    return src >= 0 && src < 32 && (mask >> src & 1u) != 0 ? warp[src].shfl_in : warp[self].shfl_in;
}
inline uint64_t all_op(const st_::Fiber *warp, uint32_t mask, uint32_t) {
    for (uint32_t l = 0; l < 32; ++l) {
        if ((mask >> l & 1u) != 0 && warp[l].shfl_in == 0) return 0;
    }
    return 1;
}
inline uint64_t any_op(const st_::Fiber *warp, uint32_t mask, uint32_t) {
    for (uint32_t l = 0; l < 32; ++l) {
        if ((mask >> l & 1u) != 0 && warp[l].shfl_in != 0) return 1;
    }
    return 0;
}
inline uint64_t ballot_op(const st_::Fiber *warp, uint32_t mask, uint32_t) {
    uint64_t bits = 0;
    for (uint32_t l = 0; l < 32; ++l) {
        if ((mask >> l & 1u) != 0 && warp[l].shfl_in != 0) bits |= uint64_t{1} << l;
    }
    return bits;
}
inline uint64_t mask_op(const st_::Fiber *, uint32_t mask, uint32_t) { return mask; }
// asc_reduce_add / _max / _min over the active lanes, pairwise (lanes l and l + 16, then + 8, ...: the
// reference's "binary" order, which a float sum may round differently from a sequential one).
enum class Reduce { kAdd, kMax, kMin };
template <typename T, Reduce K>
inline uint64_t reduce_op(const st_::Fiber *warp, uint32_t mask, uint32_t) {
    T v[32];
    bool have[32];
    for (uint32_t l = 0; l < 32; ++l) {
        have[l] = (mask >> l & 1u) != 0;
        if (have[l]) std::memcpy(&v[l], &warp[l].shfl_in, sizeof(T));
    }
    for (uint32_t stride = 16; stride > 0; stride >>= 1) {
        for (uint32_t l = 0; l < stride; ++l) {
            if (!have[l + stride]) continue;
            if (!have[l]) {
                v[l] = v[l + stride];
                have[l] = true;
            } else if constexpr (K == Reduce::kAdd) {
                if constexpr (std::is_integral_v<T>) {  // wraps on overflow
                    using U = std::make_unsigned_t<T>;
                    v[l] = static_cast<T>(static_cast<U>(v[l]) + static_cast<U>(v[l + stride]));
                } else {
                    v[l] = static_cast<T>(v[l] + v[l + stride]);
                }
            } else if constexpr (K == Reduce::kMax) {
                v[l] = v[l + stride] > v[l] ? v[l + stride] : v[l];
            } else {
                v[l] = v[l + stride] < v[l] ? v[l + stride] : v[l];
            }
        }
    }
    uint64_t out = 0;
    std::memcpy(&out, &v[0], sizeof(T));
    return out;
}
template <typename T>
inline uint64_t bits_of(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp function exchanges values of up to 8 bytes");
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <typename T>
inline T from_bits(uint64_t b) {
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}
// One warp shuffle: the calling lane offers var and reads lane src (-1: its own value) of its warp.
template <typename T>
inline T shuffle(T var, int32_t src, const char *api) {
    return from_bits<T>(warp_call(bits_of(var), &shfl_op, src, api));
}
template <typename T, Reduce K>
inline T reduce(T val, const char *api) {
    return from_bits<T>(warp_call(bits_of(val), &reduce_op<T, K>, -1, api));
}
inline int32_t lane_id() {
    const auto &s = pyasc_sim::kapi::simt::thread_state();
    const uint64_t linear = s.idx.x + static_cast<uint64_t>(s.dim.x) * (s.idx.y + static_cast<uint64_t>(s.dim.y) * s.idx.z);
    return static_cast<int32_t>(linear % pyasc_sim::kapi::simt::kWarpSize);
}
inline void check_width(int32_t width, const char *api) {
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
        pyasc_sim::kapi::fail("invalid-argument", pyasc_sim::kapi::SrcLoc(),
                              "%s: width %d; the width of a shuffle group is a power of 2 in (0, 32]", api, width);
    }
}
}  // namespace detail

// Warp shuffles (WarpShflSync / WarpShflUpSync / WarpShflDownSync / WarpShflXorSync pages): lanes are split
// into groups of `width`; a lane whose source falls outside its group reads its own var; a source lane not
// taking part in the shuffle (ended, or waiting elsewhere) is undefined on hardware and gives the own var here.
template <typename T>
inline T WarpShflSync(T var, int32_t srcLane, int32_t width = 32) {
    detail::check_width(width, "Simt::WarpShflSync");
    const int32_t lane = detail::lane_id(), base = lane - lane % width;
    return detail::shuffle(var, base + ((srcLane % width) + width) % width, "Simt::WarpShflSync");
}
template <typename T>
inline T WarpShflUpSync(T var, uint32_t delta, int32_t width = 32) {
    detail::check_width(width, "Simt::WarpShflUpSync");
    const int32_t lane = detail::lane_id(), base = lane - lane % width, src = lane - static_cast<int32_t>(delta);
    return detail::shuffle(var, src < base ? -1 : src, "Simt::WarpShflUpSync");
}
template <typename T>
inline T WarpShflDownSync(T var, uint32_t delta, int32_t width = 32) {
    detail::check_width(width, "Simt::WarpShflDownSync");
    const int32_t lane = detail::lane_id(), base = lane - lane % width, src = lane + static_cast<int32_t>(delta);
    return detail::shuffle(var, src >= base + width ? -1 : src, "Simt::WarpShflDownSync");
}
template <typename T>
inline T WarpShflXorSync(T var, int32_t laneMask, int32_t width = 32) {
    detail::check_width(width, "Simt::WarpShflXorSync");
    const int32_t lane = detail::lane_id(), base = lane - lane % width, src = lane ^ laneMask;
    return detail::shuffle(var, (src < base || src >= base + width) ? -1 : src, "Simt::WarpShflXorSync");
}

// Warp votes (WarpAllSync / WarpAnySync / WarpBallotSync / WarpActiveMask, asc_all / asc_any / asc_ballot /
// asc_activemask pages) over the warp's active lanes, those at the same call; every one gets the same result.
inline int32_t WarpAllSync(int32_t predicate) {
    return static_cast<int32_t>(detail::warp_call(predicate != 0, &detail::all_op, -1, "Simt::WarpAllSync"));
}
inline int32_t WarpAnySync(int32_t predicate) {
    return static_cast<int32_t>(detail::warp_call(predicate != 0, &detail::any_op, -1, "Simt::WarpAnySync"));
}
inline uint32_t WarpBallotSync(int32_t predicate) {
    return static_cast<uint32_t>(detail::warp_call(predicate != 0, &detail::ballot_op, -1, "Simt::WarpBallotSync"));
}
inline uint32_t WarpActiveMask() {
    return static_cast<uint32_t>(detail::warp_call(0, &detail::mask_op, -1, "Simt::WarpActiveMask"));
}
// Warp reductions (the Simt warp-level interface: WarpReduceAddSync / WarpReduceMaxSync /
// WarpReduceMinSync, int32_t / uint32_t / half / float; the C spellings asc_reduce_* below): over the
// warp's active lanes, every one gets the result, in the pairwise order of reduce_op.
#define PYASC_SIM_WARP_REDUCE(name, kind)                                                                      \
    template <typename T>                                                                                      \
    inline T name(T val) {                                                                                     \
        static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, half> || \
                          std::is_same_v<T, float>,                                                            \
                      "Simt::" #name ": val is int32_t, uint32_t, half or float");                             \
        return detail::reduce<T, kind>(val, "Simt::" #name);                                                   \
    }
PYASC_SIM_WARP_REDUCE(WarpReduceAddSync, detail::Reduce::kAdd)
PYASC_SIM_WARP_REDUCE(WarpReduceMaxSync, detail::Reduce::kMax)
PYASC_SIM_WARP_REDUCE(WarpReduceMinSync, detail::Reduce::kMin)
#undef PYASC_SIM_WARP_REDUCE

template <int32_t dim>
inline int32_t GetThreadIdx() {
    static_assert(dim >= 0 && dim <= 2, "Simt::GetThreadIdx<dim>: dim is 0 (x), 1 (y) or 2 (z)");
    const auto &i = pyasc_sim::kapi::simt::thread_state().idx;
    return static_cast<int32_t>(dim == 0 ? i.x : dim == 1 ? i.y : i.z);
}
template <int32_t dim>
inline int32_t GetThreadNum() {
    static_assert(dim >= 0 && dim <= 2, "Simt::GetThreadNum<dim>: dim is 0 (x), 1 (y) or 2 (z)");
    const auto &d = pyasc_sim::kapi::simt::thread_state().dim;
    return static_cast<int32_t>(dim == 0 ? d.x : dim == 1 ? d.y : d.z);
}
inline int32_t GetBlockIdx() { return static_cast<int32_t>(pyasc_sim::kapi::blk().block_idx); }
inline int32_t GetBlockNum() { return static_cast<int32_t>(pyasc_sim::kapi::blk().block_dim); }
inline int32_t GetWarpSize() { return pyasc_sim::kapi::simt::kWarpSize; }
}  // namespace Simt
}  // namespace AscendC

// The C-style SIMT names of the reference's asc_vf_call examples.
using dim3 = AscendC::Simt::Dim3;
template <auto funcPtr, typename... Args>
inline void asc_vf_call(dim3 threadNums, Args &&...args) {
    AscendC::Simt::VF_CALL<funcPtr>(threadNums, static_cast<Args &&>(args)...);
}
template <typename T>
inline T asc_shfl(T var, int32_t srcLane, int32_t width = 32) { return AscendC::Simt::WarpShflSync(var, srcLane, width); }
template <typename T>
inline T asc_shfl_up(T var, uint32_t delta, int32_t width = 32) { return AscendC::Simt::WarpShflUpSync(var, delta, width); }
template <typename T>
inline T asc_shfl_down(T var, uint32_t delta, int32_t width = 32) {
    return AscendC::Simt::WarpShflDownSync(var, delta, width);
}
template <typename T>
inline T asc_shfl_xor(T var, int32_t laneMask, int32_t width = 32) {
    return AscendC::Simt::WarpShflXorSync(var, laneMask, width);
}
// The overloads of a warp reduction `name` (kind: kAdd, kMax or kMin of detail::Reduce): int32_t, uint32_t and float
// (the asc_reduce_* pages), plus the one type given after kind (the builtins __reduce_* of kapi/simt_builtins.h also
// take half). Every active lane gets the result, in the pairwise order of reduce_op. One macro for both spellings.
#define PYASC_SIM_SIMT_REDUCE_ONE(name, kind, T) \
    inline T name(T val) { return AscendC::Simt::detail::reduce<T, AscendC::Simt::detail::Reduce::kind>(val, #name); }
#define PYASC_SIM_SIMT_REDUCE(name, kind, ...)        \
    PYASC_SIM_SIMT_REDUCE_ONE(name, kind, int32_t)    \
    PYASC_SIM_SIMT_REDUCE_ONE(name, kind, uint32_t)   \
    PYASC_SIM_SIMT_REDUCE_ONE(name, kind, float)      \
    __VA_OPT__(PYASC_SIM_SIMT_REDUCE_ONE(name, kind, __VA_ARGS__))
// The C spellings of the warp votes and the warp reductions (asc_reduce_add / _max / _min pages: int32_t,
// uint32_t and float; every active lane gets the result).
inline int32_t asc_all(int32_t predicate) { return AscendC::Simt::WarpAllSync(predicate); }
inline int32_t asc_any(int32_t predicate) { return AscendC::Simt::WarpAnySync(predicate); }
inline uint32_t asc_ballot(int32_t predicate) { return AscendC::Simt::WarpBallotSync(predicate); }
inline uint32_t asc_activemask() { return AscendC::Simt::WarpActiveMask(); }
PYASC_SIM_SIMT_REDUCE(asc_reduce_add, kAdd)
PYASC_SIM_SIMT_REDUCE(asc_reduce_max, kMax)
PYASC_SIM_SIMT_REDUCE(asc_reduce_min, kMin)
// The CUDA spellings SIMT code ported from CUDA calls (__shfl(var, srcLane, width) ...): the warp shuffles above.
template <typename T>
inline T __shfl(T var, int32_t srcLane, int32_t width = 32) { return AscendC::Simt::WarpShflSync(var, srcLane, width); }
template <typename T>
inline T __shfl_up(T var, uint32_t delta, int32_t width = 32) { return AscendC::Simt::WarpShflUpSync(var, delta, width); }
template <typename T>
inline T __shfl_down(T var, uint32_t delta, int32_t width = 32) {
    return AscendC::Simt::WarpShflDownSync(var, delta, width);
}
template <typename T>
inline T __shfl_xor(T var, int32_t laneMask, int32_t width = 32) {
    return AscendC::Simt::WarpShflXorSync(var, laneMask, width);
}
// __ballot: the CUDA spelling of asc_ballot (a 32-bit mask, bit i set when lane i's predicate is non-zero; every
// active lane gets the same mask), as SIMT code ported from CUDA calls it next to __shfl_xor.
inline uint32_t __ballot(int32_t predicate) { return AscendC::Simt::WarpBallotSync(predicate); }
#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_H_
