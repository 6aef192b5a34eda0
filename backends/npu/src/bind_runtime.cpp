// Bindings of the library, the device and process shutdown.
#include <pybind11/stl.h>

#include "acl_error.h"
#include "py_device.h"

namespace py = pybind11;

namespace pyasc_npu {

PyDevice::PyDevice(const std::shared_ptr<AclLibrary> &lib, int32_t index, std::string label_)
    : ctx(DeviceContext::get(lib, index)),
      alloc(std::make_shared<CachingAllocator>(ctx, label_)),
      host(std::make_shared<HostAllocator>(ctx)),
      default_stream(Stream::default_stream(ctx)),
      label(std::move(label_)) {}

PyDevice::~PyDevice() {
    // The last owner of an allocator frees its cached memory, first waiting for work still queued
    // on it: never with the GIL held (tensors still alive keep the allocator, and drop it later).
#if PY_VERSION_HEX >= 0x030D0000
    const bool finalizing = Py_IsFinalizing();
#else
    const bool finalizing = _Py_IsFinalizing();
#endif
    if (PyGILState_Check() && !finalizing) {
        py::gil_scoped_release nogil;
        alloc.reset();
        host.reset();
    }
}

void bind_runtime(py::module_ &m, PyDeviceClass &device) {
    py::class_<AclLibrary, std::shared_ptr<AclLibrary>>(m, "Library", "A loaded ACL runtime library.")
        .def_static("open", &AclLibrary::open, py::arg("path"),
                    "dlopen an ACL library, resolve its functions and aclInit it (RuntimeError if it cannot)")
        .def_property_readonly("path", &AclLibrary::path)
        .def_property_readonly("has_host_args_launch", &AclLibrary::has_host_args_launch)
        .def_property_readonly("has_stream_query", &AclLibrary::has_stream_query,
                               "aclrtStreamQuery resolved (else Stream.query records a probe event)")
        .def_property_readonly("has_timed_waits", &AclLibrary::has_timed_waits,
                               "aclrtSynchronize{Stream,Event,Device}WithTimeout resolved (else waits cannot be "
                               "interrupted by Ctrl-C)")
        .def_property_readonly("finalized", &AclLibrary::finalized)
        .def("soc_name", [](const AclLibrary &lib) -> py::object {
            const char *name = lib.api().aclrtGetSocName();
            if (name == nullptr) return py::none();
            return py::str(name);
        }, "aclrtGetSocName (None when the runtime does not know)")
        .def("device_count", [](const AclLibrary &lib) {
            uint32_t n = 0;
            check(lib, lib.api().aclrtGetDeviceCount(&n), "aclrtGetDeviceCount");
            return n;
        }, "aclrtGetDeviceCount")
        .def("recent_error_message", &AclLibrary::recent_error_message, "aclGetRecentErrMsg (clears it)")
        .def_property_readonly("has_op_execute_timeout",
                               [](const AclLibrary &lib) { return lib.api().aclrtSetOpExecuteTimeOut != nullptr; },
                               "aclrtSetOpExecuteTimeOut resolved")
        .def("set_op_execute_timeout", [](const AclLibrary &lib, uint32_t seconds) {
            if (lib.api().aclrtSetOpExecuteTimeOut == nullptr) {
                throw AclError(ACL_ERROR_API_NOT_SUPPORT, "aclrtSetOpExecuteTimeOut",
                               "this ACL library does not export aclrtSetOpExecuteTimeOut");
            }
            check(lib, lib.api().aclrtSetOpExecuteTimeOut(seconds), "aclrtSetOpExecuteTimeOut");
        }, py::arg("seconds"), "aclrtSetOpExecuteTimeOut: operator execution timeout in seconds (0: none)");

    device.def(py::init<const std::shared_ptr<AclLibrary> &, int32_t, std::string>(), py::arg("library"),
             py::arg("index"), py::arg("label"))
        .def_property_readonly("index", [](const PyDevice &d) { return d.ctx->id(); })
        .def_property_readonly("label", [](const PyDevice &d) { return d.label; })
        .def_property_readonly("library", [](const PyDevice &d) { return d.ctx->lib_ptr(); })
        .def("activate", [](PyDevice &d) { d.ctx->activate(); }, "make this device current in this thread")
        .def("current_device", [](PyDevice &d) {
            d.ctx->activate();
            int32_t id = -1;
            d.ctx->check(d.ctx->api().aclrtGetDevice(&id), "aclrtGetDevice");
            return id;
        }, "aclrtGetDevice")
        .def("synchronize", [](PyDevice &d) {
            py::gil_scoped_release nogil;
            d.ctx->activate();
            if (const PFN_aclrtSynchronizeDeviceWithTimeout timed = d.ctx->api().aclrtSynchronizeDeviceWithTimeout) {
                wait_interruptibly(*d.ctx, "aclrtSynchronizeDevice", [&](int32_t ms) { return timed(ms); });
                return;
            }
            check_with_warnings(*d.ctx, d.ctx->api().aclrtSynchronizeDevice(), "aclrtSynchronizeDevice");
        }, "aclrtSynchronizeDevice: wait for every stream of the device (Ctrl-C raises KeyboardInterrupt)")
        .def("mem_info", [](PyDevice &d, int attr) {
            d.ctx->activate();
            size_t free = 0, total = 0;
            d.ctx->check(d.ctx->api().aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free, &total),
                         "aclrtGetMemInfo");
            return py::make_tuple(free, total);
        }, py::arg("attr") = static_cast<int>(ACL_HBM_MEM), "aclrtGetMemInfo -> (free, total)")
        .def("device_info", [](PyDevice &d, int attr) {
            d.ctx->activate();
            int64_t v = 0;
            d.ctx->check(d.ctx->api().aclrtGetDeviceInfo(static_cast<uint32_t>(d.ctx->id()),
                                                         static_cast<aclrtDevAttr>(attr), &v),
                         "aclrtGetDeviceInfo");
            return v;
        }, py::arg("attr"), "aclrtGetDeviceInfo for one aclrtDevAttr");

