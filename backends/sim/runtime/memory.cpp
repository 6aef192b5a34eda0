// Device / pinned-host memory and copies:
// aclrtMalloc, aclrtFree, aclrtMallocHost, aclrtFreeHost, aclrtMemcpy(Async),
// aclrtMemset(Async), aclrtGetMemInfo.
//
// Works like a sanitizer: every device pointer must lie inside a live allocation,
// sizes must fit what remains of it, and the copy kind must match where the
// pointers really are.
#include "memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "pyasc_sim/cost_model.h"
#include "device_heap.h"
#include "error.h"
#include "profile_log.h"
#include "runtime.h"

namespace pyasc_sim {

namespace {
constexpr size_t kMaxFreedHistory = 65536;  // freed base addresses remembered for diagnostics
}  // namespace

Allocation::~Allocation() {
    if (heap) heap->release(base, heap_bytes);
    std::free(mem);
}

void MemoryTable::snapshot(int32_t device, std::vector<std::pair<uint64_t, uint64_t>> *out, size_t max) const {
    out->clear();
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (const auto &kv : allocs_) {
        if (out->size() >= max) break;
        if (kv.second->device == device) out->emplace_back(kv.first, kv.second->size);
    }
}

void MemoryTable::insert(const std::shared_ptr<Allocation> &a) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    allocs_[a->base] = a;
    freed_bases_.erase(a->base);
}

std::shared_ptr<Allocation> MemoryTable::find(const void *p) const {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = allocs_.upper_bound(addr);
    if (it == allocs_.begin()) return nullptr;
    --it;
    if (addr - it->first < it->second->size) return it->second;
    return nullptr;
}

std::shared_ptr<Allocation> MemoryTable::remove_exact(const void *p) {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    std::unique_lock<std::shared_mutex> lock(mu_);
    auto it = allocs_.find(addr);
    if (it == allocs_.end()) return nullptr;
    std::shared_ptr<Allocation> a = it->second;
    allocs_.erase(it);
    if (freed_bases_.size() >= kMaxFreedHistory) freed_bases_.clear();  // bound the diagnostics set
    freed_bases_.insert(addr);
    return a;
}

