// Runtime state, initialization and device management:
// aclInit, aclFinalize, aclrtSetDevice, aclrtResetDevice, aclrtGetDevice,
// aclrtGetDeviceCount, aclrtSynchronizeDevice(WithTimeout), aclrtGetSocName, aclrtGetDeviceInfo,
// aclrtGetResInCurrentThread.
#include "runtime.h"

#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "device_heap.h"
#include "error.h"
#include "profile_log.h"
#include "fork.h"

namespace pyasc_sim {
namespace {

constexpr int32_t kMaxDevices = 64;
constexpr size_t kMaxDefaultDeviceMemory = size_t{32} << 30;  // 32 GiB: cap of the default capacity

std::atomic<uint32_t> g_op_timeout{kDefaultOpTimeoutSeconds};

struct ThreadDevice {
    uint64_t epoch = 0;
    int32_t id = -1;
    uint64_t generation = 0;
};

ThreadDevice &thread_device() {
    thread_local ThreadDevice td;
    return td;
}

// Parses "123", "64M", "2G", "512k" (binary multiples).  False on garbage.
bool parse_size(const char *text, size_t *out) {
    if (text[0] < '0' || text[0] > '9') return false;  // strtoull would accept "-1" and " 5"
    errno = 0;
    char *end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (end == text || errno != 0) return false;
    unsigned long long mult = 1;
    if (*end != '\0') {
        switch (*end) {
            case 'k': case 'K': mult = 1ull << 10; break;
            case 'm': case 'M': mult = 1ull << 20; break;
            case 'g': case 'G': mult = 1ull << 30; break;
            case 't': case 'T': mult = 1ull << 40; break;
            default: return false;
        }
        ++end;
        if (*end == 'i' || *end == 'I') ++end;
        if (*end == 'b' || *end == 'B') ++end;
        if (*end != '\0') return false;
    }
    if (v != 0 && mult > ~0ull / v) return false;
    *out = static_cast<size_t>(v * mult);
    return true;
}

// Smallest positive number in a cgroup memory limit file ("max" / huge values: no limit).
void min_limit_file(const std::string &path, size_t *limit) {
    FILE *f = std::fopen(path.c_str(), "r");
    if (f == nullptr) return;
    unsigned long long v = 0;
    if (std::fscanf(f, "%llu", &v) == 1 && v > 0 && v < (1ull << 62) && v < *limit) *limit = static_cast<size_t>(v);
    std::fclose(f);
}

// The cgroup (v2, else v1) memory limit of this process and its ancestors; SIZE_MAX when none.
size_t cgroup_memory_limit() {
    size_t limit = SIZE_MAX;
    FILE *f = std::fopen("/proc/self/cgroup", "r");
    if (f == nullptr) return limit;
    char line[4096];
    while (std::fgets(line, sizeof(line), f) != nullptr) {
        std::string l(line);
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
        const size_t c1 = l.find(':');
        const size_t c2 = c1 == std::string::npos ? std::string::npos : l.find(':', c1 + 1);
        if (c2 == std::string::npos) continue;
        const std::string controllers = l.substr(c1 + 1, c2 - c1 - 1);
        std::string path = l.substr(c2 + 1);
        std::string root, file;
        if (l.compare(0, c1, "0") == 0 && controllers.empty()) {
            root = "/sys/fs/cgroup";
            file = "/memory.max";
        } else if ((',' + controllers + ',').find(",memory,") != std::string::npos) {
            root = "/sys/fs/cgroup/memory";
            file = "/memory.limit_in_bytes";
        } else {
            continue;
        }
        // The limits of the cgroup and of every ancestor apply.
        for (;;) {
            min_limit_file(root + (path == "/" ? std::string() : path) + file, &limit);
            if (path.empty() || path == "/") break;
            const size_t slash = path.rfind('/');
            path = slash == 0 || slash == std::string::npos ? std::string("/") : path.substr(0, slash);
        }
    }
    std::fclose(f);
    return limit;
}

// Tears the runtime down at process exit if the user never called aclFinalize,
// so no worker thread outlives static destruction.
struct ExitGuard {
    ~ExitGuard() {
        if (runtime().initialized) aclFinalize();
    }
} g_exit_guard;

}  // namespace

size_t host_backable_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t physical = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : SIZE_MAX;
    return std::min(physical, cgroup_memory_limit());
}

