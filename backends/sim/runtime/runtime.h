// Internal state of the simulated ACL runtime: devices, streams, events, binaries.
#ifndef PYASC_SIM_RUNTIME_H_
#define PYASC_SIM_RUNTIME_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "device_process.h"
#include "elf_symbols.h"
#include "memory.h"
#include "pyasc/acl_abi.h"
#include "pyasc_sim/kernel_abi.h"
#include "soc_profile.h"
#include "spin_wait.h"

namespace pyasc_sim {

struct Device;
class Stream;

// A queued kernel launch (kernel.cpp).  The stream worker hands consecutive launches to
// run_launch_batch together, so they reach the device process in one request.
struct LaunchJob;
constexpr size_t kMaxLaunchBatch = 64;
void run_launch_batch(Stream &st, std::vector<std::shared_ptr<LaunchJob>> &jobs);
// A launch posted to the device by its caller (kernel.cpp): on an idle stream the launch goes to
// the device slot from the calling thread, so its first block starts without the stream worker's
// hand-off.  post_direct returns null when it cannot (the launch is queued then).
struct DirectLaunch;
std::shared_ptr<DirectLaunch> post_direct(Stream &st, const std::shared_ptr<LaunchJob> &job);
bool direct_replied(const Stream &st, const DirectLaunch &d);  // its reply is in; never blocks
Peer direct_server_cpu(const Stream &st, const DirectLaunch &d);  // where its server runs (never blocks)
void finish_direct(Stream &st, DirectLaunch &d);  // waits for the reply, applies it to the stream

// In-order task queue run by its own worker thread.  Tasks advance the stream's
// simulated device clock; the first error raised by a task is sticky until
// reported by a synchronize call.
class Stream {
public:
    using Task = std::function<void(Stream &)>;

    Stream(Device *device, bool is_default, double start_clock_ns);
    ~Stream();  // drains the queue and joins the worker
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;

    void enqueue(Task task);
    // A kernel launch: run like a task, but batched with the launches queued right after it.
    void enqueue_launch(std::shared_ptr<LaunchJob> job);
    // Blocks until every task enqueued so far has run.
    void wait_idle();
    // Like wait_idle() but gives up when `deadline` passes first (returns false then).
    bool wait_idle_until(std::chrono::steady_clock::time_point deadline);
    // True when every task enqueued so far has finished (aclrtStreamQuery); never blocks.
    bool idle();
    // Called by a task once its work is done and before it signals anyone else (an event, a
    // waiting caller): from then on idle() counts it as finished, although the worker still has
    // to release it.  So whoever that signal wakes sees the stream idle when nothing follows.
    void finish_current_task();
    // Called by the worker when the launch it runs reached its tail (the device's last blocks
    // run: devproc_protocol.h, drain_seq): when nothing is queued behind it, wakes the synchronize
    // waiters, which then poll for the end (about one block's time) instead of sleeping until the
    // worker's notify, a wake-up after the last block.
    void note_tail();
    // Called by tasks: keeps the first error only.
    void record_error(aclError code, const std::string &message);
    // Returns and clears the sticky error (ACL_SUCCESS when none).
    aclError take_error(std::string *message);
    // Returns the sticky error without clearing it (an event record captures it this way).
    aclError peek_error(std::string *message);

    Device *device() const { return device_; }
    bool is_default() const { return is_default_; }

    // Simulated device time of this stream in ns; touched only by the worker thread.
    double clock_ns;

private:
    void worker_loop();

    // The launch posted directly (null: none): it runs while nothing else is pending, and is
    // finished (its reply applied) by one thread that claims it under mu_: a synchronize that sees
    // its reply, aclrtStreamQuery that sees it, or the worker (when work is queued behind it, the
    // stream is destroyed, or a waiter hands it over because the reply has not come).
    std::shared_ptr<DirectLaunch> direct_;
    bool direct_claimed_ = false;
    bool direct_handoff_ = false;  // a waiter asks the worker to finish direct_
    uint64_t direct_seq_ = 0;
    // Claims direct_ (mu_ held through `lock`, released while finishing) and finishes it.
    void finish_direct_locked(std::unique_lock<std::mutex> &lock);
    // True when the worker has direct_ to finish now.
    bool worker_takes_direct() const {
        return direct_ && !direct_claimed_ && (direct_handoff_ || stop_ || !queue_.empty());
    }

