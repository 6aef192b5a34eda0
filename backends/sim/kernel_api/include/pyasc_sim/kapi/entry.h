// Ascend C on the CPU -- entry stubs: how the simulated runtime calls a kernel.
//
// The runtime calls  extern "C" void __pyasc_sim_entry_<name>(PyascSimBlockContext *ctx)
// once per block (pyasc_sim/kernel_abi.h).  Write (or generate) after the kernel's source:
//
//     PYASC_SIM_KERNEL(add_custom)                 // entry for  void add_custom(GM_ADDR, ..., uint32_t)
//     PYASC_SIM_KERNEL_NAMED(mm_half, mm<half>)    // entry named mm_half for a template instance
//
// The stub deduces the kernel's parameter types, unpacks the args blob (laid out as the
// device compiler lays out kernel parameters: each at the next offset aligned to its type's
// alignment, by its own size -- GM_ADDR as a 64-bit address, uint32_t in 4 bytes, half in 2,
// trivially copyable structs by value, any size), makes the block's state current, calls the
// kernel, then runs the end-of-kernel checks (queue tensors not freed, SetFlag never waited for), reports the
// global-memory ranges the block wrote (for the runtime's cross-core overlap check) and
// stores the block's estimated cycles.  A failed check ends the block through KernelAbort.
// Each entry also puts a signature record in the binary's ".pyasc_sim_sig" section (kernel
// name, parameter names and types, and per parameter its size, alignment, offset and kind), which
// pyasc reads from the file to pack arguments: a binary without the section (an older one, or a
// hand-written __pyasc_sim_entry_) keeps the first ABI, one 8-byte slot per argument. A blob of
// exactly 8 bytes per parameter (the first ABI's callers) still works with scalar-only kernels.
#ifndef PYASC_SIM_KAPI_ENTRY_H_
#define PYASC_SIM_KAPI_ENTRY_H_

#include <array>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "pyasc_sim/kapi/debug.h"
#include "pyasc_sim/kapi/shmem_launch.h"
#include "pyasc_sim/kapi/gm_copy.h"
#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/sync.h"
#include "pyasc_sim/kapi/tiling.h"
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
            if (ctx->abi_version >= 5 && st_.checks) {
                st_.xrace = (ctx->flags & PYASC_SIM_FLAG_XRACE) != 0;  // gm-cross-core-race records
                st_.gm_uninit = ctx->gm_uninit;
                st_.gm_uninit_base = ctx->gm_uninit_base;
                st_.gm_uninit_span = ctx->gm_uninit_span;
#ifdef __SANITIZE_THREAD__  // raw __gm__ access checks (raw_gm.h): the device heap's range
                if (ctx->gm_uninit != nullptr) {
                    __atomic_store_n(&raw_gm_heap_range.lo, ctx->gm_uninit_base, __ATOMIC_RELAXED);
                    __atomic_store_n(&raw_gm_heap_range.span, ctx->gm_uninit_span, __ATOMIC_RELAXED);
                }
#endif
            }
        } else {
            st_.checks = env_checks();
        }
#ifdef PYASC_SIM_SOC_UB_BYTES
        st_.capacity[kUB] = PYASC_SIM_SOC_UB_BYTES;  // built for a SoC whose UB differs (build.py SOC_UB_BYTES)
#endif
#ifdef PYASC_SIM_STRICT
        st_.strict = true;  // compile option: -DPYASC_SIM_STRICT=1
#endif
        if (ctx->abi_version >= 4 && (ctx->flags & PYASC_SIM_FLAG_STRICT) != 0) st_.strict = true;
        if (ctx->abi_version >= 6 && (ctx->flags & PYASC_SIM_FLAG_PROFILE) != 0 && ctx->report_spans != nullptr) {
            st_.tl.keep = true;  // the profiler: keep the timeline's spans (at most span_cap)
            st_.tl.cap = static_cast<size_t>(ctx->span_cap);
        }
        shmem_blob_ = shmem_attach(st_, ctx);  // a SHMEM launch: this block's PE and its arguments
        shmem_blob_size_ = shmem_blob_ != nullptr ? ctx->args_size * st_.shmem_npes + kShmemTrailerBytes : 0;
        prev_ = current_block_ptr();
        current_block_ptr() = &st_;
    }
    ~BlockScope() {
        raw_restore(st_);  // bytes failing raw __gm__ stores overwrote (gm-foreign-block, ...), put back
        current_block_ptr() = prev_;
        if (shmem_blob_ != nullptr) {  // the runtime's blob, as it passed it
            st_.ctx->args = shmem_blob_;
            st_.ctx->args_size = shmem_blob_size_;
        }
    }
    BlockScope(const BlockScope &) = delete;
    BlockScope &operator=(const BlockScope &) = delete;
    BlockState &state() { return st_; }

