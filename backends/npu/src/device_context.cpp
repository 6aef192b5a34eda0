#include "device_context.h"

#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "acl_error.h"

namespace pyasc_npu {
namespace {

std::mutex g_mu;
std::map<std::pair<const AclLibrary *, int32_t>, std::shared_ptr<DeviceContext>> &contexts() {
    static auto *m = new std::map<std::pair<const AclLibrary *, int32_t>, std::shared_ptr<DeviceContext>>();
    return *m;
}

// The devices this thread has set, with how often (each aclrtSetDevice is paired with a reset).
struct ThreadDevices {
    DeviceContext *current = nullptr;
    std::vector<std::pair<DeviceContext *, int>> refs;
    ~ThreadDevices() {
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
    }
    return ctx;
}

void DeviceContext::shutdown_all() {
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
    if (finalized()) return false;
    try {
        activate();
    } catch (const AclError &) {
        return false;
    }
    return true;
}

}  // namespace pyasc_npu
