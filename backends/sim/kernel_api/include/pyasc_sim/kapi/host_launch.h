// Ascend C on the CPU -- `kernel<<<blocks, l2ctrl, stream>>>(args)` launches from host code.
//
// pyasc_sim.compile() rewrites each such launch in a kernel source into
//     ::pyasc_sim::host::launcher(&kernel, "kernel", blocks, l2ctrl, stream)(args)
// which launches the kernel through the simulated ACL runtime, as the NPU toolchain's launch
// does on hardware: it loads the binary the launcher lives in (aclrtBinaryLoadFromFile, once per
// process), finds the kernel's entry (aclrtBinaryGetFunction) and enqueues it on `stream` with
// the arguments packed in the kernel ABI's layout (aclrtLaunchKernelWithHostArgs).  The ACL
// functions are those of the process (a program linked against libpyasc_acl_sim.so, or the library
// pyasc loaded), else of PYASC_ACL_LIBRARY / the library path baked in at compile time.  A failed
// launch prints the ACL error to stderr and is remembered for pyasc_sim_last_launch_error().
#ifndef PYASC_SIM_KAPI_HOST_LAUNCH_H_
#define PYASC_SIM_KAPI_HOST_LAUNCH_H_

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace pyasc_sim {
namespace host {

using PfnLoad = int (*)(const char *, void *, void **);
using PfnGet = int (*)(void *, const char *, void **);
using PfnLaunch = int (*)(void *, uint32_t, void *, void *, void *, size_t, void *, size_t);
using PfnMsg = const char *(*)();

inline void *acl_symbol(const char *name) {
    if (void *p = dlsym(RTLD_DEFAULT, name)) return p;
    static void *lib = [] {
        void *h = nullptr;
        const char *env = std::getenv("PYASC_ACL_LIBRARY");
        if (env != nullptr && env[0] != '\0') h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
#ifdef PYASC_SIM_ACL_LIBRARY
        if (h == nullptr) h = dlopen(PYASC_SIM_ACL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
#endif
        return h;
    }();
    return lib != nullptr ? dlsym(lib, name) : nullptr;
}

inline int &last_error() {
    static int err = 0;
    return err;
}

inline int report(const char *kernel, const char *what, int code) {
    last_error() = code;
    auto msg = reinterpret_cast<PfnMsg>(acl_symbol("aclGetRecentErrMsg"));
    const char *text = msg != nullptr ? msg() : nullptr;
    std::fprintf(stderr, "pyasc_sim: %s<<<...>>> launch failed: %s returned %d%s%s\n", kernel, what, code,
                 text != nullptr ? ": " : "", text != nullptr ? text : "");
    return code;
}

// The kernel's function handle in the simulated runtime, loaded once per (binary, kernel).
inline void *function_handle(const void *kernel_addr, const char *name) {
    static std::mutex mu;
    static std::map<std::string, void *> binaries;
    static std::map<std::string, void *> functions;
    Dl_info info{};
    if (dladdr(kernel_addr, &info) == 0 || info.dli_fname == nullptr) {
        report(name, "dladdr (finding the kernel's binary)", 100000);
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(mu);
    const std::string key = std::string(info.dli_fname) + '\0' + name;
    auto f = functions.find(key);
    if (f != functions.end()) return f->second;
    auto load = reinterpret_cast<PfnLoad>(acl_symbol("aclrtBinaryLoadFromFile"));
    auto get = reinterpret_cast<PfnGet>(acl_symbol("aclrtBinaryGetFunction"));
    if (load == nullptr || get == nullptr) {
        std::fprintf(stderr, "pyasc_sim: %s<<<...>>>: no ACL runtime in the process; link libpyasc_acl_sim.so or "
                     "set PYASC_ACL_LIBRARY to it\n", name);
        last_error() = 100000;
        return nullptr;
    }
    void *&bin = binaries[info.dli_fname];
    int rc = 0;
    if (bin == nullptr && (rc = load(info.dli_fname, nullptr, &bin)) != 0) {
        report(name, "aclrtBinaryLoadFromFile", rc);
        bin = nullptr;
        return nullptr;
    }
    void *fn = nullptr;
    if ((rc = get(bin, name, &fn)) != 0) {
        report(name, "aclrtBinaryGetFunction", rc);
        return nullptr;
    }
    functions[key] = fn;
    return fn;
}

template <typename T, typename U>
inline void pack_slot(unsigned char *blob, size_t i, U &&value) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "<<<>>> launch: kernel parameters must be GM addresses or scalars of at most 8 bytes");
    const T v = (T)(value);  // as the kernel's parameter type (a C-style cast, like the device launch)
    std::memcpy(blob + 8 * i, &v, sizeof(T));
}

template <typename... A>
class Launcher {
public:
    Launcher(void (*fn)(A...), const char *name, uint32_t blocks, void *stream)
        : fn_(fn), name_(name), blocks_(blocks), stream_(stream) {}

    template <typename... B>
    void operator()(B &&...args) const {
        static_assert(sizeof...(A) == sizeof...(B), "<<<>>> launch: wrong number of kernel arguments");
        unsigned char blob[8 * sizeof...(A) + 8] = {};
        pack(blob, std::index_sequence_for<A...>{}, std::forward<B>(args)...);
        void *f = function_handle(reinterpret_cast<const void *>(fn_), name_);
        if (f == nullptr) return;
        auto launch = reinterpret_cast<PfnLaunch>(acl_symbol("aclrtLaunchKernelWithHostArgs"));
        if (launch == nullptr) {
            report(name_, "aclrtLaunchKernelWithHostArgs (missing)", 100000);
            return;
        }
        const int rc = launch(f, blocks_, stream_, nullptr, blob, 8 * sizeof...(A), nullptr, 0);
        if (rc != 0) report(name_, "aclrtLaunchKernelWithHostArgs", rc);
    }

private:
    template <size_t... I, typename... B>
    static void pack(unsigned char *blob, std::index_sequence<I...>, B &&...args) {
        (pack_slot<std::decay_t<A>>(blob, I, std::forward<B>(args)), ...);
    }
    void (*fn_)(A...);
    const char *name_;
    uint32_t blocks_;
    void *stream_;
};

template <typename... A, typename L2, typename S>
inline Launcher<A...> launcher(void (*fn)(A...), const char *name, uint32_t blocks, L2 &&, S &&stream) {
    return Launcher<A...>(fn, name, blocks, (void *)(stream));
}
template <typename... A, typename L2>
inline Launcher<A...> launcher(void (*fn)(A...), const char *name, uint32_t blocks, L2 &&) {
    return Launcher<A...>(fn, name, blocks, nullptr);
}
template <typename... A>
inline Launcher<A...> launcher(void (*fn)(A...), const char *name, uint32_t blocks) {
    return Launcher<A...>(fn, name, blocks, nullptr);
}

}  // namespace host
}  // namespace pyasc_sim

// The ACL error code of the last failed <<<>>> launch in this process (0: none), then cleared.
extern "C" __attribute__((visibility("default"), weak)) int pyasc_sim_last_launch_error() {
    const int e = ::pyasc_sim::host::last_error();
    ::pyasc_sim::host::last_error() = 0;
    return e;
}

#endif  // PYASC_SIM_KAPI_HOST_LAUNCH_H_
