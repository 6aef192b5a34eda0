// pyasc-sim-device: the process that runs the kernel blocks of one simulated device.
//
// Started by the simulated ACL runtime (device_process.cpp) with posix_spawn:
//   pyasc-sim-device <ctl_fd> <heap_fd> <heap_base> <heap_size> <parent_pid> <device_id>
// It maps device memory at the host's address, then serves launch requests posted in the
// shared control block.  A fault in kernel code (signal, exit()) is written to the control
// block's crash area and ends this process only; the host reports it and respawns.
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "pyasc_sim/cost_model.h"
#include "block_runner.h"
#include "profile_log.h"
#include "devproc_protocol.h"
#include "pyasc/acl_abi.h"
#include "pyasc_sim/kernel_abi.h"
#include "spin_wait.h"
#include "thread_pool.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

using namespace pyasc_sim;
using devproc::ControlBlock;
using devproc::Slot;

namespace {

ControlBlock *g_ctl = nullptr;
pid_t g_parent = 0;
thread_local int32_t t_block = -1;
thread_local int32_t t_slot = -1;
thread_local uintptr_t t_stack_lo = 0, t_stack_hi = 0;
// dlopen of a kernel binary in progress on this thread: a crash is in its static initialisation, before any block
thread_local bool t_loading = false;

// ---- crash reporting -------------------------------------------------------------------

const char *signal_what(int sig, int code, bool near_stack) {
    switch (sig) {
        case SIGSEGV:
            return near_stack ? "SIGSEGV (stack overflow: unbounded or too deep recursion)"
                              : "SIGSEGV (invalid memory access)";
        case SIGBUS: return "SIGBUS (bus error: misaligned or unbacked memory access)";
        case SIGFPE:
            if (code == FPE_INTDIV) return "SIGFPE (integer division by zero)";
            if (code == FPE_INTOVF) return "SIGFPE (integer overflow)";
            return "SIGFPE (arithmetic exception)";
        case SIGILL: return "SIGILL (illegal instruction)";
        case SIGABRT: return "SIGABRT (abort() called)";
        case SIGTRAP: return "SIGTRAP (trap instruction)";
    }
    return "fatal signal";
}

uintptr_t context_pc(void *uc) {
    const ucontext_t *u = static_cast<const ucontext_t *>(uc);
#if defined(__x86_64__)
    return static_cast<uintptr_t>(u->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<uintptr_t>(u->uc_mcontext.pc);
#else
    (void)u;
    return 0;
#endif
}

bool is_runtime_module(const char *path) {
    if (path == nullptr) return true;
    const char *base = std::strrchr(path, '/');
    base = base != nullptr ? base + 1 : path;
    return std::strncmp(base, "libc.", 5) == 0 || std::strncmp(base, "libc-", 5) == 0 ||
           std::strncmp(base, "libstdc++", 9) == 0 || std::strncmp(base, "libgcc", 6) == 0 ||
           std::strncmp(base, "libpthread", 10) == 0 || std::strcmp(base, "pyasc-sim-device") == 0;
}

// Names the code that faulted: the first stack frame inside a kernel binary (abort() and
// friends fault inside libc), else the faulting instruction's function.
void record_location(ControlBlock *c, uintptr_t pc) {
    void *frames[48];
    const int n = backtrace(frames, 48);
    uintptr_t where = pc;
    for (int i = 0; i < n; ++i) {
        Dl_info info;
        const uintptr_t f = reinterpret_cast<uintptr_t>(frames[i]);
        if (dladdr(frames[i], &info) != 0 && !is_runtime_module(info.dli_fname)) {
            where = f;
            break;
        }
    }
    Dl_info info;
    if (where != 0 && dladdr(reinterpret_cast<void *>(where), &info) != 0) {
        std::snprintf(c->crash_function, sizeof(c->crash_function), "%s", info.dli_sname ? info.dli_sname : "");
        std::snprintf(c->crash_module, sizeof(c->crash_module), "%s", info.dli_fname ? info.dli_fname : "");
        c->crash_pc_offset = where - reinterpret_cast<uintptr_t>(info.dli_fbase);
        c->crash_pc_is_return = where != pc ? 1u : 0u;  // a caller's frame: the call precedes it
    }
}

// When the crash happened in a kernel binary on a thread whose block had already failed a check
// (a destructor failing again while that failure's abort unwinds ends in std::terminate), the
// block's first report and index, from the binary's __pyasc_sim_failed_block (kapi/entry.h).
void record_failed_block(ControlBlock *c) {
    c->crash_report[0] = '\0';
    c->crash_report_again[0] = '\0';
    c->crash_kernel[0] = '\0';
    if (c->crash_module[0] == '\0' || is_runtime_module(c->crash_module)) return;
    void *handle = dlopen(c->crash_module, RTLD_NOW | RTLD_NOLOAD);  // already loaded: no I/O, no constructors
    if (handle == nullptr) return;
    using FailedBlock = int32_t (*)(char *, size_t, char *, size_t, char *, size_t);
    const auto fn = reinterpret_cast<FailedBlock>(dlsym(handle, "__pyasc_sim_failed_block"));
    if (fn == nullptr) return;
    const int32_t block = fn(c->crash_report, sizeof(c->crash_report), c->crash_report_again,
                             sizeof(c->crash_report_again), c->crash_kernel, sizeof(c->crash_kernel));
    if (block >= 0 && c->crash_block < 0) {  // (on -1 it wrote nothing: the fields stay empty)
        c->crash_block = block;  // an AIV core of a mixed block runs on a thread of the kernel's own
    }
}

void publish_crash_and_exit(ControlBlock *c, int code) {
    c->crashed.store(1, std::memory_order_release);
    devproc::ring(c->host_bell);
    _exit(code);
}

void crash_handler(int sig, siginfo_t *si, void *uc) {
    ControlBlock *c = g_ctl;
    if (c->crash_claim.exchange(1) != 0) {
        for (;;) pause();  // another thread is reporting; it ends the process
    }
    const uintptr_t addr = reinterpret_cast<uintptr_t>(si->si_addr);
    const bool near_stack = sig == SIGSEGV && t_stack_hi != 0 && addr + (1u << 20) >= t_stack_lo && addr < t_stack_hi;
    c->crash_signal = sig;
    c->crash_block = t_block;
    c->crash_slot = t_slot;
    c->crash_addr = addr;
    std::snprintf(c->crash_what, sizeof(c->crash_what), "%s%s", signal_what(sig, si->si_code, near_stack),
                  t_loading ? " while the device process loaded the kernel binary (in its static initialisation, "
                              "before any block ran)"
                            : "");
    record_location(c, context_pc(uc));
    if (!t_loading) record_failed_block(c);  // (not into a binary whose initialisation did not finish)
    publish_crash_and_exit(c, 128 + sig);
}

// exit() called by kernel code (any thread): reported like a crash of the calling block.
void on_exit_handler(int status, void *) {
    ControlBlock *c = g_ctl;
    if (c == nullptr) return;
    bool running = false;
    for (const Slot &sl : c->slots) running = running || sl.running.load() != 0;
    if (!running) return;  // a normal shutdown
    if (c->crash_claim.exchange(1) != 0) {
        for (;;) pause();
    }
    c->crash_signal = 0;
    c->crash_exit_status = status;
    c->crash_block = t_block;
    c->crash_slot = t_slot;
    std::snprintf(c->crash_what, sizeof(c->crash_what), "exit(%d) called%s", status,
                  t_loading ? " while the device process loaded the kernel binary (in its static initialisation)" : "");
    record_location(c, 0);
    if (!t_loading) record_failed_block(c);
    publish_crash_and_exit(c, status == 0 ? 1 : status);
}

// An alternate signal stack for the calling thread, so a stack overflow can still be reported.
void install_alt_stack() {
    const size_t size = 256 * 1024;
    void *mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return;
    stack_t ss;
    std::memset(&ss, 0, sizeof(ss));
    ss.ss_sp = mem;
    ss.ss_size = size;
    sigaltstack(&ss, nullptr);
}

void install_crash_handlers() {
    void *warm[2];
    backtrace(warm, 2);  // loads the unwinder now: the handler must not dlopen it
    struct sigaction sa;
    std::memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) sigaction(sig, &sa, nullptr);
}

void note_stack_bounds() {
    if (t_stack_hi != 0) return;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void *lo = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        t_stack_lo = reinterpret_cast<uintptr_t>(lo);
        t_stack_hi = t_stack_lo + size;
    }
    pthread_attr_destroy(&attr);
}

