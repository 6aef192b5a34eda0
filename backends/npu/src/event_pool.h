// Reusable ACL events for the allocators' "free once the stream got here" bookkeeping.
// Not thread-safe: used under its allocator's mutex.
#ifndef PYASC_NPU_EVENT_POOL_H_
#define PYASC_NPU_EVENT_POOL_H_

#include <memory>
#include <vector>

#include "device_context.h"

namespace pyasc_npu {

class EventPool {
public:
    explicit EventPool(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {}
    ~EventPool() {
        if (!ctx_->try_activate()) return;
        for (aclrtEvent e : free_) ctx_->api().aclrtDestroyEvent(e);
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
    void wait(aclrtEvent e) {
        const aclError rc = ctx_->api().aclrtSynchronizeEvent(e);
        if (rc == ACL_SUCCESS) return;
        // A kernel failure before the record is its stream's to report (at its synchronize); the
        // record was reached all the same, which is all the allocator needs to know.
        if (done(e)) {
            ctx_->api().aclGetRecentErrMsg();  // drop the message
            return;
        }
        ctx_->check(rc, "aclrtSynchronizeEvent");
    }
    void release(aclrtEvent e) { free_.push_back(e); }

private:
    std::shared_ptr<DeviceContext> ctx_;
    std::vector<aclrtEvent> free_;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_EVENT_POOL_H_