private:
    BlockState st_;
    BlockState *prev_ = nullptr;
    const void *shmem_blob_ = nullptr;  // a SHMEM launch: the whole argument blob (kapi/shmem_launch.h)
    size_t shmem_blob_size_ = 0;
};

// Kinds in the signature table (what pyasc packs from a Python value).
enum ParamKind : uint64_t { kParamOther = 0, kParamPointer = 1, kParamSigned = 2, kParamUnsigned = 3,
                            kParamFloat = 4, kParamBfloat16 = 5, kParamBool = 6 };

template <typename A>
constexpr uint64_t param_kind() {
    return std::is_pointer<A>::value                                   ? kParamPointer
           : std::is_same<A, bool>::value                              ? kParamBool
           : std::is_same<A, bfloat16_t>::value                        ? kParamBfloat16
           : (std::is_floating_point<A>::value || std::is_same<A, half>::value) ? kParamFloat
           : (std::is_integral<A>::value && std::is_signed<A>::value)  ? kParamSigned
           : std::is_integral<A>::value || std::is_enum<A>::value      ? kParamUnsigned
                                                                       : kParamOther;
}

// The parameters' layout: [n, then per parameter size, alignment, offset, kind, ..., blob size].
template <typename... A>
constexpr std::array<uint64_t, 4 * sizeof...(A) + 2> param_table(void (*)(A...)) {
    std::array<uint64_t, 4 * sizeof...(A) + 2> t{};
    const uint64_t sizes[] = {0, sizeof(A)...};
    const uint64_t aligns[] = {1, alignof(A)...};
    const uint64_t kinds[] = {0, param_kind<A>()...};
    uint64_t off = 0;
    t[0] = sizeof...(A);
    for (size_t i = 0; i < sizeof...(A); ++i) {
        off = (off + aligns[i + 1] - 1) / aligns[i + 1] * aligns[i + 1];
        t[1 + 4 * i] = sizes[i + 1];
        t[2 + 4 * i] = aligns[i + 1];
        t[3 + 4 * i] = off;
        t[4 + 4 * i] = kinds[i + 1];
        off += sizes[i + 1];
    }
    t[1 + 4 * sizeof...(A)] = off;
    return t;
}

// One kernel's record in the ".pyasc_sim_sig" section: "PYASCSIG", its size, the table format
// version, the text ("name\n" then "param\ttype\n" per parameter when the generator knows them).
template <size_t L, size_t T>
struct SignatureRecord {
    char magic[8];
    uint32_t record_size;
    uint32_t version;
    uint32_t text_size;
    uint32_t table_size;
    char text[L];
    std::array<uint64_t, T> table;
};

template <typename A>
inline A unpack_arg(const PyascSimBlockContext *ctx, size_t offset) {
    static_assert(std::is_trivially_copyable<A>::value,
                  "simulator kernel parameters must be trivially copyable (GM addresses, scalars, structs by value)");
    A a;
    std::memcpy(static_cast<void *>(&a), static_cast<const char *>(ctx->args) + offset, sizeof(A));
    return a;
}

// True when every parameter is a scalar or GM address (at most 8 bytes): then a blob of exactly
// 8 * n bytes is read as the first ABI's 8-byte slots. This is never ambiguous: a typed layout
// of such parameters is 8 * n bytes long only when every offset is 8 * i, where both agree.
template <typename... A>
constexpr bool slot_compatible() {
    const bool small[] = {true, (sizeof(A) <= 8 && param_kind<A>() != kParamOther)...};
    for (bool b : small)
        if (!b) return false;
    return sizeof...(A) > 0;
}

template <typename... A, size_t... I>
inline void call_kernel(void (*fn)(A...), const PyascSimBlockContext *ctx, std::index_sequence<I...>) {
    constexpr auto table = param_table(static_cast<void (*)(typename std::decay<A>::type...)>(nullptr));
    const bool slots = slot_compatible<typename std::decay<A>::type...>() && ctx->args_size == 8 * sizeof...(A);
    (void)table;  // a kernel without parameters (hello_world()) reads neither
    (void)slots;
    fn(unpack_arg<typename std::decay<A>::type>(ctx, slots ? 8 * I : table[3 + 4 * I])...);
}

