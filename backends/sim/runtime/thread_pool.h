// Fixed-size worker pool that runs the blocks of kernel launches.
// One pool per device; several streams may run launches on it concurrently.
#ifndef PYASC_SIM_THREAD_POOL_H_
#define PYASC_SIM_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "spin_wait.h"

namespace pyasc_sim {

class ThreadPool {
public:
    // on_start (optional) runs first in every worker thread (the device process installs its
    // alternate signal stack there).
    explicit ThreadPool(unsigned threads, std::function<void()> on_start = nullptr);
    ~ThreadPool();  // joins the workers
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    // Runs fn(0) .. fn(n-1) on the pool and returns when all have finished.
    // The calling thread helps with its own batch, so this never deadlocks even
    // when every worker is busy with other batches; it wakes at most n - 1 workers (none for
    // n == 1: the caller runs the only index).  fn must not throw.  Once no index is left to hand
    // out, the caller polls briefly (adaptive, spin_wait.h) for the others to finish theirs before
    // it sleeps: the end of every multi-block launch, where a sleeping caller would add a futex
    // wake-up's latency after the last block.
    void parallel_for(uint32_t n, const std::function<void(uint32_t)> &fn);

    unsigned size() const { return static_cast<unsigned>(workers_.size()); }

private:
    struct Batch {
        const std::function<void(uint32_t)> *fn = nullptr;
        uint32_t n = 0;
        uint32_t next = 0;  // guarded by ThreadPool::mu_
        std::atomic<uint32_t> done{0};  // changed under ThreadPool::mu_, polled without it
        std::condition_variable finished;
    };

    // Takes the next index of some batch; false when there is nothing to do.
    bool take(std::shared_ptr<Batch> &batch, uint32_t &index);
    void run_one(const std::shared_ptr<Batch> &batch, uint32_t index);
    void worker_loop();

    std::mutex mu_;
    std::condition_variable work_;
    std::deque<std::shared_ptr<Batch>> batches_;
    bool stop_ = false;
    std::vector<std::thread> workers_;
    // The caller's wait for the indices others still run: at most about one index's time.
    AdaptiveSpin tail_spin_{2000, 200000};
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_THREAD_POOL_H_
