// Kernel binaries and launches:
// aclrtBinaryLoadFromFile, aclrtBinaryGetFunction, aclrtLaunchKernel,
// aclrtLaunchKernelWithHostArgs, aclrtBinaryUnLoad.
//
// A simulator kernel binary is a host shared object following pyasc_sim/kernel_abi.h.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>
#include <exception>
#include <limits>

#include "pyasc_sim/cost_model.h"
#include "device_process.h"
#include "devproc_protocol.h"
#include "error.h"
#include "profile_log.h"
#include "runtime.h"

static_assert(PYASC_SIM_STATUS_AICORE_EXCEPTION == ACL_ERROR_RT_AICORE_EXCEPTION, "kernel ABI status mismatch");
static_assert(PYASC_SIM_STATUS_VECTOR_CORE_EXCEPTION == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "kernel ABI status mismatch");
static_assert(PYASC_SIM_STATUS_AICORE_TRAP_READ_OVERFLOW == ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, "status mismatch");
static_assert(PYASC_SIM_STATUS_AICORE_TRAP_WRITE_OVERFLOW == ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, "status mismatch");

namespace pyasc_sim {

Binary::~Binary() {
    if (!temp_path.empty()) unlink(temp_path.c_str());
}

}  // namespace pyasc_sim

using namespace pyasc_sim;

