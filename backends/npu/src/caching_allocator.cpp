#include "caching_allocator.h"

#include <cstdio>
#include <functional>
#include <stdexcept>

#include "acl_error.h"

namespace pyasc_npu {
namespace {

std::string human(size_t n) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char buf[64];
    if (u == 0) {
        std::snprintf(buf, sizeof(buf), "%zu B", n);
    } else {
        std::snprintf(buf, sizeof(buf), "%.2f %s (%zu bytes)", v, units[u], n);
    }
    return buf;
}

}  // namespace

bool CachingAllocator::Order::operator()(const Block *a, const Block *b) const {
    if (a->stream != b->stream) return std::less<void *>()(a->stream, b->stream);
    if (a->size != b->size) return a->size < b->size;
    return std::less<char *>()(a->ptr, b->ptr);
}

CachingAllocator::CachingAllocator(std::shared_ptr<DeviceContext> ctx, std::string label)
    : ctx_(std::move(ctx)), label_(std::move(label)), stream_uses_(ctx_) {}

CachingAllocator::~CachingAllocator() {
    // Live DeviceBlocks keep the allocator alive, so only cached and held-back blocks remain and no
    // other thread can reach them: waiting under the lock blocks nobody.
    std::lock_guard<std::mutex> lock(mu_);
    if (ctx_->try_activate()) {
        try {
            process_events();
            release_completed();
            for (aclrtEvent e : outstanding_events()) wait_event_quietly(*ctx_, e);
            process_events();
            release_completed();
        } catch (const std::exception &) {
        }
    }
    // What is left could not be proven unused (the runtime failed): its device memory is leaked
    // rather than freed under queued work.
    for (Pool *p : {&small_pool_, &large_pool_}) {
        for (Block *b : *p) {
            if (b->fence != nullptr) stream_uses_.events().release(b->fence);
            delete b;
        }
        p->clear();
    }
}

size_t CachingAllocator::round_size(size_t n) {
    if (n < kRound) return kRound;
    return (n + kRound - 1) / kRound * kRound;
}

size_t CachingAllocator::segment_size(size_t rounded) {
    if (rounded <= kSmallSize) return kSmallBuffer;
    if (rounded < kMinLargeAlloc) return kLargeBuffer;
    return (rounded + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
}

Block *CachingAllocator::find_free(Pool &pool, aclrtStream stream, size_t size) {
    Block key;
    key.stream = stream;
    key.size = size;
    auto it = pool.lower_bound(&key);
    if (it == pool.end() || (*it)->stream != stream) return nullptr;
    Block *b = *it;
    pool.erase(it);
    if (b->fence != nullptr) {  // in use again: a release must fence the stream anew
        stream_uses_.events().release(b->fence);
        b->fence = nullptr;
    }
    return b;
}

bool CachingAllocator::try_segment(size_t size, void **ptr, aclError *cause, std::string *message) {
    if (limit_ != kNoLimit && static_cast<size_t>(stats_.reserved_bytes.current) + size > limit_) {
        *cause = ACL_SUCCESS;
        *message = "";
        return false;
    }
    const aclError rc = ctx_->api().aclrtMalloc(ptr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) {
        *cause = rc;
        *message = ctx_->lib().recent_error_message();
        return false;
    }
    return true;
}

Block *CachingAllocator::new_segment(void *ptr, size_t size, aclrtStream stream, bool small) {
    Block *b = new Block();
    b->ptr = static_cast<char *>(ptr);
    b->size = size;
    b->stream = stream;
    b->small = small;
    stats_.reserved_bytes.increase(static_cast<int64_t>(size));
    stats_.segment.increase(1);
    segments_[b->ptr] = size;
    return b;
}

Block *CachingAllocator::malloc(size_t nbytes, aclrtStream stream) {
    const size_t size = round_size(padded_size(nbytes));
    const bool small = round_size(nbytes) <= kSmallSize;  // the pool by the request, as before the padding
    const size_t seg = segment_size(size);
    std::unique_lock<std::mutex> lock(mu_);
    ctx_->activate();
    process_events();
    Pool &pool = pool_of(small);
    aclError cause = ACL_SUCCESS;
    std::string message;
    Block *b = nullptr;
    // PyTorch's recovery, in steps: a cached block or a new segment; else return the cached
    // segments that are safe to free now and try again; else wait (lock released) for the work
    // still using cached or held-back blocks, free what it released, and try a last time.
    for (int attempt = 0;; ++attempt) {
        b = find_free(pool, stream, size);
        if (b != nullptr) break;
        void *p = nullptr;
        if (try_segment(seg, &p, &cause, &message)) {
            b = new_segment(p, seg, stream, small);
            break;
        }
        if (attempt == 0) {
            ++stats_.num_alloc_retries;
        } else if (attempt == 1) {
            const std::vector<aclrtEvent> waits = outstanding_events();
            if (waits.empty()) continue;  // nothing to wait for: the last attempt decides
            wait_unlocked(*ctx_, stream_uses_.events(), lock, waits);
            process_events();
        } else {
            ++stats_.num_ooms;
            raise_oom(nbytes, size, seg, cause, message);
        }
        release_completed();
    }
    finish_malloc(b, size, nbytes);
    return b;
}

Block *CachingAllocator::malloc_cached(size_t nbytes, aclrtStream stream) {
    const size_t size = round_size(padded_size(nbytes));
    const bool small = round_size(nbytes) <= kSmallSize;
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock()) return nullptr;
    ctx_->activate();
    process_events();
    Block *b = find_free(pool_of(small), stream, size);
    if (b != nullptr) finish_malloc(b, size, nbytes);
    return b;
}

