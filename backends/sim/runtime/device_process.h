// Host side of one simulated device's device process (pyasc-sim-device): spawns it lazily with
// posix_spawn, posts launches into the shared control block, waits for the reply (brief spin,
// then futex waits in slices that watch the child and the operator timeout), and turns a crash,
// an exit() or a timeout into a launch error.  The next launch respawns a process that died.
#ifndef PYASC_SIM_DEVICE_PROCESS_H_
#define PYASC_SIM_DEVICE_PROCESS_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pyasc/acl_abi.h"
#include "spin_wait.h"

namespace pyasc_sim {

class DeviceHeap;
struct SocProfile;
namespace devproc {
struct ControlBlock;
struct Slot;
}

struct KernelLaunch {
    // (both point into the launch's kernel Function / Binary, which the caller keeps alive)
    const std::string *binary_path = nullptr;
    uint64_t bin_dev = 0, bin_ino = 0;
    const std::string *kernel_name = nullptr;
    uint32_t num_blocks = 0;
    const std::vector<uint8_t> *args = nullptr;
    bool checks = true;
    bool strict = false;  // PYASC_SIM_STRICT: warnings are errors
    bool aicpu = false;   // kernel_name is the entry function of an AI CPU binary (runs once)
    std::string profile_prefix;  // non-empty: the profiler's span files of this launch (profile_log.h)
    uint64_t span_cap = 0;
    const SocProfile *profile = nullptr;
    // What the kernel may touch, by address: (base, size) of live allocations and of tensor
    // blocks (size | devproc::kTensorBlockBit) inside allocations the caching allocator uses.
    std::vector<std::pair<uint64_t, uint64_t>> allocs;
    // Answers a gm_query the snapshot could not (same contract as PyascSimBlockContext::gm_query).
    std::function<int(const void *, uint64_t *, uint64_t *, char *, size_t)> query;
};

struct KernelResult {
    aclError status = ACL_SUCCESS;
    std::string message;          // complete ("kernel K block B: ...")
    double wave_cycles = 0.0;     // sum over waves of the slowest block's cycles (the cost model);
                                  // an AI CPU launch: the nanoseconds its function ran
    bool has_cycles = false;      // wave_cycles is set (success, or a block's own error)
    std::vector<std::string> warnings;  // "kernel K block B: sanitizer warning ..."
    uint32_t cores_per_block = 1;       // 3: a mixed cube/vector kernel
};

class DeviceProcess {
public:
    DeviceProcess(int32_t device, std::shared_ptr<DeviceHeap> heap);
    ~DeviceProcess();  // terminate()
    DeviceProcess(const DeviceProcess &) = delete;
    DeviceProcess &operator=(const DeviceProcess &) = delete;

    // Runs one launch; timeout_s 0 waits without limit.
    void launch(const KernelLaunch &req, uint32_t timeout_s, KernelResult *out);
    // Runs consecutive launches of one stream in order (out->size() == reqs.size()), as few
    // requests as fit a slot: one hand-off each way per request.  A launch that fails, crashes or
    // times out does not stop the ones after it (as on a stream).  on_tail (may be null) is called
    // on this thread when the last launch's tail begins (devproc_protocol.h, drain_seq) while this
    // thread waits for the reply.
    void launch_batch(const std::vector<const KernelLaunch *> &reqs, uint32_t timeout_s,
                      std::vector<KernelResult> *out, const std::function<void()> *on_tail = nullptr);
    // A launch posted to a slot by the caller itself (an idle stream's launch: the device starts it
    // without the stream worker's hand-off); finish() waits for its reply and frees the slot.
    struct Posted {
        int slot = -1;
        uint64_t gen = 0;
        uint32_t seq = 0;
        uint32_t timeout_s = 0;
        bool timed = false;
        std::chrono::steady_clock::time_point deadline;
    };
    // Posts `req` to a free slot of the running device process without waiting; false (nothing
    // posted) when no slot is free, the process is not running yet (the queued path spawns it), the
    // caller is a forked child or the launch does not fit: the caller queues the launch then.
    bool try_post(const KernelLaunch &req, uint32_t timeout_s, Posted *out);
    // The reply of a posted launch is in (finish() then returns without waiting).  Never blocks.
    bool replied(const Posted &p) const;
    // Where the slot's server thread runs for the calling thread, which waits for that reply (its
    // spin yields to a server on its CPU).  Notes this thread's CPU for the server's own spin.
    // Never blocks.
    Peer server_cpu(const Posted &p) const;
    // Waits for the reply of a posted launch as launch_batch does (queries, crash, timeout), fills
    // *out and gives the slot back.  Exactly once per successful try_post.
    void finish(const Posted &p, const KernelLaunch &req, KernelResult *out, const std::function<void()> *on_tail);
    // Ends the device process now (aclrtResetDevice / aclFinalize / teardown): a running launch
    // fails, later launches fail without respawning.  In a forked child: touches nothing.
    void terminate();

private:
    bool spawn_locked(std::string *error);
    // Ends the child (politely when nothing runs) and notes why for the launches it ends.
    void reap_locked(bool polite, const std::string &why);
    // True when the process of generation `gen` is gone (reaps it when it just ended).
    bool gone(uint64_t gen);
    int take_slot();
    void give_slot(int slot);
    void answer_query(devproc::Slot &s, const KernelLaunch &req);
    // Posts reqs[first, first + n) (n >= 1, all fitting the slot) and waits for the reply; fills
    // out[first, first + ran) and returns ran (>= 1): the launches the request settled.
    size_t run_request(int slot, const std::vector<const KernelLaunch *> &reqs, size_t first, size_t n,
                       uint32_t timeout_s, std::vector<KernelResult> *out, const std::function<void()> *on_tail);
    // Writes reqs[first, first + n) into the slot and rings the device; returns the request's seq.
    // direct: posted by the launching caller (try_post), which also waits for the reply.
    uint32_t post_locked(int slot, const std::vector<const KernelLaunch *> &reqs, size_t first, size_t n,
                         bool direct);
    size_t wait_reply(const Posted &posted, const std::vector<const KernelLaunch *> &reqs, size_t first, size_t n,
                      std::vector<KernelResult> *out, const std::function<void()> *on_tail);
    std::string crash_message_locked(int wait_status);

    int32_t device_;
    std::shared_ptr<DeviceHeap> heap_;
    pid_t owner_ = 0;          // the process that created this object (fork check)
    int ctl_fd_ = -1;
    devproc::ControlBlock *ctl_ = nullptr;
    std::mutex proc_mu_;       // guards pid_, generation_, death_ and spawning
    std::atomic<pid_t> pid_{0};
    uint64_t generation_ = 0;  // bumped by every spawn
    std::string death_;        // why the last process ended (for the launches it took along)
    int death_slot_ = -1;      // the launch that caused it (its message is death_ itself)
    std::mutex slot_mu_;
    std::condition_variable slot_cv_;
    std::atomic<uint32_t> busy_slots_{0};  // bit i: slot i has a launch in flight (changed under slot_mu_)
    std::atomic<bool> terminating_{false};
    // When the process of generation replied_gen_ last replied (steady_clock ns): try_post skips
    // its liveness check within a millisecond of it.
    std::atomic<int64_t> replied_at_{0};
    std::atomic<uint64_t> replied_gen_{0};
    AdaptiveSpin reply_spin_{2000, 100000};  // the wait for a launch's reply, before futex waits
    AdaptiveSpin tail_spin_{2000, 200000};   // the wait for the reply once the launch's tail began
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_DEVICE_PROCESS_H_
