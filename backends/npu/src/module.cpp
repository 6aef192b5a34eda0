// pyasc_acl._acl: the ACL runtime bound with pybind11 (library loaded at run time with dlopen).
#include <pybind11/pybind11.h>

#include "acl_error.h"
#include "py_device.h"

namespace py = pybind11;
using namespace pyasc_npu;

namespace pyasc_npu {
void bind_stream_record(py::module_ &m);  // stream_record.cpp
void bind_launch_fast(py::module_ &m);    // launch_fast.cpp
}  // namespace pyasc_npu

namespace {

// Builds the Python exception with pyasc_acl.errors.<factory>(*args) and sets it as the error.
void raise_from_factory(const char *factory, const py::tuple &args, const char *fallback) {
    try {
        py::object exc = py::module_::import("pyasc_acl.errors").attr(factory)(*args);
        PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
    } catch (py::error_already_set &e) {
        PyErr_SetString(PyExc_RuntimeError, fallback);
    }
}

}  // namespace

PYBIND11_MODULE(_acl, m) {
    m.doc() = "The ACL runtime (libascendcl or pyasc's simulator), loaded with dlopen; see pyasc_acl.";
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const AclError &e) {
            raise_from_factory("_acl_error", py::make_tuple(e.code(), e.api(), e.recent_message()), e.what());
        } catch (const ForkedDeviceError &e) {
            raise_from_factory("_forked_device_error", py::make_tuple(e.parent_pid), e.what());
        } catch (const AllocatorOOM &e) {
            raise_from_factory("_allocator_oom",
                               py::make_tuple(e.what(), e.requested, e.allocated, e.reserved, e.free, e.total,
                                              e.limit, e.cause),
                               e.what());
        }
    });
    PyDeviceClass device(m, "Device", "One device as one backend sees it: context, allocators, default stream.");
    bind_runtime(m, device);
    bind_streams(m, device);
    bind_memory(m, device);
    bind_kernels(m, device);
    bind_stream_record(m);
    bind_launch_fast(m);
}
