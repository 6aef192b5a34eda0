#include "acl_library.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

#include "acl_error.h"

namespace pyasc_npu {
namespace {

std::mutex g_mu;
std::vector<std::shared_ptr<AclLibrary>> &registry() {
    static auto *libs = new std::vector<std::shared_ptr<AclLibrary>>();  // process lifetime
    return *libs;
}

// PYASC_ACL_OPTIONAL_FUNCTION_LIST: functions an ACL library may lack (the binding checks them
// for NULL and has a fallback); every other function of the ABI is required.
bool is_optional(const char *name) {
    static const char *const kOptional[] = {
#define PYASC_NPU_OPTIONAL_NAME_(name) #name,
        PYASC_ACL_OPTIONAL_FUNCTION_LIST(PYASC_NPU_OPTIONAL_NAME_)
#undef PYASC_NPU_OPTIONAL_NAME_
    };
    for (const char *optional : kOptional) {
        if (std::strcmp(optional, name) == 0) return true;
    }
    return false;
}

}  // namespace

std::shared_ptr<AclLibrary> AclLibrary::open(const std::string &path) {
    std::lock_guard<std::mutex> lock(g_mu);
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *err = dlerror();
        throw std::runtime_error("cannot load the ACL library " + path + ": " + (err ? err : "dlopen failed"));
    }
    for (auto &lib : registry()) {
        if (lib->handle_ == handle) {  // the same object loaded through another name
            dlclose(handle);           // drop the extra reference
            return lib;
        }
    }
    std::shared_ptr<AclLibrary> lib(new AclLibrary());
    lib->handle_ = handle;
    lib->path_ = path;
    std::string missing;
#define PYASC_NPU_RESOLVE_(ret, name, params)                                     \
    lib->api_.name = reinterpret_cast<PFN_##name>(dlsym(handle, #name));         \
    if (lib->api_.name == nullptr && !is_optional(#name)) {                      \
        missing += (missing.empty() ? "" : ", ") + std::string(#name);           \
    }
    PYASC_ACL_FUNCTION_LIST(PYASC_NPU_RESOLVE_)
#undef PYASC_NPU_RESOLVE_
    if (!missing.empty()) {
        dlclose(handle);
        throw std::runtime_error("the ACL library " + path + " lacks functions pyasc needs: " + missing +
                                 " (is it libascendcl.so from CANN 8 or newer?)");
    }
    const aclError rc = lib->api_.aclInit(nullptr);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE) check(*lib, rc, "aclInit");
    lib->owns_init_ = rc == ACL_SUCCESS;
    registry().push_back(lib);
    return lib;
}

std::vector<std::shared_ptr<AclLibrary>> AclLibrary::all() {
    std::lock_guard<std::mutex> lock(g_mu);
    return registry();
}

std::string AclLibrary::recent_error_message() const {
    const char *msg = api_.aclGetRecentErrMsg();
    return msg == nullptr ? std::string() : std::string(msg);
}

void AclLibrary::finalize() {
    if (finalized_.exchange(true)) return;
    if (owns_init_) api_.aclFinalize();
}

}  // namespace pyasc_npu