size_t default_device_memory(int32_t device_count) {
    const size_t host = host_backable_memory();
    size_t per_device = host == SIZE_MAX ? kMaxDefaultDeviceMemory : host / 2 / static_cast<size_t>(device_count);
    per_device = std::min(per_device, kMaxDefaultDeviceMemory);
    per_device = per_device / (size_t{1} << 20) * (size_t{1} << 20);  // whole MiB
    return std::max(per_device, size_t{1} << 20);
}

uint32_t op_execute_timeout() { return g_op_timeout.load(); }

Runtime &runtime() {
    static Runtime *rt = new Runtime();  // never destroyed: see ExitGuard
    return *rt;
}

double Device::max_clock_ns() {
    std::lock_guard<std::mutex> lock(clock_mu_);
    return max_clock_ns_;
}

void Device::note_clock(double ns) {
    std::lock_guard<std::mutex> lock(clock_mu_);
    if (ns > max_clock_ns_) max_clock_ns_ = ns;
}

bool parse_checks_switch(const char *env, bool *on) {
    if (env == nullptr || env[0] == '\0') {
        *on = true;
        return true;
    }
    for (const char *v : {"1", "on", "true", "yes"}) {
        if (strcasecmp(env, v) == 0) {
            *on = true;
            return true;
        }
    }
    for (const char *v : {"0", "off", "false", "no"}) {
        if (strcasecmp(env, v) == 0) {
            *on = false;
            return true;
        }
    }
    return false;
}

aclError require_init(const char *api) {
    if (aclError e = refuse_in_forked_child(api)) return e;
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    if (!rt.initialized) {
        return fail(ACL_ERROR_UNINITIALIZE, format("%s: the runtime is not initialized; call aclInit first", api));
    }
    return ACL_SUCCESS;
}

aclError current_device(const char *api, std::shared_ptr<Device> *out) {
    if (aclError e = refuse_in_forked_child(api)) return e;
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    if (!rt.initialized) {
        return fail(ACL_ERROR_UNINITIALIZE, format("%s: the runtime is not initialized; call aclInit first", api));
    }
    const ThreadDevice &td = thread_device();
    if (td.epoch != rt.epoch || td.id < 0 || td.id >= static_cast<int32_t>(rt.devices.size()) ||
        !rt.devices[td.id] || rt.devices[td.id]->generation != td.generation) {
        return fail(ACL_ERROR_RT_CONTEXT_NULL,
                    format("%s: no device is set for the calling thread; call aclrtSetDevice in this thread first",
                           api));
    }
    *out = rt.devices[td.id];
    return ACL_SUCCESS;
}

aclError resolve_stream(const char *api, aclrtStream stream, const std::shared_ptr<Device> &dev,
                        std::shared_ptr<Stream> *out) {
    if (stream == nullptr) {
        *out = dev->default_stream;
        return ACL_SUCCESS;
    }
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    auto it = rt.streams.find(stream);
    if (it == rt.streams.end()) {
        return fail(ACL_ERROR_RT_INVALID_HANDLE,
                    format("%s: stream %s is not a live stream (never created, or already destroyed)", api,
                           ptr_str(stream).c_str()));
    }
    if (it->second->device() != dev.get()) {
        return fail(ACL_ERROR_RT_STREAM_CONTEXT,
                    format("%s: stream %s belongs to device %d but the calling thread's current device is %d", api,
                           ptr_str(stream).c_str(), it->second->device()->id, dev->id));
    }
    *out = it->second;
    return ACL_SUCCESS;
}

aclError resolve_event(const char *api, const char *role, aclrtEvent event, std::shared_ptr<Event> *out) {
    if (event == nullptr) return fail(ACL_ERROR_INVALID_PARAM, format("%s: %s is NULL", api, role));
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    auto it = rt.events.find(event);
    if (it == rt.events.end()) {
        return fail(ACL_ERROR_RT_INVALID_HANDLE,
                    format("%s: %s %s is not a live event (never created, or already destroyed)", api, role,
                           ptr_str(event).c_str()));
    }
    *out = it->second;
    return ACL_SUCCESS;
}