std::vector<std::shared_ptr<Allocation>> MemoryTable::remove_device(int32_t device) {
    std::vector<std::shared_ptr<Allocation>> out;
    std::unique_lock<std::shared_mutex> lock(mu_);
    for (auto it = allocs_.begin(); it != allocs_.end();) {
        if (it->second->device == device) {
            out.push_back(it->second);
            it = allocs_.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

void MemoryTable::clear_history() {
    std::unique_lock<std::shared_mutex> lock(mu_);
    std::unordered_set<uintptr_t>().swap(freed_bases_);
}

std::string MemoryTable::describe_unknown(const void *p) const {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    std::shared_lock<std::shared_mutex> lock(mu_);
    if (freed_bases_.count(addr) != 0) return "it was already freed";
    auto it = allocs_.upper_bound(addr);
    if (it != allocs_.begin()) {
        --it;
        const Allocation &a = *it->second;
        if (addr - a.base < a.size + 4096) {
            return format("it is %zu bytes past the end of the %zu-byte %s allocation at %s", addr - (a.base + a.size),
                          a.size, a.is_device() ? "device" : "pinned host", ptr_str(a.ptr()).c_str());
        }
    }
    return "it was not allocated by aclrtMalloc/aclrtMallocHost";
}


// ---- tensor blocks (pyascRtTrackBlock) ------------------------------------------------------------
const TensorBlock *BlockSnapshot::find(uint64_t addr) const {
    const TensorBlock *freed = nullptr;
    // Entries are sorted by base; live entries never overlap each other, freed ones may overlap
    // a live one (memory handed out again) or each other.
    auto it = std::upper_bound(blocks.begin(), blocks.end(), addr,
                               [](uint64_t a, const TensorBlock &b) { return a < b.base; });
    while (it != blocks.begin()) {
        --it;
        if (addr - it->base < it->size) {
            if (it->live) return &*it;
            if (freed == nullptr) freed = &*it;
        }
        if (addr - it->base > (uint64_t{1} << 40)) break;  // far below: nothing further can contain addr
    }
    return freed;
}

const TensorBlock *BlockSnapshot::live_below(uint64_t addr) const {
    auto it = std::upper_bound(blocks.begin(), blocks.end(), addr,
                               [](uint64_t a, const TensorBlock &b) { return a < b.base; });
    while (it != blocks.begin()) {
        --it;
        if (it->live) return &*it;
    }
    return nullptr;
}

bool BlockSnapshot::any_in(uint64_t begin, uint64_t end) const {
    auto it = std::lower_bound(blocks.begin(), blocks.end(), begin,
                               [](const TensorBlock &b, uint64_t a) { return b.base < a; });
    return it != blocks.end() && it->base < end;
}

void BlockTable::add(int32_t device, uint64_t base, uint64_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    PerDevice &d = devices_[device];
    // The freed entries this block reuses are forgotten: their bytes belong to the new tensor.
    for (auto it = d.freed.lower_bound(base); it != d.freed.end() && it->first < base + size;) it = d.freed.erase(it);
    auto prev = d.freed.lower_bound(base);
    if (prev != d.freed.begin()) {
        --prev;
        if (prev->first + prev->second.size > base) d.freed.erase(prev);
    }
    d.live[base] = TensorBlock{base, size, true};
    d.cached.reset();
}

bool BlockTable::remove(int32_t device, uint64_t base) {
    std::lock_guard<std::mutex> lock(mu_);
    PerDevice &d = devices_[device];
    auto it = d.live.find(base);
    if (it == d.live.end()) return false;
    TensorBlock b = it->second;
    b.live = false;
    d.live.erase(it);
    d.freed[base] = b;
    d.cached.reset();
    return true;
}

void BlockTable::drop(int32_t device, uint64_t base, uint64_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    auto dev = devices_.find(device);
    if (dev == devices_.end()) return;
    PerDevice &d = dev->second;
    bool changed = false;
    for (auto *m : {&d.live, &d.freed}) {
        for (auto it = m->lower_bound(base); it != m->end() && it->first < base + size;) {
            it = m->erase(it);
            changed = true;
        }
    }
    if (changed) d.cached.reset();
}

void BlockTable::clear(int32_t device) {
    std::lock_guard<std::mutex> lock(mu_);
    devices_.erase(device);
}

std::shared_ptr<const BlockSnapshot> BlockTable::snapshot(int32_t device) {
    std::lock_guard<std::mutex> lock(mu_);
    auto dev = devices_.find(device);
    if (dev == devices_.end()) return nullptr;
    PerDevice &d = dev->second;
    if (!d.cached) {
        auto s = std::make_shared<BlockSnapshot>();
        s->blocks.reserve(d.live.size() + d.freed.size());
        // Both maps are address-ordered: one linear merge (rebuilt only after a change).
        auto l = d.live.begin(), f = d.freed.begin();
        while (l != d.live.end() || f != d.freed.end()) {
            if (f == d.freed.end() || (l != d.live.end() && l->first <= f->first)) {
                s->blocks.push_back((l++)->second);
            } else {
                s->blocks.push_back((f++)->second);
            }
        }
        d.cached = std::move(s);
    }
    return d.cached;
}

}  // namespace pyasc_sim

using namespace pyasc_sim;

namespace {

enum class Side { kHost, kPinned, kDevice };

const char *side_name(Side s) {
    switch (s) {
        case Side::kHost: return "pageable host memory";
        case Side::kPinned: return "pinned host memory (aclrtMallocHost)";
        case Side::kDevice: return "device memory";
    }
    return "?";
}

const char *kind_name(aclrtMemcpyKind kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
        case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
        case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
        case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
    }
    return "?";
}

// One side of a copy / memset after validation.
struct Span {
    Side side = Side::kHost;
    std::shared_ptr<Allocation> alloc;  // null for pageable host memory
    char *p = nullptr;
};

// Locates p: inside a live allocation (then [p, p+count) must fit in it) or in
// pageable host memory.
aclError classify(const char *api, const char *role, const void *p, size_t count, Span *out) {
    Runtime &rt = runtime();
    out->p = static_cast<char *>(const_cast<void *>(p));
    out->alloc = rt.memory.find(p);
    if (!out->alloc) {
        out->side = Side::kHost;
        return ACL_SUCCESS;
    }
    const Allocation &a = *out->alloc;
    out->side = a.is_device() ? Side::kDevice : Side::kPinned;
    const size_t offset = reinterpret_cast<uintptr_t>(p) - a.base;
    const size_t remaining = a.size - offset;
    if (count > remaining) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: %s range [%s, +%zu) overflows its allocation: only %zu bytes remain after offset %zu of "
                           "the %zu-byte %s allocation at %s",
                           api, role, ptr_str(p).c_str(), count, remaining, offset, a.size,
                           a.is_device() ? "device" : "pinned host", ptr_str(a.ptr()).c_str()));
    }
    return ACL_SUCCESS;
}

