#include "device_context.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "acl_error.h"

namespace pyasc_npu {
namespace {

std::mutex g_mu;
std::atomic<int> g_opened{0};       // contexts that took their process device reference
std::atomic<long> g_forked_from{0};  // see DeviceContext::forked_from

void child_after_fork() {
    if (g_forked_from.load() == 0 && g_opened.load() > 0) g_forked_from.store(static_cast<long>(getppid()));
}

struct AtForkRegistration {
    AtForkRegistration() { pthread_atfork(nullptr, nullptr, &child_after_fork); }
} g_atfork_registration;
std::map<std::pair<const AclLibrary *, int32_t>, std::shared_ptr<DeviceContext>> &contexts() {
    static auto *m = new std::map<std::pair<const AclLibrary *, int32_t>, std::shared_ptr<DeviceContext>>();
    return *m;
}

// The devices this thread has set, with how often (each aclrtSetDevice is paired with a reset).
struct ThreadDevices {
    DeviceContext *current = nullptr;
    std::vector<std::pair<DeviceContext *, int>> refs;
    ~ThreadDevices() {
        if (DeviceContext::forked_from() != 0) return;  // the parent's devices
        for (auto &r : refs) {
            if (r.first->finalized()) continue;
            for (int i = 0; i < r.second; ++i) r.first->api().aclrtResetDevice(r.first->id());
        }
    }
};

ThreadDevices &thread_devices() {
    thread_local ThreadDevices td;
    return td;
}

}  // namespace

std::shared_ptr<DeviceContext> DeviceContext::get(const std::shared_ptr<AclLibrary> &lib, int32_t id) {
    std::shared_ptr<DeviceContext> ctx;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        auto &slot = contexts()[{lib.get(), id}];
        if (!slot) slot = std::make_shared<DeviceContext>(lib, id);
        ctx = slot;
    }
    ctx->activate();
    std::lock_guard<std::mutex> lock(g_mu);
    if (!ctx->process_ref_) {
        // The thread reference just taken keeps the device alive while this thread runs; this one
        // keeps it alive until shutdown, whichever threads come and go.
        ctx->check(ctx->api().aclrtSetDevice(id), "aclrtSetDevice");
        ctx->process_ref_ = true;
        g_opened.fetch_add(1);
    }
    return ctx;
}

long DeviceContext::forked_from() { return g_forked_from.load(std::memory_order_relaxed); }

void DeviceContext::shutdown_all() {
    if (forked_from() != 0) return;  // a forked child leaves the parent's devices and runtime alone
    std::vector<std::shared_ptr<DeviceContext>> all;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        for (auto &kv : contexts()) all.push_back(kv.second);
    }
    for (auto &ctx : all) {
        if (ctx->finalized() || !ctx->process_ref_) continue;
        ctx->api().aclrtResetDevice(ctx->id());
        ctx->process_ref_ = false;
        ThreadDevices &td = thread_devices();
        if (td.current == ctx.get()) td.current = nullptr;
    }
    for (auto &lib : AclLibrary::all()) lib->finalize();
}

void DeviceContext::check(aclError code, const char *api) const { pyasc_npu::check(*lib_, code, api); }

void DeviceContext::activate() {
    if (const long parent = forked_from()) throw ForkedDeviceError(parent);
    ThreadDevices &td = thread_devices();
    if (td.current == this) return;
    if (finalized()) {
        throw AclError(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice",
                       "the ACL runtime was finalized at interpreter exit; no further device work is possible");
    }
    check(api().aclrtSetDevice(id_), "aclrtSetDevice");
    td.current = this;
    for (auto &r : td.refs) {
        if (r.first == this) {
            ++r.second;
            return;
        }
    }
    td.refs.emplace_back(this, 1);
}

bool DeviceContext::try_activate() {
    if (finalized() || forked_from() != 0) return false;
    try {
        activate();
    } catch (const AclError &) {
        return false;
    }
    return true;
}

}  // namespace pyasc_npu