void destroy_detached(std::vector<std::shared_ptr<Device>> devices, std::vector<std::shared_ptr<Stream>> streams) {
    // Drain every stream first (a stream may wait on an event of another one), then
    // destroy them, then the devices (their pools and default streams).
    // End the device processes first: a kernel that never returns (timeout disabled) must not
    // make the drain below wait forever; its launch fails and later ones fail at once.
    for (auto &d : devices) {
        if (d->proc) d->proc->terminate();
    }
    for (auto &d : devices) streams.push_back(d->default_stream);
    for (auto &s : streams) s->wait_idle();
    streams.clear();
    for (auto &d : devices) d->default_stream.reset();
    devices.clear();
}

}  // namespace pyasc_sim

using namespace pyasc_sim;

namespace {

// Detaches the device with index `id` and everything it owns from the runtime.
// Runtime::mu must be held exclusively.  The returned objects are destroyed by
// destroy_detached after the lock is released.
void detach_device_locked(Runtime &rt, int32_t id, std::vector<std::shared_ptr<Device>> *devices,
                          std::vector<std::shared_ptr<Stream>> *streams,
                          std::vector<std::shared_ptr<Binary>> *binaries) {
    std::shared_ptr<Device> dev = rt.devices[id];
    if (!dev) return;
    rt.devices[id].reset();
    note_device_closed();
    for (auto it = rt.streams.begin(); it != rt.streams.end();) {
        if (it->second->device() == dev.get()) {
            streams->push_back(it->second);
            it = rt.streams.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = rt.events.begin(); it != rt.events.end();) {
        it = it->second->device == id ? rt.events.erase(it) : std::next(it);
    }
    for (auto it = rt.functions.begin(); it != rt.functions.end();) {
        it = it->second->binary->device == id ? rt.functions.erase(it) : std::next(it);
    }
    for (auto it = rt.binaries.begin(); it != rt.binaries.end();) {
        if (it->second->device == id) {
            binaries->push_back(it->second);
            it = rt.binaries.erase(it);
        } else {
            ++it;
        }
    }
    devices->push_back(dev);
}

void release_device_memory(Runtime &rt, int32_t id) {
    for (auto &a : rt.memory.remove_device(id)) a->freed.store(true);
    rt.memory.blocks.clear(id);
}

}  // namespace

extern "C" {

aclError aclInit(const char *configPath) {
    if (aclError e = refuse_in_forked_child("aclInit")) return e;
    Runtime &rt = runtime();
    std::unique_lock<std::shared_mutex> lock(rt.mu);
    if (rt.initialized) {
        return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized (aclFinalize first to re-initialize)");
    }
    if (configPath != nullptr && configPath[0] != '\0') {
        FILE *f = std::fopen(configPath, "rb");
        if (f == nullptr) {
            return fail(ACL_ERROR_INVALID_FILE, format("aclInit: cannot open config file '%s': %s", configPath,
                                                       std::strerror(errno)));
        }
        std::fclose(f);  // the simulator has no configuration options; the content is ignored
    }
    const SocProfile *profile = soc_profile_from_env();
    if (profile == nullptr) {
        return fail(ACL_ERROR_RT_SOC_VERSION,
                    format("aclInit: PYASC_SIM_SOC='%s' is not a simulated SoC; known: %s", std::getenv("PYASC_SIM_SOC"),
                           known_soc_names().c_str()));
    }
    int32_t count = 1;
    if (const char *env = std::getenv("PYASC_SIM_DEVICE_COUNT")) {
        char *end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if (end == env || *end != '\0' || v < 1 || v > kMaxDevices) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_DEVICE_COUNT='%s' must be an integer in [1, %d]", env, kMaxDevices));
        }
        count = static_cast<int32_t>(v);
    }
    size_t memory = default_device_memory(count);
    if (const char *env = std::getenv("PYASC_SIM_DEVICE_MEMORY")) {
        if (env[0] != '\0' && (!parse_size(env, &memory) || memory == 0)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_DEVICE_MEMORY='%s' must be a positive byte count (suffix K/M/G/T "
                               "allowed, e.g. 16G or 536870912); unset it for the default (half of the host's "
                               "memory over the devices, at most 32G)",
                               env));
        }
    }
    uint32_t timeout = kDefaultOpTimeoutSeconds;
    if (const char *env = std::getenv("PYASC_SIM_OP_TIMEOUT")) {
        char *end = nullptr;
        errno = 0;
        const unsigned long long v = env[0] >= '0' && env[0] <= '9' ? std::strtoull(env, &end, 10) : 0;
        if (env[0] != '\0' && (end == nullptr || end == env || *end != '\0' || errno != 0 || v > UINT32_MAX)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_OP_TIMEOUT='%s' must be a whole number of seconds in [0, %u] (0 "
                               "disables the operator execution timeout); unset it for the default of %u s",
                               env, UINT32_MAX, kDefaultOpTimeoutSeconds));
        }
        if (env[0] != '\0') timeout = static_cast<uint32_t>(v);
    }
    if (const char *env = std::getenv("PYASC_SIM_SPIN_US")) {
        uint32_t us = 0;
        if (env[0] != '\0' && !parse_spin_us(env, &us)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_SPIN_US='%s' must be a whole number of microseconds in [0, %u] (how "
                               "long a waiter spins before it sleeps; 0 never spins); unset it for the adaptive "
                               "default",
                               env, kMaxSpinUs));
        }
    }
    if (const char *env = std::getenv("PYASC_SIM_CHECKS")) {
        bool on = true;
        if (!parse_checks_switch(env, &on)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_CHECKS='%s' is not understood; use 1/on/true/yes (sanitizer checks "
                               "on, the default) or 0/off/false/no",
                               env));
        }
    }
    if (const char *env = std::getenv("PYASC_SIM_STRICT")) {
        bool on = false;
        if (!parse_checks_switch(env, &on)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_STRICT='%s' is not understood; use 1/on/true/yes (sanitizer "
                               "warnings are errors) or 0/off/false/no (warnings stay warnings, the default)",
                               env));
        }
    }
    if (const char *env = std::getenv("PYASC_SIM_HUGE_PAGES")) {
        bool on = true;
        if (!parse_checks_switch(env, &on)) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclInit: PYASC_SIM_HUGE_PAGES='%s' is not understood; use 1/on/true/yes (large device "
                               "memory blocks in 2 MiB pages, the default) or 0/off/false/no (4 KiB pages)",
                               env));
        }
    }
    g_op_timeout.store(timeout);
    rt.profile = profile;
    rt.device_count = count;
    rt.device_memory = memory;
    rt.devices.assign(static_cast<size_t>(count), nullptr);
    rt.initialized = true;
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    // In a forked child the parent's devices are left alone: their threads do not exist here.
    if (aclError e = refuse_in_forked_child("aclFinalize")) return e;
    Runtime &rt = runtime();
    std::vector<std::shared_ptr<Device>> devices;
    std::vector<std::shared_ptr<Stream>> streams;
    std::vector<std::shared_ptr<Binary>> binaries;
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (!rt.initialized) {
            return fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: the runtime is not initialized");
        }
        for (int32_t id = 0; id < static_cast<int32_t>(rt.devices.size()); ++id) {
            detach_device_locked(rt, id, &devices, &streams, &binaries);
        }
        // Anything left (streams/events of devices already gone cannot exist; be thorough).
        for (auto &kv : rt.streams) streams.push_back(kv.second);
        for (auto &kv : rt.binaries) binaries.push_back(kv.second);
        // Swap with empty containers so their storage is released too.
        decltype(rt.streams)().swap(rt.streams);
        decltype(rt.events)().swap(rt.events);
        decltype(rt.functions)().swap(rt.functions);
        decltype(rt.binaries)().swap(rt.binaries);
        decltype(rt.devices)().swap(rt.devices);
        rt.initialized = false;
        ++rt.epoch;
    }
    destroy_detached(std::move(devices), std::move(streams));
    binaries.clear();
    for (int32_t id = -1; id < kMaxDevices; ++id) release_device_memory(rt, id);
    rt.memory.clear_history();
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    if (aclError e = refuse_in_forked_child("aclrtSetDevice")) return e;
    Runtime &rt = runtime();
    std::unique_lock<std::shared_mutex> lock(rt.mu);
    if (!rt.initialized) {
        return fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice: the runtime is not initialized; call aclInit first");
    }
    if (deviceId < 0 || deviceId >= rt.device_count) {
        return fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    format("aclrtSetDevice: device id %d is out of range [0, %d) (PYASC_SIM_DEVICE_COUNT=%d)", deviceId,
                           rt.device_count, rt.device_count));
    }
    std::shared_ptr<Device> &slot = rt.devices[deviceId];
    if (!slot) {
        auto dev = std::make_shared<Device>();
        dev->id = deviceId;
        dev->generation = rt.next_generation++;
        dev->profile = rt.profile;
        dev->capacity = rt.device_memory;
        std::string why;
        dev->heap = DeviceHeap::create(deviceId, rt.device_memory, &why);
        if (!dev->heap) {
            return fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        format("aclrtSetDevice: cannot set up the %zu bytes of simulated device memory of device %d: "
                               "%s; lower PYASC_SIM_DEVICE_MEMORY",
                               rt.device_memory, deviceId, why.c_str()));
        }
        dev->proc.reset(new DeviceProcess(deviceId, dev->heap));
        dev->default_stream = std::make_shared<Stream>(dev.get(), true, 0.0);
        slot = dev;
        note_device_opened();
    }
    ++slot->refcount;
    ThreadDevice &td = thread_device();
    td.epoch = rt.epoch;
    td.id = deviceId;
    td.generation = slot->generation;
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    if (aclError e = refuse_in_forked_child("aclrtResetDevice")) return e;
    Runtime &rt = runtime();
    std::vector<std::shared_ptr<Device>> devices;
    std::vector<std::shared_ptr<Stream>> streams;
    std::vector<std::shared_ptr<Binary>> binaries;
    {
        std::unique_lock<std::shared_mutex> lock(rt.mu);
        if (!rt.initialized) {
            return fail(ACL_ERROR_UNINITIALIZE, "aclrtResetDevice: the runtime is not initialized; call aclInit first");
        }
        if (deviceId < 0 || deviceId >= rt.device_count) {
            return fail(ACL_ERROR_RT_INVALID_DEVICEID,
                        format("aclrtResetDevice: device id %d is out of range [0, %d)", deviceId, rt.device_count));
        }
        std::shared_ptr<Device> dev = rt.devices[deviceId];
        if (!dev) {
            return fail(ACL_ERROR_RT_CONTEXT_NULL,
                        format("aclrtResetDevice: device %d is not in use (aclrtSetDevice was not called, or every "
                               "aclrtSetDevice was already paired with a reset)",
                               deviceId));
        }
        ThreadDevice &td = thread_device();
        if (--dev->refcount > 0) return ACL_SUCCESS;
        detach_device_locked(rt, deviceId, &devices, &streams, &binaries);
        if (td.id == deviceId) td = ThreadDevice();
    }
    destroy_detached(std::move(devices), std::move(streams));
    binaries.clear();
    release_device_memory(rt, deviceId);
    return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t *deviceId) {
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtGetDevice", &dev)) return e;
    if (deviceId == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is NULL");
    *deviceId = dev->id;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    if (aclError e = require_init("aclrtGetDeviceCount")) return e;
    if (count == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is NULL");
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    *count = static_cast<uint32_t>(rt.device_count);
    return ACL_SUCCESS;
}

// Waits for every stream of the calling thread's device (until `timeout` ms, -1: forever), then
// reports the first sticky error among them and clears them all.  A timeout leaves them in place.
static aclError synchronize_device(const char *api, int32_t timeout) {
    std::chrono::steady_clock::time_point deadline;
    if (aclError e = sync_deadline(api, timeout, &deadline)) return e;
    std::shared_ptr<Device> dev;
    if (aclError e = current_device(api, &dev)) return e;
    std::vector<std::shared_ptr<Stream>> streams{dev->default_stream};
    {
        Runtime &rt = runtime();
        std::shared_lock<std::shared_mutex> lock(rt.mu);
        for (auto &kv : rt.streams) {
            if (kv.second->device() == dev.get()) streams.push_back(kv.second);
        }
    }
    for (auto &s : streams) {
        if (!s->wait_idle_until(deadline)) {
            return fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                        format("%s: the streams of device %d did not finish within %d ms", api, dev->id,
                               static_cast<int>(timeout)));
        }
    }
    for (auto &s : streams) profile_task(*s, "host synchronize (device)", s->clock_ns, 0);  // all idle
    aclError first = ACL_SUCCESS;
    std::string first_message;
    for (auto &s : streams) {
        std::string message;
        const aclError e = s->take_error(&message);
        if (e != ACL_SUCCESS && first == ACL_SUCCESS) {
            first = e;
            first_message = message;
        }
    }
    if (first != ACL_SUCCESS) return fail(first, std::string(api) + ": " + first_message);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) { return synchronize_device("aclrtSynchronizeDevice", -1); }

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    return synchronize_device("aclrtSynchronizeDeviceWithTimeout", timeout);
}