inline void end_of_kernel_checks(BlockState &st) {
    poll_end(st);  // the last poll of each GM flag word (gm_poll.h)
    AscendC::sim_detail::sim_check_flags_at_exit();
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

// Hands the core's timeline spans to the profiler (ABI v6, PYASC_SIM_FLAG_PROFILE).
inline void report_spans(PyascSimBlockContext *ctx, const BlockState &st, uint32_t core) {
    if (!st.tl.keep || ctx->abi_version < 6 || ctx->report_spans == nullptr) return;
    ctx->report_spans(ctx->runtime_user, ctx->block_idx, core, st.tl.spans.data(), st.tl.spans.size(), st.tl.dropped);
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

// One home for the tag naming an AIV core of a mixed block in its reports and warnings: writes
// "AIV <sub>: <text>" into out (truncated to size) and returns the length written.  No allocation:
// the crash handler's __pyasc_sim_failed_block uses it too.
inline size_t tag_aiv(char *out, size_t size, uint32_t sub, const char *text, size_t text_len) {
    if (size == 0) return 0;
    const int n = std::snprintf(out, size, "AIV %u: %.*s", sub, static_cast<int>(text_len), text);
    if (n < 0) {
        out[0] = '\0';
        return 0;
    }
    return static_cast<size_t>(n) < size ? static_cast<size_t>(n) : size - 1;
}

// The vector cores of one block of a mixed kernel, each on its own thread with its own context
// (the primary core merges their status, cycles, GM writes and warnings when the kernel ends).
template <typename... A>
struct SubCores {
    PyascSimBlockContext *ctx = nullptr;
    const char *name = "";
    void (*fn)(A...) = nullptr;
    uint32_t ratio = 0;
    const BlockState *primary = nullptr;  // the block's AIC (its SHMEM PE, kapi/shmem_launch.h)
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
            if (self->primary != nullptr) shmem_inherit(st, *self->primary);
            try {
                call_kernel(self->fn, c, std::index_sequence_for<A...>{});
                end_of_kernel_checks(st);
            } catch (const KernelAbort &) {
            } catch (const std::exception &e) {
                c->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
                std::snprintf(c->message, sizeof(c->message), "C++ exception escaped the kernel: %s", e.what());
            }
            gm_fence();  // the sub-core's streamed GM stores, before its end is seen
            c->cycles = static_cast<uint64_t>(block_cycles(st));
            report_spans(c, st, 1 + sub);
            if (c->status == 0 && st.checks) self->writes[sub] = std::move(st.writes);
            for (const std::string &w : st.warnings) {
                if (c->abi_version >= 4 && c->report_warning != nullptr) {
                    std::string tagged(w.size() + 16, '\0');
                    tagged.resize(tag_aiv(&tagged[0], tagged.size(), sub, w.data(), w.size()));
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

    // A core that only failed because the others ended without releasing it (a cross-core deadlock).
    static bool secondary(const PyascSimBlockContext &c) {
        return std::strstr(c.message, "'cross-core-deadlock'") != nullptr;
    }

    // Joins the vector cores; their first failure becomes the block's when the AIC did not fail, or
    // when the AIC only failed waiting for them (its cross-core deadlock is the consequence, the
    // vector core's own failure the cause: e.g. an AIC waiting for a flag its AIV never set).
    void join(BlockState &st) {
        for (std::thread &t : threads) t.join();
        bool block_secondary = ctx->status != 0 && secondary(*ctx);
        for (uint32_t s = 0; s < threads.size(); ++s) {
            const PyascSimBlockContext &c = ctxs[s];
            if (c.cycles > ctx->cycles) ctx->cycles = c.cycles;
            if (c.status != 0 && (ctx->status == 0 || (block_secondary && !secondary(c)))) {
                ctx->status = c.status;
                block_secondary = secondary(c);
                tag_aiv(ctx->message, sizeof(ctx->message), s, c.message, strnlen(c.message, sizeof(c.message)));
            }
            st.writes.insert(st.writes.end(), writes[s].begin(), writes[s].end());
        }
        if (!threads.empty()) ctx->cores_per_block = 1 + static_cast<uint32_t>(threads.size());
    }
};

// `aiv_fn`: the kernel's vector-core pass when pyasc_sim.compile built a mixed kernel twice (once
// per core kind, __DAV_C220_CUBE__ / __DAV_C220_VEC__): the block's AIC runs `fn` (the cube pass),
// its AIV run `aiv_fn`. Without it every core runs `fn`.
template <typename... A>
inline void run_entry(PyascSimBlockContext *ctx, const char *name, void (*fn)(A...),
                      void (*aiv_fn)(A...) = nullptr) {
    BlockScope scope(ctx, name);
    BlockState &st = scope.state();
    constexpr auto table = param_table(static_cast<void (*)(typename std::decay<A>::type...)>(nullptr));
    const size_t need = static_cast<size_t>(table[1 + 4 * sizeof...(A)]);
    if (ctx->args_size < need || (need != 0 && ctx->args == nullptr)) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message),
                      "kernel %s takes %zu arguments (%zu bytes laid out by their types) but the launch passed %zu bytes",
                      name, sizeof...(A), need, ctx->args_size);
        return;
    }
    SubCores<A...> subs;
    subs.ctx = ctx;
    subs.primary = &st;
    subs.name = name;
    subs.fn = aiv_fn != nullptr ? aiv_fn : fn;
    st.spawn_subcores = &SubCores<A...>::spawn;
    st.spawn_self = &subs;
    try {
#if defined(PYASC_SIM_DEFAULT_TASK_TYPE)
        // The kernel type the NPU compiler infers for a kernel that declares none (a kernel with cube and
        // vector code builds as MIX AIC:AIV 1:2): given at build time with
        // extra_flags=["-DPYASC_SIM_DEFAULT_TASK_TYPE=KERNEL_TYPE_MIX_AIC_1_2"]; a KERNEL_TASK_TYPE_DEFAULT in
        // the kernel is then a no-op.
        declare_task_type(static_cast<int>(PYASC_SIM_DEFAULT_TASK_TYPE));
#else
        // The type the NPU compiler infers for a kernel that declares none (kapi/core_usage.h): a kernel
        // instantiating cube and vector instructions launches numBlocks groups of one AIC and two AIV.
#if defined(PYASC_SIM_SPLIT_PASS) && PYASC_SIM_SPLIT_PASS == 1
        constexpr bool split_cube_pass = true;  // this entry runs the cube pass of a per-core-kind build
#else
        constexpr bool split_cube_pass = false;
#endif
        const int inferred = inferred_task_type(split_cube_pass);
        if (inferred >= 0) declare_task_type(inferred);
        // a per-core-kind build whose binary has vector instructions only: its blocks are vector cores, which
        // run the vector pass
        if (split_cube_pass && aiv_fn != nullptr && inferred_vector_only()) fn = aiv_fn;
#endif
        call_kernel(fn, ctx, std::index_sequence_for<A...>{});
        end_of_kernel_checks(st);
    } catch (const KernelAbort &) {
        // status and message are already set
    } catch (const std::exception &e) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message), "C++ exception escaped the kernel: %s", e.what());
    }
    gm_fence();  // the block's streamed GM stores, before its end is seen (gm_copy.h)
    flush_block_output();  // the block's printf / DumpTensor output, in one piece
    ctx->cycles = static_cast<uint64_t>(block_cycles(st));
    report_spans(ctx, st, 0);
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

