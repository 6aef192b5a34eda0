// C++ exceptions for failed ACL calls and allocator out-of-memory; module.cpp turns them into
// the Python classes of pyasc_acl.errors (which know the symbolic names and error families).
#ifndef PYASC_NPU_ACL_ERROR_H_
#define PYASC_NPU_ACL_ERROR_H_

#include <cstddef>
#include <stdexcept>
#include <string>

#include "pyasc/acl_abi.h"

namespace pyasc_npu {

// An ACL function returned a code other than ACL_SUCCESS.
class AclError : public std::runtime_error {
public:
    AclError(aclError code, std::string api, std::string recent_message);
    aclError code() const { return code_; }
    const std::string &api() const { return api_; }
    const std::string &recent_message() const { return recent_; }

private:
    aclError code_;
    std::string api_;
    std::string recent_;
};

// The caching allocator could not satisfy a request even after freeing its cache.
struct AllocatorOOM : public std::runtime_error {
    AllocatorOOM(const std::string &what, size_t requested, size_t allocated, size_t reserved, size_t free,
                 size_t total, size_t limit, aclError cause)
        : std::runtime_error(what), requested(requested), allocated(allocated), reserved(reserved), free(free),
          total(total), limit(limit), cause(cause) {}
    size_t requested, allocated, reserved, free, total, limit;  // limit ~0: none
    aclError cause;                                             // the ACL code of the last attempt (0: the limit)
};

// A device used in a child forked after the parent had opened it (see DeviceContext).
struct ForkedDeviceError : public std::runtime_error {
    explicit ForkedDeviceError(long parent_pid)
        : std::runtime_error("cannot use the ACL device in a forked child: it was initialised in process " +
                             std::to_string(parent_pid) +
                             " before fork(); use multiprocessing's 'spawn' or 'forkserver' start method, or "
                             "initialise the device in the child only"),
          parent_pid(parent_pid) {}
    long parent_pid;
};

class AclLibrary;

// Throws AclError (with aclGetRecentErrMsg's text, read on this thread) unless code is success.
void check(const AclLibrary &lib, aclError code, const char *api);

}  // namespace pyasc_npu

#endif  // PYASC_NPU_ACL_ERROR_H_
