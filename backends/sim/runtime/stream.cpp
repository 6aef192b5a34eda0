// Streams and events: the in-order task queues, their simulated clocks, and
// aclrtCreateStream, aclrtDestroyStream, aclrtSynchronizeStream(WithTimeout), aclrtStreamQuery,
// aclrtStreamWaitEvent, aclrtCreateEvent, aclrtDestroyEvent, aclrtRecordEvent,
// aclrtSynchronizeEvent(WithTimeout), aclrtQueryEventStatus, aclrtEventElapsedTime.
//
// Sticky errors: the first error of a task stays on its stream until a synchronize of that stream
// (or of the device) reports it, once.  An event recorded after the failure captures the error when
// its record runs, and every aclrtSynchronizeEvent of that event reports it until it is recorded
// again (aclrtQueryEventStatus only answers the status);
// a stream that waits on such an event takes the error as its own sticky error.
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "pyasc_sim/cost_model.h"
#include "error.h"
#include "profile_log.h"
#include "runtime.h"

namespace pyasc_sim {

Stream::Stream(Device *device, bool is_default, double start_clock_ns)
    : clock_ns(start_clock_ns), device_(device), is_default_(is_default) {
    worker_ = std::thread([this] { worker_loop(); });
}

Stream::~Stream() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    work_cv_.notify_all();
    worker_.join();
}

void Stream::enqueue(Task task) { push(Queued{std::move(task), nullptr}); }

namespace {

// PYASC_SIM_DIRECT_LAUNCH=0: every launch goes through the stream worker (for comparisons).
bool direct_launch_enabled() {
    static const bool on = [] {
        const char *v = std::getenv("PYASC_SIM_DIRECT_LAUNCH");
        return v == nullptr || std::strcmp(v, "0") != 0;
    }();
    return on;
}

}  // namespace

void Stream::enqueue_launch(std::shared_ptr<LaunchJob> job) {
    // An idle stream: post the launch to the device from this thread (no hand-off to the worker
    // before its first block).  Nothing is pending, so it overtakes no queued work; whatever is
    // enqueued after it queues behind it (pending_ stays > 0 until it is finished).
    if (pending_.load(std::memory_order_acquire) == 0 && direct_launch_enabled()) {
        std::lock_guard<std::mutex> lock(mu_);
        if (pending_ == 0 && !stop_ && !direct_) {
            if (std::shared_ptr<DirectLaunch> d = post_direct(*this, job)) {
                direct_ = std::move(d);
                direct_claimed_ = false;
                direct_handoff_ = false;
                ++pending_;
                direct_seq_ = ++submitted_;
                running_seq_ = direct_seq_;
                tail_of_ = 0;
                return;
            }
        }
    }
    push(Queued{nullptr, std::move(job)});
}

void Stream::finish_direct_locked(std::unique_lock<std::mutex> &lock) {
    const std::shared_ptr<DirectLaunch> d = direct_;
    direct_claimed_ = true;
    lock.unlock();
    finish_direct(*this, *d);  // also drops the launch's references (before the stream reports idle)
    device_->note_clock(clock_ns);
    lock.lock();
    direct_.reset();
    direct_claimed_ = false;
    direct_handoff_ = false;
    if (direct_seq_ > finished_) finished_ = direct_seq_;
    --pending_;
    if (pending_ == 0) idle_cv_.notify_all();
    // A worker that waits for it to end (work queued behind it, or the stream stops); a worker
    // parked on an empty queue is left asleep (no futex wake per launch).
    if (worker_parked_ && (stop_ || !queue_.empty())) work_cv_.notify_all();
}

void Stream::push(Queued q) {
    bool wake;
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(std::move(q));
        ++pending_;
        ++submitted_;
        tail_of_ = 0;  // the running task's end no longer ends a synchronize
        queued_.fetch_add(1, std::memory_order_release);
        wake = worker_parked_;  // a spinning worker sees queued_ without a futex wake
    }
    if (wake) work_cv_.notify_one();
}

void Stream::wait_idle() { wait_idle_until(std::chrono::steady_clock::time_point::max()); }

