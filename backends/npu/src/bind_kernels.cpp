// Bindings of kernel binaries, functions and the launch.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "binary.h"
#include "py_device.h"

namespace py = pybind11;

namespace pyasc_npu {

void bind_kernels(py::module_ &m, PyDeviceClass &device) {
    py::class_<Binary, std::shared_ptr<Binary>>(m, "Binary", "A loaded kernel binary (aclrtBinaryLoadFromFile).")
        .def_property_readonly("path", &Binary::path)
        .def_property_readonly("aicpu", &Binary::aicpu, "an AI CPU library (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)")
        .def("function", [](const std::shared_ptr<Binary> &b, const std::string &name) {
            return std::make_shared<Function>(b, name);
        }, py::arg("name"), "aclrtBinaryGetFunction")
        .def("register_cpu_func", [](const std::shared_ptr<Binary> &b, const std::string &func_name,
                                     const std::string &kernel_name) {
            return std::make_shared<Function>(b, func_name, kernel_name);
        }, py::arg("func_name"), py::arg("kernel_name"), "aclrtRegisterCpuFunc (an AI CPU library's function)")
        .def("unload", &Binary::unload, "aclrtBinaryUnLoad now (otherwise when dropped)");

    py::class_<Function, std::shared_ptr<Function>>(m, "Function", "One kernel of a loaded binary.")
        .def_property_readonly("name", &Function::name)
        .def_property_readonly("binary", &Function::binary);

    device
        .def("load_binary", [](PyDevice &d, const std::string &path, int32_t cpu_kernel_mode) {
            py::gil_scoped_release nogil;
            return std::make_shared<Binary>(d.ctx, path, cpu_kernel_mode);
        }, py::arg("path"), py::arg("cpu_kernel_mode") = -1,
             "aclrtBinaryLoadFromFile; cpu_kernel_mode >= 0 loads an AI CPU library with "
             "ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE set to it")
        .def("load_binary_data", [](PyDevice &d, py::bytes data, int32_t cpu_kernel_mode, const std::string &label) {
            std::string blob = data;
            py::gil_scoped_release nogil;
            return std::make_shared<Binary>(d.ctx, blob, cpu_kernel_mode, label, Binary::FromData{});
        }, py::arg("data"), py::arg("cpu_kernel_mode") = 2, py::arg("label") = "<data>",
             "aclrtBinaryLoadFromData with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE (an AI CPU library)")
        .def("launch", [](PyDevice &d, Function &fn, uint32_t num_blocks, py::bytes args, Stream &stream,
                          const std::vector<std::shared_ptr<DeviceBlock>> &uses, bool host_args) {
            for (const auto &b : uses) b->record_stream(stream.handle());
            std::string blob = args;  // a copy the launch can read without the GIL
            py::gil_scoped_release nogil;
            launch(fn, num_blocks, blob.data(), blob.size(), stream, *d.alloc, *d.host, host_args);
        }, py::arg("function"), py::arg("num_blocks"), py::arg("args"), py::arg("stream"),
             py::arg("uses") = std::vector<std::shared_ptr<DeviceBlock>>(), py::arg("host_args") = true,
             "enqueue a kernel; `uses` are the blocks it touches (recorded for stream-safe reuse)");
}

}  // namespace pyasc_npu
