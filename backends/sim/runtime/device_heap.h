// Device memory of one simulated device: a sparse memfd mapped MAP_SHARED in the host and, at the
// same virtual address, in the device process, so kernels there and copies here see the same
// bytes.  aclrtMalloc sub-allocates from it (address-ordered free list with coalescing); freed
// ranges go back to the OS (hole punching), so an idle device costs no host memory.
#ifndef PYASC_SIM_DEVICE_HEAP_H_
#define PYASC_SIM_DEVICE_HEAP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace pyasc_sim {

class DeviceHeap {
public:
    // Maps a heap able to hold `capacity` accounted bytes; null with *error set when the host
    // cannot provide the mapping.
    static std::shared_ptr<DeviceHeap> create(int32_t device, size_t capacity, std::string *error);
    ~DeviceHeap();  // unmaps and closes the memfd
    DeviceHeap(const DeviceHeap &) = delete;
    DeviceHeap &operator=(const DeviceHeap &) = delete;

    int fd() const { return fd_; }
    uintptr_t base() const { return base_; }
    size_t size() const { return size_; }  // bytes of address space mapped (device memory + shadow)

    // Initcheck shadow: one bit per 32-byte sector of device memory, set while the sector holds
    // bytes nobody wrote since a caching-allocator block was handed out ("uninitialised").  It
    // lives in the same memfd right after device memory, so the device process maps it too.
    uint8_t *shadow() const { return reinterpret_cast<uint8_t *>(base_ + data_size_); }
    size_t data_size() const { return data_size_; }  // bytes of device memory (shadow excluded)
    void mark_uninitialised(uintptr_t addr, size_t bytes);  // sets the sectors wholly inside
    void mark_initialised(uintptr_t addr, size_t bytes);    // clears every sector it touches

    // A range of `bytes` (rounded up to the 512-byte device alignment) starting at a 512-byte
    // aligned address, its whole 2 MiB extents backed by huge pages where the host allows; 0 when
    // no free range is large enough.
    uintptr_t allocate(size_t bytes);
    // Returns a range obtained from allocate(bytes); its whole pages go back to the OS.
    void release(uintptr_t addr, size_t bytes);

private:
    DeviceHeap() = default;
    void punch(uintptr_t begin, uintptr_t end);
    void back_with_huge_pages(uintptr_t addr, size_t bytes);  // see device_heap.cpp

    int fd_ = -1;
    uintptr_t base_ = 0;
    size_t size_ = 0;
    size_t data_size_ = 0;
    std::atomic<bool> huge_{true};  // 2 MiB pages for new blocks (PYASC_SIM_HUGE_PAGES=0: off)
    std::mutex mu_;
    std::map<uintptr_t, size_t> free_;  // start -> length, disjoint and never adjacent
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_DEVICE_HEAP_H_