bool is_hostish(Side s) { return s != Side::kDevice; }

// A copy's direction as the profiler names it.
const char *copy_kind(bool dst_device, bool src_device) {
    return dst_device ? (src_device ? "memcpy D2D" : "memcpy H2D") : (src_device ? "memcpy D2H" : "memcpy H2H");
}

aclError side_mismatch(const char *api, aclrtMemcpyKind kind, const char *role, const void *p, Side actual,
                       const char *expected) {
    std::string why;
    if (actual == Side::kHost) why = " (" + runtime().memory.describe_unknown(p) + ")";
    return fail(ACL_ERROR_RT_PARAM_INVALID,
                format("%s: kind %s needs %s to be %s, but %s is %s%s", api, kind_name(kind), role, expected,
                       ptr_str(p).c_str(), side_name(actual), why.c_str()));
}

// Validates a copy request; fills the two spans.
aclError check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                    Span *d, Span *s) {
    if (dst == nullptr || src == nullptr) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: %s is NULL", api, dst == nullptr ? "dst" : "src"));
    }
    if (count > destMax) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    format("%s: count %zu is larger than destMax %zu (the capacity of dst)", api, count, destMax));
    }
    if (static_cast<unsigned>(kind) > static_cast<unsigned>(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: kind %d is not an aclrtMemcpyKind", api, static_cast<int>(kind)));
    }
    if (aclError e = classify(api, "dst", dst, count, d)) return e;
    if (aclError e = classify(api, "src", src, count, s)) return e;
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST:
            if (!is_hostish(d->side)) return side_mismatch(api, kind, "dst", dst, d->side, "host memory");
            if (!is_hostish(s->side)) return side_mismatch(api, kind, "src", src, s->side, "host memory");
            break;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
            if (d->side != Side::kDevice) return side_mismatch(api, kind, "dst", dst, d->side, "device memory");
            if (!is_hostish(s->side)) return side_mismatch(api, kind, "src", src, s->side, "host memory");
            break;
        case ACL_MEMCPY_DEVICE_TO_HOST:
            if (!is_hostish(d->side)) return side_mismatch(api, kind, "dst", dst, d->side, "host memory");
            if (s->side != Side::kDevice) return side_mismatch(api, kind, "src", src, s->side, "device memory");
            break;
        case ACL_MEMCPY_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
            if (d->side != Side::kDevice) return side_mismatch(api, kind, "dst", dst, d->side, "device memory");
            if (s->side != Side::kDevice) return side_mismatch(api, kind, "src", src, s->side, "device memory");
            break;
        case ACL_MEMCPY_DEFAULT:
            break;
    }
    return ACL_SUCCESS;
}

// Simulated duration of a copy or fill of `bytes` between the two sides.
double transfer_ns(const Device &dev, bool dst_device, bool src_device, size_t bytes) {
    const double b = static_cast<double>(bytes);
    if (dst_device && src_device) {
        return cost::kCopyLatencyNs + cost::kDeviceCopyTrafficFactor * b / dev.profile->hbm_bandwidth_gbps;
    }
    if (dst_device || src_device) return cost::kCopyLatencyNs + b / cost::kHostLinkBandwidthGBps;
    return cost::kCopyLatencyNs + b / (cost::kHostLinkBandwidthGBps * 4.0);
}

// At execution time: the allocation must not have been freed since the task was enqueued.
bool still_alive(Stream &s, const char *api, const char *role, const Span &span) {
    if (span.alloc && span.alloc->freed.load()) {
        s.record_error(ACL_ERROR_RT_PARAM_INVALID,
                       format("%s task: the %s allocation at %s was freed before the task ran (use after free)", api,
                              role, ptr_str(span.alloc->ptr()).c_str()));
        return false;
    }
    return true;
}

