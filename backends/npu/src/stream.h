// RAII owners of ACL streams and events, and the interruptible waits of the binding.
#ifndef PYASC_NPU_STREAM_H_
#define PYASC_NPU_STREAM_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "device_context.h"

namespace pyasc_npu {

class Event;

// How long one slice of an interruptible wait lasts (ms): Ctrl-C is seen within about that.
constexpr int32_t kWaitSliceMs = 50;

// Raises the simulator's pending sanitizer warnings (pyascSimTakeWarning) as pyasc_core.errors.
// SanitizerWarning (an exception when the warnings filter says "error"); no-op on other libraries.
void raise_simulator_warnings(DeviceContext &ctx);

// ctx.check(rc, api) with the simulator's pending warnings raised first: a failed wait's AclError
// follows the warnings of the launches that ran (the failing one's too) instead of leaving them for
// the next synchronize.  A warning the warnings filter makes an error then goes to sys.unraisablehook
// and the failure is raised.  Call without the GIL.
void check_with_warnings(DeviceContext &ctx, aclError rc, const char *api);

// Waits with `timed(slice_ms)` (an aclrtSynchronize*WithTimeout call) slice after slice, checking
// for Python signals between slices (the GIL is taken only for that): Ctrl-C raises
// KeyboardInterrupt (pybind11::error_already_set) and leaves the queued work alone.  Call without
// the GIL.  Throws AclError, named `api`, when the wait ends with an error other than a timeout.
void wait_interruptibly(DeviceContext &ctx, const char *api, const std::function<aclError(int32_t)> &timed);

// Raises pending Python signals (KeyboardInterrupt) as pybind11::error_already_set; takes the GIL.
void check_python_signals();

// A stream of one device.  The default stream (handle NULL) is not owned and never destroyed.
class Stream {
public:
    // Creates a new stream (aclrtCreateStream).
    explicit Stream(std::shared_ptr<DeviceContext> ctx);
    // The device's default stream.
    static std::shared_ptr<Stream> default_stream(std::shared_ptr<DeviceContext> ctx);
    // A stream someone else created and destroys (torch_npu's, another library's): used, never destroyed.
    static std::shared_ptr<Stream> external(std::shared_ptr<DeviceContext> ctx, aclrtStream handle);
    ~Stream();  // waits for queued work, then aclrtDestroyStream
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;

    aclrtStream handle() const { return handle_; }
    bool is_default() const { return handle_ == nullptr; }
    bool is_external() const { return !owned_; }
    const std::shared_ptr<DeviceContext> &context() const { return ctx_; }

    void synchronize();              // blocks (Ctrl-C interrupts it): call without the GIL
    bool query();                    // true when all queued work has finished (aclrtStreamQuery)
    void wait_event(Event &event);   // aclrtStreamWaitEvent
    void record(Event &event);       // aclrtRecordEvent(event, this)

private:
    struct DefaultTag {};
    Stream(std::shared_ptr<DeviceContext> ctx, DefaultTag) : ctx_(std::move(ctx)) {}
    std::shared_ptr<DeviceContext> ctx_;
    aclrtStream handle_ = nullptr;
    bool owned_ = true;             // false: an external stream, which its owner destroys
    std::unique_ptr<Event> probe_;  // recorded by query() when the library lacks aclrtStreamQuery
};

class Event {
public:
    explicit Event(std::shared_ptr<DeviceContext> ctx);  // aclrtCreateEvent
    ~Event();                                            // aclrtDestroyEvent
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;

    aclrtEvent handle() const { return handle_; }
    void record(Stream &stream) { stream.record(*this); }
    void synchronize();                   // blocks (Ctrl-C interrupts it): call without the GIL
    // aclrtQueryEventStatus == COMPLETE; a completed event whose record came after a failed task
    // raises that failure (as aclrtSynchronizeEvent reports it).
    bool query();
    float elapsed_time(Event &end);       // milliseconds, aclrtEventElapsedTime

private:
    std::shared_ptr<DeviceContext> ctx_;
    aclrtEvent handle_ = nullptr;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_STREAM_H_
