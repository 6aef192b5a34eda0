// Shared declarations of the binding: the Python-visible Device and the bind_* entry points.
#ifndef PYASC_NPU_PY_DEVICE_H_
#define PYASC_NPU_PY_DEVICE_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "caching_allocator.h"
#include "device_context.h"
#include "host_allocator.h"
#include "stream.h"

namespace pyasc_npu {

// `_acl.Device`: one device as one backend sees it -- its context, caching allocators and
// default stream.  Two backends over the same library (sim and npu-on-sim) share the device but
// keep separate allocators and statistics.
struct PyDevice {
    PyDevice(const std::shared_ptr<AclLibrary> &lib, int32_t index, std::string label);
    ~PyDevice();  // drops the allocators without the GIL (their destructors wait for queued work)
    PyDevice(const PyDevice &) = delete;
    PyDevice &operator=(const PyDevice &) = delete;

    std::shared_ptr<DeviceContext> ctx;
    std::shared_ptr<CachingAllocator> alloc;
    std::shared_ptr<HostAllocator> host;
    std::shared_ptr<Stream> default_stream;
    std::string label;
};

// A contiguous view of a Python buffer object, released on destruction (with the GIL held).
class BufferView {
public:
    BufferView(pybind11::handle obj, bool writable);
    ~BufferView() { PyBuffer_Release(&view_); }
    BufferView(const BufferView &) = delete;
    BufferView &operator=(const BufferView &) = delete;
    void *data() const { return view_.buf; }
    size_t size() const { return static_cast<size_t>(view_.len); }

private:
    Py_buffer view_;
};

using PyDeviceClass = pybind11::class_<PyDevice, std::shared_ptr<PyDevice>>;

// Each adds its classes to the module and its methods to `_acl.Device`.
void bind_runtime(pybind11::module_ &m, PyDeviceClass &device);
void bind_streams(pybind11::module_ &m, PyDeviceClass &device);
void bind_memory(pybind11::module_ &m, PyDeviceClass &device);
void bind_kernels(pybind11::module_ &m, PyDeviceClass &device);

}  // namespace pyasc_npu

#endif  // PYASC_NPU_PY_DEVICE_H_