// Enqueues `task`, and when `wait` is set blocks until that task has run.
void enqueue_maybe_wait(Stream &s, Stream::Task task, bool wait) {
    if (!wait) {
        s.enqueue(std::move(task));
        return;
    }
    struct Latch {
        std::mutex mu;
        std::condition_variable cv;
        bool done = false;
    };
    auto latch = std::make_shared<Latch>();
    s.enqueue([task, latch](Stream &st) {
        task(st);
        st.finish_current_task();  // the caller returns to an idle stream (aclrtStreamQuery)
        std::lock_guard<std::mutex> lock(latch->mu);
        latch->done = true;
        latch->cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(latch->mu);
    latch->cv.wait(lock, [&] { return latch->done; });
}

// Initcheck: bytes a copy or fill wrote into device memory count as initialised.
void mark_written(const Span &span, size_t count) {
    if (span.side == Side::kDevice && span.alloc && span.alloc->heap && count != 0) {
        span.alloc->heap->mark_initialised(reinterpret_cast<uintptr_t>(span.p), count);
    }
}

aclError check_fill(const char *api, void *devPtr, size_t maxCount, size_t count, bool allow_pageable, Span *span) {
    if (devPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: devPtr is NULL", api));
    if (count > maxCount) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: count %zu is larger than maxCount %zu", api, count, maxCount));
    }
    if (aclError e = classify(api, "devPtr", devPtr, count, span)) return e;
    if (span->side == Side::kHost && !allow_pageable) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: devPtr %s is neither device memory nor pinned host memory (%s); the asynchronous fill "
                           "only supports memory from aclrtMalloc or aclrtMallocHost",
                           api, ptr_str(devPtr).c_str(), runtime().memory.describe_unknown(devPtr).c_str()));
    }
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    (void)policy;  // every policy maps to the same simulated memory
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtMalloc", &dev)) return e;
    if (devPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is NULL");
    if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size cannot be 0");
    // Charged like the device: size rounded up to 32 bytes, plus 32 bytes.
    if (size > (~size_t{0} >> 1)) {
        return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, format("aclrtMalloc: size %zu is not allocatable", size));
    }
    const size_t accounted = ((size + 31) / 32) * 32 + 32;
    size_t used = dev->used.load();
    for (;;) {
        if (accounted > dev->capacity || used > dev->capacity - accounted) {
            return fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        format("aclrtMalloc: out of device memory on device %d: requested %zu bytes (%zu with device "
                               "rounding), %zu bytes allocated, %zu bytes free of %zu total; free memory or raise "
                               "PYASC_SIM_DEVICE_MEMORY",
                               dev->id, size, accounted, used, dev->capacity - used, dev->capacity));
        }
        if (dev->used.compare_exchange_weak(used, used + accounted)) break;
    }
    // Device memory is a range of the device's shared-memory heap (seen by the device process).
    const uintptr_t addr = dev->heap ? dev->heap->allocate(accounted) : 0;
    if (addr == 0) {
        dev->used.fetch_sub(accounted);
        return fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    format("aclrtMalloc: out of device memory on device %d: no free range of %zu bytes is left in the "
                           "simulated device's address space (%zu bytes allocated of %zu total, fragmented); free "
                           "memory or raise PYASC_SIM_DEVICE_MEMORY",
                           dev->id, accounted, used, dev->capacity));
    }
    void *mem = reinterpret_cast<void *>(addr);
    auto a = std::make_shared<Allocation>();
    a->base = addr;
    a->size = size;
    a->accounted = accounted;
    a->device = dev->id;
    a->heap = dev->heap;
    a->heap_bytes = accounted;
    runtime().memory.insert(a);
    *devPtr = mem;
    return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtFree", &dev)) return e;
    if (devPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is NULL");
    Runtime &rt = runtime();
    std::shared_ptr<Allocation> inside = rt.memory.find(devPtr);
    if (inside && inside->base != reinterpret_cast<uintptr_t>(devPtr)) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("aclrtFree: %s points %zu bytes into the allocation at %s; pass the pointer aclrtMalloc "
                           "returned",
                           ptr_str(devPtr).c_str(), reinterpret_cast<uintptr_t>(devPtr) - inside->base,
                           ptr_str(inside->ptr()).c_str()));
    }
    if (inside && !inside->is_device()) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("aclrtFree: %s was allocated by aclrtMallocHost; free it with aclrtFreeHost",
                           ptr_str(devPtr).c_str()));
    }
    if (!inside) {
        const std::string why = rt.memory.describe_unknown(devPtr);
        const bool twice = why == "it was already freed";
        return fail(ACL_ERROR_RT_PARAM_INVALID, format("aclrtFree: %s%s is not a live device allocation: %s",
                                                       twice ? "double free: " : "", ptr_str(devPtr).c_str(), why.c_str()));
    }
    std::shared_ptr<Allocation> a = rt.memory.remove_exact(devPtr);
    if (!a) return fail(ACL_ERROR_RT_PARAM_INVALID, format("aclrtFree: double free of %s", ptr_str(devPtr).c_str()));
    a->freed.store(true);
    rt.memory.blocks.drop(a->device, a->base, a->heap_bytes);
    {
        std::shared_lock<std::shared_mutex> lock(rt.mu);
        if (a->device < static_cast<int32_t>(rt.devices.size()) && rt.devices[a->device]) {
            rt.devices[a->device]->used.fetch_sub(a->accounted);
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    if (aclError e = require_init("aclrtMallocHost")) return e;
    if (hostPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is NULL");
    if (size == 0) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size cannot be 0");
    if (size > (~size_t{0} >> 1)) {
        return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, format("aclrtMallocHost: size %zu is not allocatable", size));
    }
    const size_t bytes = ((size + 31) / 32) * 32 + 32;
    void *mem = nullptr;
    if (posix_memalign(&mem, kDeviceAlignment, bytes) != 0 || mem == nullptr) {
        return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, format("aclrtMallocHost: cannot allocate %zu bytes", size));
    }
    auto a = std::make_shared<Allocation>();
    a->base = reinterpret_cast<uintptr_t>(mem);
    a->size = size;
    a->accounted = bytes;
    a->device = -1;
    a->mem = mem;
    runtime().memory.insert(a);
    *hostPtr = mem;
    return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr) {
    if (aclError e = require_init("aclrtFreeHost")) return e;
    if (hostPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is NULL");
    Runtime &rt = runtime();
    std::shared_ptr<Allocation> inside = rt.memory.find(hostPtr);
    if (inside && inside->is_device()) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("aclrtFreeHost: %s is device memory (aclrtMalloc); free it with aclrtFree",
                           ptr_str(hostPtr).c_str()));
    }
    if (!inside || inside->base != reinterpret_cast<uintptr_t>(hostPtr)) {
        const std::string why = inside ? "it points into the middle of a pinned allocation"
                                       : rt.memory.describe_unknown(hostPtr);
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("aclrtFreeHost: %s is not a live aclrtMallocHost allocation: %s", ptr_str(hostPtr).c_str(),
                           why.c_str()));
    }
    std::shared_ptr<Allocation> a = rt.memory.remove_exact(hostPtr);
    if (!a) return fail(ACL_ERROR_RT_PARAM_INVALID, format("aclrtFreeHost: double free of %s", ptr_str(hostPtr).c_str()));
    a->freed.store(true);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtMemcpy", &dev)) return e;
    Span d, s;
    if (aclError e = check_copy("aclrtMemcpy", dst, destMax, src, count, kind, &d, &s)) return e;
    if (count != 0) std::memmove(d.p, s.p, count);
    mark_written(d, count);
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    const char *api = "aclrtMemcpyAsync";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Stream> st;
    if (aclError e = resolve_stream(api, stream, dev, &st)) return e;
    Span d, s;
    if (aclError e = check_copy(api, dst, destMax, src, count, kind, &d, &s)) return e;
    if (is_hostish(d.side) && is_hostish(s.side)) {
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    format("%s: host-to-host copies are not supported asynchronously (dst %s, src %s); use aclrtMemcpy",
                           api, ptr_str(dst).c_str(), ptr_str(src).c_str()));
    }
    // Pageable (non-pinned) host memory: the call returns after the copy has run, as documented.
    const bool pageable = d.side == Side::kHost || s.side == Side::kHost;
    const double ns = transfer_ns(*dev, d.side == Side::kDevice, s.side == Side::kDevice, count);
    enqueue_maybe_wait(
        *st,
        [d, s, count, ns](Stream &stm) {
            if (!still_alive(stm, "aclrtMemcpyAsync", "dst", d) || !still_alive(stm, "aclrtMemcpyAsync", "src", s)) {
                return;
            }
            if (count != 0) std::memmove(d.p, s.p, count);
            mark_written(d, count);
            const double start_ns = stm.clock_ns;
            stm.clock_ns += ns;
            profile_task(stm, copy_kind(d.side == Side::kDevice, s.side == Side::kDevice), start_ns, count);
        },
        pageable);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtMemset", &dev)) return e;
    Span span;
    if (aclError e = check_fill("aclrtMemset", devPtr, maxCount, count, true, &span)) return e;
    if (count != 0) std::memset(span.p, static_cast<unsigned char>(value), count);
    mark_written(span, count);
    return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    const char *api = "aclrtMemsetAsync";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::shared_ptr<Stream> st;
    if (aclError e = resolve_stream(api, stream, dev, &st)) return e;
    Span span;
    if (aclError e = check_fill(api, devPtr, maxCount, count, false, &span)) return e;
    const double ns = transfer_ns(*dev, span.side == Side::kDevice, false, count);
    st->enqueue([span, value, count, ns](Stream &stm) {
        if (!still_alive(stm, "aclrtMemsetAsync", "devPtr", span)) return;
        if (count != 0) std::memset(span.p, static_cast<unsigned char>(value), count);
        mark_written(span, count);
        const double start_ns = stm.clock_ns;
        stm.clock_ns += ns;
        profile_task(stm, "memset", start_ns, count);
    });
    return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtGetMemInfo", &dev)) return e;
    if (free == nullptr || total == nullptr) {
        return fail(ACL_ERROR_INVALID_PARAM, format("aclrtGetMemInfo: %s is NULL", free == nullptr ? "free" : "total"));
    }
    switch (attr) {
        case ACL_HBM_MEM:
        case ACL_HBM_MEM_HUGE:
        case ACL_HBM_MEM_NORMAL:
        case ACL_HBM_MEM_P2P_HUGE:
        case ACL_HBM_MEM_P2P_NORMAL: {
            const size_t used = dev->used.load();
            *total = dev->capacity;
            *free = used >= dev->capacity ? 0 : dev->capacity - used;
            return ACL_SUCCESS;
        }
        case ACL_DDR_MEM:
        case ACL_DDR_MEM_HUGE:
        case ACL_DDR_MEM_NORMAL:
        case ACL_DDR_MEM_P2P_HUGE:
        case ACL_DDR_MEM_P2P_NORMAL:
            // The simulated SoC's device memory is HBM; documented answer for an absent kind is 0/0.
            *free = 0;
            *total = 0;
            return ACL_SUCCESS;
    }
    return fail(ACL_ERROR_INVALID_PARAM,
                format("aclrtGetMemInfo: attr %d is not an aclrtMemAttr", static_cast<int>(attr)));
}

