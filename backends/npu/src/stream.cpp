#include "stream.h"

#include <pybind11/pybind11.h>

#include <chrono>
#include <exception>
#include <string>
#include <vector>
#include <thread>

namespace pyasc_npu {

namespace {

bool is_timeout(aclError rc) {
    return rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || rc == ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
}

}  // namespace

void check_python_signals() {
    if (!Py_IsInitialized()) return;
    pybind11::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
}

void raise_simulator_warnings(DeviceContext &ctx) {
    const PFN_pyascSimTakeWarning take = ctx.api().pyascSimTakeWarning;
    if (take == nullptr || !Py_IsInitialized()) return;
    std::vector<std::string> taken;
    char buf[4096];
    while (taken.size() < 1024 && take(buf, sizeof(buf)) == 1) taken.emplace_back(buf);
    if (taken.empty()) return;
    pybind11::gil_scoped_acquire gil;
    pybind11::object category = pybind11::module_::import("pyasc_core.errors").attr("SanitizerWarning");
    for (const std::string &w : taken) {
        if (PyErr_WarnEx(category.ptr(), w.c_str(), 1) != 0) throw pybind11::error_already_set();
    }
}

void check_with_warnings(DeviceContext &ctx, aclError rc, const char *api) {
    std::exception_ptr failure;
    try {
        ctx.check(rc, api);  // the failure's message is taken now, before any warning's Python code runs
    } catch (...) {
        failure = std::current_exception();
    }
    if (!failure) {
        raise_simulator_warnings(ctx);
        return;
    }
    try {
        raise_simulator_warnings(ctx);
    } catch (pybind11::error_already_set &e) {  // a warnings filter made one an error: the failure is raised
        pybind11::gil_scoped_acquire gil;
        e.discard_as_unraisable("a pyasc sanitizer warning of the launch that failed");
    }
    std::rethrow_exception(failure);
}

void wait_interruptibly(DeviceContext &ctx, const char *api, const std::function<aclError(int32_t)> &timed) {
    for (;;) {
        const aclError rc = timed(kWaitSliceMs);
        if (!is_timeout(rc)) {
            check_with_warnings(ctx, rc, api);
            return;
        }
        ctx.api().aclGetRecentErrMsg();  // drop the slice's timeout message
        check_python_signals();
    }
}

Stream::Stream(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {
    ctx_->activate();
    ctx_->check(ctx_->api().aclrtCreateStream(&handle_), "aclrtCreateStream");
}

std::shared_ptr<Stream> Stream::default_stream(std::shared_ptr<DeviceContext> ctx) {
    return std::shared_ptr<Stream>(new Stream(std::move(ctx), DefaultTag{}));
}

std::shared_ptr<Stream> Stream::external(std::shared_ptr<DeviceContext> ctx, aclrtStream handle) {
    std::shared_ptr<Stream> s(new Stream(std::move(ctx), DefaultTag{}));
    s->handle_ = handle;
    s->owned_ = false;
    return s;
}

Stream::~Stream() {
    probe_.reset();
    if (handle_ == nullptr || !owned_ || !ctx_->try_activate()) return;
    ctx_->api().aclrtSynchronizeStream(handle_);  // errors are reported by earlier synchronizes
    ctx_->api().aclrtDestroyStream(handle_);
}

void Stream::synchronize() {
    ctx_->activate();
    if (const PFN_aclrtSynchronizeStreamWithTimeout timed = ctx_->api().aclrtSynchronizeStreamWithTimeout) {
        wait_interruptibly(*ctx_, "aclrtSynchronizeStream", [&](int32_t ms) { return timed(handle_, ms); });
        return;
    }
    // Fallback for ACL libraries without the timed wait: not interruptible.
    check_with_warnings(*ctx_, ctx_->api().aclrtSynchronizeStream(handle_), "aclrtSynchronizeStream");
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
    if (const PFN_aclrtSynchronizeEventWithTimeout timed = ctx_->api().aclrtSynchronizeEventWithTimeout) {
        wait_interruptibly(*ctx_, "aclrtSynchronizeEvent", [&](int32_t ms) { return timed(handle_, ms); });
        return;
    }
    check_with_warnings(*ctx_, ctx_->api().aclrtSynchronizeEvent(handle_), "aclrtSynchronizeEvent");
}

bool Event::query() {
    ctx_->activate();
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ctx_->check(ctx_->api().aclrtQueryEventStatus(handle_, &status), "aclrtQueryEventStatus");
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) return false;
    // Complete, so this returns at once: it reports a failure that happened before the record.
    check_with_warnings(*ctx_, ctx_->api().aclrtSynchronizeEvent(handle_), "aclrtSynchronizeEvent");
    return true;
}

float Event::elapsed_time(Event &end) {
    ctx_->activate();
    float ms = 0.0f;
    ctx_->check(ctx_->api().aclrtEventElapsedTime(&ms, handle_, end.handle()), "aclrtEventElapsedTime");
    return ms;
}

}  // namespace pyasc_npu
