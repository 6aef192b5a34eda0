#include "host_allocator.h"

#include <stdexcept>
#include <vector>

namespace pyasc_npu {
namespace {

size_t round_pow2(size_t n) {
    size_t p = 512;
    while (p < n) p <<= 1;
    return p;
}

}  // namespace

HostAllocator::~HostAllocator() {
    // Live PinnedBlocks keep the pool alive: only cached and held-back blocks remain, and no other
    // thread can reach them, so waiting under the lock blocks nobody.
    std::lock_guard<std::mutex> lock(mu_);
    if (!ctx_->try_activate()) return;
    try {
        for (aclrtEvent e : stream_uses_.pending_events()) wait_event_quietly(*ctx_, e);
        process_events();
        release_cached();
    } catch (const std::exception &) {
    }
}

HostBlock *HostAllocator::malloc(size_t nbytes) {
    const size_t size = round_pow2(nbytes);
    std::unique_lock<std::mutex> lock(mu_);
    ctx_->activate();
    process_events();
    HostBlock *b = nullptr;
    auto it = free_.find(size);
    if (it != free_.end()) {
        b = it->second;
        free_.erase(it);
    } else {
        void *p = nullptr;
        aclError rc = ctx_->api().aclrtMallocHost(&p, size);
        if (rc != ACL_SUCCESS) {
            // Return the cached blocks (all unused: a block joins free_ only once the streams that
            // used it passed its free) and try again; the blocks still held back by queued work are
            // waited for with the lock released, so other threads keep allocating and freeing.
            ctx_->lib().recent_error_message();
            ++stats_.num_alloc_retries;
            const std::vector<aclrtEvent> waits = stream_uses_.pending_events();
            wait_unlocked(*ctx_, stream_uses_.events(), lock, waits);
            process_events();
            release_cached();
            rc = ctx_->api().aclrtMallocHost(&p, size);
            if (rc != ACL_SUCCESS) ++stats_.num_ooms;
            ctx_->check(rc, "aclrtMallocHost");
        }
        b = new HostBlock();
        b->ptr = p;
        b->size = size;
        stats_.reserved_bytes.increase(static_cast<int64_t>(size));
        stats_.segment.increase(1);
    }
    stats_.allocated_bytes.increase(static_cast<int64_t>(size));
    stats_.active_bytes.increase(static_cast<int64_t>(size));
    stats_.allocation.increase(1);
    return b;
}

void HostAllocator::free(HostBlock *b) {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.allocated_bytes.decrease(static_cast<int64_t>(b->size));
    stats_.allocation.decrease(1);
    if (stream_uses_.free(b)) reuse(b);
}

void HostAllocator::record_stream(HostBlock *b, aclrtStream stream) {
    std::lock_guard<std::mutex> lock(mu_);
    stream_uses_.record(b, stream);
}

void HostAllocator::reuse(HostBlock *b) {
    stats_.active_bytes.decrease(static_cast<int64_t>(b->size));
    free_.emplace(b->size, b);
}

void HostAllocator::process_events() {
    stream_uses_.poll([this](HostBlock *b) { reuse(b); });
}

void HostAllocator::release_cached() {
    for (auto &kv : free_) {
        if (ctx_->api().aclrtFreeHost(kv.second->ptr) != ACL_SUCCESS) ctx_->lib().recent_error_message();
        stats_.reserved_bytes.decrease(static_cast<int64_t>(kv.second->size));
        stats_.segment.decrease(1);
        delete kv.second;
    }
    free_.clear();
}

void HostAllocator::empty_cache() {
    // Never waits: blocks still held back by a stream's queued work stay until a later call.
    std::lock_guard<std::mutex> lock(mu_);
    ctx_->activate();
    process_events();
    release_cached();
}

MemoryStats HostAllocator::stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
}

HostBlock &PinnedBlock::block() const {
    if (block_ == nullptr) throw std::invalid_argument("the pinned host block was already freed");
    return *block_;
}

}  // namespace pyasc_npu