namespace {

constexpr uint32_t kMaxBlocks = 65535;

aclError resolve_function(const char *api, aclrtFuncHandle funcHandle, std::shared_ptr<Function> *out) {
    if (funcHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: funcHandle is NULL", api));
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    auto it = rt.functions.find(funcHandle);
    if (it == rt.functions.end()) {
        return fail(ACL_ERROR_RT_INVALID_HANDLE,
                    format("%s: funcHandle %s is not a live kernel function (never obtained from "
                           "aclrtBinaryGetFunction, or its binary was unloaded)",
                           api, ptr_str(funcHandle).c_str()));
    }
    *out = it->second;
    return ACL_SUCCESS;
}

// Where the launch's argument blob comes from when the task runs.
struct ArgsSource {
    std::shared_ptr<Allocation> alloc;  // device memory (aclrtLaunchKernel)
    size_t offset = 0;
    std::vector<uint8_t> host;  // captured host copy (aclrtLaunchKernelWithHostArgs)
};


// The switches read at every launch, as std::getenv gives them (the value of the first entry of
// each name, or null), found in one walk over the environment: each getenv walks every entry and
// reads each entry's first bytes, and three of them were 28% of the caller's instructions of an
// idle launch (round 25). Nothing is kept between launches.
struct LaunchSwitches {
    const char *checks = nullptr;       // PYASC_SIM_CHECKS
    const char *strict = nullptr;       // PYASC_SIM_STRICT
    const char *profile_dir = nullptr;  // PYASC_SIM_PROFILE_DIR (profile_log.h: profile_dir())
};

LaunchSwitches launch_switches() {
    static constexpr char kPrefix[] = "PYASC_SIM_";
    constexpr size_t kPrefixLen = sizeof(kPrefix) - 1;
    LaunchSwitches s;
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        const char *entry = *e;
        if (entry[0] != 'P' || std::strncmp(entry, kPrefix, kPrefixLen) != 0) continue;
        const char *rest = entry + kPrefixLen;
        auto take = [rest](const char *name, size_t len, const char **slot) {
            if (*slot == nullptr && std::strncmp(rest, name, len) == 0 && rest[len] == '=') *slot = rest + len + 1;
        };
        take("CHECKS", 6, &s.checks);
        take("STRICT", 6, &s.strict);
        take("PROFILE_DIR", 11, &s.profile_dir);
    }
    return s;
}

// Sanitizer switch, read at every launch: PYASC_SIM_CHECKS=0/off/false/no disables the
// kernel API's checks (default: on; aclInit refused values it does not understand, and one set
// later keeps the checks on).
bool checks_enabled(const LaunchSwitches &sw) {
    bool on = true;
    parse_checks_switch(sw.checks, &on);
    return on;
}

// PYASC_SIM_STRICT=1/on/true/yes: sanitizer warnings are errors (read at every launch; aclInit
// refused values it does not understand, and one set later counts as off).
bool strict_enabled(const LaunchSwitches &sw) {
    const char *env = sw.strict;
    if (env == nullptr || env[0] == '\0') return false;
    bool on = false;
    return parse_checks_switch(env, &on) && on;
}

// Warnings of finished launches, oldest first, until the host takes them (pyascSimTakeWarning).
constexpr size_t kMaxPendingWarnings = 256;
std::mutex g_warn_mu;
std::deque<std::string> g_warnings;
size_t g_dropped_warnings = 0;

void push_warnings(const std::vector<std::string> &warnings) {
    if (warnings.empty()) return;
    std::lock_guard<std::mutex> lock(g_warn_mu);
    for (const std::string &w : warnings) {
        if (g_warnings.size() < kMaxPendingWarnings) {
            g_warnings.push_back(w);
        } else {
            ++g_dropped_warnings;
        }
    }
}

int gm_query_cb(void *user, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) {
    (void)user;
    std::shared_ptr<Allocation> a = runtime().memory.find(p);
    if (a && a->is_device() && !a->freed.load()) {
        if (base != nullptr) *base = a->base;
        if (size != nullptr) *size = a->size;
        return 1;
    }
    if (why != nullptr && why_size > 0) {
        const std::string reason = a ? (a->is_device() ? std::string("its allocation was freed")
                                                        : std::string("it is pinned host memory (aclrtMallocHost), not "
                                                                      "device memory"))
                                     : runtime().memory.describe_unknown(p);
        std::snprintf(why, why_size, "%s", reason.c_str());
    }
    return 0;
}

// What the kernel may touch: the live allocations, except that an allocation holding tensor
// blocks of the caching allocator (as the launch saw them when it was enqueued) is replaced by
// its live blocks, so accesses are bounded by the tensor, not by the 2 MiB segment around it.
// The merged list is built in this thread's scratch vector and swapped in: the scratch keeps the
// buffer it gets back, so a launch allocates no second list (round 25).
void merge_blocks(const BlockSnapshot *blocks, std::vector<std::pair<uint64_t, uint64_t>> *allocs) {
    if (blocks == nullptr || blocks->blocks.empty()) return;
    thread_local std::vector<std::pair<uint64_t, uint64_t>> out;
    out.clear();
    out.reserve(allocs->size() + blocks->blocks.size());
    for (const auto &a : *allocs) {
        if (!blocks->any_in(a.first, a.first + a.second)) {
            out.push_back(a);
            continue;
        }
        auto it = std::lower_bound(blocks->blocks.begin(), blocks->blocks.end(), a.first,
                                   [](const TensorBlock &b, uint64_t x) { return b.base < x; });
        for (; it != blocks->blocks.end() && it->base < a.first + a.second; ++it) {
            if (it->live) out.emplace_back(it->base, it->size | devproc::kTensorBlockBit);
        }
    }
    allocs->swap(out);
}

// Why p is not inside what the launch may touch, with the launch's view of the tensor blocks.
int launch_query(const BlockSnapshot *blocks, const void *p, uint64_t *base, uint64_t *size, char *why,
                 size_t why_size) {
    const uint64_t addr = reinterpret_cast<uintptr_t>(p);
    if (blocks != nullptr) {
        std::shared_ptr<Allocation> a = runtime().memory.find(p);
        if (a && a->is_device() && !a->freed.load() && blocks->any_in(a->base, a->base + a->size)) {
            const TensorBlock *t = blocks->find(addr);
            if (t != nullptr && t->live) {  // beyond the snapshot's capacity
                if (base != nullptr) *base = t->base;
                if (size != nullptr) *size = t->size;
                return PYASC_SIM_GM_TENSOR;
            }
            if (why == nullptr || why_size == 0) return 0;
            if (t != nullptr) {
                std::snprintf(why, why_size,
                              PYASC_SIM_WHY_USE_AFTER_FREE "it lies in the tensor block [0x%llx, 0x%llx) (%llu bytes), "
                              "which was freed before this launch was enqueued",
                              static_cast<unsigned long long>(t->base), static_cast<unsigned long long>(t->base + t->size),
                              static_cast<unsigned long long>(t->size));
                return 0;
            }
            const TensorBlock *below = blocks->live_below(addr);
            if (below != nullptr) {
                std::snprintf(why, why_size,
                              "it lies %llu bytes past the end of the tensor block [0x%llx, 0x%llx), in memory of "
                              "pyasc's caching allocator that no live tensor owns",
                              static_cast<unsigned long long>(addr - (below->base + below->size)),
                              static_cast<unsigned long long>(below->base),
                              static_cast<unsigned long long>(below->base + below->size));
            } else {
                std::snprintf(why, why_size, "it lies in memory of pyasc's caching allocator that no live tensor owns");
            }
            return 0;
        }
    }
    return gm_query_cb(nullptr, p, base, size, why, why_size);
}

}  // namespace