    m.def("shutdown", [] {
        py::gil_scoped_release nogil;
        DeviceContext::shutdown_all();
    }, "Release the devices and aclFinalize every library (at interpreter exit).");

    m.attr("ACL_HBM_MEM") = static_cast<int>(ACL_HBM_MEM);
    m.attr("ACL_DDR_MEM") = static_cast<int>(ACL_DDR_MEM);
    m.attr("ACL_DEV_ATTR_AICPU_CORE_NUM") = static_cast<int>(ACL_DEV_ATTR_AICPU_CORE_NUM);
    m.attr("ACL_DEV_ATTR_AICORE_CORE_NUM") = static_cast<int>(ACL_DEV_ATTR_AICORE_CORE_NUM);
    m.attr("ACL_DEV_ATTR_CUBE_CORE_NUM") = static_cast<int>(ACL_DEV_ATTR_CUBE_CORE_NUM);
    m.attr("ACL_DEV_ATTR_VECTOR_CORE_NUM") = static_cast<int>(ACL_DEV_ATTR_VECTOR_CORE_NUM);
    m.attr("ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE") = static_cast<int>(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE);
    m.attr("ACL_DEV_ATTR_L2_CACHE_SIZE") = static_cast<int>(ACL_DEV_ATTR_L2_CACHE_SIZE);
    m.attr("ACL_MEMCPY_HOST_TO_HOST") = static_cast<int>(ACL_MEMCPY_HOST_TO_HOST);
    m.attr("ACL_MEMCPY_HOST_TO_DEVICE") = static_cast<int>(ACL_MEMCPY_HOST_TO_DEVICE);
    m.attr("ACL_MEMCPY_DEVICE_TO_HOST") = static_cast<int>(ACL_MEMCPY_DEVICE_TO_HOST);
    m.attr("ACL_MEMCPY_DEVICE_TO_DEVICE") = static_cast<int>(ACL_MEMCPY_DEVICE_TO_DEVICE);
}

}  // namespace pyasc_npu
