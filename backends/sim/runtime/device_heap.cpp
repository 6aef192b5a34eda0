#include "device_heap.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "error.h"
#include "memory.h"
#include "runtime.h"

namespace pyasc_sim {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kSector = 32;                     // initcheck granularity: one shadow bit per 32 bytes
constexpr size_t kHuge = size_t{2} << 20;         // a PMD-mapped transparent huge page
constexpr size_t kHugeMaxBytes = size_t{1} << 30;  // larger blocks stay sparse

size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

// Maps the heap where a freshly started process has nothing (the device process must map it at
// the same address): from 16 TiB up, far above the executable and its brk heap and far below
// the mmap area and the stack, trying the next TiB-aligned range when one is taken.
void *map_in_quiet_range(int fd, size_t size) {
    const uintptr_t step = round_up(size, size_t{1} << 40);
    for (uintptr_t hint = uintptr_t{1} << 44; hint < (uintptr_t{0x50} << 40); hint += step) {
        void *p = mmap(reinterpret_cast<void *>(hint), size, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd, 0);
        if (p == reinterpret_cast<void *>(hint)) return p;
        if (p != MAP_FAILED) munmap(p, size);  // an old kernel took it as a mere hint
    }
    return mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
}

// Asks for 2 MiB transparent huge pages on the heap (the device process does the same on its
// mapping): a hint the host kernel follows only when its shmem_enabled setting allows it
// (advise / within_size / always); with never (a common default) back_with_huge_pages does it.
void advise_huge_pages(void *addr, size_t size) {
#ifdef MADV_HUGEPAGE
    (void)madvise(addr, size, MADV_HUGEPAGE);
#else
    (void)addr;
    (void)size;
#endif
}

}  // namespace

// Kernels stream through device memory: in 4 KiB pages every page costs a TLB miss (a two-level
// walk in a VM); a 2-thread copy measured 1.1-2.5x slower than in 2 MiB pages.  shmem_enabled
// (never by default) keeps a memfd in 4 KiB pages, but MADV_COLLAPSE does not depend on it: with
// one page of each whole 2 MiB extent allocated (fallocate: no byte changes; the range is free, so
// its pages are holes or zeros) it gathers the extent into one huge page, which every process
// mapping the memfd (the device process too) then maps with one PMD.  Blocks above
// kHugeMaxBytes stay sparse (an allocation not written whole costs no host memory), as does all
// of it with PYASC_SIM_HUGE_PAGES=0 (read when the device opens).  Failure (an old kernel, shmem_enabled=deny, no free huge
// page) leaves 4 KiB pages: same bytes, only slower.
void DeviceHeap::back_with_huge_pages(uintptr_t addr, size_t bytes) {
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
    if (!huge_.load(std::memory_order_relaxed) || bytes > kHugeMaxBytes) return;
    const uintptr_t lo = round_up(addr, kHuge), hi = (addr + bytes) / kHuge * kHuge;
    if (hi <= lo) return;
    for (uintptr_t x = lo; x < hi; x += kHuge) {
        if (fallocate(fd_, 0, static_cast<off_t>(x - base_), static_cast<off_t>(kPage)) != 0) return;
    }
    if (madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_COLLAPSE) != 0 && errno == EINVAL) {
        huge_.store(false, std::memory_order_relaxed);  // not supported here: stop trying (the few touched pages are zeros)
    }
}

std::shared_ptr<DeviceHeap> DeviceHeap::create(int32_t device, size_t capacity, std::string *error) {
    // Every allocation is charged at least 64 bytes but takes at least one 512-byte aligned
    // slot, so reserve 8x the capacity of address space (sparse: it costs no memory) so that any
    // set of allocations the accounting accepts fits; fall back to less on small address spaces.
    const size_t cap = round_up(capacity, kPage);
    const std::string name = format("pyasc-sim-device-%d", device);
    int fd = memfd_create(name.c_str(), MFD_CLOEXEC);
    if (fd < 0) {
        *error = format("memfd_create failed: %s", std::strerror(errno));
        return nullptr;
    }
    for (size_t factor : {size_t{8}, size_t{2}, size_t{1}}) {
        if (cap > (~size_t{0} >> 4) / factor) continue;
        const size_t data = cap * factor;
        const size_t size = data + round_up(data / (kSector * 8), kPage);  // + initcheck shadow
        if (ftruncate(fd, static_cast<off_t>(size)) != 0) continue;
        void *p = map_in_quiet_range(fd, size);
        if (p == MAP_FAILED) continue;
        advise_huge_pages(p, size);
        std::shared_ptr<DeviceHeap> h(new DeviceHeap());
        h->fd_ = fd;
        h->base_ = reinterpret_cast<uintptr_t>(p);
        h->size_ = size;
        h->data_size_ = data;
        h->free_[h->base_] = data;
        bool huge = true;  // aclInit refused values parse_checks_switch does not understand
        parse_checks_switch(std::getenv("PYASC_SIM_HUGE_PAGES"), &huge);
        h->huge_ = huge;
        return h;
    }
    *error = format("cannot map %zu bytes of shared device memory: %s", cap, std::strerror(errno));
    close(fd);
    return nullptr;
}