namespace pyasc_sim {

// A kernel launch as queued on its stream.
struct LaunchJob {
    std::shared_ptr<Function> fn;
    uint32_t num_blocks = 0;
    ArgsSource source;
    size_t args_size = 0;
    std::shared_ptr<const BlockSnapshot> blocks;  // the tensor blocks when it was enqueued
};

namespace {

// Fills `req` (and its argument copy `args`) for `job`; false with *early set when the launch
// fails before it reaches the device. `live` (the live allocations) becomes req->allocs: a caller
// with one launch moves its snapshot in, a batch copies it per launch. `take_host`: the captured
// host arguments are moved into *args (the caller puts them back if the launch is queued after all).
// req's binary path and kernel name point into job.fn: valid while the job lives.
bool prepare_launch(LaunchJob &job, const SocProfile &profile, std::vector<std::pair<uint64_t, uint64_t>> live,
                    const LaunchSwitches &sw, const std::string &prof_dir, std::vector<uint8_t> *args,
                    KernelLaunch *req, std::string *early, bool take_host = false) {
    ArgsSource &src = job.source;
    if (src.alloc) {
        if (src.alloc->freed.load()) {
            *early = format("kernel %s: the device memory holding its arguments (%s) was freed before the "
                            "launch ran",
                            job.fn->name.c_str(), ptr_str(src.alloc->ptr()).c_str());
            return false;
        }
        args->assign(src.alloc->ptr() + src.offset, src.alloc->ptr() + src.offset + job.args_size);
    } else if (take_host) {
        args->swap(src.host);
    } else {
        *args = src.host;
    }
    req->binary_path = &job.fn->binary->path;
    req->bin_dev = job.fn->binary->file_dev;
    req->bin_ino = job.fn->binary->file_ino;
    req->kernel_name = job.fn->aicpu ? &job.fn->symbol : &job.fn->name;
    req->aicpu = job.fn->aicpu;
    req->num_blocks = job.num_blocks;
    req->args = args;
    req->checks = checks_enabled(sw);
    req->strict = strict_enabled(sw);
    if (!prof_dir.empty()) {
        req->profile_prefix = profile_launch_prefix(prof_dir);
        req->span_cap = profile_span_cap();
    }
    req->profile = &profile;
    req->allocs = std::move(live);
    if (req->checks) merge_blocks(job.blocks.get(), &req->allocs);
    const BlockSnapshot *view = req->checks ? job.blocks.get() : nullptr;
    req->query = [view](const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) {
        return launch_query(view, p, base, size, why, why_size);
    };
    return true;
}

// Applies one launch's outcome to its stream: the clock advanced by its simulated cost, the
// profiler's record, its warnings, its error (sticky: the first stays).
void apply_result(Stream &st, const LaunchJob &job, const KernelLaunch &req, const KernelResult &result,
                  const std::string &prof_dir) {
    Device &dev = *st.device();
    const SocProfile &profile = *dev.profile;
    const double start_ns = st.clock_ns;
    if (result.has_cycles && job.fn->aicpu) {  // AI CPU: its task cost and its run time
        st.clock_ns += profile.aicpu_launch_ns + result.wave_cycles * profile.aicpu_slowdown;
    } else if (result.has_cycles) {
        st.clock_ns += cost::kLaunchOverheadNs + result.wave_cycles / profile.clock_ghz;
    }
    if (!prof_dir.empty()) {
        profile_log(prof_dir, format("{\"type\": \"launch\", \"device\": %d, \"stream\": %llu, \"kernel\": %s, "
                                     "\"blocks\": %u, \"start_ns\": %.17g, \"end_ns\": %.17g, "
                                     "\"overhead_ns\": %.17g, \"clock_ghz\": %.17g, \"vector_cores\": %u, "
                                     "\"cube_cores\": %u, \"hbm_gbps\": %.17g, \"status\": %d, \"prefix\": %s}",
                                     dev.id, profile_stream_id(st),
                                     json_string(*req.kernel_name).c_str(), req.num_blocks, start_ns,
                                     st.clock_ns, cost::kLaunchOverheadNs, profile.clock_ghz,
                                     profile.vector_cores, profile.cube_cores, profile.hbm_bandwidth_gbps,
                                     static_cast<int>(result.status), json_string(req.profile_prefix).c_str()));
    }
    push_warnings(result.warnings);
    if (result.status != ACL_SUCCESS) st.record_error(result.status, result.message);
}

}  // namespace

// Runs consecutive launches of one stream in the device's process (their blocks run there, on
// its pool; they travel in as few requests as fit) and applies each one's outcome in order.
void run_launch_batch(Stream &st, std::vector<std::shared_ptr<LaunchJob>> &jobs) {
    Device &dev = *st.device();
    const SocProfile &profile = *dev.profile;
    const size_t count = jobs.size();
    std::vector<std::vector<uint8_t>> args(count);
    std::vector<KernelLaunch> reqs(count);
    std::vector<std::string> early(count);  // a launch that fails before it reaches the device
    std::vector<std::pair<uint64_t, uint64_t>> live;
    // The allocations live now are what the kernels may touch.
    runtime().memory.snapshot(dev.id, &live, devproc::kMaxSnapshot);
    std::vector<const KernelLaunch *> posted;
    std::vector<size_t> index;  // posted[k] is jobs[index[k]]
    const std::string prof_dir = profile_dir();  // the profiler is on: spans and a host record
    posted.reserve(count);
    index.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        if (!prepare_launch(*jobs[i], profile, live, launch_switches(), prof_dir, &args[i], &reqs[i], &early[i])) {
            continue;
        }
        posted.push_back(&reqs[i]);
        index.push_back(i);
    }
    std::vector<KernelResult> results;
    const std::function<void()> tail = [&st] { st.note_tail(); };
    if (!posted.empty()) dev.process().launch_batch(posted, op_execute_timeout(), &results, &tail);
    size_t k = 0;
    for (size_t i = 0; i < count; ++i) {
        if (k < index.size() && index[k] == i) {
            apply_result(st, *jobs[i], reqs[i], results[k++], prof_dir);
        } else {
            st.record_error(ACL_ERROR_RT_PARAM_INVALID, early[i]);
        }
    }
}

