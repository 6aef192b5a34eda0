// tikicpulib.h -- the host API of Ascend C's CPU debug mode, on the simulator (no CANN needed).
//
// A CPU-debug host program (main.cpp, under #ifdef ASCENDC_CPU_DEBUG) uses:
//   AscendC::GmAlloc(bytes) / AscendC::GmFree(ptr)   global memory the kernel may access (zeroed,
//                                                     32-byte aligned; the sanitizer knows its bounds)
//   AscendC::SetKernelMode(KernelMode::AIV_MODE | AIC_MODE | MIX_MODE)   the core kind blocks run on
//   ICPU_SET_TILING_KEY(key)                          the key TILING_KEY_IS compares with
//   ICPU_RUN_KF(kernel, blockDim, args...)            runs `blockDim` blocks of the kernel
// MIX_MODE runs each block as one AIC and, once the kernel declares KERNEL_TYPE_MIX_AIC_1_2 (1_1),
// its two (one) AIV, as the simulator's normal launch does (a kernel source split with #if
// defined(__DAV_C220_CUBE__) / __DAV_C220_VEC__ is built once per core kind by `pyasc cpu-debug`: the
// AIC run its cube pass, the AIV its vector pass); cross-core waits (SyncAll,
// CrossCoreWaitFlag) meet across the launch.  Blocks run in parallel, one thread each, with the kernel API's sanitizer checks (PYASC_SIM_CHECKS
// switches them); PYASC_SIM_SERIAL=1 runs them one at a time in the calling thread (for gdb).  A
// failed check prints "kernel K block B: ..." to stderr and ends the program with status 1 after
// the launch (PYASC_SIM_CPU_DEBUG_CONTINUE=1 keeps it running).  Build and run: `pyasc cpu-debug
// main.cpp kernel.cpp -- args` (see kernel_api/README.md, "CPU debug programs").
// Written from the public Ascend C documentation (names and documented behaviour only).
#ifndef PYASC_SIM_TIKICPULIB_H_
#define PYASC_SIM_TIKICPULIB_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "pyasc_sim/kapi/cpu_debug_cores.h"  // cross-core callbacks, MIX_MODE blocks

namespace AscendC {

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

}  // namespace AscendC

using AscendC::KernelMode;  // documented as SetKernelMode(KernelMode::AIV_MODE)

