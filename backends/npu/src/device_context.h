// The per-thread current device of ACL, handled transparently: every thread that touches a device
// calls aclrtSetDevice once (tracked thread_local) and aclrtResetDevice when it exits.
// fork(): in a child forked after a device was opened, activate() throws ForkedDeviceError and
// every RAII release and the shutdown do nothing (the device, its threads and memory are the parent's).
#ifndef PYASC_NPU_DEVICE_CONTEXT_H_
#define PYASC_NPU_DEVICE_CONTEXT_H_

#include <cstdint>
#include <memory>

#include "acl_library.h"

namespace pyasc_npu {

class DeviceContext {
public:
    // The context of device `id` of `lib` (one per pair, process lifetime).  The first call takes a
    // process-wide device reference so the device outlives the threads that use it.
    static std::shared_ptr<DeviceContext> get(const std::shared_ptr<AclLibrary> &lib, int32_t id);
    // Drops the process references and finalizes every library (atexit).
    static void shutdown_all();

    // Makes this device current in the calling thread (aclrtSetDevice on the thread's first use).
    void activate();
    // Like activate() but returns false (no exception) when the library is finalized or the device
    // was inherited through fork().
    bool try_activate();
    // The pid of the process that had a device open when this process was forked from it (0: none).
    static long forked_from();

    const AclApi &api() const { return lib_->api(); }
    const AclLibrary &lib() const { return *lib_; }
    const std::shared_ptr<AclLibrary> &lib_ptr() const { return lib_; }
    int32_t id() const { return id_; }
    bool finalized() const { return lib_->finalized(); }
    void check(aclError code, const char *api) const;

    DeviceContext(std::shared_ptr<AclLibrary> lib, int32_t id) : lib_(std::move(lib)), id_(id) {}

private:
    std::shared_ptr<AclLibrary> lib_;
    int32_t id_;
    bool process_ref_ = false;
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_DEVICE_CONTEXT_H_