// A launch its caller posted to the device itself (Stream::enqueue_launch on an idle stream).
struct DirectLaunch {
    std::shared_ptr<LaunchJob> job;
    std::vector<uint8_t> args;
    KernelLaunch req;
    std::string prof_dir;
    DeviceProcess::Posted posted;
};

std::shared_ptr<DirectLaunch> post_direct(Stream &st, const std::shared_ptr<LaunchJob> &job) {
    Device &dev = *st.device();
    auto d = std::make_shared<DirectLaunch>();
    std::vector<std::pair<uint64_t, uint64_t>> live;
    runtime().memory.snapshot(dev.id, &live, devproc::kMaxSnapshot);
    const LaunchSwitches sw = launch_switches();
    d->prof_dir = sw.profile_dir != nullptr ? std::string(sw.profile_dir) : std::string();  // as profile_dir()
    std::string early;
    // (the snapshot and the host arguments move into the request: no second copy of either)
    if (!prepare_launch(*job, *dev.profile, std::move(live), sw, d->prof_dir, &d->args, &d->req, &early, true)) {
        return nullptr;
    }
    if (!dev.process().try_post(d->req, op_execute_timeout(), &d->posted)) {
        if (!job->source.alloc) job->source.host.swap(d->args);  // queued after all: its arguments back
        return nullptr;
    }
    d->job = job;
    return d;
}

