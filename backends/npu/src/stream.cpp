#include "stream.h"

#include <chrono>
#include <thread>

namespace pyasc_npu {

Stream::Stream(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtCreateStream(&handle_), "aclrtCreateStream");
}

std::shared_ptr<Stream> Stream::default_stream(std::shared_ptr<DeviceContext> ctx) {
    return std::shared_ptr<Stream>(new Stream(std::move(ctx), DefaultTag{}));
}

Stream::~Stream() {
    probe_.reset();
    if (handle_ == nullptr || !ctx_->try_activate()) return;
    ctx_->api().aclrtSynchronizeStream(handle_);  // errors are reported by earlier synchronizes
    ctx_->api().aclrtDestroyStream(handle_);
}

void Stream::synchronize() {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtSynchronizeStream(handle_), "aclrtSynchronizeStream");
}

bool Stream::query() {
    ctx_->activate();
    if (const PFN_aclrtStreamQuery stream_query = ctx_->api().aclrtStreamQuery) {
        aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
        ctx_->check(stream_query(handle_, &status), "aclrtStreamQuery");
        return status == ACL_STREAM_STATUS_COMPLETE;
    }
    // Fallback for ACL libraries without aclrtStreamQuery: record a private event and ask it.
    // The record is itself queued, so give an idle stream a moment (<= ~200 us) to reach it; under
    // load an idle stream may still answer false.
    if (!probe_) probe_.reset(new Event(ctx_));
    record(*probe_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    for (;;) {
        if (probe_->query()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::yield();
    }
}

void Stream::wait_event(Event &event) {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtStreamWaitEvent(handle_, event.handle()), "aclrtStreamWaitEvent");
}

void Stream::record(Event &event) {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtRecordEvent(event.handle(), handle_), "aclrtRecordEvent");
}

Event::Event(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtCreateEvent(&handle_), "aclrtCreateEvent");
}

Event::~Event() {
    if (handle_ != nullptr && ctx_->try_activate()) ctx_->api().aclrtDestroyEvent(handle_);
}

void Event::synchronize() {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtSynchronizeEvent(handle_), "aclrtSynchronizeEvent");
}

bool Event::query() {
    ctx_->activate();
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ctx_->check(ctx_->api().aclrtQueryEventStatus(handle_, &status), "aclrtQueryEventStatus");
    return status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
}

float Event::elapsed_time(Event &end) {
    ctx_->activate();
    float ms = 0.0f;
    ctx_->check(ctx_->api().aclrtEventElapsedTime(&ms, handle_, end.handle()), "aclrtEventElapsedTime");
    return ms;
}

}  // namespace pyasc_npu
