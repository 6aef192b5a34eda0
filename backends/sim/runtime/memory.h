// Allocation table of the simulated device memory and of pinned host memory.
#ifndef PYASC_SIM_MEMORY_H_
#define PYASC_SIM_MEMORY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace pyasc_sim {

class DeviceHeap;

constexpr size_t kDeviceAlignment = 512;  // start address alignment of every allocation

// One live aclrtMalloc / aclrtMallocHost allocation.  Host memory backing it is
// released when the last reference goes away, so an asynchronous task that still
// holds a reference never touches freed memory (it reports the use-after-free).
struct Allocation {
    uintptr_t base = 0;
    size_t size = 0;       // bytes requested: the range the sanitizer accepts
    size_t accounted = 0;  // bytes charged against the device capacity
    int32_t device = -1;   // -1: pinned host memory (aclrtMallocHost)
    void *mem = nullptr;                     // pinned host memory (malloc'd)
    std::shared_ptr<DeviceHeap> heap;        // device memory: the range [base, +heap_bytes) of it
    size_t heap_bytes = 0;
    std::atomic<bool> freed{false};

    bool is_device() const { return device >= 0; }
    char *ptr() const { return reinterpret_cast<char *>(base); }
    ~Allocation();
};

class MemoryTable {
public:
    void insert(const std::shared_ptr<Allocation> &a);
    // The live allocation containing address p (base <= p < base + size), or null.
    std::shared_ptr<Allocation> find(const void *p) const;
    // Removes and returns the allocation starting exactly at p (null if none).
    std::shared_ptr<Allocation> remove_exact(const void *p);
    // Removes every allocation of `device` (-1: every pinned host allocation).
    std::vector<std::shared_ptr<Allocation>> remove_device(int32_t device);
    // Describes why p is not inside a live allocation ("was freed", "N bytes past
    // the end of ...", or "not allocated by the ACL runtime").
    std::string describe_unknown(const void *p) const;
    // Base and size of every live allocation of `device`, by address (at most `max`).
    void snapshot(int32_t device, std::vector<std::pair<uint64_t, uint64_t>> *out, size_t max) const;
    // Forgets the freed-address history (aclFinalize).
    void clear_history();

private:
    mutable std::shared_mutex mu_;
    std::map<uintptr_t, std::shared_ptr<Allocation>> allocs_;
    std::unordered_set<uintptr_t> freed_bases_;  // for "double free" diagnostics
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_MEMORY_H_
