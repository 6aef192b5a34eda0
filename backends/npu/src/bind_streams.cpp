// Bindings of streams and events (the GIL is released while they wait; Ctrl-C interrupts a wait).
#include "py_device.h"

namespace py = pybind11;

namespace pyasc_npu {

void bind_streams(py::module_ &m, PyDeviceClass &device) {
    py::class_<Stream, std::shared_ptr<Stream>>(m, "Stream", "An ACL stream (the default stream is not owned).")
        .def_property_readonly("handle", [](const Stream &s) { return reinterpret_cast<uintptr_t>(s.handle()); })
        .def_property_readonly("is_default", &Stream::is_default)
        .def_property_readonly("is_external", &Stream::is_external)
        .def("synchronize", &Stream::synchronize, py::call_guard<py::gil_scoped_release>(),
             "aclrtSynchronizeStream (Ctrl-C raises KeyboardInterrupt and leaves the work queued)")
        .def("query", &Stream::query, py::call_guard<py::gil_scoped_release>(), "True when all queued work finished")
        .def("wait_event", &Stream::wait_event, py::arg("event"), "aclrtStreamWaitEvent")
        .def("record", &Stream::record, py::arg("event"), "aclrtRecordEvent(event, this stream)");

    py::class_<Event, std::shared_ptr<Event>>(m, "Event", "An ACL event.")
        .def_property_readonly("handle", [](const Event &e) { return reinterpret_cast<uintptr_t>(e.handle()); })
        .def("record", &Event::record, py::arg("stream"), "aclrtRecordEvent")
        .def("synchronize", &Event::synchronize, py::call_guard<py::gil_scoped_release>(),
             "aclrtSynchronizeEvent (Ctrl-C raises KeyboardInterrupt); raises a failure before the record")
        .def("query", &Event::query, py::call_guard<py::gil_scoped_release>(),
             "aclrtQueryEventStatus == COMPLETE; raises a failure before the record once complete")
        .def("elapsed_time", &Event::elapsed_time, py::arg("end"), "aclrtEventElapsedTime in milliseconds");

    device.def_property_readonly("default_stream", [](const PyDevice &d) { return d.default_stream; })
        .def("create_stream", [](PyDevice &d) { return std::make_shared<Stream>(d.ctx); }, "aclrtCreateStream")
        .def("external_stream",
             [](PyDevice &d, uintptr_t handle) { return Stream::external(d.ctx, reinterpret_cast<aclrtStream>(handle)); },
             py::arg("handle"), "A stream created elsewhere (its aclrtStream as an int): used, never destroyed")
        .def("create_event", [](PyDevice &d) { return std::make_shared<Event>(d.ctx); }, "aclrtCreateEvent");
}

}  // namespace pyasc_npu