// pyasc extension: the caching allocator's tensor blocks (see acl_abi.h).
aclError pyascRtTrackBlock(void *devPtr, size_t size, int32_t event) {
    const char *api = "pyascRtTrackBlock";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    if (devPtr == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: devPtr is NULL", api));
    Runtime &rt = runtime();
    const uint64_t base = reinterpret_cast<uintptr_t>(devPtr);
    if (event == PYASC_RT_BLOCK_FREE) {
        if (!rt.memory.blocks.remove(dev->id, base)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("%s: %s is not a live tensor block of device %d", api, ptr_str(devPtr).c_str(), dev->id));
        }
        return ACL_SUCCESS;
    }
    if (event != PYASC_RT_BLOCK_ALLOC && event != PYASC_RT_BLOCK_ALLOC_UNINIT) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: event %d is not a PYASC_RT_BLOCK_* value", api, event));
    }
    std::shared_ptr<Allocation> a = rt.memory.find(devPtr);
    if (!a || !a->is_device() || a->device != dev->id || size == 0 || size > a->base + a->size - base) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    format("%s: the block [%s, +%zu) does not lie inside one live device allocation of device %d",
                           api, ptr_str(devPtr).c_str(), size, dev->id));
    }
    rt.memory.blocks.add(dev->id, base, size);
    // The data bytes (ALIGN_UP(n, 32)) start uninitialised; the 32 bytes of padding never count
    // (kernels may legally read them, e.g. a DataCopy of whole blocks past the end).
    if (event == PYASC_RT_BLOCK_ALLOC_UNINIT && dev->heap && size > 32) dev->heap->mark_uninitialised(base, size - 32);
    return ACL_SUCCESS;
}

}  // extern "C"
