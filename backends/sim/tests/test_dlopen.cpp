// Loads libpyasc_acl_sim.so the way the pybind11 binding loads an ACL library
// (dlopen + dlsym of every function in PYASC_ACL_FUNCTION_LIST) and drives it
// through the resolved pointers only.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

#include "pyasc/acl_abi.h"

#ifndef PYASC_SIM_LIBRARY
#error "PYASC_SIM_LIBRARY must name libpyasc_acl_sim.so"
#endif

namespace {

struct AclTable {
#define PYASC_FIELD_(ret, name, params) PFN_##name name = nullptr;
    PYASC_ACL_FUNCTION_LIST(PYASC_FIELD_)
#undef PYASC_FIELD_
};

int g_pass = 0, g_fail = 0;

void check(bool ok, const char *what) {
    if (ok) {
        ++g_pass;
    } else {
        ++g_fail;
        std::fprintf(stderr, "FAILED: %s\n", what);
    }
}

}  // namespace

int main() {
    void *lib = dlopen(PYASC_SIM_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    check(lib != nullptr, "dlopen libpyasc_acl_sim.so");
    if (lib == nullptr) {
        std::fprintf(stderr, "%s\n", dlerror());
        std::printf("%d passed, %d failed\n", g_pass, g_fail);
        return 1;
    }
    AclTable acl;
    int missing = 0;
#define PYASC_RESOLVE_(ret, name, params)                                          \
    acl.name = reinterpret_cast<PFN_##name>(dlsym(lib, #name));                    \
    if (acl.name == nullptr) {                                                     \
        ++missing;                                                                 \
        std::fprintf(stderr, "missing symbol %s\n", #name);                        \
    }
    PYASC_ACL_FUNCTION_LIST(PYASC_RESOLVE_)
#undef PYASC_RESOLVE_
    check(missing == 0, "every PYASC_ACL_FUNCTION_LIST symbol resolves");
    check(dlsym(lib, "_ZN9pyasc_sim7runtimeEv") == nullptr, "internal symbols are hidden");
    if (missing == 0) {
        check(acl.aclInit(nullptr) == ACL_SUCCESS, "aclInit");
        check(acl.aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
        void *d = nullptr;
        check(acl.aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        char host[256];
        std::memset(host, 3, sizeof(host));
        aclrtStream s = nullptr;
        check(acl.aclrtCreateStream(&s) == ACL_SUCCESS, "aclrtCreateStream");
        check(acl.aclrtMemsetAsync(d, 256, 9, 256, s) == ACL_SUCCESS, "aclrtMemsetAsync");
        check(acl.aclrtSynchronizeStream(s) == ACL_SUCCESS, "aclrtSynchronizeStream");
        aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
        check(acl.aclrtStreamQuery(s, &status) == ACL_SUCCESS && status == ACL_STREAM_STATUS_COMPLETE,
              "aclrtStreamQuery after aclrtSynchronizeStream");
        check(acl.aclrtMemcpy(host, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
        check(host[255] == 9, "memset result visible");
        check(acl.aclrtFree(d) == ACL_SUCCESS, "aclrtFree");
        check(acl.aclrtFree(d) == ACL_ERROR_RT_PARAM_INVALID, "double free rejected");
        const char *msg = acl.aclGetRecentErrMsg();
        check(msg != nullptr && std::strstr(msg, "double free") != nullptr, "error message through the table");
        check(acl.aclrtDestroyStream(s) == ACL_SUCCESS, "aclrtDestroyStream");
        check(acl.aclrtResetDevice(0) == ACL_SUCCESS, "aclrtResetDevice");
        check(acl.aclFinalize() == ACL_SUCCESS, "aclFinalize");
    }
    dlclose(lib);
    std::printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