void CachingAllocator::finish_malloc(Block *b, size_t size, size_t nbytes) {
    split(b, size);
    b->allocated = true;
    track_alloc(b, nbytes);
    stats_.allocated_bytes.increase(static_cast<int64_t>(b->size));
    stats_.active_bytes.increase(static_cast<int64_t>(b->size));
    stats_.allocation.increase(1);
}

void CachingAllocator::split(Block *b, size_t size) {
    const size_t rest = b->size - size;
    if (b->small ? rest < kRound : rest <= kSmallSize) return;  // keep the slack inside the block
    Block *r = new Block();
    r->ptr = b->ptr + size;
    r->size = rest;
    r->stream = b->stream;
    r->small = b->small;
    r->dirty = b->dirty;
    r->prev = b;
    r->next = b->next;
    if (b->next != nullptr) b->next->prev = r;
    b->next = r;
    b->size = size;
    pool_of(r->small).insert(r);
}

void CachingAllocator::free(Block *b) {
    std::vector<std::shared_ptr<void>> dead;  // released after the lock (owners may take the GIL)
    std::lock_guard<std::mutex> lock(mu_);
    b->allocated = false;
    if (b->external) {
        untrack_external(b);
    } else {
        track_free(b);
        stats_.allocated_bytes.decrease(static_cast<int64_t>(b->size));
        stats_.allocation.decrease(1);
    }
    if (stream_uses_.free(b)) reuse(b);
    dead.swap(graveyard_);
}

Block *CachingAllocator::adopt(void *ptr, size_t nbytes, aclrtStream stream, std::shared_ptr<void> owner) {
    std::unique_ptr<Block> b(new Block());
    b->ptr = static_cast<char *>(ptr);
    b->size = nbytes;
    b->stream = stream;
    b->external = true;
    b->allocated = true;
    std::vector<std::shared_ptr<void>> dead;
    std::string why;
    {
        std::lock_guard<std::mutex> lock(mu_);
        ctx_->activate();
        process_events();
        dead.swap(graveyard_);
        auto seg = segments_.upper_bound(b->ptr);
        if (seg != segments_.begin() && b->ptr < (--seg)->first + seg->second) {
            char buf[160];
            std::snprintf(buf, sizeof(buf), "it lies inside pyasc's own device memory (the allocator segment "
                          "[%p, +%zu) of %s)", static_cast<void *>(seg->first), seg->second, label_.c_str());
            why = buf;
            b.reset();
        } else if (nbytes != 0 && !track_external(b.get(), nbytes, &why)) {
            b.reset();
        }
    }
    if (!b) throw ExternalMemoryError(why);
    b->owner = std::move(owner);
    return b.release();
}

