// The shared-memory control block between the simulated ACL runtime (host) and one device
// process (pyasc-sim-device), and the futex helpers both sides wait with.
//
// Requests go through slots (one per concurrently launching stream): the host fills a batch of
// launches, bumps req_seq and wakes the slot's server; the device process runs them in order, fills
// the reply, sets rep_seq = req_seq and rings host_bell.  Both sides spin briefly (adaptive, see
// spin_wait.h) before they sleep on the futex words.
// A gm_query the launch snapshot cannot answer is asked back to the host through the query slot.
// A fault in kernel code lands in the crash area (written by the device's signal handler).
#ifndef PYASC_SIM_DEVPROC_PROTOCOL_H_
#define PYASC_SIM_DEVPROC_PROTOCOL_H_

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "spin_wait.h"

namespace pyasc_sim {
namespace devproc {

constexpr uint32_t kMagic = 0x50534456u;  // "PSDV"
constexpr uint32_t kVersion = 8;
constexpr size_t kMaxPath = 4096;
constexpr size_t kMaxName = 256;
constexpr size_t kMaxArgs = 1u << 20;          // argument blob bytes per launch
constexpr uint32_t kMaxBlocks = 65535;
constexpr uint32_t kMaxSnapshot = 1u << 16;    // live allocations passed with a launch
constexpr size_t kMessageSize = 4096;
constexpr size_t kWhySize = 512;

// Entry::flags bit (besides PYASC_SIM_FLAG_*): the entry is an AI CPU function, run once on the
// simulated AI CPU; its reply's wave_cycles holds the nanoseconds it ran.
constexpr uint32_t kFlagAiCpu = 0x100u;

enum Command : uint32_t { kCmdLaunch = 1, kCmdQuit = 2 };
enum QueryState : uint32_t { kQueryIdle = 0, kQueryAsked = 1, kQueryAnswered = 2 };

struct AllocRange {
    uint64_t base;
    uint64_t size;  // | kTensorBlockBit: a tensor block of the caching allocator (gm_query returns 2)
};
constexpr uint64_t kTensorBlockBit = uint64_t{1} << 63;

// One launch of a batch: where its strings, arguments and allocation snapshot lie in the slot's
// arena, and its reply.
struct Entry {
    // ---- request ----
    uint32_t num_blocks;
    uint32_t flags;                   // PYASC_SIM_FLAG_*
    uint64_t bin_dev, bin_ino;        // identity of the binary file (dlopen cache key with the path)
    uint32_t path_off, name_off;      // NUL-terminated binary path and kernel name in `arena`
    uint64_t args_off, args_size;     // the argument blob in `arena`
    uint32_t allocs_off, n_allocs;    // the live allocations it may touch, in `allocs`
    uint32_t profile_off;             // PYASC_SIM_FLAG_PROFILE: the span files' path prefix in `arena`
    uint32_t reserved_req;
    uint64_t span_cap;                // spans the launch keeps at most
    // ---- reply ----
    int32_t status;                   // 0 or the failing block's status
    uint32_t failing_block;
    uint32_t cores_per_block;         // 3: a mixed kernel (waves of cube cores in the cost model)
    uint32_t reserved;
    double wave_cycles;               // the cost model's cycles: sum over waves of the slowest block
};

constexpr uint32_t kMaxBatch = 64;  // launches per request
constexpr size_t kArenaSize = kMaxArgs + 2 * kMaxPath + kMaxName + 64;  // one launch of any size fits

// One request in flight: each stream worker that launches takes a free slot, so kernels of
// different streams run concurrently, as on hardware (one may wait for another's flag).  A request
// carries the consecutive launches its stream had queued (a batch, run in order): the device runs
// them until one fails or reports a warning and replies once, so back-to-back launches cost one
// hand-off each way per batch instead of per launch.
struct Slot {
    std::atomic<uint32_t> req_seq;    // host -> device: a new request
    std::atomic<uint32_t> rep_seq;    // device -> host: reply to request rep_seq is ready
    std::atomic<uint32_t> query_state;
    std::atomic<uint32_t> running;    // a launch is in progress (exit() from kernel code reports)
    std::atomic<uint32_t> current;    // index of the entry being run (entries before it finished)
    // The launch's tail (the request's last entry has no block left to start, some still run):
    // the device sets drain_seq = req_seq, then rings host_bell if host_parked == req_seq (the host
    // waiter sleeps on it); the host sets host_parked before it sleeps and checks drain_seq after.
    // A host woken this way polls for the reply (the last blocks end within about one block's time)
    // instead of sleeping until the reply's ring, a wake-up after the last block.
    std::atomic<uint32_t> drain_seq;
    std::atomic<uint32_t> host_parked;
    // The wake-ups are skipped when nobody sleeps (each a futex syscall): the device's server
    // thread sets srv_parked before it sleeps on req_seq and reads req_seq after; the host stores
    // req_seq and then reads srv_parked (both seq_cst: one of them sees the other), and wakes it
    // only when it is set.  Likewise the reply: the device stores rep_seq, then rings host_bell only
    // when host_parked == rep_seq; the host sets host_parked and reads rep_seq again before it sleeps.
    std::atomic<uint32_t> srv_parked;
    // Where each side last ran (sched_getcpu(), -1: not known yet), stored only when it changed: a
    // spinning waiter yields its CPU to the other side only while both are on the same CPU or where
    // is not known (spin_wait.h, AdaptiveSpin::spin(ready, peer)).  The server thread stores srv_cpu; the
    // host thread that posts a launch directly (and then waits for its reply) stores host_cpu, a
    // stream worker's post stores -1 (the server yields as it always did).
    std::atomic<int32_t> srv_cpu;
    std::atomic<int32_t> host_cpu;
    // ---- request ----
    uint32_t command;
    uint32_t batch_count;             // entries of this request
    uint32_t vector_cores;
    uint32_t cube_cores;
    uint64_t gm_uninit, gm_uninit_base, gm_uninit_span;  // initcheck shadow (used by entries with checks)
    uint64_t ub_bytes, l1_bytes, l0a_bytes, l0b_bytes, l0c_bytes;
    char soc_name[64];
    // ---- reply ----
    uint32_t done_count;              // entries run: the last one may have failed or warned
    uint32_t n_warnings;              // warnings of the last entry run, NUL-separated in `warnings`
    uint32_t warnings_size;           // bytes used in `warnings`
    char message[kMessageSize];       // the failure of the last entry run
    char warnings[4 * kMessageSize];
    // ---- query (gm_query miss, asked back to the host) ----
    uint64_t q_ptr;
    int32_t q_found;
    uint32_t q_entry;                 // the entry that asks
    uint64_t q_base, q_size;
    char q_why[kWhySize];
    // ---- bulk areas ----
    Entry entries[kMaxBatch];
    AllocRange allocs[kMaxSnapshot];
    uint8_t arena[kArenaSize];
};

// Stores the calling thread's CPU in `word` (Slot::srv_cpu / host_cpu) when it changed; returns it.
inline int32_t note_cpu(std::atomic<int32_t> &word) {
    const int32_t cpu = sched_getcpu();  // glibc reads it from rseq: no system call
    if (word.load(std::memory_order_relaxed) != cpu) word.store(cpu, std::memory_order_relaxed);
    return cpu;
}

// Where the other side runs for a waiter on `cpu` (AdaptiveSpin::spin(ready, peer)).
inline Peer peer_cpu(const std::atomic<int32_t> &other, int32_t cpu) {
    const int32_t o = other.load(std::memory_order_relaxed);
    return o < 0 || cpu < 0 ? Peer::kUnknown : o == cpu ? Peer::kSameCpu : Peer::kElsewhere;
}

constexpr uint32_t kSlots = 8;

struct ControlBlock {
    uint32_t magic;
    uint32_t version;
    std::atomic<uint32_t> host_bell;    // device -> host: something changed (reply, query, crash)
    std::atomic<uint32_t> ready;        // the device process mapped device memory and serves requests
    std::atomic<uint32_t> crashed;      // set by the crash reporter before the process ends
    std::atomic<uint32_t> crash_claim;  // the first crashing thread owns the crash area
    char startup_error[kMessageSize];
    // ---- crash area ----
    int32_t crash_signal;             // 0 for exit() from kernel code
    int32_t crash_exit_status;
    int32_t crash_block;              // -1 when the faulting thread ran no block
    int32_t crash_slot;               // the launch it belonged to (-1: unknown)
    uint64_t crash_addr;              // si_addr
    uint64_t crash_pc_offset;         // faulting function + offset (from dladdr)
    uint32_t crash_pc_is_return;      // 1: crash_pc_offset is a return address (abort(), exit()), not the fault
    uint32_t crash_reserved;
    char crash_what[256];             // "SIGSEGV (invalid memory access)", "exit(3) called", ...
    char crash_function[kMaxName];    // raw (mangled) symbol name, demangled by the host
    char crash_module[kMaxPath];
    char crash_report[kMessageSize];  // the crashing thread's block had already failed a check: its report
                                      // (a crash while that failure unwound: see __pyasc_sim_failed_block)
    char crash_report_again[1024];    // the check that failed while it unwound, or ""
    char crash_kernel[kMaxName];      // that block's kernel (its thread may belong to no launch slot)
    Slot slots[kSlots];
};

static_assert(std::atomic<uint32_t>::is_always_lock_free, "futex words must be plain 32-bit words");
static_assert(sizeof(std::atomic<uint32_t>) == 4, "futex words must be plain 32-bit words");

inline uint32_t *word(std::atomic<uint32_t> &a) { return reinterpret_cast<uint32_t *>(&a); }

// Sleeps while *w == expected, at most timeout_ns (shared futex: works across processes).
inline void futex_wait(std::atomic<uint32_t> &w, uint32_t expected, long timeout_ns) {
    struct timespec ts;
    ts.tv_sec = timeout_ns / 1000000000L;
    ts.tv_nsec = timeout_ns % 1000000000L;
    syscall(SYS_futex, word(w), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

inline void futex_wake(std::atomic<uint32_t> &w) { syscall(SYS_futex, word(w), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0); }

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

// Rings a bell: bumps the word and wakes its sleepers.
inline void ring(std::atomic<uint32_t> &bell) {
    bell.fetch_add(1, std::memory_order_acq_rel);
    futex_wake(bell);
}

}  // namespace devproc
}  // namespace pyasc_sim

#endif  // PYASC_SIM_DEVPROC_PROTOCOL_H_