bool direct_replied(const Stream &st, const DirectLaunch &d) { return st.device()->process().replied(d.posted); }

Peer direct_server_cpu(const Stream &st, const DirectLaunch &d) { return st.device()->process().server_cpu(d.posted); }

void finish_direct(Stream &st, DirectLaunch &d) {
    KernelResult result;
    const std::function<void()> tail = [&st] { st.note_tail(); };
    st.device()->process().finish(d.posted, d.req, &result, &tail);
    apply_result(st, *d.job, d.req, result, d.prof_dir);
    d.job.reset();  // its references go before the stream reports idle
    d.req.query = nullptr;
}

}  // namespace pyasc_sim

namespace {

aclError enqueue_launch(const char *api, aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                        const std::shared_ptr<Device> &dev, ArgsSource src, size_t argsSize) {
    std::shared_ptr<Function> fn;
    if (aclError e = resolve_function(api, funcHandle, &fn)) return e;
    if (numBlocks == 0 || numBlocks > kMaxBlocks) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: numBlocks %u is out of range [1, %u] (kernel %s)", api, numBlocks, kMaxBlocks,
                           fn->name.c_str()));
    }
    if (fn->aicpu && numBlocks != 1) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: the AI CPU function %s runs as one task: numBlocks must be 1, got %u", api,
                           fn->name.c_str(), numBlocks));
    }
    std::shared_ptr<Stream> st;
    if (aclError e = resolve_stream(api, stream, dev, &st)) return e;
    auto job = std::make_shared<LaunchJob>();
    job->fn = std::move(fn);
    job->num_blocks = numBlocks;
    job->source = std::move(src);
    job->args_size = argsSize;
    // The tensor blocks as of now: one freed after this call stays valid for this launch.
    job->blocks = runtime().memory.blocks.snapshot(dev->id);
    st->enqueue_launch(std::move(job));
    return ACL_SUCCESS;
}


// ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE of `options` into *mode (-1: not an AI CPU binary).
aclError read_cpu_mode(const char *api, const aclrtBinaryLoadOptions *options, int32_t *mode) {
    *mode = -1;
    if (options == nullptr || options->numOpt == 0) return ACL_SUCCESS;
    if (options->options == nullptr) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: options->numOpt is %zu but options->options is NULL", api,
                                                    options->numOpt));
    }
    for (size_t i = 0; i < options->numOpt; ++i) {
        const aclrtBinaryLoadOption &o = options->options[i];
        if (o.type != ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) continue;
        if (o.value.cpuKernelMode < 0 || o.value.cpuKernelMode > 2) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("%s: cpuKernelMode %d is not 0, 1 or 2", api, o.value.cpuKernelMode));
        }
        *mode = o.value.cpuKernelMode;
    }
    return ACL_SUCCESS;
}