namespace pyasc_sim {
namespace cpudebug {

struct Registry {
    std::mutex mu;
    std::map<uintptr_t, size_t> blocks;  // GmAlloc'd ranges: base -> bytes
    AscendC::KernelMode mode = AscendC::KernelMode::AIV_MODE;
    bool failed = false;
};
inline Registry &registry() {
    static Registry r;
    return r;
}

inline int gm_query(void *, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    auto it = r.blocks.upper_bound(a);
    if (it != r.blocks.begin()) {
        --it;
        if (a < it->first + it->second) {
            *base = it->first;
            *size = it->second;
            return 1;
        }
    }
    if (why != nullptr && why_size > 0) {
        std::snprintf(why, why_size, "it was not returned by AscendC::GmAlloc (or was GmFree'd)");
    }
    return 0;
}

inline bool env_on(const char *name) {
    const char *v = std::getenv(name);
    return v != nullptr && (std::strcmp(v, "1") == 0 || std::strcmp(v, "on") == 0 || std::strcmp(v, "true") == 0 ||
                            std::strcmp(v, "yes") == 0);
}

// One block of the kernel, in the calling thread, with the kernel API's block state.
template <typename... P, typename... A>
inline void run_block(void (*fn)(P...), const char *name, uint32_t idx, uint32_t dim, int32_t core,
                      A... args) {
    PyascSimBlockContext ctx{};
    ctx.abi_version = PYASC_SIM_KERNEL_ABI_VERSION;
    ctx.block_idx = idx;
    ctx.block_dim = dim;
    ctx.soc_name = "Ascend910B1";
    ctx.flags = ::pyasc_sim::kapi::env_checks() ? PYASC_SIM_FLAG_CHECKS : 0u;
    ctx.kernel_name = name;
    ctx.gm_query = &gm_query;
    attach_cores(ctx);
    ::pyasc_sim::kapi::core_type_slot() = core;
    if (registry().mode == AscendC::KernelMode::MIX_MODE) {
        run_entry_block(ctx, fn, name, args...);  // AIC first; the mixed-kernel declaration starts the AIV
    } else {
        // AIV_MODE runs a split build's vector pass (AIC_MODE its cube pass, the kernel itself)
        void (*const body)(P...) = core == AscendC::AIV && split_aiv(fn) != nullptr ? split_aiv(fn) : fn;
        std::vector<unsigned char> blob;  // what the kernel was given, for gm-foreign-block
        ctx.args_size = pack_args(blob, fn, args...);
        ctx.args = blob.data();
        ::pyasc_sim::kapi::BlockScope scope(&ctx, name);
        try {
            body((P)(args)...);  // C-style, like the device launch: uint8_t * -> __gm__ T *
            ::pyasc_sim::kapi::end_of_kernel_checks(scope.state());
        } catch (const ::pyasc_sim::kapi::KernelAbort &) {
        } catch (const std::exception &e) {
            ctx.status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
            std::snprintf(ctx.message, sizeof(ctx.message), "C++ exception escaped the kernel: %s", e.what());
        }
    }
    core_ended(nullptr);
    if (ctx.status != 0) {
        std::fprintf(stderr, "kernel %s block %u: %s\n", name, idx, ctx.message);
        std::lock_guard<std::mutex> lock(registry().mu);
        registry().failed = true;
    }
}

template <typename... P, typename... A>
inline void run(void (*fn)(P...), const char *name, uint32_t dim, A... args) {
    static_assert(sizeof...(P) == sizeof...(A), "ICPU_RUN_KF: wrong number of kernel arguments");
    const int32_t core = registry().mode == AscendC::KernelMode::AIC_MODE ? AscendC::AIC : AscendC::AIV;
    registry().failed = false;
    if (env_on("PYASC_SIM_SERIAL")) {
        for (uint32_t b = 0; b < dim; ++b) {
            cores().reset(1);
            run_block(fn, name, b, dim, core, args...);
        }
    } else {
        cores().reset(dim);
        std::vector<std::thread> threads;
        threads.reserve(dim);
        for (uint32_t b = 0; b < dim; ++b) {
            threads.emplace_back([=] { run_block(fn, name, b, dim, core, args...); });
        }
        for (std::thread &t : threads) t.join();
    }
    if (registry().failed && !env_on("PYASC_SIM_CPU_DEBUG_CONTINUE")) {
        std::fprintf(stderr, "pyasc_sim cpu-debug: kernel %s failed a check; exiting with status 1 "
                     "(PYASC_SIM_CPU_DEBUG_CONTINUE=1 keeps running)\n", name);
        std::exit(1);
    }
}

}  // namespace cpudebug
}  // namespace pyasc_sim

namespace AscendC {

// `size` bytes of global memory for a CPU-debug launch: zeroed, 32-byte aligned.
inline void *GmAlloc(size_t size) {
    const size_t bytes = size == 0 ? 32 : (size + 31) / 32 * 32;
    void *p = ::operator new(bytes, std::align_val_t(32));
    std::memset(p, 0, bytes);
    auto &r = pyasc_sim::cpudebug::registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.blocks[reinterpret_cast<uintptr_t>(p)] = size;
    return p;
}

inline void GmFree(void *ptr) {
    if (ptr == nullptr) return;
    auto &r = pyasc_sim::cpudebug::registry();
    {
        std::lock_guard<std::mutex> lock(r.mu);
        auto it = r.blocks.find(reinterpret_cast<uintptr_t>(ptr));
        if (it == r.blocks.end()) {
            std::fprintf(stderr, "AscendC::GmFree(%p): not an address GmAlloc returned (or freed twice)\n", ptr);
            std::abort();
        }
        r.blocks.erase(it);
    }
    ::operator delete(ptr, std::align_val_t(32));
}

inline void SetKernelMode(KernelMode mode) { pyasc_sim::cpudebug::registry().mode = mode; }

}  // namespace AscendC

#define ICPU_SET_TILING_KEY(key) (::pyasc_sim::kapi::tiling_key_slot() = static_cast<uint64_t>(key))
#define ICPU_RUN_KF(func, blockdim, ...) \
    ::pyasc_sim::cpudebug::run(&(func), #func, static_cast<uint32_t>(blockdim), __VA_ARGS__)

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_TIKICPULIB_H_