DeviceHeap::~DeviceHeap() {
    if (base_ != 0) munmap(reinterpret_cast<void *>(base_), size_);
    if (fd_ >= 0) close(fd_);
}

uintptr_t DeviceHeap::allocate(size_t bytes) {
    const size_t need = round_up(bytes == 0 ? 1 : bytes, kDeviceAlignment);
    std::unique_lock<std::mutex> lock(mu_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {  // first fit, lowest address
        if (it->second < need) continue;
        const uintptr_t addr = it->first;
        const size_t rest = it->second - need;
        free_.erase(it);
        if (rest != 0) free_[addr + need] = rest;
        lock.unlock();  // the range is ours alone now
        back_with_huge_pages(addr, need);
        return addr;
    }
    return 0;
}

void DeviceHeap::release(uintptr_t addr, size_t bytes) {
    const size_t len = round_up(bytes == 0 ? 1 : bytes, kDeviceAlignment);
    uintptr_t begin = addr, end = addr + len;
    {
        std::lock_guard<std::mutex> lock(mu_);
        auto next = free_.lower_bound(addr);
        if (next != free_.begin()) {
            auto prev = std::prev(next);
            if (prev->first + prev->second == begin) {
                begin = prev->first;
                free_.erase(prev);
            }
        }
        if (next != free_.end() && next->first == end) {
            end = next->first + next->second;
            free_.erase(next);
        }
        // The pages the freed range touches that are now wholly free (a page shared with a live
        // allocation keeps its bytes); under the lock, so no new allocation there loses its bytes.
        const uintptr_t lo = std::max<uintptr_t>(round_up(begin, kPage), addr / kPage * kPage);
        const uintptr_t hi = std::min<uintptr_t>(end / kPage * kPage, round_up(addr + len, kPage));
        punch(lo, hi);
        free_[begin] = end - begin;
    }
    mark_initialised(addr, len);  // the next aclrtMalloc of these bytes starts clean
}

namespace {

// Sets (value) or clears the shadow bits of sectors [first, last): atomically at the two edge
// bytes (a kernel may update a neighbouring sector of the same byte), plainly in between.
void set_bits(uint8_t *shadow, size_t first, size_t last, bool value) {
    auto update = [&](size_t byte, uint8_t bits) {
        if (value) {
            __atomic_fetch_or(&shadow[byte], bits, __ATOMIC_RELAXED);
        } else {
            __atomic_fetch_and(&shadow[byte], static_cast<uint8_t>(~bits), __ATOMIC_RELAXED);
        }
    };
    while (first < last && first % 8 != 0) {
        update(first / 8, static_cast<uint8_t>(1u << (first % 8)));
        ++first;
    }
    while (last > first && last % 8 != 0) {
        --last;
        update(last / 8, static_cast<uint8_t>(1u << (last % 8)));
    }
    if (last > first) std::memset(shadow + first / 8, value ? 0xff : 0, (last - first) / 8);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

}  // namespace

void DeviceHeap::mark_uninitialised(uintptr_t addr, size_t bytes) {
    if (addr < base_ || addr + bytes > base_ + data_size_) return;
    const size_t first = (addr - base_ + kSector - 1) / kSector, last = (addr + bytes - base_) / kSector;
    if (last > first) set_bits(shadow(), first, last, true);
}

void DeviceHeap::mark_initialised(uintptr_t addr, size_t bytes) {
    if (addr < base_ || bytes == 0 || addr + bytes > base_ + data_size_) return;
    const size_t first = (addr - base_) / kSector, last = (addr + bytes - base_ + kSector - 1) / kSector;
    set_bits(shadow(), first, last, false);
}

void DeviceHeap::punch(uintptr_t begin, uintptr_t end) {
    if (end <= begin) return;
    const off_t off = static_cast<off_t>(begin - base_);
    const off_t n = static_cast<off_t>(end - begin);
    if (fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, n) != 0) {
        madvise(reinterpret_cast<void *>(begin), static_cast<size_t>(n), MADV_REMOVE);
    }
}

}  // namespace pyasc_sim