void block_begin(int slot, uint32_t block) {
    note_stack_bounds();
    t_slot = slot;
    t_block = static_cast<int32_t>(block);
}

void block_end() {
    t_block = -1;
    t_slot = -1;
}

// ---- gm_query: the launch's allocation snapshot, else ask the host --------------------

// What gm_query sees of the launch being run: its slot, its entry and its snapshot.
struct QueryContext {
    Slot *slot;
    uint32_t entry;
    const devproc::AllocRange *allocs;
    uint32_t n_allocs;
};

int gm_query(void *user, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) {
    const QueryContext *q = static_cast<const QueryContext *>(user);
    Slot *c = q->slot;
    const uint64_t addr = reinterpret_cast<uintptr_t>(p);
    // Binary search the address-ordered snapshot.
    uint32_t lo = 0, hi = q->n_allocs;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (q->allocs[mid].base <= addr) lo = mid + 1; else hi = mid;
    }
    if (lo > 0) {
        const devproc::AllocRange &r = q->allocs[lo - 1];
        const uint64_t rsize = r.size & ~devproc::kTensorBlockBit;
        if (addr - r.base < rsize) {
            if (base != nullptr) *base = r.base;
            if (size != nullptr) *size = rsize;
            return (r.size & devproc::kTensorBlockBit) != 0 ? PYASC_SIM_GM_TENSOR : PYASC_SIM_GM_ALLOCATION;
        }
    }
    // Not a live allocation of this device at launch: the host knows why (freed, past the end,
    // another device's memory, never allocated).
    static std::mutex query_mu[devproc::kSlots];  // blocks of one launch ask one at a time
    std::lock_guard<std::mutex> lock(query_mu[c - g_ctl->slots]);
    c->q_ptr = addr;
    c->q_entry = q->entry;
    c->query_state.store(devproc::kQueryAsked, std::memory_order_release);
    devproc::ring(g_ctl->host_bell);
    for (;;) {
        const uint32_t s = c->query_state.load(std::memory_order_acquire);
        if (s == devproc::kQueryAnswered) break;
        devproc::futex_wait(c->query_state, s, 200000000L);
        if (getppid() != g_parent) _exit(0);
    }
    const int found = c->q_found;
    if (found) {
        if (base != nullptr) *base = c->q_base;
        if (size != nullptr) *size = c->q_size;
    } else if (why != nullptr && why_size > 0) {
        c->q_why[sizeof(c->q_why) - 1] = '\0';
        std::snprintf(why, why_size, "%s", c->q_why);
    }
    c->query_state.store(devproc::kQueryIdle, std::memory_order_release);
    return found;
}

