// RAII owners of kernel binaries (aclrtBinaryLoadFromFile / aclrtBinaryUnLoad) and their
// functions, and the kernel launch.
#ifndef PYASC_NPU_BINARY_H_
#define PYASC_NPU_BINARY_H_

#include <memory>
#include <string>

#include "caching_allocator.h"
#include "device_context.h"
#include "host_allocator.h"
#include "stream.h"

namespace pyasc_npu {

class Binary {
public:
    // cpu_kernel_mode >= 0: an AI CPU library, loaded with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE
    // set to it (1: a library file, found as the .so of its .json op info file or given itself).
    Binary(std::shared_ptr<DeviceContext> ctx, std::string path, int32_t cpu_kernel_mode = -1);
    // An AI CPU library from host memory: aclrtBinaryLoadFromData with
    // ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = cpu_kernel_mode (2); its functions come from
    // aclrtRegisterCpuFunc.  `label` names it in messages.
    struct FromData {};
    Binary(std::shared_ptr<DeviceContext> ctx, const std::string &data, int32_t cpu_kernel_mode, std::string label,
           FromData);
    ~Binary();
    Binary(const Binary &) = delete;
    Binary &operator=(const Binary &) = delete;

    void unload();  // explicit early unload; functions of this binary become unusable
    aclrtBinHandle handle() const;
    const std::string &path() const { return path_; }
    bool aicpu() const { return cpu_kernel_mode_ >= 0; }
    const std::shared_ptr<DeviceContext> &context() const { return ctx_; }

private:
    std::shared_ptr<DeviceContext> ctx_;
    std::string path_;
    aclrtBinHandle handle_ = nullptr;
    int32_t cpu_kernel_mode_ = -1;
};

// A kernel of a loaded binary; keeps the binary loaded.
class Function {
public:
    Function(std::shared_ptr<Binary> binary, std::string name);
    // An AI CPU function registered with aclrtRegisterCpuFunc (func_name: the library's entry
    // function, kernel_name: the op type, this function's name).
    Function(std::shared_ptr<Binary> binary, const std::string &func_name, std::string kernel_name);
    aclrtFuncHandle handle() const { return handle_; }
    const std::string &name() const { return name_; }
    const std::shared_ptr<Binary> &binary() const { return binary_; }

private:
    std::shared_ptr<Binary> binary_;
    std::string name_;
    aclrtFuncHandle handle_ = nullptr;
};

// Enqueues `fn` with `num_blocks` blocks on `stream`.  With host_args (and a library that has it)
// the blob goes through aclrtLaunchKernelWithHostArgs; otherwise it is staged through pinned
// memory into a device block, as aclrtLaunchKernel requires.
void launch(Function &fn, uint32_t num_blocks, const void *args, size_t args_size, Stream &stream,
            CachingAllocator &device_alloc, HostAllocator &host_alloc, bool host_args);

}  // namespace pyasc_npu

#endif  // PYASC_NPU_BINARY_H_