bool Stream::wait_idle_until(std::chrono::steady_clock::time_point deadline) {
    std::shared_ptr<DirectLaunch> d;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (direct_ && !direct_claimed_ && queue_.empty()) d = direct_;  // a posted launch is all that runs
    }
    if (d) {
        // Poll its reply in the device slot (adaptive spin) and apply it on this thread: the end of a
        // short launch reaches the synchronize without the stream worker.  It yields only while the
        // slot's server thread shares this CPU (a yield to another task costs the next call's time).
        const bool seen = sync_spin_.spin(
            [&] { return pending_.load(std::memory_order_acquire) == 0 || direct_replied(*this, *d); },
            [&] { return direct_server_cpu(*this, *d); });
        std::unique_lock<std::mutex> lock(mu_);
        if (direct_ == d && !direct_claimed_ && seen && direct_replied(*this, *d)) finish_direct_locked(lock);
        if (pending_ == 0) return true;
    } else if (sync_spin_.spin([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
        // A synchronize right after a short launch: caught the end without sleeping (adaptive spin).
        std::lock_guard<std::mutex> lock(mu_);  // pairs with the worker's release of the task
        return true;
    }
    d.reset();
    std::unique_lock<std::mutex> lock(mu_);
    bool polled = false;  // the running task's tail was polled for once (note_tail)
    for (;;) {
        if (direct_ && !direct_claimed_ && !direct_handoff_) {
            // A posted launch whose reply has not come: the worker waits for it (it also watches the
            // device process and the operator timeout); this thread sleeps as for a queued task.
            direct_handoff_ = true;
            if (worker_parked_) work_cv_.notify_all();
        }
        // (tail_of_: the running task's tail, nothing queued since: push clears it)
        auto woken = [&] {
            return pending_ == 0 || (!polled && tail_of_ != 0 && tail_of_ == running_seq_ && finished_ < running_seq_) ||
                   (direct_ && !direct_claimed_ && !direct_handoff_);
        };
        if (deadline == std::chrono::steady_clock::time_point::max()) {
            idle_cv_.wait(lock, woken);
        } else if (!idle_cv_.wait_until(lock, deadline, woken)) {
            return false;
        }
        if (pending_ == 0) return true;
        if (direct_ && !direct_claimed_ && !direct_handoff_) continue;  // posted since: hand it over
        polled = true;
        lock.unlock();
        const bool idle = tail_spin_.spin([this] { return pending_.load(std::memory_order_acquire) == 0; });
        lock.lock();
        if (idle) return true;
    }
}

void Stream::note_tail() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!queue_.empty()) return;  // more tasks follow: no synchronize ends with this one
        tail_of_ = running_seq_;
    }
    idle_cv_.notify_all();
}

bool Stream::idle() {
    std::unique_lock<std::mutex> lock(mu_);
    if (direct_ && !direct_claimed_ && queue_.empty()) {
        if (direct_replied(*this, *direct_)) {
            finish_direct_locked(lock);  // its reply is in: apply it now (never blocks)
        } else if (!direct_handoff_) {
            direct_handoff_ = true;  // the worker finishes it (and notices a crash or a timeout)
            if (worker_parked_) work_cv_.notify_all();
        }
    }
    return finished_ == submitted_;
}

void Stream::finish_current_task() {
    std::lock_guard<std::mutex> lock(mu_);
    if (running_seq_ > finished_) finished_ = running_seq_;
}

void Stream::record_error(aclError code, const std::string &message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_ == ACL_SUCCESS) {
        error_ = code;
        error_message_ = message;
    }
}

aclError Stream::take_error(std::string *message) {
    std::lock_guard<std::mutex> lock(mu_);
    const aclError e = error_;
    if (message != nullptr) *message = error_message_;
    error_ = ACL_SUCCESS;
    error_message_.clear();
    return e;
}

aclError Stream::peek_error(std::string *message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (message != nullptr) *message = error_message_;
    return error_;
}