// ---- kernels: dlopen handles cached by file identity ----------------------------------

// An AI CPU kernel: a plain function over device memory; args is the launch's argument blob
// (pyasc's AI CPU kernels: 8 bytes per argument).  Returns 0, or an error code of its own.
typedef uint32_t (*AiCpuEntry)(void *args);

struct KernelCache {
    std::mutex mu;
    std::map<std::pair<std::string, std::pair<uint64_t, uint64_t>>, void *> binaries;
    std::map<std::pair<void *, std::string>, PyascSimKernelEntry> entries;

    // The entry point, or null with *error set.
    // The loaded binary at path (dev, ino: the file the host checked), or null with *error set.  Under mu.
    void *open(int slot, const char *path, uint64_t dev, uint64_t ino, const char *what, std::string *error) {
        const auto key = std::make_pair(std::string(path), std::make_pair(dev, ino));
        void *&handle = binaries[key];
        if (handle == nullptr) {
            note_stack_bounds();  // (a stack overflow in a static constructor is named as one)
            t_loading = true;
            const int32_t was_slot = t_slot;
            t_slot = slot;  // (a crash names the launch's kernel)
            handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            t_slot = was_slot;
            t_loading = false;
            if (handle == nullptr) {
                const char *why = dlerror();
                *error = std::string("the device process cannot load ") + what + "'" + path + "': " + (why ? why : "?");
                binaries.erase(key);
                return nullptr;
            }
        }
        return handle;
    }

