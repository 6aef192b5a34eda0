// Ascend C on the CPU -- entry stubs: how the simulated runtime calls a kernel.
//
// The runtime calls  extern "C" void __pyasc_sim_entry_<name>(PyascSimBlockContext *ctx)
// once per block (pyasc_sim/kernel_abi.h).  Write (or generate) after the kernel's source:
//
//     PYASC_SIM_KERNEL(add_custom)                 // entry for  void add_custom(GM_ADDR, ..., uint32_t)
//     PYASC_SIM_KERNEL_NAMED(mm_half, mm<half>)    // entry named mm_half for a template instance
//
// The stub deduces the kernel's parameter types, unpacks the args blob (argument i is
// the 8-byte slot at offset 8 * i; its value sits in the slot's low-order bytes as the
// parameter's own type: GM_ADDR as a uint64 address, integers, float as its 4-byte IEEE
// bits, ...), makes the block's state current, calls the kernel, then runs the end-of-
// kernel checks (queue tensors not freed, SetFlag never waited for), reports the
// global-memory ranges the block wrote (for the runtime's cross-core overlap check) and
// stores the block's estimated cycles.  A failed check ends the block through KernelAbort.
#ifndef PYASC_SIM_KAPI_ENTRY_H_
#define PYASC_SIM_KAPI_ENTRY_H_

#include <exception>
#include <utility>

#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/sync.h"

// Exported once per binary (weak: any number of translation units may include this).
PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT __attribute__((weak)) const uint32_t __pyasc_sim_kernel_abi_version =
    PYASC_SIM_KERNEL_ABI_VERSION;

namespace pyasc_sim {
namespace kapi {

inline bool env_checks() {
    const char *env = std::getenv("PYASC_SIM_CHECKS");
    if (env == nullptr || env[0] == '\0') return true;
    return !(std::strcmp(env, "0") == 0 || std::strcmp(env, "off") == 0 || std::strcmp(env, "false") == 0 ||
             std::strcmp(env, "no") == 0);
}

// Makes a BlockState current for the lifetime of this object.
class BlockScope {
public:
    BlockScope(PyascSimBlockContext *ctx, const char *name) {
        st_.ctx = ctx;
        st_.kernel = name;
        st_.block_idx = ctx->block_idx;
        st_.block_dim = ctx->block_dim;
        default_capacities(st_.capacity);
        if (ctx->abi_version >= 2) {
            if (ctx->kernel_name != nullptr) st_.kernel = ctx->kernel_name;
            st_.checks = (ctx->flags & PYASC_SIM_FLAG_CHECKS) != 0;
            if (ctx->ub_bytes) st_.capacity[kUB] = ctx->ub_bytes;
            if (ctx->l1_bytes) st_.capacity[kL1] = ctx->l1_bytes;
            if (ctx->l0a_bytes) st_.capacity[kL0A] = ctx->l0a_bytes;
            if (ctx->l0b_bytes) st_.capacity[kL0B] = ctx->l0b_bytes;
            if (ctx->l0c_bytes) st_.capacity[kL0C] = ctx->l0c_bytes;
            if (ctx->abi_version >= 4 && st_.checks) {
                st_.gm_uninit = ctx->gm_uninit;
                st_.gm_uninit_base = ctx->gm_uninit_base;
                st_.gm_uninit_span = ctx->gm_uninit_span;
            }
        } else {
            st_.checks = env_checks();
        }
        prev_ = current_block_ptr();
        current_block_ptr() = &st_;
    }
    ~BlockScope() { current_block_ptr() = prev_; }
    BlockScope(const BlockScope &) = delete;
    BlockScope &operator=(const BlockScope &) = delete;
    BlockState &state() { return st_; }

private:
    BlockState st_;
    BlockState *prev_ = nullptr;
};

template <typename A>
inline A unpack_arg(const PyascSimBlockContext *ctx, size_t i) {
    static_assert(sizeof(A) <= 8 && std::is_trivially_copyable<A>::value,
                  "simulator kernel parameters must be GM addresses or scalars of at most 8 bytes");
    A a;
    std::memcpy(&a, static_cast<const char *>(ctx->args) + 8 * i, sizeof(A));
    return a;
}

template <typename... A, size_t... I>
inline void call_kernel(void (*fn)(A...), const PyascSimBlockContext *ctx, std::index_sequence<I...>) {
    fn(unpack_arg<typename std::decay<A>::type>(ctx, I)...);
}

inline void end_of_kernel_checks(BlockState &st) {
    AscendC::sim_check_flags_at_exit();
    if (st.deferred && st.ctx != nullptr) {
        st.failed = true;
        st.ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(st.ctx->message, sizeof(st.ctx->message), "%s", st.deferred_message);
    }
}

// Hands the block's GM writes to the runtime for the cross-core overlap check: with their source
// lines (ABI v3), or as bare ranges (a v2 runtime).
inline void report_writes(PyascSimBlockContext *ctx, std::vector<PyascSimGmWrite> &writes) {
    if (ctx->abi_version >= 3 && ctx->report_gm_write_sites != nullptr) {
        compact_writes(writes);
        ctx->report_gm_write_sites(ctx->runtime_user, ctx->block_idx, writes.data(), writes.size());
    } else if (ctx->abi_version >= 2 && ctx->report_gm_writes != nullptr) {
        compact_writes(writes);
        std::vector<PyascSimGmRange> ranges;
        ranges.reserve(writes.size());
        for (const PyascSimGmWrite &w : writes) ranges.push_back({w.begin, w.end});
        ctx->report_gm_writes(ctx->runtime_user, ctx->block_idx, ranges.data(), ranges.size());
    }
}

template <typename... A>
inline void run_entry(PyascSimBlockContext *ctx, const char *name, void (*fn)(A...)) {
    BlockScope scope(ctx, name);
    BlockState &st = scope.state();
    const size_t need = 8 * sizeof...(A);
    if (ctx->args_size < need || (need != 0 && ctx->args == nullptr)) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message),
                      "kernel %s takes %zu arguments (%zu bytes of 8-byte slots) but the launch passed %zu bytes", name,
                      sizeof...(A), need, ctx->args_size);
        return;
    }
    try {
        call_kernel(fn, ctx, std::index_sequence_for<A...>{});
        end_of_kernel_checks(st);
    } catch (const KernelAbort &) {
        // status and message are already set
    } catch (const std::exception &e) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message), "C++ exception escaped the kernel: %s", e.what());
    }
    ctx->cycles = static_cast<uint64_t>(block_cycles(st));
    if (ctx->status == 0 && st.checks) report_writes(ctx, st.writes);
}

}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_KERNEL_NAMED(entry_name, ...)                                                        \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##entry_name(PyascSimBlockContext *ctx) { \
        ::pyasc_sim::kapi::run_entry(ctx, #entry_name, &(__VA_ARGS__));                                  \
    }
#define PYASC_SIM_KERNEL(name) PYASC_SIM_KERNEL_NAMED(name, name)

#endif  // PYASC_SIM_KAPI_ENTRY_H_
