#include "thread_pool.h"

#include <algorithm>

namespace pyasc_sim {

ThreadPool::ThreadPool(unsigned threads, std::function<void()> on_start) {
    if (threads == 0) threads = 1;
    workers_.reserve(threads);
    for (unsigned i = 0; i < threads; ++i) {
        workers_.emplace_back([this, on_start] {
            if (on_start) on_start();
            worker_loop();
        });
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    work_.notify_all();
    for (std::thread &t : workers_) t.join();
}

bool ThreadPool::take(std::shared_ptr<Batch> &batch, uint32_t &index) {
    // mu_ held by caller
    while (!batches_.empty()) {
        std::shared_ptr<Batch> &front = batches_.front();
        if (front->next < front->n) {
            batch = front;
            index = front->next++;
            if (front->next == front->n) batches_.pop_front();
            return true;
        }
        batches_.pop_front();
    }
    return false;
}

void ThreadPool::run_one(const std::shared_ptr<Batch> &batch, uint32_t index) {
    (*batch->fn)(index);
    std::lock_guard<std::mutex> lock(mu_);
    if (batch->done.fetch_add(1, std::memory_order_acq_rel) + 1 == batch->n) batch->finished.notify_all();
}

void ThreadPool::worker_loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        std::shared_ptr<Batch> batch;
        uint32_t index = 0;
        if (take(batch, index)) {
            lock.unlock();
            run_one(batch, index);
            lock.lock();
            continue;
        }
        if (stop_) return;
        work_.wait(lock);
    }
}

void ThreadPool::parallel_for(uint32_t n, const std::function<void(uint32_t)> &fn) {
    if (n == 0) return;
    if (n == 1) {  // the caller runs it: a one-block launch wakes no worker
        fn(0);
        return;
    }
    auto batch = std::make_shared<Batch>();
    batch->fn = &fn;
    batch->n = n;
    {
        std::lock_guard<std::mutex> lock(mu_);
        batches_.push_back(batch);
    }
    // The caller takes one index itself: wake only as many workers as there are other indices.
    const size_t wake = std::min<size_t>(n - 1, workers_.size());
    if (wake == workers_.size()) {
        work_.notify_all();
    } else {
        for (size_t i = 0; i < wake; ++i) work_.notify_one();
    }
    // Help: run indices of our own batch until none is left to hand out.
    for (;;) {
        uint32_t index;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (batch->next >= batch->n) break;
            index = batch->next++;
            if (batch->next == batch->n) {
                for (auto it = batches_.begin(); it != batches_.end(); ++it) {
                    if (*it == batch) {
                        batches_.erase(it);
                        break;
                    }
                }
            }
        }
        run_one(batch, index);
    }
    // No index left: the others end theirs within about one index's time (the last blocks of a
    // launch), so poll before sleeping on the condition variable, whose wake-up would come after
    // the last block as one more thread hand-off (tens of us on a VM whose idle core sleeps).
    if (tail_spin_.spin([&] { return batch->done.load(std::memory_order_acquire) == batch->n; })) {
        std::lock_guard<std::mutex> lock(mu_);  // the last run_one has released the batch
        return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    batch->finished.wait(lock, [&] { return batch->done.load(std::memory_order_relaxed) == batch->n; });
}

}  // namespace pyasc_sim