    PyascSimKernelEntry find(int slot, const char *path, const char *name, uint64_t dev, uint64_t ino, std::string *error) {
        std::lock_guard<std::mutex> lock(mu);
        void *handle = open(slot, path, dev, ino, "", error);
        if (handle == nullptr) return nullptr;
        PyascSimKernelEntry &entry = entries[std::make_pair(handle, std::string(name))];
        if (entry == nullptr) {
            const std::string symbol = std::string(PYASC_SIM_ENTRY_PREFIX) + name;
            entry = reinterpret_cast<PyascSimKernelEntry>(dlsym(handle, symbol.c_str()));
            if (entry == nullptr) *error = "the device process finds no symbol " + symbol;
        }
        return entry;
    }

    // An AI CPU binary's entry function (a plain exported symbol), or null with *error set.
    AiCpuEntry find_cpu(int slot, const char *path, const char *name, uint64_t dev, uint64_t ino, std::string *error) {
        std::lock_guard<std::mutex> lock(mu);
        void *handle = open(slot, path, dev, ino, "the AI CPU binary ", error);
        if (handle == nullptr) return nullptr;
        AiCpuEntry &entry = cpu_entries[std::make_pair(handle, std::string(name))];
        if (entry == nullptr) {
            entry = reinterpret_cast<AiCpuEntry>(dlsym(handle, name));
            if (entry == nullptr) *error = std::string("the device process finds no AI CPU function ") + name;
        }
        return entry;
    }
    std::map<std::pair<void *, std::string>, AiCpuEntry> cpu_entries;
};

// The initcheck shadow after an AI CPU function: the AI CPU is no kernel-API code, so what it
// wrote is not known; every tensor block (or allocation) one of its arguments points into counts
// as written (its sectors' bits are cleared), so AI Core kernels may read its outputs.
void mark_cpu_writes(Slot *c, const devproc::Entry &e, const std::vector<uint64_t> &args) {
    if ((e.flags & PYASC_SIM_FLAG_CHECKS) == 0 || c->gm_uninit == 0) return;
    uint8_t *shadow = reinterpret_cast<uint8_t *>(c->gm_uninit);
    const devproc::AllocRange *allocs = c->allocs + e.allocs_off;
    const uint32_t n = e.n_allocs;
    for (size_t i = 0; i < e.args_size / 8; ++i) {
        const uint64_t addr = args[i];
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (allocs[mid].base <= addr) lo = mid + 1; else hi = mid;
        }
        if (lo == 0) continue;
        const devproc::AllocRange &r = allocs[lo - 1];
        const uint64_t size = r.size & ~devproc::kTensorBlockBit;
        if (addr - r.base >= size) continue;
        if (r.base < c->gm_uninit_base || r.base + size > c->gm_uninit_base + c->gm_uninit_span) continue;
        const uint64_t first = (r.base - c->gm_uninit_base) / 32, last = (r.base + size - c->gm_uninit_base + 31) / 32;
        for (uint64_t s = first; s < last;) {
            uint8_t *byte = shadow + s / 8;
            if (s % 8 == 0 && s + 8 <= last) {  // a whole shadow byte
                if (__atomic_load_n(byte, __ATOMIC_RELAXED) != 0) __atomic_store_n(byte, uint8_t{0}, __ATOMIC_RELAXED);
                s += 8;
                continue;
            }
            const uint8_t bit = static_cast<uint8_t>(1u << (s % 8));
            if ((__atomic_load_n(byte, __ATOMIC_RELAXED) & bit) != 0) __atomic_fetch_and(byte, static_cast<uint8_t>(~bit), __ATOMIC_RELAXED);
            ++s;
        }
    }
}