// The op-project build (and a direct-launch build with -DHAVE_WORKSPACE) sets the system workspace
// from the kernel's workspace parameter before the kernel runs ("框架会自动设置", SetSysWorkSpace): the
// generator makes such a kernel's entry run SysWorkspaceEntry<&kernel, I>::call, I the parameter's
// index, in every core of the block (the AIV threads of a mixed launch call the same function).
template <auto Fn, size_t I>
struct SysWorkspaceEntry;
template <typename... A, void (*Fn)(A...), size_t I>
struct SysWorkspaceEntry<Fn, I> {
    static void call(A... a) {
        ::AscendC::SetSysWorkspace(reinterpret_cast<GM_ADDR>(std::get<I>(std::forward_as_tuple(a...))));
        Fn(a...);
    }
};

}  // namespace kapi
}  // namespace pyasc_sim

// The signature record of entry `entry_name` (kernel expression `...`), `text` as above.
#define PYASC_SIM_SIGNATURE(entry_name, text, ...)                                                        \
    __attribute__((section(".pyasc_sim_sig"), used, aligned(8))) static const ::pyasc_sim::kapi::SignatureRecord< \
        sizeof(text), ::pyasc_sim::kapi::param_table(&(__VA_ARGS__)).size()>                              \
        __pyasc_sim_sig_##entry_name = {                                                                  \
            {'P', 'Y', 'A', 'S', 'C', 'S', 'I', 'G'},                                                      \
            sizeof(::pyasc_sim::kapi::SignatureRecord<sizeof(text),                                      \
                                                      ::pyasc_sim::kapi::param_table(&(__VA_ARGS__)).size()>), \
            1, sizeof(text), ::pyasc_sim::kapi::param_table(&(__VA_ARGS__)).size(), text,                 \
            ::pyasc_sim::kapi::param_table(&(__VA_ARGS__))};

