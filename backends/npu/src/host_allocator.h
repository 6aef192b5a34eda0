// The pinned host memory pool (aclrtMallocHost), like PyTorch's CachingHostAllocator: sizes
// rounded to powers of two, blocks cached by size, and a block used by a stream reused (or given
// back with aclrtFreeHost) only after an event recorded on that stream at free time has completed.
// Every use by a stream is recorded (copies and launches call record_stream), so a cached block
// is never in use.  Thread-safety: every path holds `mu_`; nothing waits for the device under it.
#ifndef PYASC_NPU_HOST_ALLOCATOR_H_
#define PYASC_NPU_HOST_ALLOCATOR_H_

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "device_context.h"
#include "memory_stats.h"
#include "stream_uses.h"

namespace pyasc_npu {

struct HostBlock {
    void *ptr = nullptr;
    size_t size = 0;
    StreamUses uses;
};

class HostAllocator {
public:
    explicit HostAllocator(std::shared_ptr<DeviceContext> ctx) : ctx_(ctx), stream_uses_(ctx) {}
    ~HostAllocator();
    HostAllocator(const HostAllocator &) = delete;
    HostAllocator &operator=(const HostAllocator &) = delete;

    HostBlock *malloc(size_t nbytes);  // may wait for pending events (lock released): no GIL
    void free(HostBlock *block);
    void record_stream(HostBlock *block, aclrtStream stream);
    void empty_cache();                // frees the unused cached blocks; never waits
    MemoryStats stats();

private:
    void reuse(HostBlock *block);  // freed and no stream still using it: back into the pool
    void process_events();
    void release_cached();

    std::shared_ptr<DeviceContext> ctx_;
    std::mutex mu_;
    std::multimap<size_t, HostBlock *> free_;
    StreamUseTracker<HostBlock> stream_uses_;
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