aclError sync_deadline(const char *api, int32_t timeout, std::chrono::steady_clock::time_point *deadline) {
    if (timeout == -1) {
        *deadline = std::chrono::steady_clock::time_point::max();
        return ACL_SUCCESS;
    }
    if (timeout <= 0) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    format("%s: timeout %d is not valid; pass -1 to wait forever or a positive number of milliseconds",
                           api, static_cast<int>(timeout)));
    }
    *deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout);
    return ACL_SUCCESS;
}

void Stream::worker_loop() {
    // SCHED_BATCH: woken by an enqueue, this thread does not preempt the enqueuing (Python) thread
    // on its core (no wakeup preemption), so queueing a launch on an idle stream stays a few us.
    sched_param batch{};
    batch.sched_priority = 0;
    (void)sched_setscheduler(0, SCHED_BATCH, &batch);
    std::vector<std::shared_ptr<LaunchJob>> launches;
    launches.reserve(kMaxLaunchBatch);
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        // A launch posted by its caller (enqueue_launch): finished here when work is queued behind
        // it, the stream stops, or a waiter hands it over; a synchronize that sees its reply
        // finishes it itself.
        if (worker_takes_direct()) {
            finish_direct_locked(lock);
            continue;
        }
        if (queue_.empty() && !stop_) {
            // Back-to-back launches: poll briefly for the next task before parking (adaptive, so
            // an idle stream sleeps), then sleep until enqueue() or the destructor wakes us.
            lock.unlock();
            worker_spin_.spin([this] { return queued_.load(std::memory_order_acquire) != 0; });
            lock.lock();
            worker_parked_ = true;
            work_cv_.wait(lock, [this] { return worker_takes_direct() || (!direct_ && (stop_ || !queue_.empty())); });
            worker_parked_ = false;
            continue;
        }
        if (direct_) {  // being finished by a synchronize: the queued work runs after it
            worker_parked_ = true;
            work_cv_.wait(lock, [this] { return !direct_ || worker_takes_direct(); });
            worker_parked_ = false;
            continue;
        }
        if (queue_.empty()) return;  // stop_ and drained
        Queued q = std::move(queue_.front());
        queue_.pop_front();
        size_t n = 1;
        if (q.launch) {  // with the launches queued right behind it: one request to the device
            launches.push_back(std::move(q.launch));
            while (!queue_.empty() && queue_.front().launch && launches.size() < kMaxLaunchBatch) {
                launches.push_back(std::move(queue_.front().launch));
                queue_.pop_front();
            }
            n = launches.size();
        }
        queued_.fetch_sub(n, std::memory_order_relaxed);
        running_seq_ += n;
        lock.unlock();
        if (launches.empty()) {
            q.task(*this);
        } else {
            run_launch_batch(*this, launches);
        }
        device_->note_clock(clock_ns);
        q.task = nullptr;  // release captured references before reporting idle
        launches.clear();
        lock.lock();
        finished_ = running_seq_;
        pending_ -= n;
        if (pending_ == 0) idle_cv_.notify_all();
    }
}

}  // namespace pyasc_sim

using namespace pyasc_sim;

namespace {

bool event_done_locked(const Event &ev) { return ev.issued != 0 && ev.completed >= ev.issued; }

aclError synchronize_stream(const char *api, aclrtStream stream, int32_t timeout) {
    std::chrono::steady_clock::time_point deadline;
    if (aclError e = sync_deadline(api, timeout, &deadline)) return e;
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Stream> s;
    if (aclError e = resolve_stream(api, stream, dev, &s)) return e;
    if (!s->wait_idle_until(deadline)) {
        // The sticky error (if any) stays for the synchronize that sees the stream finish.
        return fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                    format("%s: stream %s did not finish its tasks within %d ms", api, ptr_str(stream).c_str(),
                           static_cast<int>(timeout)));
    }
    profile_task(*s, "host synchronize (stream)", s->clock_ns, 0);  // idle: its clock is settled
    std::string message;
    // The sticky error is reported once, then cleared: the stream is usable again.
    const aclError e = s->take_error(&message);
    if (e != ACL_SUCCESS) return fail(e, std::string(api) + ": " + message);
    return ACL_SUCCESS;
}