// Loads `path` as a binary of the current device (an AI CPU library when `aicpu`).  The host reads its exported
// symbols from the file and never dlopens it: kernel code, static constructors included, runs only in the device
// process, whose fault handler turns a crash into a launch error; a constructor that faulted in the host's dlopen
// ended the host process (a -O0 kernel with a SIMT coverage hook that recursed, tests/test_sim_kernel_faults.py).
aclError load_binary(const char *api, const std::shared_ptr<Device> &dev, const std::string &path, bool aicpu,
                     aclrtBinHandle *binHandle) {
    auto bin = std::make_shared<Binary>();
    std::string why;
    if (!bin->exports.read(path, &why)) {
        return fail(ACL_ERROR_INVALID_FILE, format("%s: cannot load simulator %s binary '%s': %s", api,
                                                   aicpu ? "AI CPU" : "kernel", path.c_str(), why.c_str()));
    }
    bin->path = path;
    bin->aicpu = aicpu;
    struct stat sb;
    if (stat(path.c_str(), &sb) == 0) {  // with the path, the device process's dlopen cache key
        bin->file_dev = static_cast<uint64_t>(sb.st_dev);
        bin->file_ino = static_cast<uint64_t>(sb.st_ino);
    }
    bin->device = dev->id;
    uint32_t v = 0;
    if (!aicpu && bin->exports.value(PYASC_SIM_ABI_VERSION_SYMBOL, &v, sizeof(v))) {
        if (v == 0 || v > PYASC_SIM_KERNEL_ABI_VERSION) {
            return fail(ACL_ERROR_INVALID_FILE,
                        format("%s: '%s' was built for simulator kernel ABI version %u, this runtime implements "
                               "versions 1..%u; rebuild the kernel binary or update the runtime",
                               api, path.c_str(), v, PYASC_SIM_KERNEL_ABI_VERSION));
        }
    }
    Runtime &rt = runtime();
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        rt.binaries[bin.get()] = bin;
    }
    *binHandle = bin.get();
    return ACL_SUCCESS;
}

// The loaded binary behind binHandle, or an error naming `api` (never loaded, or unloaded).
aclError find_binary(const char *api, aclrtBinHandle binHandle, std::shared_ptr<Binary> *bin) {
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    auto it = rt.binaries.find(binHandle);
    if (it == rt.binaries.end()) {
        return fail(ACL_ERROR_RT_INVALID_HANDLE, format("%s: binHandle %s is not a loaded binary (never loaded, or unloaded)",
                                                        api, ptr_str(binHandle).c_str()));
    }
    *bin = it->second;
    return ACL_SUCCESS;
}

// The AI CPU function `symbol` of the AI CPU binary `binHandle`, named `name` in messages.
aclError get_cpu_function(const char *api, aclrtBinHandle binHandle, const char *symbol, const char *name,
                          aclrtFuncHandle *funcHandle) {
    Runtime &rt = runtime();
    std::shared_ptr<Binary> bin;
    if (aclError e = find_binary(api, binHandle, &bin); e != ACL_SUCCESS) return e;
    if (!bin->aicpu) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: '%s' is not an AI CPU binary (load it with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)",
                           api, bin->path.c_str()));
    }
    if (!bin->exports.has(symbol)) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: the AI CPU function '%s' is not in '%s' (no exported symbol)",
                                                    api, symbol, bin->path.c_str()));
    }
    auto fn = std::make_shared<Function>();
    fn->binary = bin;
    fn->name = name;
    fn->symbol = symbol;
    fn->aicpu = true;
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (rt.binaries.count(binHandle) == 0) {
            return fail(ACL_ERROR_RT_INVALID_HANDLE, format("%s: binHandle %s was unloaded concurrently", api,
                                                            ptr_str(binHandle).c_str()));
        }
        rt.functions[fn.get()] = fn;
    }
    *funcHandle = fn.get();
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

