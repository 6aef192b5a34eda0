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
#include <thread>
#include <utility>

#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/sync.h"
#include "pyasc_sim/kapi/mix.h"

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
        st_.group = ctx->block_idx;
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
        } else {
            st_.checks = env_checks();
        }
#ifdef PYASC_SIM_STRICT
        st_.strict = true;  // compile option: -DPYASC_SIM_STRICT=1
#endif
        if (ctx->abi_version >= 4 && (ctx->flags & PYASC_SIM_FLAG_STRICT) != 0) st_.strict = true;
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

// Hands the block's warnings to the runtime (ABI v4), or prints them (older runtimes).
inline void report_warnings(PyascSimBlockContext *ctx, const BlockState &st) {
    for (const std::string &w : st.warnings) {
        if (ctx->abi_version >= 4 && ctx->report_warning != nullptr) {
            ctx->report_warning(ctx->runtime_user, ctx->block_idx, w.c_str());
        } else {
            std::fprintf(stderr, "pyasc_sim: kernel %s block %u: %s\n", st.kernel, ctx->block_idx, w.c_str());
        }
    }
}

// The vector cores of one block of a mixed kernel, each on its own thread with its own context
// (the primary core merges their status, cycles, GM writes and warnings when the kernel ends).
template <typename... A>
struct SubCores {
    PyascSimBlockContext *ctx = nullptr;
    const char *name = "";
    void (*fn)(A...) = nullptr;
    uint32_t ratio = 0;
    std::unique_ptr<PyascSimBlockContext[]> ctxs;
    std::vector<std::vector<PyascSimGmWrite>> writes;
    std::vector<std::thread> threads;

    static void run_one(SubCores *self, uint32_t sub) {
        PyascSimBlockContext *c = &self->ctxs[sub];
        {
            BlockScope scope(c, self->name);
            BlockState &st = scope.state();
            st.mixed = true;
            st.mix_aiv = self->ratio;
            st.task_type_set = true;
            st.core_kind = kCoreAIV;
            st.ratio = self->ratio;
            st.sub_idx = sub;
            st.block_idx = st.group * self->ratio + sub;
            try {
                call_kernel(self->fn, c, std::index_sequence_for<A...>{});
                end_of_kernel_checks(st);
            } catch (const KernelAbort &) {
            } catch (const std::exception &e) {
                c->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
                std::snprintf(c->message, sizeof(c->message), "C++ exception escaped the kernel: %s", e.what());
            }
            c->cycles = static_cast<uint64_t>(block_cycles(st));
            if (c->status == 0 && st.checks) self->writes[sub] = std::move(st.writes);
            for (const std::string &w : st.warnings) {
                if (c->abi_version >= 4 && c->report_warning != nullptr) {
                    const std::string tagged = "AIV " + std::to_string(sub) + ": " + w;
                    c->report_warning(c->runtime_user, c->block_idx, tagged.c_str());
                }
            }
        }
        if (c->abi_version >= 4 && c->core_ended != nullptr) c->core_ended(c->runtime_user);
    }

    static void spawn(void *p, uint32_t ratio) {
        SubCores *self = static_cast<SubCores *>(p);
        if (!self->threads.empty()) return;
        self->ratio = ratio;
        self->ctxs.reset(new PyascSimBlockContext[ratio]);
        self->writes.resize(ratio);
        for (uint32_t s = 0; s < ratio; ++s) {
            self->ctxs[s] = *self->ctx;
            self->ctxs[s].status = 0;
            self->ctxs[s].message[0] = '\0';
            self->ctxs[s].cycles = 0;
            if (self->ctx->abi_version >= 4 && self->ctx->core_started != nullptr) {
                self->ctx->core_started(self->ctx->runtime_user);
            }
        }
        for (uint32_t s = 0; s < ratio; ++s) self->threads.emplace_back(&SubCores::run_one, self, s);
    }

    // Joins the vector cores; their first failure becomes the block's when the AIC did not fail.
    void join(BlockState &st) {
        for (std::thread &t : threads) t.join();
        for (uint32_t s = 0; s < threads.size(); ++s) {
            const PyascSimBlockContext &c = ctxs[s];
            if (c.cycles > ctx->cycles) ctx->cycles = c.cycles;
            if (c.status != 0 && ctx->status == 0) {
                ctx->status = c.status;
                std::snprintf(ctx->message, sizeof(ctx->message), "AIV %u: %.1000s", s, c.message);
            }
            st.writes.insert(st.writes.end(), writes[s].begin(), writes[s].end());
        }
        if (!threads.empty()) ctx->cores_per_block = 1 + static_cast<uint32_t>(threads.size());
    }
};

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
    SubCores<A...> subs;
    subs.ctx = ctx;
    subs.name = name;
    subs.fn = fn;
    st.spawn_subcores = &SubCores<A...>::spawn;
    st.spawn_self = &subs;
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
    const bool spawned = !subs.threads.empty();
    // The AIC is done: count it as ended while its AIV finish (a wait of theirs on it can then be
    // seen as a deadlock); after the join the runtime counts the block's end once more, so one
    // more participant balances it.
    if (spawned && ctx->abi_version >= 4 && ctx->core_ended != nullptr) ctx->core_ended(ctx->runtime_user);
    subs.join(st);
    if (spawned && ctx->abi_version >= 4 && ctx->core_started != nullptr) ctx->core_started(ctx->runtime_user);
    if (ctx->status == 0 && st.checks) report_writes(ctx, st.writes);
    report_warnings(ctx, st);
}

}  // namespace kapi
}  // namespace pyasc_sim

#define PYASC_SIM_KERNEL_NAMED(entry_name, ...)                                                        \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##entry_name(PyascSimBlockContext *ctx) { \
        ::pyasc_sim::kapi::run_entry(ctx, #entry_name, &(__VA_ARGS__));                                  \
    }
#define PYASC_SIM_KERNEL(name) PYASC_SIM_KERNEL_NAMED(name, name)

#endif  // PYASC_SIM_KAPI_ENTRY_H_