// Runs an AI CPU entry of the slot's batch: the function once, on this thread (the simulated AI
// CPU), over a private copy of the argument blob.  A fault is reported by the crash handler as for
// a kernel block (block 0); a nonzero return is ACL_ERROR_RT_AICPU_EXCEPTION.  The reply's
// wave_cycles is the nanoseconds it ran (the host costs it with the SoC's AI CPU figures).
bool serve_cpu_entry(Slot *c, int slot, devproc::Entry &e, KernelCache &cache) {
    const char *path = reinterpret_cast<const char *>(c->arena + e.path_off);
    const char *name = reinterpret_cast<const char *>(c->arena + e.name_off);
    std::string error;
    AiCpuEntry fn = cache.find_cpu(slot, path, name, e.bin_dev, e.bin_ino, &error);
    if (fn == nullptr) {
        e.status = ACL_ERROR_RT_AICPU_EXCEPTION;
        std::snprintf(c->message, sizeof(c->message), "%s", error.c_str());
        return false;
    }
    std::vector<uint64_t> args((e.args_size + 7) / 8 + 1, 0);
    std::memcpy(args.data(), c->arena + e.args_off, e.args_size);
    block_begin(slot, 0);
    c->running.store(1);
    const auto t0 = std::chrono::steady_clock::now();
    const uint32_t rc = fn(args.data());
    const auto t1 = std::chrono::steady_clock::now();
    c->running.store(0);
    block_end();
    e.wave_cycles = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    mark_cpu_writes(c, e, args);
    if (rc == 0) return true;
    e.status = ACL_ERROR_RT_AICPU_EXCEPTION;
    std::snprintf(c->message, sizeof(c->message), "the AI CPU function %s returned error %u", name, rc);
    return false;
}

// The cost model's cycles of one launch: blocks beyond the core count run in waves; a wave lasts
// as long as its slowest block (a mixed cube/vector kernel's block takes a whole AI Core, so its
// waves hold cube_cores blocks).
double wave_cycles(const uint64_t *cycles, uint32_t num_blocks, uint32_t cores) {
    cores = std::max<uint32_t>(1, cores);
    double total = 0.0;
    for (uint32_t w = 0; w < num_blocks; w += cores) {
        const uint32_t end = std::min(num_blocks, w + cores);
        total += static_cast<double>(*std::max_element(cycles + w, cycles + end));
    }
    return total;
}