    Device *device_;
    bool is_default_;
    std::mutex mu_;
    std::condition_variable work_cv_;
    std::condition_variable idle_cv_;
    struct Queued {
        Task task;                       // or, when null:
        std::shared_ptr<LaunchJob> launch;
    };
    void push(Queued q);
    std::deque<Queued> queue_;
    // queued + running; changed under mu_, read without it by the spinning synchronize
    std::atomic<size_t> pending_{0};
    std::atomic<size_t> queued_{0};  // queue_.size(), read without mu_ by the spinning worker
    bool worker_parked_ = false;     // the worker sleeps on work_cv_ (enqueue notifies only then)
    AdaptiveSpin worker_spin_{2000, 100000};  // the worker's wait for the next task
    AdaptiveSpin sync_spin_{2000, 200000};    // a synchronize's wait for the stream to go idle
    AdaptiveSpin tail_spin_{2000, 200000};    // a synchronize's wait once note_tail woke it
    uint64_t tail_of_ = 0;      // running_seq_ at the last note_tail (its task's tail began)
    uint64_t submitted_ = 0;    // tasks enqueued so far
    uint64_t finished_ = 0;     // tasks finished so far (in order: the oldest ones)
    uint64_t running_seq_ = 0;  // sequence number (1-based) of the task being run
    bool stop_ = false;
    aclError error_ = ACL_SUCCESS;
    std::string error_message_;
    std::thread worker_;
};

struct Device {
    int32_t id = 0;
    uint64_t generation = 0;  // distinguishes re-opened devices
    int refcount = 0;         // aclrtSetDevice count; guarded by Runtime::mu
    const SocProfile *profile = nullptr;
    size_t capacity = 0;
    std::atomic<size_t> used{0};
    std::shared_ptr<DeviceHeap> heap;        // device memory (shared with the device process)
    std::unique_ptr<DeviceProcess> proc;     // runs the kernels; created with the device
    std::shared_ptr<Stream> default_stream;

    DeviceProcess &process() { return *proc; }
    // Highest simulated time reached by any stream of this device; new streams start there.
    double max_clock_ns();
    void note_clock(double ns);

private:
    std::mutex clock_mu_;
    double max_clock_ns_ = 0.0;
};

struct Event {
    int32_t device = 0;
    std::mutex mu;
    std::condition_variable cv;
    uint64_t issued = 0;     // records enqueued
    uint64_t completed = 0;  // highest record sequence executed
    double timestamp_ns = 0.0;
    // The sticky error its stream held when the record `completed` ran (not cleared by reports:
    // the event keeps telling it until it is recorded again).
    aclError error = ACL_SUCCESS;
    std::string error_message;
};

struct Binary {
    std::string path;
    ElfExports exports;  // what the file exports (the host never dlopens kernel binaries)
    int32_t device = 0;
    uint64_t file_dev = 0, file_ino = 0;  // identity of the file loaded
    // An AI CPU binary (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE): plain C++ functions
    // `extern "C" uint32_t fn(void *args)` over device memory, run by the simulated AI CPU.
    bool aicpu = false;
    std::string temp_path;  // aclrtBinaryLoadFromData: the file holding the data (removed at unload)
    ~Binary();
};

struct Function {
    std::shared_ptr<Binary> binary;
    std::string name;
    bool aicpu = false;   // an AI CPU function of an AI CPU binary
    std::string symbol;   // AI CPU: the exported entry function (aclrtRegisterCpuFunc's funcName)
};

struct Runtime {
    std::shared_mutex mu;
    bool initialized = false;
    uint64_t epoch = 1;  // bumped by aclFinalize; invalidates thread-local devices
    uint64_t next_generation = 1;
    const SocProfile *profile = nullptr;
    int32_t device_count = 1;
    size_t device_memory = 0;
    std::vector<std::shared_ptr<Device>> devices;
    std::unordered_map<const void *, std::shared_ptr<Stream>> streams;
    std::unordered_map<const void *, std::shared_ptr<Event>> events;
    std::unordered_map<const void *, std::shared_ptr<Binary>> binaries;
    std::unordered_map<const void *, std::shared_ptr<Function>> functions;
    MemoryTable memory;
};

Runtime &runtime();

// Operator execution timeout in seconds (0: none): aclrtSetOpExecuteTimeOut, env
// PYASC_SIM_OP_TIMEOUT, default kDefaultOpTimeoutSeconds.
constexpr uint32_t kDefaultOpTimeoutSeconds = 547;
uint32_t op_execute_timeout();

// What the host can back: physical memory, or the cgroup (v2/v1) memory limit when smaller.
size_t host_backable_memory();
// Default capacity per device: half of host_backable_memory() over the devices, at most 32 GiB.
size_t default_device_memory(int32_t device_count);

// Checks that aclInit has run.
aclError require_init(const char *api);
// Reads the PYASC_SIM_CHECKS switch value `env` (NULL or "": the default, on) into *on; false when
// the value is not one of 1/0, on/off, true/false, yes/no (any case), *on then left untouched.
bool parse_checks_switch(const char *env, bool *on);
// The calling thread's current device (set by aclrtSetDevice).
aclError current_device(const char *api, std::shared_ptr<Device> *out);
// Resolves a stream argument (NULL: the device's default stream) of the current device.
aclError resolve_stream(const char *api, aclrtStream stream, const std::shared_ptr<Device> &dev,
                        std::shared_ptr<Stream> *out);
aclError resolve_event(const char *api, const char *role, aclrtEvent event, std::shared_ptr<Event> *out);

// Validates the timeout of the aclrtSynchronize*WithTimeout calls (-1: wait forever, >0: ms) and
// turns it into a deadline (time_point::max() for -1).
aclError sync_deadline(const char *api, int32_t timeout, std::chrono::steady_clock::time_point *deadline);

// Tears down everything a device owns (called without Runtime::mu held).
void destroy_detached(std::vector<std::shared_ptr<Device>> devices,
                      std::vector<std::shared_ptr<Stream>> streams);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_RUNTIME_H_