// The error an event's completed record captured, as the result of `api` (ACL_SUCCESS if none).
// ev.mu must be held.
aclError event_error_locked(const char *api, const Event &ev) {
    if (ev.error == ACL_SUCCESS) return ACL_SUCCESS;
    return fail(ev.error, std::string(api) + ": a task before the event's record failed: " + ev.error_message);
}

aclError synchronize_event(const char *api, aclrtEvent event, int32_t timeout) {
    std::chrono::steady_clock::time_point deadline;
    if (aclError e = sync_deadline(api, timeout, &deadline)) return e;
    if (aclError e = require_init(api)) return e;
    std::shared_ptr<Event> ev;
    if (aclError e = resolve_event(api, "event", event, &ev)) return e;
    std::unique_lock<std::mutex> lock(ev->mu);
    const uint64_t target = ev->issued;  // never recorded: returns at once
    auto reached = [&] { return ev->completed >= target; };
    if (deadline == std::chrono::steady_clock::time_point::max()) {
        ev->cv.wait(lock, reached);
    } else if (!ev->cv.wait_until(lock, deadline, reached)) {
        lock.unlock();
        return fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                    format("%s: event %s was not reached within %d ms", api, ptr_str(event).c_str(),
                           static_cast<int>(timeout)));
    }
    return event_error_locked(api, *ev);
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream *stream) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtCreateStream", &dev)) return e;
    if (stream == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is NULL");
    auto s = std::make_shared<Stream>(dev.get(), false, dev->max_clock_ns());
    Runtime &rt = runtime();
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (!rt.initialized || static_cast<size_t>(dev->id) >= rt.devices.size() || rt.devices[dev->id] != dev) {
            lock.unlock();
            return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream: the device was reset concurrently");
        }
        rt.streams[s.get()] = s;
    }
    *stream = s.get();
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtDestroyStream", &dev)) return e;
    if (stream == nullptr) {
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is NULL (the default stream cannot be destroyed)");
    }
    std::shared_ptr<Stream> s;
    if (aclError e = resolve_stream("aclrtDestroyStream", stream, dev, &s)) return e;
    Runtime &rt = runtime();
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (rt.streams.erase(stream) == 0) {
            return fail(ACL_ERROR_RT_INVALID_HANDLE,
                        format("aclrtDestroyStream: stream %s was destroyed concurrently", ptr_str(stream).c_str()));
        }
    }
    s->wait_idle();  // documented: pending tasks complete before the stream goes away
    return ACL_SUCCESS;  // the worker is joined when the last reference drops
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    return synchronize_stream("aclrtSynchronizeStream", stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return synchronize_stream("aclrtSynchronizeStreamWithTimeout", stream, timeout);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
    const char *api = "aclrtStreamQuery";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Stream> s;
    if (aclError e = resolve_stream(api, stream, dev, &s)) return e;
    if (status == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status is NULL");
    // Never blocks, and leaves a sticky task error for the next synchronize to report.
    *status = s->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    const char *api = "aclrtStreamWaitEvent";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Stream> s;
    if (aclError e = resolve_stream(api, stream, dev, &s)) return e;
    std::shared_ptr<Event> ev;
    if (aclError e = resolve_event(api, "event", event, &ev)) return e;
    uint64_t target;
    {
        std::lock_guard<std::mutex> lock(ev->mu);
        target = ev->issued;  // waits for the most recent record issued before this call
    }
    if (target == 0) return ACL_SUCCESS;  // never recorded: nothing to wait for
    s->enqueue([ev, target](Stream &st) {
        std::unique_lock<std::mutex> lock(ev->mu);
        ev->cv.wait(lock, [&] { return ev->completed >= target; });
        const double start_ns = st.clock_ns;
        st.clock_ns = std::max(st.clock_ns, ev->timestamp_ns) + cost::kEventTaskNs;
        if (st.clock_ns > start_ns) profile_task(st, "stream wait event", start_ns, 0);
        const aclError error = ev->error;
        const std::string message = ev->error_message;
        lock.unlock();
        // Work queued after the wait depends on the failed work: this stream inherits the error.
        if (error != ACL_SUCCESS) st.record_error(error, "waited on an event recorded after a failed task: " + message);
    });
    return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtCreateEvent", &dev)) return e;
    if (event == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is NULL");
    auto ev = std::make_shared<Event>();
    ev->device = dev->id;
    Runtime &rt = runtime();
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        rt.events[ev.get()] = ev;
    }
    *event = ev.get();
    return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    if (aclError e = require_init("aclrtDestroyEvent")) return e;
    if (event == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is NULL");
    Runtime &rt = runtime();
    std::unique_lock<std::shared_mutex> lock(rt.mu);
    if (rt.events.erase(event) == 0) {
        lock.unlock();
        return fail(ACL_ERROR_RT_INVALID_HANDLE,
                    format("aclrtDestroyEvent: event %s is not a live event (never created, or already destroyed)",
                           ptr_str(event).c_str()));
    }
    return ACL_SUCCESS;  // tasks still referring to it keep it alive until they ran
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    const char *api = "aclrtRecordEvent";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Event> ev;
    if (aclError e = resolve_event(api, "event", event, &ev)) return e;
    std::shared_ptr<Stream> s;
    if (aclError e = resolve_stream(api, stream, dev, &s)) return e;
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lock(ev->mu);
        seq = ++ev->issued;
    }
    s->enqueue([ev, seq](Stream &st) {
        st.clock_ns += cost::kEventTaskNs;
        std::string message;
        const aclError error = st.peek_error(&message);  // a failure before the record is the event's too
        st.finish_current_task();  // an event seen complete implies its stream is idle up to here
        std::lock_guard<std::mutex> lock(ev->mu);
        ev->timestamp_ns = st.clock_ns;
        profile_task(st, "event record", st.clock_ns, 0);
        if (seq > ev->completed) {
            ev->completed = seq;
            ev->error = error;
            ev->error_message = std::move(message);
        }
        ev->cv.notify_all();
    });
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return synchronize_event("aclrtSynchronizeEvent", event, -1); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    return synchronize_event("aclrtSynchronizeEventWithTimeout", event, timeout);
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
    if (aclError e = require_init("aclrtQueryEventStatus")) return e;
    std::shared_ptr<Event> ev;
    if (aclError e = resolve_event("aclrtQueryEventStatus", "event", event, &ev)) return e;
    if (status == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is NULL");
    std::lock_guard<std::mutex> lock(ev->mu);
    // Only the status: a failure the record captured is reported by aclrtSynchronizeEvent.
    *status = event_done_locked(*ev) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    const char *api = "aclrtEventElapsedTime";
    if (aclError e = require_init(api)) return e;
    if (ms == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is NULL");
    std::shared_ptr<Event> start, end;
    if (aclError e = resolve_event(api, "startEvent", startEvent, &start)) return e;
    if (aclError e = resolve_event(api, "endEvent", endEvent, &end)) return e;
    double t0, t1;
    {
        std::lock_guard<std::mutex> lock(start->mu);
        if (!event_done_locked(*start)) {
            return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        format("%s: startEvent %s %s", api, ptr_str(startEvent).c_str(),
                               start->issued == 0 ? "was never recorded" : "has not completed yet (synchronize first)"));
        }
        t0 = start->timestamp_ns;
    }
    {
        std::lock_guard<std::mutex> lock(end->mu);
        if (!event_done_locked(*end)) {
            return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        format("%s: endEvent %s %s", api, ptr_str(endEvent).c_str(),
                               end->issued == 0 ? "was never recorded" : "has not completed yet (synchronize first)"));
        }
        t1 = end->timestamp_ns;
    }
    if (t1 < t0) {
        return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                    format("%s: endEvent (t=%.3f us) was recorded before startEvent (t=%.3f us) in simulated time", api,
                           t1 / 1e3, t0 / 1e3));
    }
    *ms = static_cast<float>((t1 - t0) / 1e6);
    return ACL_SUCCESS;
}

}  // extern "C"
