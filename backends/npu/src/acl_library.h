// Loads an ACL runtime library with dlopen and resolves every function of acl_abi.h with dlsym
// (all are required except PYASC_ACL_OPTIONAL_FUNCTION_LIST's).
// One AclLibrary per loaded object (keyed by the dlopen handle), alive until process exit.
#ifndef PYASC_NPU_ACL_LIBRARY_H_
#define PYASC_NPU_ACL_LIBRARY_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "pyasc/acl_abi.h"

namespace pyasc_npu {

// Function pointers of the ACL ABI, filled by dlsym.
struct AclApi {
#define PYASC_NPU_FIELD_(ret, name, params) PFN_##name name = nullptr;
    PYASC_ACL_FUNCTION_LIST(PYASC_NPU_FIELD_)
#undef PYASC_NPU_FIELD_
};

class AclLibrary {
public:
    // dlopens `path`, resolves the functions and calls aclInit once (an already initialised runtime
    // is accepted).  Throws std::runtime_error naming the path and dlerror()/missing symbols.
    static std::shared_ptr<AclLibrary> open(const std::string &path);
    // Every library opened so far (for shutdown).
    static std::vector<std::shared_ptr<AclLibrary>> all();

    AclLibrary(const AclLibrary &) = delete;
    AclLibrary &operator=(const AclLibrary &) = delete;

    const AclApi &api() const { return api_; }
    const std::string &path() const { return path_; }
    // Optional functions (PYASC_ACL_OPTIONAL_FUNCTION_LIST): NULL when the library lacks them.
    bool has_host_args_launch() const { return api_.aclrtLaunchKernelWithHostArgs != nullptr; }
    bool has_stream_query() const { return api_.aclrtStreamQuery != nullptr; }
    bool has_timed_waits() const {
        return api_.aclrtSynchronizeStreamWithTimeout != nullptr && api_.aclrtSynchronizeEventWithTimeout != nullptr &&
               api_.aclrtSynchronizeDeviceWithTimeout != nullptr;
    }
    std::string recent_error_message() const;

    // After finalize() no ACL call is made any more (RAII destructors become no-ops).
    bool finalized() const { return finalized_.load(std::memory_order_acquire); }
    void finalize();

private:
    AclLibrary() = default;
    void *handle_ = nullptr;  // never dlclosed: thread-exit hooks may still run
    std::string path_;
    AclApi api_;
    bool owns_init_ = false;
    std::atomic<bool> finalized_{false};
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_ACL_LIBRARY_H_