// The profiler's files of one launch: <prefix>.spans (SpanRecord after SpanRecord) and
// <prefix>.json (the kernel, each block's cycles, the source files the records index, spans dropped).
void write_profile(const char *prefix, const char *name, const uint64_t *cycles, uint32_t num_blocks,
                   const LaunchOutcome &out) {
    const std::string base(prefix);
    if (FILE *f = std::fopen((base + ".spans").c_str(), "wb")) {
        if (!out.spans.empty()) std::fwrite(out.spans.data(), sizeof(SpanRecord), out.spans.size(), f);
        std::fclose(f);
    }
    std::string j = "{\"kernel\": " + json_string(name) + ", \"cores_per_block\": " +
                    std::to_string(out.cores_per_block) + ", \"dropped\": " + std::to_string(out.dropped_spans) +
                    ", \"startup_cycles\": " + std::to_string(cost::kBlockStartupCycles) + ", \"block_cycles\": [";
    for (uint32_t b = 0; b < num_blocks; ++b) j += (b ? ", " : "") + std::to_string(cycles[b]);
    j += "], \"files\": [";
    for (size_t i = 0; i < out.files.size(); ++i) j += (i ? ", " : "") + json_string(out.files[i]);
    j += "]}\n";
    const std::string tmp = base + ".json.tmp";
    if (FILE *f = std::fopen(tmp.c_str(), "w")) {
        std::fputs(j.c_str(), f);
        std::fclose(f);
        std::rename(tmp.c_str(), (base + ".json").c_str());
    }
}

// LaunchSpec::draining of a request's last entry: its tail began (devproc_protocol.h, drain_seq).
void draining(int slot) {
    Slot *c = &g_ctl->slots[slot];
    const uint32_t seq = c->req_seq.load(std::memory_order_acquire);
    c->drain_seq.store(seq, std::memory_order_seq_cst);
    if (c->host_parked.load(std::memory_order_seq_cst) == seq) devproc::ring(g_ctl->host_bell);
}

// Runs entry i of the slot's batch; returns false when the batch must stop after it (it failed
// or reported warnings: the reply's message and warnings belong to it).
bool serve_entry(Slot *c, int slot, uint32_t i, ThreadPool &pool, KernelCache &cache, std::vector<uint64_t> &cycles) {
    devproc::Entry &e = c->entries[i];
    e.status = 0;
    e.failing_block = 0;
    e.cores_per_block = 1;
    e.wave_cycles = 0.0;
    if ((e.flags & devproc::kFlagAiCpu) != 0) return serve_cpu_entry(c, slot, e, cache);
    const char *path = reinterpret_cast<const char *>(c->arena + e.path_off);
    const char *name = reinterpret_cast<const char *>(c->arena + e.name_off);
    std::string error;
    PyascSimKernelEntry entry = cache.find(slot, path, name, e.bin_dev, e.bin_ino, &error);
    if (entry == nullptr) {
        e.status = ACL_ERROR_RT_AICORE_EXCEPTION;
        std::snprintf(c->message, sizeof(c->message), "%s", error.c_str());
        return false;
    }
    QueryContext query{c, i, c->allocs + e.allocs_off, e.n_allocs};
    LaunchSpec spec;
    spec.entry = entry;
    spec.kernel_name = name;
    spec.soc_name = c->soc_name;
    spec.num_blocks = e.num_blocks;
    spec.args = c->arena + e.args_off;
    spec.args_size = e.args_size;
    spec.checks = (e.flags & PYASC_SIM_FLAG_CHECKS) != 0;
    spec.strict = (e.flags & PYASC_SIM_FLAG_STRICT) != 0;
    spec.vector_cores = c->vector_cores;
    spec.cube_cores = c->cube_cores;
    spec.ub_bytes = c->ub_bytes;
    spec.l1_bytes = c->l1_bytes;
    spec.l0a_bytes = c->l0a_bytes;
    spec.l0b_bytes = c->l0b_bytes;
    spec.l0c_bytes = c->l0c_bytes;
    spec.gm_query = gm_query;
    spec.gm_query_user = &query;
    spec.gm_uninit = spec.checks ? reinterpret_cast<uint8_t *>(c->gm_uninit) : nullptr;
    spec.gm_uninit_base = c->gm_uninit_base;
    spec.gm_uninit_span = c->gm_uninit_span;
    spec.block_begin = block_begin;
    spec.block_end = block_end;
    spec.tag = slot;
    spec.draining = i + 1 == std::min(c->batch_count, devproc::kMaxBatch) ? draining : nullptr;
    spec.profile = (e.flags & PYASC_SIM_FLAG_PROFILE) != 0;
    spec.span_cap = e.span_cap;
    if (cycles.size() < e.num_blocks) cycles.resize(e.num_blocks);
    LaunchOutcome out;
    c->running.store(1);
    run_blocks(pool, spec, cycles.data(), &out);
    c->running.store(0);
    e.status = out.status;
    e.failing_block = out.block;
    e.cores_per_block = out.cores_per_block;
    e.wave_cycles = wave_cycles(cycles.data(), e.num_blocks, out.cores_per_block > 1 ? c->cube_cores : c->vector_cores);
    if (spec.profile) {
        write_profile(reinterpret_cast<const char *>(c->arena + e.profile_off), name, cycles.data(), e.num_blocks, out);
    }
    if (out.status == 0 && out.warnings.empty()) return true;
    std::snprintf(c->message, sizeof(c->message), "%s", out.message.c_str());
    size_t used = 0;
    for (const std::string &w : out.warnings) {
        const size_t len = std::min(w.size(), sizeof(c->warnings) - used - 1);
        if (used + 1 >= sizeof(c->warnings) || len == 0) break;
        std::memcpy(c->warnings + used, w.data(), len);
        used += len;
        c->warnings[used++] = '\0';
        ++c->n_warnings;
    }
    c->warnings_size = static_cast<uint32_t>(used);
    return false;
}

