// Allocation table of the simulated device memory and of pinned host memory.
#ifndef PYASC_SIM_MEMORY_H_
#define PYASC_SIM_MEMORY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
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

// A tensor block inside a device allocation, registered by pyasc's caching allocator through
// pyascRtTrackBlock: [base, base + size) with size the padded extent aclrtMalloc documents.
struct TensorBlock {
    uint64_t base = 0;
    uint64_t size = 0;
    bool live = true;  // false: freed (kept until the memory is handed out again, for messages)
};

// The tensor blocks of one device as a launch saw them when it was enqueued (address order).
struct BlockSnapshot {
    std::vector<TensorBlock> blocks;
    // The entry containing addr, or null; a live entry wins over a freed one it overlaps.
    const TensorBlock *find(uint64_t addr) const;
    // The nearest live entry starting at or below addr (null if none).
    const TensorBlock *live_below(uint64_t addr) const;
    bool any_in(uint64_t begin, uint64_t end) const;  // an entry starting in [begin, end)
};

// Registry of tensor blocks per device.  Launches take an immutable snapshot at enqueue time
// (cheap: rebuilt only after a change), so a block freed after a launch was queued is still
// valid for that launch, as the caching allocator's stream-ordered reuse guarantees.
class BlockTable {
public:
    void add(int32_t device, uint64_t base, uint64_t size);
    // Marks the live block starting at base freed; false when there is none.
    bool remove(int32_t device, uint64_t base);
    // Forgets every entry inside [base, base + size) (its allocation went back to the device).
    void drop(int32_t device, uint64_t base, uint64_t size);
    void clear(int32_t device);
    std::shared_ptr<const BlockSnapshot> snapshot(int32_t device);

private:
    struct PerDevice {
        std::map<uint64_t, TensorBlock> live;
        std::map<uint64_t, TensorBlock> freed;
        std::shared_ptr<const BlockSnapshot> cached;
    };
    std::mutex mu_;
    std::map<int32_t, PerDevice> devices_;
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

public:
    BlockTable blocks;  // tensor blocks inside the device allocations (pyascRtTrackBlock)
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_MEMORY_H_