bool CachingAllocator::track_external(Block *b, size_t nbytes, std::string *why) {
    PFN_pyascRtTrackBlock track = ctx_->api().pyascRtTrackBlock;
    if (track == nullptr) return true;  // a real libascendcl: nothing to tell, nothing to check
    auto it = external_.find(b->ptr);
    const size_t have = it == external_.end() ? 0 : it->second.second;
    // The extent aclrtMalloc documents for n bytes (as for every block), or exactly n bytes when
    // the owner's allocation ends sooner; a base wrapped twice keeps its longest extent.
    size_t extent = 0;
    for (size_t e : {padded_size(nbytes), nbytes}) {
        if (e <= have) {
            extent = have;
            break;
        }
        if (track(b->ptr, e, PYASC_RT_BLOCK_ALLOC) == ACL_SUCCESS) {
            extent = e;
            break;
        }
        *why = ctx_->lib().recent_error_message();
    }
    if (extent == 0) return false;
    if (it == external_.end()) {
        external_.emplace(b->ptr, std::make_pair(1, extent));
    } else {
        ++it->second.first;
        it->second.second = extent;
    }
    return true;
}

void CachingAllocator::untrack_external(Block *b) {
    auto it = external_.find(b->ptr);
    if (it == external_.end() || --it->second.first > 0) return;
    external_.erase(it);
    PFN_pyascRtTrackBlock track = ctx_->api().pyascRtTrackBlock;
    if (track == nullptr || !ctx_->try_activate()) return;
    if (track(b->ptr, 0, PYASC_RT_BLOCK_FREE) != ACL_SUCCESS) ctx_->lib().recent_error_message();
}

void CachingAllocator::retire(Block *b) {
    graveyard_.push_back(std::move(b->owner));
    delete b;
}

void CachingAllocator::record_stream(Block *b, aclrtStream stream) {
    std::lock_guard<std::mutex> lock(mu_);
    // Non-owned memory has no stream of its own: the owner may free it whenever, so every use counts.
    if (b->external || stream != b->stream) stream_uses_.record(b, stream);
}

void CachingAllocator::free_block(Block *b) {
    Pool &pool = pool_of(b->small);
    auto mergeable = [](Block *n) { return n != nullptr && !n->allocated && !n->uses.pending(); };
    if (mergeable(b->prev)) {
        Block *p = b->prev;
        pool.erase(p);
        p->size += b->size;
        p->dirty = p->dirty || b->dirty;
        p->next = b->next;
        if (b->next != nullptr) b->next->prev = p;
        delete b;
        b = p;
    }
    if (mergeable(b->next)) {
        Block *n = b->next;
        pool.erase(n);
        b->size += n->size;
        b->dirty = b->dirty || n->dirty;
        b->next = n->next;
        if (n->next != nullptr) n->next->prev = b;
        delete n;
    }
    pool.insert(b);
}

void CachingAllocator::track_alloc(Block *b, size_t nbytes) {
    PFN_pyascRtTrackBlock track = ctx_->api().pyascRtTrackBlock;
    if (track == nullptr) return;  // a real libascendcl: nothing to tell
    // Bytes no queued work can touch count as never written: a block never handed out before,
    // or one whose stream has nothing left in flight (other streams' uses ended before reuse).
    const bool fresh = !b->dirty || stream_idle(*ctx_, b->stream);
    b->dirty = true;
    if (track(b->ptr, padded_size(nbytes), fresh ? PYASC_RT_BLOCK_ALLOC_UNINIT : PYASC_RT_BLOCK_ALLOC) != ACL_SUCCESS) {
        ctx_->lib().recent_error_message();  // the checks lose this block; allocation goes on
    }
}

void CachingAllocator::track_free(Block *b) {
    PFN_pyascRtTrackBlock track = ctx_->api().pyascRtTrackBlock;
    if (track == nullptr || !ctx_->try_activate()) return;
    if (track(b->ptr, 0, PYASC_RT_BLOCK_FREE) != ACL_SUCCESS) ctx_->lib().recent_error_message();
}

void CachingAllocator::reuse(Block *b) {
    if (b->external) {
        retire(b);
        return;
    }
    stats_.active_bytes.decrease(static_cast<int64_t>(b->size));
    free_block(b);
}

void CachingAllocator::process_events() {
    stream_uses_.poll([this](Block *b) { reuse(b); });
}

