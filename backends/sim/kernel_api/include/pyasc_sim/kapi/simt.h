// Ascend C on the CPU -- the SIMT programming model basics of the Atlas 350 / Ascend 950 (kernels built
// with soc="Ascend950PR_9599"): AscendC::Simt::VF_CALL<f>(Simt::Dim3{x, y, z}, args...) and its C form
// asc_vf_call<f>(dim3{...}, args...), __simt_vf__, LAUNCH_BOUND(n) / __launch_bounds__(n),
// Simt::GetThreadIdx<k>() / GetThreadNum<k>() / GetBlockIdx() / GetBlockNum() / GetWarpSize(), and the
// threadIdx / blockIdx / blockDim / gridDim built-ins of the reference's examples.
//
// How the simulator runs a VF call: its x * y * z threads (at most 2048, the reference's limit) are fibers
// run one after another, x fastest, on the calling block's host thread, each until it ends or waits at
// Simt::ThreadBarrier() or a warp shuffle (WarpShfl*Sync, asc_shfl*), which release as on hardware: a
// barrier when every thread that has not ended waits there, a shuffle when no lane of the warp can run on.
// LAUNCH_BOUND / __launch_bounds__ (a register-allocation hint) change nothing on the CPU.
#ifndef PYASC_SIM_KAPI_SIMT_H_
#define PYASC_SIM_KAPI_SIMT_H_

#include <sys/mman.h>
#include <ucontext.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
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

// Each SIMT thread of a VF call is a fiber (ucontext) on its own stack; the block's host thread runs them in
// order, x fastest, each until it ends or waits: at Simt::ThreadBarrier() (released when every thread that
// has not ended waits there) or at a warp shuffle (released when no lane of its warp can still run: the lanes
// waiting at the shuffle exchange their values).  A thread that never waits runs to completion in one go.
enum class FiberState : uint8_t { kReady, kBarrier, kWarp, kDone };
struct Fiber {
    ucontext_t ctx;
    Uint3 idx;
    FiberState st = FiberState::kReady;
    uint64_t shfl_in = 0, shfl_out = 0;  // the bits of the exchanged value
    int32_t shfl_src = -1;               // the warp lane read, -1: the thread's own value
};
struct VfRun {
    ucontext_t sched;
    std::vector<Fiber> fibers;
    Fiber *cur = nullptr;
    void (*body)(void *) = nullptr;
    void *arg = nullptr;
    bool aborted = false;
};
inline VfRun *&vf_run() {
    thread_local VfRun *r = nullptr;
    return r;
}
constexpr size_t kFiberStack = 256 * 1024;  // virtual; a thread touches a few pages of it
inline void fiber_entry() {
    VfRun *r = vf_run();
    try {
        r->body(r->arg);
    } catch (const ::pyasc_sim::kapi::KernelAbort &) {
        r->aborted = true;
    }
    r->cur->st = FiberState::kDone;  // uc_link returns to the scheduler
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
    swapcontext(&r->cur->ctx, &r->sched);
}
// A memory fence (asc_threadfence / __threadfence): orders this thread's memory accesses for the others and
// lets the other threads of the VF call run before this one goes on, so a thread spinning on memory another
// thread of its block will write (a lock, a flag) sees that write, as with threads running concurrently.
inline void fiber_fence() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    VfRun *r = vf_run();
    if (r == nullptr || r->cur == nullptr) return;  // outside a VF call: a fence only
    r->cur->st = FiberState::kReady;
    swapcontext(&r->cur->ctx, &r->sched);
}
// Resolves the shuffles of every warp none of whose lanes can still run; returns whether any was.
inline bool release_warps(VfRun &r) {
    bool any = false;
    const size_t n = r.fibers.size();
    for (size_t w = 0; w < n; w += kWarpSize) {
        const size_t end = w + kWarpSize < n ? w + kWarpSize : n;
        bool waiting = false, ready = false;
        for (size_t i = w; i < end; ++i) {
            waiting |= r.fibers[i].st == FiberState::kWarp;
            ready |= r.fibers[i].st == FiberState::kReady;  // yielded at a fence: it may still reach the shuffle
        }
        if (!waiting || ready) continue;
        for (size_t i = w; i < end; ++i) {
            Fiber &f = r.fibers[i];
            if (f.st != FiberState::kWarp) continue;
            const Fiber *src = f.shfl_src >= 0 ? &r.fibers[w + static_cast<size_t>(f.shfl_src)] : nullptr;
            const bool live = src != nullptr && w + static_cast<size_t>(f.shfl_src) < end && src->st == FiberState::kWarp;
            f.shfl_out = live ? src->shfl_in : f.shfl_in;
        }
        for (size_t i = w; i < end; ++i) {
            if (r.fibers[i].st == FiberState::kWarp) r.fibers[i].st = FiberState::kReady;
        }
        any = true;
    }
    return any;
}
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim

// threadIdx / blockDim / blockIdx / gridDim: variables of the block's host thread that VF_CALL sets
// for each SIMT thread it runs (blocks are one-dimensional; a kernel's own local of the same name, as
// public kernels declare, shadows them).
inline thread_local ::pyasc_sim::kapi::simt::Uint3 threadIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockDim;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 gridDim;


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
    if constexpr (sizeof...(P) == sizeof...(A)) {
        f(vf_arg<P>(static_cast<A &&>(a))...);
    } else {
        f(static_cast<A &&>(a)...);
    }
}
}  // namespace detail

// Runs funcPtr(args...) once per thread of `threads`, in order, with the thread's index set.
template <auto funcPtr, typename... Args>
inline void VF_CALL(Dim3 threads, Args &&...args) {
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
    size_t i = 0;
    for (uint32_t z = 0; z < threads.z; ++z) {
        for (uint32_t y = 0; y < threads.y; ++y) {
            for (uint32_t x = 0; x < threads.x; ++x, ++i) {
                st::Fiber &f = run.fibers[i];
                f.idx = {x, y, z};
                getcontext(&f.ctx);
                f.ctx.uc_stack.ss_sp = static_cast<char *>(stacks) + i * st::kFiberStack;
                f.ctx.uc_stack.ss_size = st::kFiberStack;
                f.ctx.uc_link = &run.sched;
                makecontext(&f.ctx, st::fiber_entry, 0);
            }
        }
    }
    st::VfRun *const outer = st::vf_run();
    st::vf_run() = &run;
    bool deadlock = false;
    for (;;) {
        for (st::Fiber &f : run.fibers) {
            if (f.st != st::FiberState::kReady || run.aborted) continue;
            s.idx = f.idx;
            ::threadIdx = f.idx;
            run.cur = &f;
            swapcontext(&run.sched, &f.ctx);
        }
        if (run.aborted) break;
        if (st::release_warps(run)) continue;
        size_t done = 0, barrier = 0, ready = 0;
        for (const st::Fiber &f : run.fibers) {
            done += f.st == st::FiberState::kDone;
            barrier += f.st == st::FiberState::kBarrier;
            ready += f.st == st::FiberState::kReady;  // yielded at a memory fence: runs again next round
        }
        if (done == total) break;
        if (ready != 0) continue;
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

// Waits until every thread of the VF call that has not ended reaches this barrier (ThreadBarrier page).
inline void ThreadBarrier() { pyasc_sim::kapi::simt::fiber_wait(pyasc_sim::kapi::simt::FiberState::kBarrier, "Simt::ThreadBarrier"); }

namespace detail {
// One warp shuffle: the calling lane offers var and reads lane src (-1: its own value) of its warp.
template <typename T>
inline T shuffle(T var, int32_t src, const char *api) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp shuffle exchanges values of up to 8 bytes");
    namespace st = pyasc_sim::kapi::simt;
    st::VfRun *r = st::vf_run();
    if (r != nullptr && r->cur != nullptr) {
        std::memcpy(&r->cur->shfl_in, &var, sizeof(T));
        r->cur->shfl_src = src;
    }
    st::fiber_wait(st::FiberState::kWarp, api);
    T out;
    std::memcpy(&out, &st::vf_run()->cur->shfl_out, sizeof(T));
    return out;
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
#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_H_