// Runs the slot's batch in order until it ends or an entry stops it.
void serve_launch(Slot *c, int slot, ThreadPool &pool, KernelCache &cache) {
    static thread_local std::vector<uint64_t> cycles;
    c->message[0] = '\0';
    c->n_warnings = 0;
    c->warnings_size = 0;
    const uint32_t count = std::min(c->batch_count, devproc::kMaxBatch);
    uint32_t i = 0;
    while (i < count) {
        c->current.store(i, std::memory_order_release);
        const bool go_on = serve_entry(c, slot, i, pool, cache, cycles);
        ++i;
        if (!go_on) break;
    }
    c->done_count = i;
}

// Waits for the next request; exits when the host process is gone.
uint32_t wait_request(Slot *c, uint32_t last) {
    // Back-to-back launches: an adaptive spin (pyasc_sim::AdaptiveSpin, per slot), then sleep on
    // the futex, so an idle device process uses no CPU.
    static AdaptiveSpin spins[devproc::kSlots] = {
        {2000, 100000}, {2000, 100000}, {2000, 100000}, {2000, 100000},
        {2000, 100000}, {2000, 100000}, {2000, 100000}, {2000, 100000}};
    static_assert(devproc::kSlots == 8, "one spin budget per slot");
    AdaptiveSpin &spin = spins[c - g_ctl->slots];
    // It yields only while the host thread that posts (or waits for the reply) last ran on this CPU.
    if (spin.spin([&] { return c->req_seq.load(std::memory_order_acquire) != last; },
                  [&] { return devproc::peer_cpu(c->host_cpu, devproc::note_cpu(c->srv_cpu)); })) {
        return c->req_seq.load(std::memory_order_acquire);
    }
    for (;;) {
        const uint32_t s = c->req_seq.load(std::memory_order_acquire);
        if (s != last) return s;
        c->srv_parked.store(1, std::memory_order_seq_cst);  // the host wakes us only when set
        if (c->req_seq.load(std::memory_order_seq_cst) == s) devproc::futex_wait(c->req_seq, s, 500000000L);
        c->srv_parked.store(0, std::memory_order_relaxed);
        if (getppid() != g_parent) _exit(0);
    }
}