// pyasc extension (not ACL): takes the oldest pending sanitizer warning of a finished launch into
// buf (NUL-terminated, truncated to size).  Returns 1 when it took one, 0 when none is pending.
// The binding looks it up like an optional ACL function and raises the warnings at synchronize.
PYASC_ACL_API int pyascSimTakeWarning(char *buf, size_t size) {
    std::string w;
    {
        std::lock_guard<std::mutex> lock(g_warn_mu);
        if (g_warnings.empty()) {
            if (g_dropped_warnings == 0) return 0;
            w = format("%zu more sanitizer warnings were dropped (at most %zu are kept between synchronizes)",
                       g_dropped_warnings, kMaxPendingWarnings);
            g_dropped_warnings = 0;
        } else {
            w = std::move(g_warnings.front());
            g_warnings.pop_front();
        }
    }
    if (buf != nullptr && size > 0) std::snprintf(buf, size, "%s", w.c_str());
    return 1;
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
    const char *api = "aclrtBinaryLoadFromFile";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    if (binPath == nullptr || binPath[0] == '\0') return fail(ACL_ERROR_INVALID_PARAM, format("%s: binPath is empty", api));
    if (binHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: binHandle is NULL", api));
    int32_t cpu_mode = -1;
    if (aclError e = read_cpu_mode(api, options, &cpu_mode)) return e;
    std::string path = binPath;
    if (cpu_mode == 0) {
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    format("%s: cpuKernelMode 0 registers CANN's built-in AI CPU operators, which the simulator "
                           "does not have; load your own AI CPU library with cpuKernelMode 1", api));
    }
    if (cpu_mode == 2) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    format("%s: cpuKernelMode 2 is for aclrtBinaryLoadFromData + aclrtRegisterCpuFunc; load a file "
                           "with cpuKernelMode 1", api));
    }
    if (cpu_mode == 1 && path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
        path = path.substr(0, path.size() - 5) + ".so";  // the AI CPU library named as its op info file
    }
    // The other options (lazy load, magic) do not change how a host object is loaded.
    return load_binary(api, dev, path, cpu_mode == 1, binHandle);
}

aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle) {
    const char *api = "aclrtBinaryLoadFromData";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    if (data == nullptr || length == 0) {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: data is NULL or length is 0 (length %zu)", api, length));
    }
    if (binHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: binHandle is NULL", api));
    int32_t cpu_mode = -1;
    if (aclError e = read_cpu_mode(api, options, &cpu_mode)) return e;
    if (cpu_mode != 2) {
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    format("%s: the simulator loads AI CPU libraries from data (option "
                           "ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 2); load AI Core kernels with "
                           "aclrtBinaryLoadFromFile", api));
    }
    // the device process's dlopen needs a file: the data goes into a private temporary one, removed at unload.
    const char *tmpdir = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmpdir != nullptr && tmpdir[0] != '\0' ? tmpdir : "/tmp") + "/pyasc-aicpu-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = mkstemp(name.data());
    if (fd < 0) return fail(ACL_ERROR_RT_FILE_WRITE, format("%s: cannot create a temporary file in %s", api, tmpl.c_str()));
    const uint8_t *p = static_cast<const uint8_t *>(data);
    size_t left = length;
    while (left > 0) {
        const ssize_t w = write(fd, p, left);
        if (w <= 0) break;
        p += w;
        left -= static_cast<size_t>(w);
    }
    close(fd);
    if (left != 0) {
        unlink(name.data());
        return fail(ACL_ERROR_RT_FILE_WRITE, format("%s: cannot write %zu bytes to %s", api, length, name.data()));
    }
    aclError e = load_binary(api, dev, name.data(), true, binHandle);
    if (e != ACL_SUCCESS) {
        unlink(name.data());
        return e;
    }
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    auto it = rt.binaries.find(*binHandle);
    if (it != rt.binaries.end()) it->second->temp_path = name.data();
    return ACL_SUCCESS;
}

aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName, const char *kernelName,
                              aclrtFuncHandle *funcHandle) {
    const char *api = "aclrtRegisterCpuFunc";
    if (aclError e = require_init(api)) return e;
    if (handle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: handle is NULL", api));
    if (funcName == nullptr || funcName[0] == '\0' || kernelName == nullptr || kernelName[0] == '\0') {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: funcName and kernelName must not be empty", api));
    }
    if (funcHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: funcHandle is NULL", api));
    return get_cpu_function(api, handle, funcName, kernelName, funcHandle);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle) {
    const char *api = "aclrtBinaryGetFunction";
    if (aclError e = require_init(api)) return e;
    if (binHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: binHandle is NULL", api));
    if (kernelName == nullptr || kernelName[0] == '\0') {
        return fail(ACL_ERROR_INVALID_PARAM, format("%s: kernelName is empty", api));
    }
    if (funcHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: funcHandle is NULL", api));
    Runtime &rt = runtime();
    std::shared_ptr<Binary> bin;
    if (aclError e = find_binary(api, binHandle, &bin); e != ACL_SUCCESS) return e;
    if (bin->aicpu) {
        return get_cpu_function(api, binHandle, kernelName, kernelName, funcHandle);
    }
    const std::string symbol = std::string(PYASC_SIM_ENTRY_PREFIX) + kernelName;
    if (!bin->exports.has(symbol)) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    format("%s: kernel '%s' is not in '%s' (no exported symbol %s)", api, kernelName, bin->path.c_str(),
                           symbol.c_str()));
    }
    auto fn = std::make_shared<Function>();
    fn->binary = bin;
    fn->name = kernelName;
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (rt.binaries.count(binHandle) == 0) {
            lock.unlock();
            return fail(ACL_ERROR_RT_INVALID_HANDLE, format("%s: binHandle %s was unloaded concurrently", api,
                                                            ptr_str(binHandle).c_str()));
        }
        rt.functions[fn.get()] = fn;
    }
    *funcHandle = fn.get();
    return ACL_SUCCESS;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream) {
    const char *api = "aclrtLaunchKernel";
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    if (argsData == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: argsData is NULL", api));
    ArgsSource src;
    src.alloc = runtime().memory.find(argsData);
    if (!src.alloc || !src.alloc->is_device()) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: argsData %s must point into device memory (copy the argument blob there with "
                           "aclrtMemcpy, or use aclrtLaunchKernelWithHostArgs for host memory); %s",
                           api, ptr_str(argsData).c_str(),
                           src.alloc ? "it is pinned host memory"
                                     : runtime().memory.describe_unknown(argsData).c_str()));
    }
    src.offset = reinterpret_cast<uintptr_t>(argsData) - src.alloc->base;
    if (argsSize > src.alloc->size - src.offset) {
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    format("%s: argsSize %zu overflows the device allocation at %s (%zu bytes remain after offset %zu)",
                           api, argsSize, ptr_str(src.alloc->ptr()).c_str(), src.alloc->size - src.offset, src.offset));
    }
    return enqueue_launch(api, funcHandle, numBlocks, stream, dev, std::move(src), argsSize);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum) {
    const char *api = "aclrtLaunchKernelWithHostArgs";
    (void)cfg;  // launch attributes do not affect the simulation
    (void)placeHolderArray;
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    if (hostArgs == nullptr && argsSize != 0) return fail(ACL_ERROR_INVALID_PARAM, format("%s: hostArgs is NULL", api));
    if (placeHolderNum != 0) {
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    format("%s: placeholders (placeHolderNum=%zu) are not supported by the simulator", api,
                           placeHolderNum));
    }
    ArgsSource src;
    if (argsSize != 0) {
        const uint8_t *p = static_cast<const uint8_t *>(hostArgs);
        src.host.assign(p, p + argsSize);  // host arguments are captured at call time
    }
    return enqueue_launch(api, funcHandle, numBlocks, stream, dev, std::move(src), argsSize);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
    const char *api = "aclrtBinaryUnLoad";
    if (aclError e = require_init(api)) return e;
    if (binHandle == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: binHandle is NULL", api));
    std::shared_ptr<Binary> bin;
    Runtime &rt = runtime();
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        auto it = rt.binaries.find(binHandle);
        if (it == rt.binaries.end()) {
            lock.unlock();
            return fail(ACL_ERROR_RT_INVALID_HANDLE,
                        format("%s: binHandle %s is not a loaded binary (never loaded, or already unloaded)", api,
                               ptr_str(binHandle).c_str()));
        }
        bin = it->second;
        rt.binaries.erase(it);
        for (auto f = rt.functions.begin(); f != rt.functions.end();) {
            f = f->second->binary == bin ? rt.functions.erase(f) : std::next(f);
        }
    }
    // Launches still queued hold the binary; it is released after the last one ran.
    return ACL_SUCCESS;
}

}  // extern "C"
