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
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "pyasc/acl_abi.h"

// ACL calls in the source's own host code (`aclrtGetResInCurrentThread(...)` sizing a launch, as
// collective libraries do) are weak references: the binary also loads where no ACL library is (the
// simulator's device process, which runs only its kernels), and a program linked against
// libpyasc_acl_sim.so (or a process that made it global: pyasc_sim.host_function) binds them to the
// simulated runtime.  Called where nothing defines them, they are null (a crash, as an unresolved
// symbol would be).
// The entry name of a launch whose kernel name is pasted inside a macro body
// (`copy_##TYPE<<<...>>>(args)` in a `#define`): the rewrite passes PYASC_SIM_LAUNCH_NAME(copy_##TYPE),
// which stringizes the pasted token once the macro expands ("copy_half").
#define PYASC_SIM_LAUNCH_NAME_STR_(x) #x
#define PYASC_SIM_LAUNCH_NAME(x) PYASC_SIM_LAUNCH_NAME_STR_(x)

#define PYASC_SIM_HOST_PRAGMA_(x) _Pragma(#x)
#define PYASC_SIM_HOST_WEAK_(ret, name, params) PYASC_SIM_HOST_PRAGMA_(weak name)
PYASC_ACL_FUNCTION_LIST(PYASC_SIM_HOST_WEAK_)
#undef PYASC_SIM_HOST_WEAK_
#undef PYASC_SIM_HOST_PRAGMA_

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
        (void)blob;  // a launch without kernel arguments packs nothing
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

// ---- template kernels: kernel<T><<<...>>>(args) ------------------------------------------------
// A template instance has no extern "C" entry of its own.  The binary exports one trampoline entry
// (__pyasc_sim_entry___pyasc_sim_instance); an instance launch passes, before the kernel's 8-byte
// argument slots, the offset of the instance's entry function inside the binary (the same in the
// host and the device process, which load the same file).  The trampoline accepts only offsets that
// an instance registered when the binary was loaded.  A mixed kernel built once per core kind
// (PYASC_SIM_SPLIT_PASS 1: the cube pass, 2: the vector pass) registers the cube pass's entries; the
// vector pass registers its instances by name, and a cube entry hands its AIV that pass's kernel.
using InstanceEntry = void (*)(PyascSimBlockContext *);

inline std::mutex &instance_mutex() {
    static std::mutex mu;
    return mu;
}
inline std::map<uintptr_t, InstanceEntry> &instances() {
    static std::map<uintptr_t, InstanceEntry> m;
    return m;
}
inline uintptr_t binary_base(const void *addr) {
    Dl_info info{};
    return dladdr(addr, &info) != 0 ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0;
}
inline bool register_instance(InstanceEntry e) {
    const uintptr_t base = binary_base(reinterpret_cast<const void *>(e));
    std::lock_guard<std::mutex> lock(instance_mutex());
    instances()[reinterpret_cast<uintptr_t>(e) - base] = e;
    return true;
}

// A split build's vector-pass instances by name ("kernel<half>"), for the cube pass's entries.
inline std::map<std::string, void *> &aiv_instances() {
    static std::map<std::string, void *> m;
    return m;
}
inline bool register_aiv_instance(const char *name, void *fn) {
    std::lock_guard<std::mutex> lock(instance_mutex());
    aiv_instances()[name] = fn;
    return true;
}
inline void *aiv_instance(const char *name) {
    std::lock_guard<std::mutex> lock(instance_mutex());
    auto it = aiv_instances().find(name);
    return it != aiv_instances().end() ? it->second : nullptr;
}

// A split build's template kernels whose body declares KERNEL_TYPE_AIV_ONLY / MIX_AIV_1_0 (by template
// name, registered by the cube pass's stubs): their instances' one core is an AIV, which runs the
// vector pass.
inline std::set<std::string> &vector_only_templates() {
    static std::set<std::string> s;
    return s;
}
inline bool register_vector_only_template(const char *name) {
    std::lock_guard<std::mutex> lock(instance_mutex());
    vector_only_templates().insert(name);
    return true;
}
inline bool vector_only_instance(const char *instance) {  // "kernel<half>" of a registered "kernel"
    const std::string s = instance;
    std::lock_guard<std::mutex> lock(instance_mutex());
    return vector_only_templates().count(s.substr(0, s.find('<'))) != 0;
}

// The instance in GCC's / clang's __PRETTY_FUNCTION__ of Instance<Fn>::name ("... [with auto Fn = &k<half>]").
inline std::string instance_name(const char *pretty) {
    std::string s = pretty;
    const size_t a = s.find("Fn = ");
    if (a == std::string::npos) return "template kernel";
    s = s.substr(a + 5);
    s = s.substr(0, s.find_first_of(";]"));
    if (!s.empty() && s[0] == '&') s = s.substr(1);
    return s;
}

template <auto Fn>
struct Instance {
    // "kernel<half>" from the compiler's spelling of Fn (for messages, the kernel name, and the key of
    // a split build's vector pass): read in name() itself, whose __PRETTY_FUNCTION__ names Fn (a
    // lambda's would not: every instance was "template kernel", so two instances shared a key).
    static const char *name() {
        static const std::string n = instance_name(__PRETTY_FUNCTION__);
        return n.c_str();
    }
#if PYASC_SIM_SPLIT_PASS == 1
    // A mixed kernel built once per core kind (pyasc_sim.mix_build): the cube pass's entry hands the
    // vector pass's instance (registered by name, below) to the block's AIV.
    static decltype(Fn) aiv() {
        static const decltype(Fn) fn = reinterpret_cast<decltype(Fn)>(aiv_instance(name()));
        return fn;
    }
    static void entry(PyascSimBlockContext *ctx) {
        if (aiv() != nullptr && vector_only_instance(name())) {
            ::pyasc_sim::kapi::run_entry(ctx, name(), aiv());  // a vector-only kernel: its AIV pass alone
        } else {
            ::pyasc_sim::kapi::run_entry(ctx, name(), Fn, aiv());
        }
    }
#else
    static void entry(PyascSimBlockContext *ctx) { ::pyasc_sim::kapi::run_entry(ctx, name(), Fn); }
#endif
    static inline const bool registered = register_instance(&entry);
};