const char *aclrtGetSocName(void) {
    Runtime &rt = runtime();
    if (!in_forked_child()) {
        std::shared_lock<std::shared_mutex> lock(rt.mu);
        if (rt.initialized) return rt.profile->name;
    }
    // Documented to work without aclInit: answer from the environment.
    const SocProfile *p = soc_profile_from_env();
    return p == nullptr ? nullptr : p->name;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
    if (aclError e = refuse_in_forked_child("aclrtGetDeviceInfo")) return e;
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    if (!rt.initialized) {
        return fail(ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceInfo: the runtime is not initialized; call aclInit first");
    }
    if (deviceId >= static_cast<uint32_t>(rt.device_count)) {
        return fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    format("aclrtGetDeviceInfo: device id %u is out of range [0, %d)", deviceId, rt.device_count));
    }
    if (value == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceInfo: value is NULL");
    const SocProfile &p = *rt.profile;
    switch (attr) {
        case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = p.aicpu_cores; return ACL_SUCCESS;
        case ACL_DEV_ATTR_AICORE_CORE_NUM: *value = p.cube_cores; return ACL_SUCCESS;
        case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = p.cube_cores; return ACL_SUCCESS;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = p.vector_cores; return ACL_SUCCESS;
        case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: *value = static_cast<int64_t>(p.ub_bytes); return ACL_SUCCESS;
        case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = static_cast<int64_t>(rt.device_memory); return ACL_SUCCESS;
        case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = static_cast<int64_t>(p.l2_bytes); return ACL_SUCCESS;
        case ACL_DEV_ATTR_PHY_CHIP_ID: *value = deviceId; return ACL_SUCCESS;
        case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; return ACL_SUCCESS;
        default:
            return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        format("aclrtGetDeviceInfo: attribute %d is not modelled by the simulated %s", static_cast<int>(attr),
                               p.name));
    }
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value) {
    // Documented order: the stream's limit (aclrtSetStreamResLimit), else the process's
    // (aclrtSetDeviceResLimit), else the hardware's count.  The simulator offers neither limit, so
    // the answer is the simulated SoC's core count of that kind (ACL_DEV_ATTR_CUBE_CORE_NUM /
    // ACL_DEV_ATTR_VECTOR_CORE_NUM of aclrtGetDeviceInfo).
    std::shared_ptr<Device> dev;
    if (aclError e = current_device("aclrtGetResInCurrentThread", &dev)) return e;
    if (value == nullptr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetResInCurrentThread: value is NULL");
    Runtime &rt = runtime();
    std::shared_lock<std::shared_mutex> lock(rt.mu);
    const SocProfile &p = *rt.profile;
    switch (type) {
        case ACL_RT_DEV_RES_CUBE_CORE: *value = p.cube_cores; return ACL_SUCCESS;
        case ACL_RT_DEV_RES_VECTOR_CORE: *value = p.vector_cores; return ACL_SUCCESS;
        default:
            return fail(ACL_ERROR_INVALID_PARAM,
                        format("aclrtGetResInCurrentThread: resource type %d is not an aclrtDevResLimitType; pass "
                               "ACL_RT_DEV_RES_CUBE_CORE (0) or ACL_RT_DEV_RES_VECTOR_CORE (1)",
                               static_cast<int>(type)));
    }
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
    // Seconds; 0: no timeout.  Applies to launches that start after the call, on every device.
    g_op_timeout.store(timeout);
    return ACL_SUCCESS;
}

}  // extern "C"
