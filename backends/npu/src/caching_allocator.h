// The caching device allocator (PyTorch's design): sizes padded as aclrtMalloc documents for
// memory an application divides itself (ALIGN_UP(n, 32) + 32 bytes), then rounded to 512; a small pool
// (<= 1 MiB, carved from 2 MiB segments) and a large pool; free blocks are cached per stream and
// split/merged inside their segment; a block used by other streams (record_stream) is reused only
// after events recorded on those streams at free time have completed.
//
// Giving memory back to the device (aclrtFree) is not stream-ordered: a segment is released only
// when it is wholly free, no other stream still uses any of its blocks, and its own stream has no
// queued work left that was enqueued before the free (the stream is idle, or an event recorded on
// it by an earlier release pass has completed).  Segments that do not qualify yet stay cached and
// are counted in reserved_bytes.
//
// When the ACL library has the pyasc extension pyascRtTrackBlock (the simulator), every block
// handed out (its padded extent) and taken back is reported to it, so the simulator bounds a
// kernel's accesses by the tensor, catches use after free and marks fresh bytes uninitialised.
// Thread-safety: every path holds `mu_`, and nothing waits for the
// device while holding it (the out-of-memory retry waits with it released).
#ifndef PYASC_NPU_CACHING_ALLOCATOR_H_
#define PYASC_NPU_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "device_context.h"
#include "memory_stats.h"
#include "stream_uses.h"

namespace pyasc_npu {

struct Block {
    char *ptr = nullptr;
    size_t size = 0;             // rounded bytes this block spans
    aclrtStream stream = nullptr;  // the stream it was allocated on (its pool key)
    bool small = false;
    bool allocated = false;
    Block *prev = nullptr, *next = nullptr;  // neighbours inside the segment
    StreamUses uses;             // other streams that used it while allocated; pending events
    aclrtEvent fence = nullptr;  // a wholly free segment: recorded on `stream` by a release pass
    bool dirty = false;          // its bytes may have been handed out before (queued work may use them)
    // Non-owned memory (CachingAllocator::adopt): never in a pool, never freed by the allocator;
    // `owner` (whoever frees the memory) is let go once no stream that used the block has work left.
    bool external = false;
    std::shared_ptr<void> owner;
};

class CachingAllocator {
public:
    static constexpr size_t kRound = 512;
    static constexpr size_t kSmallSize = size_t{1} << 20;      // small pool: requests <= 1 MiB
    static constexpr size_t kSmallBuffer = size_t{2} << 20;    // small segments: 2 MiB
    static constexpr size_t kLargeBuffer = size_t{20} << 20;   // large segments for requests < 10 MiB
    static constexpr size_t kMinLargeAlloc = size_t{10} << 20;
    static constexpr size_t kRoundLarge = size_t{2} << 20;

    CachingAllocator(std::shared_ptr<DeviceContext> ctx, std::string label);
    ~CachingAllocator();
    CachingAllocator(const CachingAllocator &) = delete;
    CachingAllocator &operator=(const CachingAllocator &) = delete;

    // Throws AllocatorOOM when nothing fits even after freeing the cache.  Before giving up it
    // waits for work still using cached or held-back blocks: call without the GIL.
    Block *malloc(size_t nbytes, aclrtStream stream);
    // A cached block that fits, or nullptr (none cached, or the allocator is busy): never calls
    // aclrtMalloc and never waits, so callers may hold the GIL (the allocation hot path).
    Block *malloc_cached(size_t nbytes, aclrtStream stream);
    void free(Block *block);
    // Wraps device memory someone else owns ([ptr, ptr + nbytes), CuPy's UnownedMemory) as a block
    // the allocator never frees: told to the runtime like any block (pyascRtTrackBlock: the simulator
    // bounds kernels by it and refuses a range outside one live device allocation: ExternalMemoryError),
    // recorded by every stream that uses it, and `owner` is kept until that work is done.
    Block *adopt(void *ptr, size_t nbytes, aclrtStream stream, std::shared_ptr<void> owner);
    void record_stream(Block *block, aclrtStream stream);
    // Releases the cached segments no queued work can still touch; never waits (the rest stays
    // cached, fenced, for a later call).
    void empty_cache();
    static constexpr size_t kNoLimit = ~size_t{0};
    void set_limit(size_t limit);  // bytes the allocator may reserve (kNoLimit: none)
    size_t limit() const;
    MemoryStats stats();
    void reset_peak();
    std::pair<size_t, size_t> mem_info();  // (free, total) of the device
    const std::shared_ptr<DeviceContext> &context() const { return ctx_; }

private:
    struct Order {
        bool operator()(const Block *a, const Block *b) const;
    };
    using Pool = std::set<Block *, Order>;

