// Stream-safe reuse of freed blocks (PyTorch's record_stream): a block remembers the streams that
// used it while allocated; when it is freed an event is recorded on each of them, and the block
// stays out of its allocator's free pool until all those events have completed.  Shared by the
// caching device allocator and the pinned host pool.  Not thread-safe: used under the
// allocator's mutex (never waits: the allocators decide when and where to wait).
#ifndef PYASC_NPU_STREAM_USES_H_
#define PYASC_NPU_STREAM_USES_H_

#include <algorithm>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "acl_error.h"
#include "device_context.h"
#include "event_pool.h"

namespace pyasc_npu {

// The per-block state, a member `uses` of the block type.
struct StreamUses {
    std::vector<aclrtStream> streams;  // streams that used the block while allocated
    int events = 0;                    // outstanding events recorded at free time
    bool pending() const { return events > 0; }
};

// The events of freed blocks still in use by a stream.  BlockT has a member `StreamUses uses`.
template <typename BlockT>
class StreamUseTracker {
public:
    explicit StreamUseTracker(std::shared_ptr<DeviceContext> ctx) : ctx_(ctx), events_(std::move(ctx)) {}

    // `stream` uses the (allocated) block.
    void record(BlockT *b, aclrtStream stream) {
        std::vector<aclrtStream> &s = b->uses.streams;
        if (std::find(s.begin(), s.end(), stream) == s.end()) s.push_back(stream);
    }

    // The block was freed: records an event on every stream that used it.  True when the block
    // can be reused now; otherwise poll() hands it back once those events have completed.
    bool free(BlockT *b) {
        if (!b->uses.streams.empty() && ctx_->try_activate()) {
            for (aclrtStream s : b->uses.streams) {
                try {
                    pending_.emplace_back(events_.record(s), b);
                    ++b->uses.events;
                } catch (const AclError &) {
                    // the stream is gone (destroying a stream waits for its work): nothing to wait for
                }
            }
        }
        b->uses.streams.clear();
        return !b->uses.pending();
    }

    // Calls reuse(block) for every block whose last outstanding event has completed.
    template <typename Reuse>
    void poll(Reuse &&reuse) {
        for (auto it = pending_.begin(); it != pending_.end();) {
            if (!events_.done(it->first)) {
                ++it;
                continue;
            }
            events_.release(it->first);
            BlockT *b = it->second;
            it = pending_.erase(it);
            if (--b->uses.events == 0) reuse(b);
        }
    }

    // The outstanding events, for a caller that waits on them with its mutex released
    // (wait_unlocked keeps them from being recorded again meanwhile), then polls again.
    std::vector<aclrtEvent> pending_events() const {
        std::vector<aclrtEvent> out;
        out.reserve(pending_.size());
        for (const auto &pe : pending_) out.push_back(pe.first);
        return out;
    }
    bool has_pending() const { return !pending_.empty(); }

    // The event pool, shared with the allocator's own fences.
    EventPool &events() { return events_; }

private:
    std::shared_ptr<DeviceContext> ctx_;
    EventPool events_;
    std::deque<std::pair<aclrtEvent, BlockT *>> pending_;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_STREAM_USES_H_