// An entry with a signature record whose text is the entry's name (the generator's form names
// the parameters too: PYASC_SIM_KERNEL_SIG).
#define PYASC_SIM_KERNEL_NAMED(entry_name, ...)                                                        \
    PYASC_SIM_SIGNATURE(entry_name, #entry_name "\n", __VA_ARGS__)                                     \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##entry_name(PyascSimBlockContext *ctx) { \
        ::pyasc_sim::kapi::run_entry(ctx, #entry_name, &(__VA_ARGS__));                                  \
    }
// Spelled out (not through PYASC_SIM_KERNEL_NAMED) so that a kernel renamed by a macro (pyasc_sim's
// C-library-name clash workaround) keeps its own name for the entry and its signature text while
// calling the renamed function.
#define PYASC_SIM_KERNEL(name)                                                                         \
    PYASC_SIM_SIGNATURE(name, #name "\n", name)                                                        \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##name(PyascSimBlockContext *ctx) {      \
        ::pyasc_sim::kapi::run_entry(ctx, #name, &(name));                                             \
    }
// PYASC_SIM_KERNEL with the generator's signature text ("name\n" + "param\ttype\n" each).
#define PYASC_SIM_KERNEL_SIG(name, text)                                                               \
    PYASC_SIM_SIGNATURE(name, text, name)                                                              \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##name(PyascSimBlockContext *ctx) {      \
        ::pyasc_sim::kapi::run_entry(ctx, #name, &(name));                                             \
    }

// For the device process's crash report (runtime/device_main.cpp): when the calling thread runs a
// block that already failed a check, its first report (an AIV core of a mixed block prefixed
// "AIV <n>: ") into `first`, the report of a check it failed after that (while the first one's
// abort unwound: a destructor's, which ends in std::terminate) or "" into `second`, the kernel's
// name into `kernel`, and the block's index; else -1.  A process that crashes after a block failed thus reports the cause,
// not only SIGABRT.  Weak: once per binary.
PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT __attribute__((weak)) int32_t __pyasc_sim_failed_block(char *first, size_t first_size,
                                                                                        char *second,
                                                                                        size_t second_size,
                                                                                        char *kernel,
                                                                                        size_t kernel_size) {
    const ::pyasc_sim::kapi::BlockState *b = ::pyasc_sim::kapi::current_block_ptr();
    if (b == nullptr || !b->failed || b->ctx == nullptr || b->ctx->status == 0 || first_size == 0 ||
        second_size == 0 || kernel_size == 0) {
        return -1;
    }
    const PyascSimBlockContext &c = *b->ctx;
    const int n = static_cast<int>(strnlen(c.message, sizeof(c.message)));
    if (b->mixed && b->core_kind == ::pyasc_sim::kapi::kCoreAIV) {
        ::pyasc_sim::kapi::tag_aiv(first, first_size, b->sub_idx, c.message, static_cast<size_t>(n));
    } else {
        std::snprintf(first, first_size, "%.*s", n, c.message);
    }
    const auto &again = ::pyasc_sim::kapi::unwind_failure();
    std::snprintf(second, second_size, "%.*s", static_cast<int>(strnlen(again, sizeof(again))), again);
    std::snprintf(kernel, kernel_size, "%s", b->kernel != nullptr ? b->kernel : "?");
    return static_cast<int32_t>(c.block_idx);
}

#endif  // PYASC_SIM_KAPI_ENTRY_H_