    static size_t round_size(size_t n);
    // The extent aclrtMalloc documents for a sub-allocation of n bytes: ALIGN_UP(n, 32) + 32.
    static size_t padded_size(size_t n) { return (n + 31) / 32 * 32 + 32; }
    void track_alloc(Block *block, size_t nbytes);  // pyascRtTrackBlock, when the library has it
    void track_free(Block *block);
    static size_t segment_size(size_t rounded);
    Pool &pool_of(bool small) { return small ? small_pool_ : large_pool_; }
    Block *find_free(Pool &pool, aclrtStream stream, size_t size);  // takes it out of the pool
    bool try_segment(size_t size, void **ptr, aclError *cause, std::string *message);
    Block *new_segment(void *ptr, size_t size, aclrtStream stream, bool small);
    void split(Block *block, size_t size);
    void finish_malloc(Block *b, size_t size, size_t nbytes);  // split, mark and count (mu_ held)
    void free_block(Block *block);  // back into its pool, merged with free neighbours
    void reuse(Block *block);       // freed and no stream still using it: free_block
    void retire(Block *block);      // an external block no stream still uses: owner to graveyard_
    bool track_external(Block *block, size_t nbytes, std::string *why);  // pyascRtTrackBlock, refcounted
    void untrack_external(Block *block);
    void process_events();
    void release_completed();       // every wholly free segment that is safe now: aclrtFree
    void release_segment(Block *block);
    std::vector<aclrtEvent> outstanding_events();  // what release_completed is still waiting for
    [[noreturn]] void raise_oom(size_t nbytes, size_t rounded, size_t segment, aclError cause, const std::string &msg);

    std::shared_ptr<DeviceContext> ctx_;
    std::string label_;
    mutable std::mutex mu_;
    Pool small_pool_, large_pool_;
    StreamUseTracker<Block> stream_uses_;
    MemoryStats stats_;
    size_t limit_ = kNoLimit;
    std::map<char *, size_t> segments_;  // this allocator's own segments (adopt refuses them)
    // Live external blocks per base address: (count, tracked extent); one runtime entry per base.
    std::map<char *, std::pair<int, size_t>> external_;
    // Owners of retired external blocks, dropped outside mu_ by free()/adopt() (their deleters may
    // take the GIL, which must never be waited for under mu_).
    std::vector<std::shared_ptr<void>> graveyard_;
};

// CachingAllocator::adopt refused the range (the runtime's reason in what()).
class ExternalMemoryError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The Python-visible owner of one allocated block: frees it (stream-safely) when dropped.
class DeviceBlock {
public:
    DeviceBlock(std::shared_ptr<CachingAllocator> alloc, Block *block, size_t nbytes)
        : alloc_(std::move(alloc)), block_(block), nbytes_(nbytes) {}
    ~DeviceBlock() { release(); }
    DeviceBlock(const DeviceBlock &) = delete;
    DeviceBlock &operator=(const DeviceBlock &) = delete;

    void release() {
        if (block_ != nullptr) alloc_->free(block_);
        block_ = nullptr;
    }
    bool alive() const { return block_ != nullptr; }
    Block &block() const;  // throws if released
    uintptr_t ptr() const { return reinterpret_cast<uintptr_t>(block().ptr); }
    size_t nbytes() const { return nbytes_; }
    size_t capacity() const { return block().size; }
    void record_stream(aclrtStream s) { alloc_->record_stream(&block(), s); }
    const std::shared_ptr<CachingAllocator> &allocator() const { return alloc_; }

private:
    std::shared_ptr<CachingAllocator> alloc_;
    Block *block_;
    size_t nbytes_;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_CACHING_ALLOCATOR_H_
