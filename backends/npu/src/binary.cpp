#include "binary.h"

#include <cstring>
#include <stdexcept>

#include "acl_error.h"

namespace pyasc_npu {

Binary::Binary(std::shared_ptr<DeviceContext> ctx, std::string path, int32_t cpu_kernel_mode)
    : ctx_(std::move(ctx)), path_(std::move(path)), cpu_kernel_mode_(cpu_kernel_mode) {
    ctx_->activate();
    if (cpu_kernel_mode_ < 0) {
        ctx_->check(ctx_->api().aclrtBinaryLoadFromFile(path_.c_str(), nullptr, &handle_), "aclrtBinaryLoadFromFile");
        return;
    }
    aclrtBinaryLoadOption opt;
    std::memset(&opt, 0, sizeof(opt));
    opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = cpu_kernel_mode_;
    aclrtBinaryLoadOptions opts;
    opts.options = &opt;
    opts.numOpt = 1;
    ctx_->check(ctx_->api().aclrtBinaryLoadFromFile(path_.c_str(), &opts, &handle_), "aclrtBinaryLoadFromFile");
}

Binary::Binary(std::shared_ptr<DeviceContext> ctx, const std::string &data, int32_t cpu_kernel_mode, std::string label,
               FromData)
    : ctx_(std::move(ctx)), path_(std::move(label)), cpu_kernel_mode_(cpu_kernel_mode) {
    if (ctx_->api().aclrtBinaryLoadFromData == nullptr) {
        throw std::runtime_error("this ACL library has no aclrtBinaryLoadFromData (older than the AI CPU loading "
                                 "API); load the AI CPU library from a file instead");
    }
    ctx_->activate();
    aclrtBinaryLoadOption opt;
    std::memset(&opt, 0, sizeof(opt));
    opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = cpu_kernel_mode_;
    aclrtBinaryLoadOptions opts;
    opts.options = &opt;
    opts.numOpt = 1;
    ctx_->check(ctx_->api().aclrtBinaryLoadFromData(data.data(), data.size(), &opts, &handle_),
                "aclrtBinaryLoadFromData");
}

Binary::~Binary() {
    if (handle_ != nullptr && ctx_->try_activate()) ctx_->api().aclrtBinaryUnLoad(handle_);
}

void Binary::unload() {
    if (handle_ == nullptr) return;
    ctx_->activate();
    aclrtBinHandle h = handle_;
    handle_ = nullptr;
    ctx_->check(ctx_->api().aclrtBinaryUnLoad(h), "aclrtBinaryUnLoad");
}

aclrtBinHandle Binary::handle() const {
    if (handle_ == nullptr) throw std::invalid_argument("the kernel binary " + path_ + " was unloaded");
    return handle_;
}

Function::Function(std::shared_ptr<Binary> binary, std::string name) : binary_(std::move(binary)), name_(std::move(name)) {
    auto &ctx = binary_->context();
    ctx->activate();
    ctx->check(ctx->api().aclrtBinaryGetFunction(binary_->handle(), name_.c_str(), &handle_), "aclrtBinaryGetFunction");
}

Function::Function(std::shared_ptr<Binary> binary, const std::string &func_name, std::string kernel_name)
    : binary_(std::move(binary)), name_(std::move(kernel_name)) {
    auto &ctx = binary_->context();
    if (ctx->api().aclrtRegisterCpuFunc == nullptr) {
        throw std::runtime_error("this ACL library has no aclrtRegisterCpuFunc (older than the AI CPU loading API)");
    }
    ctx->activate();
    ctx->check(ctx->api().aclrtRegisterCpuFunc(binary_->handle(), func_name.c_str(), name_.c_str(), &handle_),
               "aclrtRegisterCpuFunc");
}

void launch(Function &fn, uint32_t num_blocks, const void *args, size_t args_size, Stream &stream,
            CachingAllocator &device_alloc, HostAllocator &host_alloc, bool host_args) {
    auto &ctx = stream.context();
    ctx->activate();
    const AclApi &api = ctx->api();
    if (host_args && ctx->lib().has_host_args_launch()) {
        ctx->check(api.aclrtLaunchKernelWithHostArgs(fn.handle(), num_blocks, stream.handle(), nullptr,
                                                     const_cast<void *>(args), args_size, nullptr, 0),
                   "aclrtLaunchKernelWithHostArgs");
        return;
    }
    const size_t n = args_size == 0 ? 8 : args_size;
    HostBlock *staging = host_alloc.malloc(n);
    std::memset(staging->ptr, 0, n);
    if (args_size != 0) std::memcpy(staging->ptr, args, args_size);
    Block *dev = nullptr;
    try {
        dev = device_alloc.malloc(n, stream.handle());
        ctx->check(api.aclrtMemcpyAsync(dev->ptr, dev->size, staging->ptr, n, ACL_MEMCPY_HOST_TO_DEVICE,
                                        stream.handle()),
                   "aclrtMemcpyAsync");
        ctx->check(api.aclrtLaunchKernel(fn.handle(), num_blocks, dev->ptr, args_size, stream.handle()),
                   "aclrtLaunchKernel");
    } catch (...) {
        host_alloc.record_stream(staging, stream.handle());
        host_alloc.free(staging);
        if (dev != nullptr) device_alloc.free(dev);  // same stream: reuse is stream-ordered
        throw;
    }
    host_alloc.record_stream(staging, stream.handle());
    host_alloc.free(staging);
    device_alloc.free(dev);
}

}  // namespace pyasc_npu
