// Reusable ACL events for the allocators' "free once the stream got here" bookkeeping, and the
// non-blocking "has this stream finished its queued work" question.
// EventPool is not thread-safe: used under its allocator's mutex.
#ifndef PYASC_NPU_EVENT_POOL_H_
#define PYASC_NPU_EVENT_POOL_H_

#include <memory>
#include <mutex>
#include <vector>

#include "device_context.h"

namespace pyasc_npu {

class EventPool {
public:
    explicit EventPool(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {}
    ~EventPool() {
        if (!ctx_->try_activate()) return;
        for (aclrtEvent e : free_) ctx_->api().aclrtDestroyEvent(e);
        for (aclrtEvent e : held_) ctx_->api().aclrtDestroyEvent(e);
    }
    EventPool(const EventPool &) = delete;
    EventPool &operator=(const EventPool &) = delete;

    // An event recorded on `stream` now (the device must be active).
    aclrtEvent record(aclrtStream stream) {
        aclrtEvent e = nullptr;
        if (free_.empty()) {
            ctx_->check(ctx_->api().aclrtCreateEvent(&e), "aclrtCreateEvent");
        } else {
            e = free_.back();
            free_.pop_back();
        }
        const aclError rc = ctx_->api().aclrtRecordEvent(e, stream);
        if (rc != ACL_SUCCESS) {
            free_.push_back(e);
            ctx_->check(rc, "aclrtRecordEvent");
        }
        return e;
    }
    bool done(aclrtEvent e) {
        aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        ctx_->check(ctx_->api().aclrtQueryEventStatus(e, &st), "aclrtQueryEventStatus");
        return st == ACL_EVENT_RECORDED_STATUS_COMPLETE;
    }
    void release(aclrtEvent e) { (holds_ > 0 ? held_ : free_).push_back(e); }

    // While a thread waits on some of the pool's events with the allocator's lock released,
    // released events are not handed out again: a new record would make that wait follow
    // unrelated work.  One hold() per waiting thread, each undone by unhold().
    void hold() { ++holds_; }
    void unhold() {
        if (--holds_ > 0) return;
        free_.insert(free_.end(), held_.begin(), held_.end());
        held_.clear();
    }

private:
    std::shared_ptr<DeviceContext> ctx_;
    std::vector<aclrtEvent> free_;
    std::vector<aclrtEvent> held_;  // released during a hold
    int holds_ = 0;
};

// Waits for `events` with `lock` (the allocator's) released, the pool on hold meanwhile, and
// takes the lock again.  For the out-of-memory retries: other threads keep using the allocator.
inline void wait_unlocked(DeviceContext &ctx, EventPool &pool, std::unique_lock<std::mutex> &lock,
                          const std::vector<aclrtEvent> &events) {
    pool.hold();
    lock.unlock();
    for (aclrtEvent e : events) {
        if (ctx.api().aclrtSynchronizeEvent(e) != ACL_SUCCESS) ctx.lib().recent_error_message();
    }
    lock.lock();
    pool.unhold();
}

// Blocks until `e`'s latest record completed; errors are ignored (callers re-query afterwards).
// Thread-safe (no pool state): allocators call it with their mutex released and without the GIL.
inline void wait_event_quietly(DeviceContext &ctx, aclrtEvent e) {
    if (ctx.api().aclrtSynchronizeEvent(e) != ACL_SUCCESS) ctx.lib().recent_error_message();
}

// True when every task queued on `stream` so far has completed (aclrtStreamQuery, never waits).
// False when it has not, when the library lacks aclrtStreamQuery, or on an error (the message is
// dropped): the caller then fences with an event instead.
inline bool stream_idle(DeviceContext &ctx, aclrtStream stream) {
    const PFN_aclrtStreamQuery query = ctx.api().aclrtStreamQuery;
    if (query == nullptr) return false;
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    if (query(stream, &status) != ACL_SUCCESS) {
        ctx.lib().recent_error_message();
        return false;
    }
    return status == ACL_STREAM_STATUS_COMPLETE;
}

}  // namespace pyasc_npu

#endif  // PYASC_NPU_EVENT_POOL_H_