// The vector pass of a split build registers each launched instance under its name instead of
// adding an entry of its own: the trampoline runs the cube pass's entry, which finds it.
template <auto Fn>
struct AivInstance {
    static inline const bool registered = register_aiv_instance(Instance<Fn>::name(), reinterpret_cast<void *>(Fn));
};

template <typename... A>
class InstanceLauncher {
public:
    InstanceLauncher(void (*fn)(A...), InstanceEntry entry, const char *name, uint32_t blocks, void *stream)
        : fn_(fn), entry_(entry), name_(name), blocks_(blocks), stream_(stream) {}

    template <typename... B>
    void operator()(B &&...args) const {
        static_assert(sizeof...(A) == sizeof...(B), "<<<>>> launch: wrong number of kernel arguments");
        unsigned char blob[8 * sizeof...(A) + 16] = {};
        const uint64_t id = reinterpret_cast<uintptr_t>(entry_) - binary_base(reinterpret_cast<const void *>(entry_));
        std::memcpy(blob, &id, 8);
        pack(blob + 8, std::index_sequence_for<A...>{}, std::forward<B>(args)...);
        void *f = function_handle(reinterpret_cast<const void *>(fn_), "__pyasc_sim_instance");
        if (f == nullptr) return;
        auto launch = reinterpret_cast<PfnLaunch>(acl_symbol("aclrtLaunchKernelWithHostArgs"));
        if (launch == nullptr) {
            report(name_, "aclrtLaunchKernelWithHostArgs (missing)", 100000);
            return;
        }
        const int rc = launch(f, blocks_, stream_, nullptr, blob, 8 * sizeof...(A) + 8, nullptr, 0);
        if (rc != 0) report(name_, "aclrtLaunchKernelWithHostArgs", rc);
    }

private:
    template <size_t... I, typename... B>
    static void pack(unsigned char *blob, std::index_sequence<I...>, B &&...args) {
        (void)blob;  // a launch without kernel arguments packs nothing
        (pack_slot<std::decay_t<A>>(blob, I, std::forward<B>(args)), ...);
    }
    void (*fn_)(A...);
    InstanceEntry entry_;
    const char *name_;
    uint32_t blocks_;
    void *stream_;
};

template <auto Fn, typename... A>
inline InstanceLauncher<A...> make_instance_launcher(void (*fn)(A...), const char *text, uint32_t blocks,
                                                     void *stream) {
#if PYASC_SIM_SPLIT_PASS == 2
    (void)AivInstance<Fn>::registered;  // the cube pass's entry of the instance runs it on the AIV
#else
    (void)Instance<Fn>::registered;  // the instance's entry exists in every process loading the binary
#endif
    return InstanceLauncher<A...>(fn, &Instance<Fn>::entry, text, blocks, stream);
}
template <auto Fn, typename L2, typename S>
inline auto instance_launcher(const char *text, uint32_t blocks, L2 &&, S &&stream) {
    return make_instance_launcher<Fn>(Fn, text, blocks, (void *)(stream));
}
template <auto Fn, typename L2>
inline auto instance_launcher(const char *text, uint32_t blocks, L2 &&) {
    return make_instance_launcher<Fn>(Fn, text, blocks, nullptr);
}
template <auto Fn>
inline auto instance_launcher(const char *text, uint32_t blocks) {
    return make_instance_launcher<Fn>(Fn, text, blocks, nullptr);
}

}  // namespace host
}  // namespace pyasc_sim

// The trampoline entry of template-kernel instances (see InstanceLauncher).
extern "C" __attribute__((visibility("default"), weak)) void __pyasc_sim_entry___pyasc_sim_instance(
    PyascSimBlockContext *ctx) {
    uint64_t id = 0;
    if (ctx->args != nullptr && ctx->args_size >= 8) std::memcpy(&id, ctx->args, 8);
    ::pyasc_sim::host::InstanceEntry e = nullptr;
    {
        std::lock_guard<std::mutex> lock(::pyasc_sim::host::instance_mutex());
        auto it = ::pyasc_sim::host::instances().find(static_cast<uintptr_t>(id));
        if (it != ::pyasc_sim::host::instances().end()) e = it->second;
    }
    if (e == nullptr) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message),
                      "template kernel launch: no kernel instance at entry offset 0x%llx in this binary (the "
                      "launch must come from this binary's kernel<T><<<...>>> host code)",
                      static_cast<unsigned long long>(id));
        return;
    }
    const void *args = ctx->args;
    const size_t size = ctx->args_size;
    ctx->args = static_cast<const unsigned char *>(args) + 8;
    ctx->args_size = size - 8;
    e(ctx);
    ctx->args = args;
    ctx->args_size = size;
}

// The ACL error code of the last failed <<<>>> launch in this process (0: none), then cleared.
extern "C" __attribute__((visibility("default"), weak)) int pyasc_sim_last_launch_error() {
    const int e = ::pyasc_sim::host::last_error();
    ::pyasc_sim::host::last_error() = 0;
    return e;
}

#endif  // PYASC_SIM_KAPI_HOST_LAUNCH_H_
