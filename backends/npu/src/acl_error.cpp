#include "acl_error.h"

#include "acl_library.h"

namespace pyasc_npu {

AclError::AclError(aclError code, std::string api, std::string recent_message)
    : std::runtime_error(api + " failed with aclError " + std::to_string(code) +
                         (recent_message.empty() ? std::string() : ": " + recent_message)),
      code_(code), api_(std::move(api)), recent_(std::move(recent_message)) {}

void check(const AclLibrary &lib, aclError code, const char *api) {
    if (code == ACL_SUCCESS) return;
    throw AclError(code, api, lib.recent_error_message());
}

}  // namespace pyasc_npu