bool parse_u64(const char *s, int base, uint64_t *out) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s, &end, base);
    if (end == s || *end != '\0' || errno != 0) return false;
    *out = v;
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t ctl_fd = 0, heap_fd = 0, heap_base = 0, heap_size = 0, parent = 0, device = 0;
    if (argc != 7 || !parse_u64(argv[1], 10, &ctl_fd) || !parse_u64(argv[2], 10, &heap_fd) ||
        !parse_u64(argv[3], 16, &heap_base) || !parse_u64(argv[4], 10, &heap_size) ||
        !parse_u64(argv[5], 10, &parent) || !parse_u64(argv[6], 10, &device)) {
        std::fprintf(stderr,
                     "pyasc-sim-device: started by the simulated ACL runtime (libpyasc_acl_sim.so), not by hand\n");
        return 2;
    }
    g_parent = static_cast<pid_t>(parent);
    (void)device;
    // Device memory first, at the host's address, before anything else can take that range.
    void *heap = mmap(reinterpret_cast<void *>(heap_base), heap_size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, static_cast<int>(heap_fd), 0);
    const int heap_errno = errno;
    void *ctl = mmap(nullptr, sizeof(ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, static_cast<int>(ctl_fd), 0);
    if (ctl == MAP_FAILED) {
        std::fprintf(stderr, "pyasc-sim-device: cannot map the control block: %s\n", std::strerror(errno));
        return 3;
    }
    g_ctl = static_cast<ControlBlock *>(ctl);
    close(static_cast<int>(ctl_fd));
    if (heap != reinterpret_cast<void *>(heap_base)) {
        std::snprintf(g_ctl->startup_error, sizeof(g_ctl->startup_error),
                      "the device process cannot map device memory at %#llx (%llu bytes): %s",
                      static_cast<unsigned long long>(heap_base), static_cast<unsigned long long>(heap_size),
                      heap == MAP_FAILED ? std::strerror(heap_errno) : "the address is taken");
        devproc::ring(g_ctl->host_bell);
        return 4;
    }
    close(static_cast<int>(heap_fd));
#ifdef MADV_HUGEPAGE
    // As the host's mapping (device_heap.cpp): 2 MiB pages where shmem_enabled allows them.
    (void)madvise(heap, heap_size, MADV_HUGEPAGE);
#endif
    if (getppid() != g_parent) return 0;

    // The host may end without telling us (SIGKILL, a crash): a watchdog ends this process then,
    // even while a kernel spins forever.
    std::thread([] {
        for (;;) {
            if (getppid() != g_parent) _exit(0);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }).detach();
    install_alt_stack();
    install_crash_handlers();
    unsigned threads = std::thread::hardware_concurrency();
    static ThreadPool pool(threads == 0 ? 1 : threads, [] { install_alt_stack(); });
    static KernelCache cache;
    // Registered after the statics above, so it runs before their destructors (exit handlers
    // run in reverse order): exit() from a block reports and ends the process right away.
    on_exit(on_exit_handler, nullptr);

    // One server thread per slot (this thread serves slot 0).
    uint32_t last[devproc::kSlots];
    for (uint32_t i = 0; i < devproc::kSlots; ++i) last[i] = g_ctl->slots[i].req_seq.load();
    auto serve = [](int slot, uint32_t seen) {
        Slot *c = &g_ctl->slots[slot];
        for (;;) {
            seen = wait_request(c, seen);
            if (c->command == devproc::kCmdQuit) _exit(0);
            devproc::note_cpu(c->srv_cpu);  // where the host's reply spin looks
            serve_launch(c, slot, pool, cache);
            c->rep_seq.store(seen, std::memory_order_seq_cst);
            // Rung only for a host waiter that sleeps (devproc_protocol.h, srv_parked's note).
            if (c->host_parked.load(std::memory_order_seq_cst) == seen) devproc::ring(g_ctl->host_bell);
        }
    };
    for (uint32_t i = 1; i < devproc::kSlots; ++i) {
        std::thread([serve, i, &last] {
            install_alt_stack();
            serve(static_cast<int>(i), last[i]);
        }).detach();
    }
    g_ctl->ready.store(1, std::memory_order_release);
    devproc::ring(g_ctl->host_bell);
    serve(0, last[0]);
}
