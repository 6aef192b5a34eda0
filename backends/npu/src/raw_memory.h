// RAII owners of memory taken straight from ACL (aclrtMalloc / aclrtMallocHost), bypassing the
// caching allocators: the binding's direct view of those calls.
#ifndef PYASC_NPU_RAW_MEMORY_H_
#define PYASC_NPU_RAW_MEMORY_H_

#include <memory>

#include "device_context.h"

namespace pyasc_npu {

template <bool Host>
class RawMemory {
public:
    RawMemory(std::shared_ptr<DeviceContext> ctx, size_t size, int policy) : ctx_(std::move(ctx)), size_(size) {
        ctx_->activate();
        if constexpr (Host) {
            ctx_->check(ctx_->api().aclrtMallocHost(&ptr_, size), "aclrtMallocHost");
        } else {
            ctx_->check(ctx_->api().aclrtMalloc(&ptr_, size, static_cast<aclrtMemMallocPolicy>(policy)), "aclrtMalloc");
        }
    }
    ~RawMemory() {
        if (ptr_ == nullptr || !ctx_->try_activate()) return;
        if constexpr (Host) {
            ctx_->api().aclrtFreeHost(ptr_);
        } else {
            ctx_->api().aclrtFree(ptr_);
        }
    }
    RawMemory(const RawMemory &) = delete;
    RawMemory &operator=(const RawMemory &) = delete;

    // Frees now (a second call does nothing).
    void free() {
        if (ptr_ == nullptr) return;
        void *p = ptr_;
        ptr_ = nullptr;
        ctx_->activate();
        if constexpr (Host) {
            ctx_->check(ctx_->api().aclrtFreeHost(p), "aclrtFreeHost");
        } else {
            ctx_->check(ctx_->api().aclrtFree(p), "aclrtFree");
        }
    }
    void *ptr() const { return ptr_; }
    size_t size() const { return size_; }

private:
    std::shared_ptr<DeviceContext> ctx_;
    void *ptr_ = nullptr;
    size_t size_;
};

using DeviceMemory = RawMemory<false>;
using HostMemory = RawMemory<true>;

}  // namespace pyasc_npu

#endif  // PYASC_NPU_RAW_MEMORY_H_