void CachingAllocator::release_completed() {
    EventPool &events = stream_uses_.events();
    std::map<aclrtStream, bool> idle;  // one aclrtStreamQuery per stream and pass
    for (Pool *pool : {&small_pool_, &large_pool_}) {
        for (auto it = pool->begin(); it != pool->end();) {
            Block *b = *it;
            if (b->prev != nullptr || b->next != nullptr) {  // part of a segment still in use
                ++it;
                continue;
            }
            // Work queued on the segment's own stream before the free may still touch it: safe
            // once that stream passed a fence recorded after the free, or has nothing queued.
            bool safe = b->fence != nullptr && events.done(b->fence);
            if (!safe) {
                auto known = idle.find(b->stream);
                if (known == idle.end()) known = idle.emplace(b->stream, stream_idle(*ctx_, b->stream)).first;
                safe = known->second;
            }
            if (!safe && b->fence == nullptr) {
                try {
                    b->fence = events.record(b->stream);
                } catch (const AclError &) {
                    safe = true;  // the stream is gone, and the binding drains a stream before destroying it
                }
            }
            if (!safe) {
                ++stats_.num_deferred_releases;
                ++it;
                continue;
            }
            it = pool->erase(it);
            release_segment(b);
        }
    }
}

void CachingAllocator::release_segment(Block *b) {
    segments_.erase(b->ptr);
    if (b->fence != nullptr) stream_uses_.events().release(b->fence);
    if (ctx_->api().aclrtFree(b->ptr) != ACL_SUCCESS) ctx_->lib().recent_error_message();
    stats_.reserved_bytes.decrease(static_cast<int64_t>(b->size));
    stats_.segment.decrease(1);
    delete b;
}

std::vector<aclrtEvent> CachingAllocator::outstanding_events() {
    std::vector<aclrtEvent> out = stream_uses_.pending_events();
    for (Pool *pool : {&small_pool_, &large_pool_}) {
        for (Block *b : *pool) {
            if (b->fence != nullptr) out.push_back(b->fence);
        }
    }
    return out;
}

void CachingAllocator::empty_cache() {
    std::vector<std::shared_ptr<void>> dead;  // owners of external blocks done with: after the lock
    std::lock_guard<std::mutex> lock(mu_);
    ctx_->activate();
    process_events();
    release_completed();
    dead.swap(graveyard_);
}

void CachingAllocator::set_limit(size_t limit) {
    std::lock_guard<std::mutex> lock(mu_);
    limit_ = limit;
}

size_t CachingAllocator::limit() const {
    std::lock_guard<std::mutex> lock(mu_);
    return limit_;
}

MemoryStats CachingAllocator::stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
}

void CachingAllocator::reset_peak() {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.reset_peak();
}

std::pair<size_t, size_t> CachingAllocator::mem_info() {
    ctx_->activate();
    size_t free = 0, total = 0;
    ctx_->check(ctx_->api().aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), "aclrtGetMemInfo");
    return {free, total};
}

void CachingAllocator::raise_oom(size_t nbytes, size_t rounded, size_t segment, aclError cause,
                                 const std::string &acl_message) {
    size_t free = 0, total = 0;
    ctx_->api().aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
    ctx_->lib().recent_error_message();  // drop what that call may have left
    const size_t allocated = static_cast<size_t>(stats_.allocated_bytes.current);
    const size_t reserved = static_cast<size_t>(stats_.reserved_bytes.current);
    std::string what = label_ + " out of memory: tried to allocate " + human(nbytes) + " (" +
                       std::to_string(rounded) + " bytes after rounding, needing a new " + human(segment) +
                       " segment); " + human(allocated) + " allocated by live tensors, " + human(reserved) +
                       " reserved by pyasc's caching allocator, device free " + human(free) + " of " +
                       human(total) + " total";
    if (limit_ != kNoLimit) what += ", memory limit " + human(limit_) + " (pyasc.memory.set_memory_limit)";
    what += ".";
    if (cause != ACL_SUCCESS) {
        what += " The runtime said: " + (acl_message.empty() ? "aclError " + std::to_string(cause) : acl_message);
    } else {
        what += " The request would exceed the memory limit.";
    }
    what += " Free tensors you no longer need (del them), call pyasc.memory.empty_cache(), use smaller "
            "tensors, or raise the limit (pyasc.memory.set_memory_limit(None); on the simulator "
            "PYASC_SIM_DEVICE_MEMORY).";
    throw AllocatorOOM(what, nbytes, allocated, reserved, free, total, limit_, cause);
}

Block &DeviceBlock::block() const {
    if (block_ == nullptr) throw std::invalid_argument("the device block was already freed");
    return *block_;
}

}  // namespace pyasc_npu
