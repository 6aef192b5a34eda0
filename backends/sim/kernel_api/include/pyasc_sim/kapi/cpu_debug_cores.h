// Ascend C on the CPU -- the cross-core part of the CPU-debug host API (tikicpulib.h): the runtime
// callbacks of kernel ABI v4 (launch_shared, cross_core_wait / notify, core_started / ended) for
// ICPU_RUN_KF launches, so SyncAll, CrossCoreSetFlag / WaitFlag and the AIC / AIV cores of a
// MIX_MODE launch meet as in the simulator's normal launch; and a block run through the kernel
// API's entry (run_entry) so that KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) starts the
// block's vector cores.
#ifndef PYASC_SIM_KAPI_CPU_DEBUG_CORES_H_
#define PYASC_SIM_KAPI_CPU_DEBUG_CORES_H_

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "pyasc_sim/kapi/entry.h"

namespace pyasc_sim {
namespace cpudebug {

// One launch's cross-core state: cores alive, cores waiting (with their conditions), the shared area.
struct Cores {
    std::mutex mu;
    std::condition_variable cv;
    uint32_t live = 0;
    std::vector<std::pair<int (*)(void *), void *>> waiting;
    std::vector<unsigned char> shared;

    void reset(uint32_t cores) {
        std::lock_guard<std::mutex> lock(mu);
        live = cores;
        waiting.clear();
        shared.clear();
    }
};
inline Cores &cores() {
    static Cores c;
    return c;
}

inline void *launch_shared(void *, size_t bytes) {
    Cores &c = cores();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.shared.empty()) c.shared.assign(bytes, 0);
    return bytes <= c.shared.size() ? c.shared.data() : nullptr;
}

inline void cross_core_notify(void *) {
    Cores &c = cores();
    std::lock_guard<std::mutex> lock(c.mu);
    c.cv.notify_all();
}

// Waits until ready(arg); a wait is hopeless when every live core waits and no waiter is ready.
inline int cross_core_wait(void *, uint32_t block, int (*ready)(void *), void *arg, const char *what, char *why,
                           size_t why_size) {
    Cores &c = cores();
    std::unique_lock<std::mutex> lock(c.mu);
    c.waiting.emplace_back(ready, arg);
    c.cv.notify_all();  // the others re-check: this core is now waiting too
    for (;;) {
        if (ready(arg)) break;
        bool any_ready = false;
        for (const auto &w : c.waiting) any_ready = any_ready || w.first(w.second) != 0;
        if (!any_ready && c.waiting.size() >= c.live) {
            for (size_t i = 0; i < c.waiting.size(); ++i) {
                if (c.waiting[i].second == arg && c.waiting[i].first == ready) {
                    c.waiting.erase(c.waiting.begin() + static_cast<long>(i));
                    break;
                }
            }
            c.cv.notify_all();
            std::snprintf(why, why_size,
                          "block %u waits for %s, but every other core of the launch has ended or waits too: on "
                          "hardware this hangs", block, what);
            return 1;
        }
        c.cv.wait(lock);
    }
    for (size_t i = 0; i < c.waiting.size(); ++i) {
        if (c.waiting[i].second == arg && c.waiting[i].first == ready) {
            c.waiting.erase(c.waiting.begin() + static_cast<long>(i));
            break;
        }
    }
    return 0;
}

inline void core_started(void *) {
    Cores &c = cores();
    std::lock_guard<std::mutex> lock(c.mu);
    ++c.live;
}
inline void core_ended(void *) {
    Cores &c = cores();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.live > 0) --c.live;
    c.cv.notify_all();
}

// Fills the ABI-v4 callbacks of a CPU-debug block context.
inline void attach_cores(PyascSimBlockContext &ctx) {
    ctx.abi_version = PYASC_SIM_KERNEL_ABI_VERSION;
    ctx.vector_cores = 48;
    ctx.cube_cores = 24;
    ctx.launch_shared = &launch_shared;
    ctx.cross_core_wait = &cross_core_wait;
    ctx.cross_core_notify = &cross_core_notify;
    ctx.core_started = &core_started;
    ctx.core_ended = &core_ended;
}

// A mixed kernel source built once per core kind (pyasc_sim.cpudebug, a split build: #if
// defined(__DAV_C220_CUBE__) / __DAV_C220_VEC__): kernel (its cube pass) -> its vector pass, registered
// by the cube pass's unit when the program starts.
inline std::map<const void *, const void *> &split_kernels() {
    static std::map<const void *, const void *> m;
    return m;
}
template <typename... P>
inline bool register_split(void (*aic)(P...), void (*aiv)(P...)) {
    split_kernels()[reinterpret_cast<const void *>(aic)] = reinterpret_cast<const void *>(aiv);
    return true;
}
// The vector pass of `fn` when its source was built per core kind, else nullptr.
template <typename... P>
inline auto split_aiv(void (*fn)(P...)) -> void (*)(P...) {
    const auto &m = split_kernels();
    auto it = m.find(reinterpret_cast<const void *>(fn));
    return it != m.end() ? reinterpret_cast<void (*)(P...)>(const_cast<void *>(it->second)) : nullptr;
}

// The arguments of a CPU-debug launch packed as the device launch lays them out (the blob the
// gm-foreign-block check reads: its GmAlloc pointers are what the kernel was given); returns the
// blob's size in bytes (`blob` holds 8 more, zeroed).
template <typename... P, typename... A>
inline size_t pack_args(std::vector<unsigned char> &blob, void (*)(P...), A... args) {
    constexpr auto table = ::pyasc_sim::kapi::param_table(static_cast<void (*)(std::decay_t<P>...)>(nullptr));
    blob.assign(static_cast<size_t>(table[1 + 4 * sizeof...(P)]) + 8, 0);
    size_t i = 0;
    auto put = [&](auto tag, auto value) {
        using T = typename decltype(tag)::type;
        const T v = (T)(value);  // C-style, like the device launch: uint8_t * -> __gm__ T *
        std::memcpy(blob.data() + table[3 + 4 * i], &v, sizeof(T));
        ++i;
    };
    (put(std::common_type<std::decay_t<P>>{}, args), ...);
    return static_cast<size_t>(table[1 + 4 * sizeof...(P)]);
}

// A block of a MIX_MODE launch: the arguments packed as the device launch lays them out, then the
// kernel API's entry (the block's first core is its AIC; the mixed-kernel declaration starts the AIV).
template <typename... P, typename... A>
inline void run_entry_block(PyascSimBlockContext &ctx, void (*fn)(P...), const char *name, A... args) {
    std::vector<unsigned char> blob;
    ctx.args_size = pack_args(blob, fn, args...);
    ctx.args = blob.data();
    ::pyasc_sim::kapi::run_entry(&ctx, name, fn, split_aiv(fn));  // a split build: the AIV run the vector pass
    ctx.args = nullptr;
}

}  // namespace cpudebug
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_CPU_DEBUG_CORES_H_
