#include "device_process.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include "device_heap.h"
#include "devproc_protocol.h"
#include "elf_symbols.h"
#include "error.h"
#include "fork.h"
#include "pyasc_sim/kernel_abi.h"
#include "soc_profile.h"
#include "source_line.h"

extern char **environ;

namespace pyasc_sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr long kSliceNs = 20 * 1000 * 1000;        // futex wait slice: child / timeout checks
constexpr int64_t kAliveWindowNs = 1000 * 1000;     // try_post: a reply this recent stands for a live process
constexpr auto kStartupTimeout = std::chrono::seconds(60);

// Directory of this library: pyasc-sim-device is installed next to it.
std::string executable_path() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&executable_path), &info) == 0 || info.dli_fname == nullptr) {
        return "pyasc-sim-device";
    }
    std::string lib = info.dli_fname;
    const size_t slash = lib.rfind('/');
    return (slash == std::string::npos ? std::string(".") : lib.substr(0, slash)) + "/pyasc-sim-device";
}

std::string demangle(const char *name) {
    if (name == nullptr || name[0] == '\0') return std::string();
    int status = 0;
    char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && d != nullptr ? d : name;
    std::free(d);
    return out;
}

std::string base_name(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

DeviceProcess::DeviceProcess(int32_t device, std::shared_ptr<DeviceHeap> heap)
    : device_(device), heap_(std::move(heap)), owner_(getpid()) {}

DeviceProcess::~DeviceProcess() {
    terminate();
    if (ctl_ != nullptr) munmap(ctl_, sizeof(devproc::ControlBlock));
    if (ctl_fd_ >= 0) close(ctl_fd_);
}

std::string DeviceProcess::crash_message_locked(int wait_status) {
    devproc::ControlBlock &c = *ctl_;
    const int slot = c.crash_slot;
    std::string kernel = "?";
    if (slot >= 0 && slot < static_cast<int>(devproc::kSlots)) {
        const devproc::Slot &sl = c.slots[slot];
        const uint32_t cur = sl.current.load();
        if (cur < devproc::kMaxBatch && sl.entries[cur].name_off < devproc::kArenaSize) {
            const char *name = reinterpret_cast<const char *>(sl.arena + sl.entries[cur].name_off);
            kernel.assign(name, strnlen(name, std::min<size_t>(devproc::kMaxName, devproc::kArenaSize - sl.entries[cur].name_off)));
        }
    }
    c.crash_kernel[sizeof(c.crash_kernel) - 1] = '\0';
    if (kernel == "?" && c.crash_kernel[0] != '\0') kernel = c.crash_kernel;  // a thread of no launch slot
    const std::string block = c.crash_block >= 0 ? format("block %d", c.crash_block) : std::string("(no block)");
    c.crash_what[sizeof(c.crash_what) - 1] = '\0';
    c.crash_function[sizeof(c.crash_function) - 1] = '\0';
    c.crash_module[sizeof(c.crash_module) - 1] = '\0';
    (void)wait_status;
    std::string where;
    std::string raw = c.crash_function;
    if (raw.empty() && c.crash_module[0] != '\0') raw = elf_function_at(c.crash_module, c.crash_pc_offset);
    const std::string fn = demangle(raw.c_str());
    const std::string module = base_name(c.crash_module);
    if (!fn.empty() || !module.empty()) {
        where = format(", in %s (%s+0x%llx)", fn.empty() ? "?" : fn.c_str(), module.c_str(),
                       static_cast<unsigned long long>(c.crash_pc_offset));
    }
    // the kernel's source line, from the binary's line table (kernels are built with -g1)
    const std::string line =
        c.crash_module[0] != '\0' ? source_line_at(c.crash_module, c.crash_pc_offset, c.crash_pc_is_return != 0)
                                  : std::string();
    if (!line.empty()) where += " at " + line;
    std::string addr;
    if (c.crash_signal == SIGSEGV || c.crash_signal == SIGBUS) {
        addr = format(" at address 0x%llx", static_cast<unsigned long long>(c.crash_addr));
    }
    c.crash_report[sizeof(c.crash_report) - 1] = '\0';
    c.crash_report_again[sizeof(c.crash_report_again) - 1] = '\0';
    if (c.crash_report[0] != '\0') {  // the block failed a check first; the crash came while it unwound
        const std::string again =
            c.crash_report_again[0] != '\0'
                ? format("a destructor failed a second check (%s), which ends in std::terminate: ", c.crash_report_again)
                : std::string();
        return format("kernel %s %s: %s; then, while the block unwound, %s%s%s%s; the simulated device process was "
                      "restarted (device memory is kept)",
                      kernel.c_str(), block.c_str(), c.crash_report, again.c_str(), c.crash_what, addr.c_str(),
                      where.c_str());
    }
    return format("kernel %s %s: %s%s%s; the simulated device process was restarted (device memory is kept)",
                  kernel.c_str(), block.c_str(), c.crash_what, addr.c_str(), where.c_str());
}

void DeviceProcess::reap_locked(bool polite, const std::string &why) {
    const pid_t pid = pid_.load();
    if (pid <= 0) return;
    bool running = false;
    for (const devproc::Slot &sl : ctl_->slots) running = running || sl.running.load() != 0;
    bool exited = false;
    int st = 0;
    if (polite && !running && busy_slots_ == 0) {
        ctl_->slots[0].command = devproc::kCmdQuit;
        devproc::ring(ctl_->slots[0].req_seq);
        for (int i = 0; i < 40 && !exited; ++i) {  // up to ~200 ms to leave on its own
            exited = waitpid(pid, &st, WNOHANG) != 0;
            if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    pid_.store(0);
    death_ = why;
    death_slot_ = -1;
}

bool DeviceProcess::gone(uint64_t gen) {
    std::lock_guard<std::mutex> lock(proc_mu_);
    if (generation_ != gen || pid_.load() <= 0) return true;
    const pid_t pid = pid_.load();
    devproc::ControlBlock &c = *ctl_;
    int st = 0;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == 0 && c.crashed.load() != 0) {
        // The reporter is ending the process: give it a moment, then make sure.
        for (int i = 0; i < 400 && r == 0; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            r = waitpid(pid, &st, WNOHANG);
        }
        if (r == 0) {
            kill(pid, SIGKILL);
            r = waitpid(pid, &st, 0);
        }
    }
    if (r == 0) return false;
    // r == pid: reaped here; -1 (ECHILD): someone else reaped it (SIGCHLD ignored, os.wait()).
    pid_.store(0);
    if (c.crashed.load() != 0) {
        death_ = crash_message_locked(r == pid ? st : -1);
        death_slot_ = c.crash_slot;
    } else {
        const std::string how = r != pid ? std::string("ended")
                                : WIFSIGNALED(st)
                                    ? format("was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)))
                                    : format("exited with status %d", WEXITSTATUS(st));
        death_ = format("the simulated device process %s (_exit or a kill from outside); it is restarted at the "
                        "next launch",
                        how.c_str());
        death_slot_ = -1;
    }
    return true;
}

void DeviceProcess::terminate() {
    terminating_.store(true);
    if (getpid() != owner_) return;  // a forked child never signals or waits for the parent's device
    std::lock_guard<std::mutex> lock(proc_mu_);
    reap_locked(true, format("device %d was reset while the kernel ran", device_));
    if (ctl_ != nullptr) devproc::ring(ctl_->host_bell);  // running launches notice at once
}

int DeviceProcess::take_slot() {
    std::unique_lock<std::mutex> lock(slot_mu_);
    slot_cv_.wait(lock, [&] { return busy_slots_ != (1u << devproc::kSlots) - 1; });
    for (int i = 0; i < static_cast<int>(devproc::kSlots); ++i) {
        if ((busy_slots_ & (1u << i)) == 0) {
            busy_slots_ |= 1u << i;
            return i;
        }
    }
    return 0;  // unreachable
}

void DeviceProcess::give_slot(int slot) {
    {
        std::lock_guard<std::mutex> lock(slot_mu_);
        busy_slots_ &= ~(1u << slot);
    }
    slot_cv_.notify_one();
}

bool DeviceProcess::spawn_locked(std::string *error) {
    if (ctl_ == nullptr) {
        const std::string name = format("pyasc-sim-device-%d-control", device_);
        int fd = memfd_create(name.c_str(), MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, sizeof(devproc::ControlBlock)) != 0) {
            *error = format("cannot create the device process's control block: %s", std::strerror(errno));
            if (fd >= 0) close(fd);
            return false;
        }
        void *p = mmap(nullptr, sizeof(devproc::ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            *error = format("cannot map the device process's control block: %s", std::strerror(errno));
            close(fd);
            return false;
        }
        ctl_fd_ = fd;
        ctl_ = static_cast<devproc::ControlBlock *>(p);  // zero-filled by the memfd
        ctl_->magic = devproc::kMagic;
        ctl_->version = devproc::kVersion;
    }
    devproc::ControlBlock &c = *ctl_;
    c.ready.store(0);
    c.crashed.store(0);
    c.crash_claim.store(0);
    c.crash_slot = -1;
    c.crash_block = -1;
    c.crash_module[0] = '\0';  // a later crash without a kernel frame must not name this one's
    c.crash_function[0] = '\0';
    c.crash_report[0] = '\0';
    c.crash_report_again[0] = '\0';
    c.crash_kernel[0] = '\0';
    c.crash_pc_is_return = 0;
    c.startup_error[0] = '\0';
    for (devproc::Slot &sl : c.slots) {
        sl.running.store(0);
        sl.query_state.store(devproc::kQueryIdle);
        sl.rep_seq.store(sl.req_seq.load());
        sl.current.store(0);
        sl.command = 0;
        sl.srv_cpu.store(-1);  // the new server thread has not run yet
        sl.host_cpu.store(-1);
    }

    const std::string exe = executable_path();
    const std::string a1 = std::to_string(ctl_fd_), a2 = std::to_string(heap_->fd());
    const std::string a3 = format("%llx", static_cast<unsigned long long>(heap_->base()));
    const std::string a4 = std::to_string(heap_->size()), a5 = std::to_string(getpid());
    const std::string a6 = std::to_string(device_);
    char *argv[] = {const_cast<char *>(exe.c_str()), const_cast<char *>(a1.c_str()), const_cast<char *>(a2.c_str()),
                    const_cast<char *>(a3.c_str()),  const_cast<char *>(a4.c_str()), const_cast<char *>(a5.c_str()),
                    const_cast<char *>(a6.c_str()),  nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 onto itself clears close-on-exec for exactly these two descriptors.
    posix_spawn_file_actions_adddup2(&actions, ctl_fd_, ctl_fd_);
    posix_spawn_file_actions_adddup2(&actions, heap_->fd(), heap_->fd());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, reset;
    sigemptyset(&none);
    sigemptyset(&reset);  // signals the host may ignore (Python ignores SIGPIPE): default again
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGXFSZ, SIGUSR1, SIGUSR2}) sigaddset(&reset, sig);
    posix_spawnattr_setsigmask(&attr, &none);      // kernel code runs with no signal blocked
    posix_spawnattr_setsigdefault(&attr, &reset);
    posix_spawnattr_setpgroup(&attr, 0);           // Ctrl-C goes to the host, which decides
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
    // The scheduling policy of the host's main thread, not of the thread spawning (a stream worker,
    // SCHED_BATCH: see Stream::worker_loop), which a child inherits: under SCHED_BATCH a pool worker
    // woken for a launch's blocks never preempts, so it waited for the end of another thread's slice
    // (the host queueing the next launch) and a launch ran on one device thread for much of its time.
    const int policy = sched_getscheduler(getpid());
    sched_param param{};
    if (policy >= 0 && policy != sched_getscheduler(0) && sched_getparam(getpid(), &param) == 0) {
        posix_spawnattr_setschedpolicy(&attr, policy);
        posix_spawnattr_setschedparam(&attr, &param);
        flags |= POSIX_SPAWN_SETSCHEDULER;
    }
    posix_spawnattr_setflags(&attr, flags);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        *error = format("cannot start the simulated device process '%s': %s (it is installed next to "
                        "libpyasc_acl_sim.so; reinstall pyasc)",
                        exe.c_str(), std::strerror(rc));
        return false;
    }
    pid_.store(pid);
    ++generation_;
    const Clock::time_point deadline = Clock::now() + kStartupTimeout;
    for (;;) {
        const uint32_t bell = c.host_bell.load();
        if (c.ready.load(std::memory_order_acquire) != 0) return true;
        int st = 0;
        const pid_t r = waitpid(pid, &st, WNOHANG);
        if (r != 0) {
            pid_.store(0);
            c.startup_error[sizeof(c.startup_error) - 1] = '\0';
            const std::string how = r != pid ? std::string("status unknown")
                                    : WIFSIGNALED(st) ? format("signal %d", WTERMSIG(st))
                                                      : format("exit status %d", WEXITSTATUS(st));
            *error = format("the simulated device process '%s' ended at start-up (%s)%s%s", exe.c_str(), how.c_str(),
                            c.startup_error[0] != '\0' ? ": " : "", c.startup_error);
            return false;
        }
        if (Clock::now() > deadline) {
            reap_locked(false, "");
            *error = format("the simulated device process '%s' did not start within %lld s", exe.c_str(),
                            static_cast<long long>(kStartupTimeout.count()));
            return false;
        }
        devproc::futex_wait(c.host_bell, bell, kSliceNs);
    }
}

void DeviceProcess::answer_query(devproc::Slot &s, const KernelLaunch &req) {
    uint64_t base = 0, size = 0;
    s.q_why[0] = '\0';
    const int found = req.query ? req.query(reinterpret_cast<const void *>(static_cast<uintptr_t>(s.q_ptr)), &base,
                                            &size, s.q_why, sizeof(s.q_why))
                                : 0;
    s.q_found = found;
    s.q_base = base;
    s.q_size = size;
    s.query_state.store(devproc::kQueryAnswered, std::memory_order_release);
    devproc::futex_wake(s.query_state);
}

namespace {

size_t align8(size_t n) { return (n + 7) & ~size_t{7}; }

// The arena bytes one launch takes in a request: its path and name (NUL-terminated, truncated as
// the protocol bounds them) and its argument blob, each 8-byte aligned.
size_t arena_bytes(const KernelLaunch &r) {
    return align8(std::min(r.binary_path->size(), devproc::kMaxPath - 1) + 1) +
           align8(std::min(r.kernel_name->size(), devproc::kMaxName - 1) + 1) + align8(r.args->size()) +
           (r.profile_prefix.empty() ? 0 : align8(std::min(r.profile_prefix.size(), devproc::kMaxPath - 1) + 1));
}

// Copies s (at most max - 1 bytes) and a NUL into arena + *off; returns where it starts.
uint32_t put_string(uint8_t *arena, size_t *off, const std::string &s, size_t max) {
    const size_t at = *off, len = std::min(s.size(), max - 1);
    std::memcpy(arena + at, s.data(), len);
    arena[at + len] = 0;
    *off = at + align8(len + 1);
    return static_cast<uint32_t>(at);
}

}  // namespace

void DeviceProcess::launch(const KernelLaunch &req, uint32_t timeout_s, KernelResult *out) {
    std::vector<KernelResult> results(1);
    launch_batch({&req}, timeout_s, &results);
    *out = std::move(results[0]);
}

void DeviceProcess::launch_batch(const std::vector<const KernelLaunch *> &reqs, uint32_t timeout_s,
                                 std::vector<KernelResult> *out, const std::function<void()> *on_tail) {
    out->assign(reqs.size(), KernelResult());
    size_t next = 0;
    while (next < reqs.size()) {
        const KernelLaunch &first = *reqs[next];
        KernelResult &r0 = (*out)[next];
        if (own_pid() != owner_) {
            r0.status = ACL_ERROR_RT_CONTEXT_NULL;
            r0.message = format("kernel %s: this process was forked from the one that owns simulated device %d; a "
                                "forked child cannot use its parent's device (set the device up in the child after "
                                "fork, or use the 'spawn' start method)",
                                first.kernel_name->c_str(), device_);
            ++next;
            continue;
        }
        if (first.args->size() > devproc::kMaxArgs) {
            r0.status = ACL_ERROR_RT_PARAM_INVALID;
            r0.message = format("kernel %s: the argument blob is %zu bytes; the simulator passes at most %zu",
                                first.kernel_name->c_str(), first.args->size(), devproc::kMaxArgs);
            ++next;
            continue;
        }
        // As many of the following launches as fit one request (the first one always fits).
        size_t n = 0, arena = 0, allocs = 0;
        while (next + n < reqs.size() && n < devproc::kMaxBatch) {
            const KernelLaunch &r = *reqs[next + n];
            if (r.args->size() > devproc::kMaxArgs) break;
            const size_t a = arena_bytes(r);
            const size_t m = std::min<size_t>(r.allocs.size(), devproc::kMaxSnapshot);
            if (n > 0 && (arena + a > devproc::kArenaSize || allocs + m > devproc::kMaxSnapshot)) break;
            arena += a;
            allocs += m;
            ++n;
        }
        const int slot = take_slot();
        struct SlotGuard {
            DeviceProcess *self;
            int slot;
            ~SlotGuard() { self->give_slot(slot); }
        } guard{this, slot};
        next += run_request(slot, reqs, next, n, timeout_s, out, next + n == reqs.size() ? on_tail : nullptr);
    }
}

bool DeviceProcess::try_post(const KernelLaunch &req, uint32_t timeout_s, Posted *out) {
    if (own_pid() != owner_ || req.args->size() > devproc::kMaxArgs || terminating_.load() || pid_.load() <= 0 ||
        ctl_ == nullptr) {
        return false;  // the queued path reports it, spawns the process
    }
    if (arena_bytes(req) > devproc::kArenaSize) return false;
    int slot = -1;
    {
        std::lock_guard<std::mutex> lock(slot_mu_);
        for (int i = 0; i < static_cast<int>(devproc::kSlots); ++i) {
            if ((busy_slots_ & (1u << i)) == 0) {
                busy_slots_ |= 1u << i;
                slot = i;
                break;
            }
        }
    }
    if (slot < 0) return false;
    uint64_t gen = 0;
    {
        std::lock_guard<std::mutex> lock(proc_mu_);
        // Ended while idle (killed from outside): left to the queued path, which reaps it (WNOWAIT
        // here: gone() and run_request keep reaping it and naming the cause) and respawns.  The
        // check (a waitid syscall, ~0.7 us here) is skipped when this process replied within the
        // last millisecond: a kill from outside in that window fails this launch with the cause,
        // as one landing between the check and the post always could, and the next one respawns.
        const int64_t now = Clock::now().time_since_epoch().count();
        siginfo_t info{};
        if (!terminating_.load() && pid_.load() > 0 &&
            ((replied_gen_.load(std::memory_order_relaxed) == generation_ &&
              now - replied_at_.load(std::memory_order_relaxed) < kAliveWindowNs) ||
             (waitid(P_PID, static_cast<id_t>(pid_.load()), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
              info.si_pid == 0))) {
            gen = generation_;
        }
    }
    if (gen == 0) {
        give_slot(slot);
        return false;
    }
    out->slot = slot;
    out->gen = gen;
    out->seq = post_locked(slot, {&req}, 0, 1, true);
    out->timeout_s = timeout_s;
    out->timed = timeout_s != 0;
    out->deadline = Clock::now() + std::chrono::seconds(out->timed ? timeout_s : 0);
    return true;
}

bool DeviceProcess::replied(const Posted &p) const {
    return ctl_->slots[p.slot].rep_seq.load(std::memory_order_acquire) == p.seq;
}

Peer DeviceProcess::server_cpu(const Posted &p) const {
    devproc::Slot &c = ctl_->slots[p.slot];  // a caller's post: host_cpu is its thread's (post_locked)
    return devproc::peer_cpu(c.srv_cpu, devproc::note_cpu(c.host_cpu));
}

void DeviceProcess::finish(const Posted &p, const KernelLaunch &req, KernelResult *out,
                           const std::function<void()> *on_tail) {
    std::vector<KernelResult> results(1);
    wait_reply(p, {&req}, 0, 1, &results, on_tail);
    give_slot(p.slot);
    *out = std::move(results[0]);
}

size_t DeviceProcess::run_request(int slot, const std::vector<const KernelLaunch *> &reqs, size_t first, size_t n,
                                  uint32_t timeout_s, std::vector<KernelResult> *out,
                                  const std::function<void()> *on_tail) {
    const KernelLaunch &head = *reqs[first];
    uint64_t gen = 0;
    {
        std::lock_guard<std::mutex> lock(proc_mu_);
        if (terminating_.load()) {
            (*out)[first].status = ACL_ERROR_RT_AICORE_EXCEPTION;
            (*out)[first].message = format("kernel %s: device %d was reset before the kernel ran",
                                           head.kernel_name->c_str(), device_);
            return 1;
        }
        if (pid_.load() > 0) {
            // Ended while idle (killed from outside, the OOM killer): reap it and start afresh
            // rather than post a launch nobody will run.
            int st = 0;
            if (waitpid(pid_.load(), &st, WNOHANG) != 0) pid_.store(0);
        }
        if (pid_.load() <= 0) {
            std::string error;
            if (!spawn_locked(&error)) {
                (*out)[first].status = ACL_ERROR_RT_INTERNAL_ERROR;
                (*out)[first].message = format("kernel %s: %s", head.kernel_name->c_str(), error.c_str());
                return 1;
            }
        }
        gen = generation_;
    }
    Posted posted;
    posted.slot = slot;
    posted.gen = gen;
    posted.seq = post_locked(slot, reqs, first, n, false);
    posted.timeout_s = timeout_s;
    posted.timed = timeout_s != 0;
    posted.deadline = Clock::now() + std::chrono::seconds(posted.timed ? timeout_s : 0);
    return wait_reply(posted, reqs, first, n, out, on_tail);
}

uint32_t DeviceProcess::post_locked(int slot, const std::vector<const KernelLaunch *> &reqs, size_t first, size_t n,
                                    bool direct) {
    const KernelLaunch &head = *reqs[first];
    devproc::ControlBlock &cb = *ctl_;
    devproc::Slot &c = cb.slots[slot];
    const SocProfile &p = *head.profile;
    c.command = devproc::kCmdLaunch;
    c.batch_count = static_cast<uint32_t>(n);
    c.vector_cores = p.vector_cores;
    c.cube_cores = p.cube_cores;
    c.ub_bytes = p.ub_bytes;
    c.l1_bytes = p.l1_bytes;
    c.l0a_bytes = p.l0a_bytes;
    c.l0b_bytes = p.l0b_bytes;
    c.l0c_bytes = p.l0c_bytes;
    {  // (as snprintf "%s", without the format parser on every request)
        const size_t len = strnlen(p.name, sizeof(c.soc_name) - 1);
        std::memcpy(c.soc_name, p.name, len);
        c.soc_name[len] = '\0';
    }
    size_t off = 0, at = 0;
    for (size_t j = 0; j < n; ++j) {
        const KernelLaunch &r = *reqs[first + j];
        devproc::Entry &e = c.entries[j];
        e.num_blocks = r.num_blocks;
        e.flags = (r.checks ? PYASC_SIM_FLAG_CHECKS : 0u) | (r.strict ? PYASC_SIM_FLAG_STRICT : 0u) |
                  (r.aicpu ? devproc::kFlagAiCpu : 0u) | (r.profile_prefix.empty() ? 0u : PYASC_SIM_FLAG_PROFILE);
        e.span_cap = r.span_cap;
        e.profile_off = r.profile_prefix.empty() ? 0u : put_string(c.arena, &off, r.profile_prefix, devproc::kMaxPath);
        e.bin_dev = r.bin_dev;
        e.bin_ino = r.bin_ino;
        e.path_off = put_string(c.arena, &off, *r.binary_path, devproc::kMaxPath);
        e.name_off = put_string(c.arena, &off, *r.kernel_name, devproc::kMaxName);
        e.args_off = off;
        e.args_size = r.args->size();
        if (!r.args->empty()) std::memcpy(c.arena + off, r.args->data(), r.args->size());
        off += align8(r.args->size());
        const size_t m = std::min<size_t>(r.allocs.size(), devproc::kMaxSnapshot - at);
        for (size_t i = 0; i < m; ++i) c.allocs[at + i] = {r.allocs[i].first, r.allocs[i].second};
        e.allocs_off = static_cast<uint32_t>(at);
        e.n_allocs = static_cast<uint32_t>(m);
        at += m;
    }
    c.gm_uninit = heap_ ? reinterpret_cast<uintptr_t>(heap_->shadow()) : 0;  // entries with checks use it
    c.gm_uninit_base = heap_ ? heap_->base() : 0;
    c.gm_uninit_span = heap_ ? heap_->data_size() : 0;
    c.current.store(0);
    c.done_count = 0;
    // The server's spin yields only to a host thread on its CPU: a caller's post (the thread that
    // posts also waits for the reply, devproc_protocol.h) says where it runs; the stream worker's
    // says "unknown" (the thread that queues the next launches may be on any CPU), so the server
    // yields as the plain spin does.
    if (direct) {
        devproc::note_cpu(c.host_cpu);
    } else if (c.host_cpu.load(std::memory_order_relaxed) != -1) {
        c.host_cpu.store(-1, std::memory_order_relaxed);
    }
    const uint32_t seq = c.req_seq.load() + 1;
    c.req_seq.store(seq, std::memory_order_seq_cst);
    // The server thread spinning for it sees req_seq without a futex wake (devproc_protocol.h).
    if (c.srv_parked.load(std::memory_order_seq_cst) != 0) devproc::futex_wake(c.req_seq);
    return seq;
}

size_t DeviceProcess::wait_reply(const Posted &posted, const std::vector<const KernelLaunch *> &reqs, size_t first,
                                 size_t n, std::vector<KernelResult> *out, const std::function<void()> *on_tail) {
    const int slot = posted.slot;
    const uint64_t gen = posted.gen;
    const uint32_t seq = posted.seq;
    devproc::ControlBlock &cb = *ctl_;
    devproc::Slot &c = cb.slots[slot];

    // The launches before entry `upto` finished: their replies are in their entries.
    auto settle = [&](size_t upto) {
        for (size_t j = 0; j < upto; ++j) {
            const devproc::Entry &e = c.entries[j];
            KernelResult &r = (*out)[first + j];
            r.status = e.status;
            r.wave_cycles = e.wave_cycles;
            r.has_cycles = true;
            r.cores_per_block = e.cores_per_block;
        }
    };
    const bool timed = posted.timed;
    const Clock::time_point deadline = posted.deadline;
    // A short kernel's reply: caught by an adaptive spin (no futex round trip), else parked below.
    reply_spin_.spin([&] {
        return c.rep_seq.load(std::memory_order_acquire) == seq ||
               c.query_state.load(std::memory_order_acquire) == devproc::kQueryAsked;
    });
    bool tail_polled = false;
    for (int iter = 0;; ++iter) {
        const uint32_t bell = cb.host_bell.load(std::memory_order_acquire);
        if (c.rep_seq.load(std::memory_order_acquire) == seq) break;
        if (c.query_state.load(std::memory_order_acquire) == devproc::kQueryAsked) {
            const uint32_t asking = c.q_entry;
            answer_query(c, *reqs[first + (asking < n ? asking : 0)]);
            continue;
        }
        if (!tail_polled && c.drain_seq.load(std::memory_order_seq_cst) == seq) {
            // The last entry's last blocks run (devproc_protocol.h, drain_seq): the reply comes within
            // about one block's time, so poll for it rather than sleep until its ring.
            tail_polled = true;
            if (on_tail != nullptr) (*on_tail)();  // the stream's synchronize waiters poll too
            tail_spin_.spin([&] {
                return c.rep_seq.load(std::memory_order_acquire) == seq ||
                       c.query_state.load(std::memory_order_acquire) == devproc::kQueryAsked;
            });
            continue;
        }
        if (cb.crashed.load() != 0 || terminating_.load() || iter % 4 == 0) {
            if (gone(gen)) {
                const size_t cur = std::min<size_t>(c.current.load(), n - 1);
                settle(cur);
                std::lock_guard<std::mutex> lock(proc_mu_);
                KernelResult &r = (*out)[first + cur];
                r.status = ACL_ERROR_RT_AICORE_EXCEPTION;
                r.message = death_slot_ == slot ? death_
                                                : format("kernel %s: ended with the simulated device process: %s",
                                                         reqs[first + cur]->kernel_name->c_str(), death_.c_str());
                return cur + 1;
            }
        }
        if (timed && Clock::now() >= deadline) {
            const size_t cur = std::min<size_t>(c.current.load(), n - 1);
            std::lock_guard<std::mutex> lock(proc_mu_);
            const std::string why = format(
                "kernel %s: did not finish within the operator execution timeout of %u s (aclrtSetOpExecuteTimeOut, "
                "env PYASC_SIM_OP_TIMEOUT; 0 disables it); the simulated device process was killed and is restarted "
                "at the next launch (device memory is kept, what the kernel wrote is undefined)",
                reqs[first + cur]->kernel_name->c_str(), posted.timeout_s);
            if (generation_ == gen && pid_.load() > 0) {
                reap_locked(false, why);
                death_slot_ = slot;
            }
            settle(cur);
            (*out)[first + cur].status = ACL_ERROR_RT_AICORE_TIMEOUT;
            (*out)[first + cur].message = why;
            return cur + 1;
        }
        // Parked: the device rings at the tail too (drain_seq); checked after host_parked is set,
        // so either this thread sees drain_seq or the device sees host_parked (both seq_cst).
        c.host_parked.store(seq, std::memory_order_seq_cst);
        // (the device rings for the reply only when it sees host_parked: read rep_seq again)
        if (c.rep_seq.load(std::memory_order_seq_cst) != seq &&
            (tail_polled || c.drain_seq.load(std::memory_order_seq_cst) != seq)) {
            devproc::futex_wait(cb.host_bell, bell, kSliceNs);
        }
        c.host_parked.store(0, std::memory_order_relaxed);
    }
    replied_at_.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    replied_gen_.store(gen, std::memory_order_relaxed);
    const size_t done = std::max<size_t>(1, std::min<size_t>(c.done_count, n));
    settle(done);
    // Only the last launch run can have failed or warned (the device stops the batch after it).
    const devproc::Entry &last = c.entries[done - 1];
    KernelResult &r = (*out)[first + done - 1];
    const std::string &name = *reqs[first + done - 1]->kernel_name;
    for (uint32_t i = 0, woff = 0; i < c.n_warnings && woff < c.warnings_size && woff < sizeof(c.warnings); ++i) {
        const char *w = c.warnings + woff;
        const size_t len = strnlen(w, sizeof(c.warnings) - woff);
        r.warnings.push_back(format("kernel %s %s", name.c_str(), std::string(w, len).c_str()));
        woff += static_cast<uint32_t>(len + 1);
    }
    if (last.status != 0) {
        c.message[sizeof(c.message) - 1] = '\0';
        r.message = format("kernel %s block %u: %s", name.c_str(), last.failing_block, c.message);
    }
    return done;
}

}  // namespace pyasc_sim
