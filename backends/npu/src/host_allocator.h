// The pinned host memory pool (aclrtMallocHost), like PyTorch's CachingHostAllocator: sizes
// rounded to powers of two, blocks cached by size, and a block used by a stream reused only after
// an event recorded on that stream at free time has completed.
#ifndef PYASC_NPU_HOST_ALLOCATOR_H_
#define PYASC_NPU_HOST_ALLOCATOR_H_

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "device_context.h"
#include "event_pool.h"
#include "memory_stats.h"

namespace pyasc_npu {

struct HostBlock {
    void *ptr = nullptr;
    size_t size = 0;
    int event_count = 0;
    std::vector<aclrtStream> uses;
};

class HostAllocator {
public:
    explicit HostAllocator(std::shared_ptr<DeviceContext> ctx) : ctx_(ctx), events_(ctx) {}
    ~HostAllocator();
    HostAllocator(const HostAllocator &) = delete;
    HostAllocator &operator=(const HostAllocator &) = delete;

    HostBlock *malloc(size_t nbytes);  // may wait for pending events: no GIL
    void free(HostBlock *block);
    void record_stream(HostBlock *block, aclrtStream stream);
    void empty_cache();
    MemoryStats stats();

private:
    void process_events();
    void release_cached();

    std::shared_ptr<DeviceContext> ctx_;
    std::mutex mu_;
    std::multimap<size_t, HostBlock *> free_;
    std::deque<std::pair<aclrtEvent, HostBlock *>> pending_;
    EventPool events_;
    MemoryStats stats_;
};

// The Python-visible owner of one pinned block (exposes the buffer protocol).
class PinnedBlock {
public:
    PinnedBlock(std::shared_ptr<HostAllocator> alloc, HostBlock *block, size_t nbytes)
        : alloc_(std::move(alloc)), block_(block), nbytes_(nbytes) {}
    ~PinnedBlock() { release(); }
    PinnedBlock(const PinnedBlock &) = delete;
    PinnedBlock &operator=(const PinnedBlock &) = delete;

    void release() {
        if (block_ != nullptr) alloc_->free(block_);
        block_ = nullptr;
    }
    HostBlock &block() const;
    void *data() const { return block().ptr; }
    size_t nbytes() const { return nbytes_; }
    void record_stream(aclrtStream s) { alloc_->record_stream(&block(), s); }

private:
    std::shared_ptr<HostAllocator> alloc_;
    HostBlock *block_;
    size_t nbytes_;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_HOST_ALLOCATOR_H_
