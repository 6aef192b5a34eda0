// Bindings of device memory: the caching allocators, their blocks, copies and fills, and the raw
// ACL memory calls.
#include <pybind11/stl.h>

#include <cstring>
#include <optional>

#include "acl_error.h"
#include "current_stream.h"
#include "py_device.h"
#include "raw_memory.h"
#include "slots.h"

namespace py = pybind11;

namespace pyasc_npu {

BufferView::BufferView(py::handle obj, bool writable) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view_, flags) != 0) throw py::error_already_set();
}

namespace {

bool py_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing() != 0;
#else
    return _Py_IsFinalizing() != 0;
#endif
}

py::dict stats_dict(const MemoryStats &s) {
    py::dict d;
    for (const auto &kv : s.as_map()) d[py::str(kv.first)] = kv.second;
    return d;
}

// One side of a copy: a device block, a pinned block, or any contiguous Python buffer (pageable).
struct Endpoint {
    void *ptr = nullptr;
    size_t capacity = 0;
    bool device = false;
    DeviceBlock *dblock = nullptr;
    PinnedBlock *pblock = nullptr;
    std::unique_ptr<BufferView> view;
};

Endpoint endpoint(py::handle obj, bool writable, size_t offset) {
    Endpoint e;
    if (py::isinstance<DeviceBlock>(obj)) {
        e.dblock = &obj.cast<DeviceBlock &>();
        e.ptr = reinterpret_cast<void *>(e.dblock->ptr());
        e.capacity = e.dblock->nbytes();
        e.device = true;
    } else if (py::isinstance<PinnedBlock>(obj)) {
        e.pblock = &obj.cast<PinnedBlock &>();
        e.ptr = e.pblock->data();
        e.capacity = e.pblock->nbytes();
    } else {
        e.view.reset(new BufferView(obj, writable));
        e.ptr = e.view->data();
        e.capacity = e.view->size();
    }
    if (offset > e.capacity) {
        throw py::value_error("copy offset " + std::to_string(offset) + " is past the end of a " +
                              std::to_string(e.capacity) + "-byte buffer");
    }
    e.ptr = static_cast<char *>(e.ptr) + offset;
    e.capacity -= offset;
    return e;
}

// Copies nbytes from src + src_offset to dst + dst_offset (byte offsets, for views of a block) in
// the order of `stream`; waits for the stream when asked to or when a pageable buffer is involved
// (its memory is only guaranteed during this call).
void copy(PyDevice &d, py::handle dst, py::handle src, size_t nbytes, Stream &stream, bool synchronize,
          size_t dst_offset, size_t src_offset) {
    Endpoint to = endpoint(dst, true, dst_offset), from = endpoint(src, false, src_offset);
    if (nbytes > to.capacity || nbytes > from.capacity) {
        throw py::value_error("copy of " + std::to_string(nbytes) + " bytes does not fit: destination holds " +
                              std::to_string(to.capacity) + ", source " + std::to_string(from.capacity));
    }
    if (!to.device && !from.device) {
        if (nbytes != 0) std::memmove(to.ptr, from.ptr, nbytes);
        return;
    }
    const aclrtMemcpyKind kind = to.device ? (from.device ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE)
                                           : ACL_MEMCPY_DEVICE_TO_HOST;
    for (DeviceBlock *b : {to.dblock, from.dblock}) {
        if (b != nullptr) b->record_stream(stream.handle());
    }
    for (PinnedBlock *b : {to.pblock, from.pblock}) {
        if (b != nullptr) b->record_stream(stream.handle());
    }
    const bool pageable = to.view || from.view;
    const bool wait = synchronize || pageable;
    py::gil_scoped_release nogil;
    d.ctx->activate();
    // A copy with pageable memory returns only once it ran (behind the stream's queued work), in a
    // wait Ctrl-C cannot interrupt: wait for that work first, interruptibly.
    if (pageable && nbytes != 0) stream.synchronize();
    if (nbytes != 0) {
        d.ctx->check(d.ctx->api().aclrtMemcpyAsync(to.ptr, to.capacity, from.ptr, nbytes, kind, stream.handle()),
                     "aclrtMemcpyAsync");
    }
    if (!wait) return;
    try {
        stream.synchronize();
    } catch (py::error_already_set &) {
        // Ctrl-C: the copy is still queued and will touch the pageable buffers later, so they
        // stay referenced (never released) instead of being freed under it.
        (void)to.view.release();
        (void)from.view.release();
        throw;
    }
}

// Attribute names of pyasc_acl.storage.DeviceArray's slots, interned once.
PyObject *g_names[9], *g_itemsize, *g_tensor[3];
const char *const kArrayFields[9] = {"_block", "_ptr", "_nbytes", "shape", "dtype", "device", "offset", "strides",
                                     "contiguous"};

// The C++ object of `o`, a pybind11 instance of class T: read straight from the instance when it has
// the type and simple layout seen before (`seen`), else through py::cast (throws py::cast_error).
template <class T>
T &instance_ref(PyObject *o, PyTypeObject *&seen) {
    auto *inst = reinterpret_cast<py::detail::instance *>(o);
    if (Py_TYPE(o) == seen && inst->simple_layout && inst->simple_value_holder[0] != nullptr)
        return *static_cast<T *>(inst->simple_value_holder[0]);
    T &ref = py::cast<T &>(py::handle(o));
    if (inst->simple_layout && inst->simple_value_holder[0] == &ref) seen = Py_TYPE(o);
    return ref;
}
PyTypeObject *g_device_t = nullptr, *g_stream_t = nullptr;  // instance_ref's types seen

// new_array(device, nbytes (None: from shape and dtype), stream, forget, DeviceArray, shape, dtype, device label, strides): the
// allocation hot path of AclBackend.empty in one call without pybind11's dispatch: a block from the
// cache (None when it has none: the caller takes Device.allocate_fresh, which may wait, make a
// segment or raise OutOfMemoryError), the sanitizer's history of its address dropped from `forget`
// (a dict, or None), and a contiguous DeviceArray over all of it (with a 10th argument, the Tensor
// type: wrapped in a Tensor over `device` owning no host bytes, as wrap_storage makes it).
PyObject *new_array(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9 && nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "new_array takes 9 or 10 arguments");
        return nullptr;
    }
    size_t nbytes = 0;
    if (args[1] == Py_None) {  // the shape's elements times the dtype's itemsize, computed here
        PyObject *item = PyObject_GetAttr(args[6], g_itemsize);
        long long v = item && PyLong_CheckExact(item) ? PyLong_AsLongLong(item) : -1;
        Py_XDECREF(item);
        if (v < 0 || !PyTuple_CheckExact(args[5])) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        nbytes = static_cast<size_t>(v);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[5]); ++i) {
            PyObject *dim = PyTuple_GET_ITEM(args[5], i);
            long long x = PyLong_CheckExact(dim) ? PyLong_AsLongLong(dim) : -1;
            if (x < 0 || __builtin_mul_overflow(nbytes, static_cast<size_t>(x), &nbytes)) {
                PyErr_Clear();
                Py_RETURN_NONE;  // the general path says what is wrong
            }
        }
    } else {
        nbytes = PyLong_AsSize_t(args[1]);
        if (nbytes == static_cast<size_t>(-1) && PyErr_Occurred()) return nullptr;
    }
    py::object block;
    PyObject *ptr = nullptr;
    try {
        PyDevice &d = instance_ref<PyDevice>(args[0], g_device_t);
        Stream &stream = instance_ref<Stream>(args[2], g_stream_t);
        Block *b = d.alloc->malloc_cached(nbytes, stream.handle());  // never waits: GIL kept
        if (b == nullptr) Py_RETURN_NONE;
        auto owned = std::make_shared<DeviceBlock>(d.alloc, b, nbytes);
        ptr = PyLong_FromSize_t(owned->ptr());
        block = py::cast(std::move(owned));
    } catch (py::error_already_set &e) {
        e.restore();
        Py_XDECREF(ptr);
        return nullptr;
    } catch (...) {  // a wrong argument type or an allocator error: the general path says what
        Py_XDECREF(ptr);
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (ptr == nullptr) return nullptr;
    PyObject *forget = args[3];
    if (PyDict_Check(forget)) {  // the stream sanitizer's history of a reused address, dropped in one lookup
#if PY_VERSION_HEX >= 0x030D0000
        const int popped = PyDict_Pop(forget, ptr, nullptr);
#else
        PyObject *old = _PyDict_Pop(forget, ptr, Py_None);
        const int popped = old == nullptr ? -1 : 0;
        Py_XDECREF(old);
#endif
        if (popped < 0) {
            Py_DECREF(ptr);
            return nullptr;
        }
    }
    if (!PyType_Check(args[4])) {
        Py_DECREF(ptr);
        PyErr_SetString(PyExc_TypeError, "new_array: argument 5 must be the DeviceArray type");
        return nullptr;
    }
    PyObject *empty = PyTuple_New(0);
    PyObject *a = empty ? PyBaseObject_Type.tp_new(reinterpret_cast<PyTypeObject *>(args[4]), empty, nullptr) : nullptr;
    Py_XDECREF(empty);
    PyObject *nb = a ? PyLong_FromSize_t(nbytes) : nullptr;
    PyObject *values[9] = {block.ptr(), ptr, nb, args[5], args[6], args[7], nullptr, args[8], Py_True};
    static PyObject *const zero = PyLong_FromLong(0);
    values[6] = zero;
    int rc = nb ? 0 : -1;
    for (int i = 0; rc == 0 && i < 9; ++i) rc = slot_cache().set(a, g_names[i], values[i]);
    Py_DECREF(ptr);
    Py_XDECREF(nb);
    if (rc < 0) {
        Py_XDECREF(a);
        return nullptr;
    }
    if (nargs == 10) {  // wrapped in a pyasc Tensor that owns no host bytes (creation.empty's hot path)
        if (!PyType_Check(args[9])) {
            Py_DECREF(a);
            PyErr_SetString(PyExc_TypeError, "new_array: argument 10 must be the Tensor type");
            return nullptr;
        }
        PyObject *none = PyTuple_New(0);
        PyObject *t = none ? PyBaseObject_Type.tp_new(reinterpret_cast<PyTypeObject *>(args[9]), none, nullptr) : nullptr;
        Py_XDECREF(none);
        int trc = t ? slot_cache().set(t, g_tensor[0], a) : -1;
        if (trc == 0) trc = slot_cache().set(t, g_tensor[1], args[7]);
        if (trc == 0) trc = slot_cache().set(t, g_tensor[2], zero);
        Py_DECREF(a);
        if (trc < 0) {
            Py_XDECREF(t);
            return nullptr;
        }
        return t;
    }
    return a;
}

PyMethodDef new_array_def = {"new_array", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&new_array)),
                             METH_FASTCALL,
                             "new_array(device, nbytes, stream, forget, DeviceArray, shape, dtype, device, strides): "
                             "a DeviceArray over a cached block, or None when the cache has none (AclBackend.empty's "
                             "hot path)"};

// A tensor maker's references (refs of _acl.tensor_maker, in this order).
enum MakerRef { M_FALLBACK, M_BACKEND, M_CURRENT, M_LOCAL, M_STALE, M_SAN_ACTIVE, M_NAME, M_BLOCKS, M_ARRAY, M_TENSOR,
                M_STRIDES, M_DTYPE, M_COUNT };
PyObject *g_devices_name, *g_index_name;

// self: the refs tuple; args: (shape, dtype, device). AclBackend.empty_tensor in one call: the
// device's current stream found, a cached block taken (new_array), its sanitizer history dropped,
// the DeviceArray and Tensor built; anything else (no cached block, a new shape, no stream object
// yet, a forked child, the sanitizer's switch not read yet) goes to the Python method (refs[0]).
PyObject *make_tensor(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *fallback = PyTuple_GET_ITEM(self, M_FALLBACK);
    if (nargs != 3) return PyObject_Vectorcall(fallback, args, static_cast<size_t>(nargs), nullptr);
    PyObject *shape = args[0], *dtype = args[1], *device = args[2];
    HeldRefs held;
    PyObject *stale = PyTuple_GET_ITEM(self, M_STALE);
    if (!PyTuple_CheckExact(shape) || !PyDict_CheckExact(stale) || PyDict_GET_SIZE(stale) != 0)
        return PyObject_Vectorcall(fallback, args, 3, nullptr);
    PyObject *strides = PyDict_GetItemWithError(PyTuple_GET_ITEM(self, M_STRIDES), shape);
    PyObject *on = strides ? PyDict_GetItemWithError(PyTuple_GET_ITEM(self, M_SAN_ACTIVE),
                                                     PyTuple_GET_ITEM(self, M_NAME)) : nullptr;
    if (PyErr_Occurred()) return nullptr;
    // numpy.dtype instances are of its subclasses (Float32DType, ...): a subtype check, as isinstance
    // gives for them (numpy.dtype's metaclass has no __instancecheck__), without the protocol's lookups
    PyObject *dtype_t = PyTuple_GET_ITEM(self, M_DTYPE);
    const int is_dtype = on && PyType_Check(dtype_t) && PyObject_TypeCheck(dtype, reinterpret_cast<PyTypeObject *>(dtype_t));
    if (!is_dtype || (on != Py_True && on != Py_False)) return PyObject_Vectorcall(fallback, args, 3, nullptr);
    PyObject *devices = held.keep(PyObject_GetAttr(PyTuple_GET_ITEM(self, M_BACKEND), g_devices_name));
    PyObject *index = devices ? held.keep(slot_cache().get(device, g_index_name)) : nullptr;  // Device's slot
    PyObject *d = index && PyDict_CheckExact(devices) ? PyDict_GetItemWithError(devices, index) : nullptr;
    PyObject *stream = d ? current_raw_stream(PyTuple_GET_ITEM(self, M_CURRENT), PyTuple_GET_ITEM(self, M_LOCAL),
                                              device, held)
                         : nullptr;
    if (stream == nullptr) {
        PyErr_Clear();
        return PyObject_Vectorcall(fallback, args, 3, nullptr);
    }
    PyObject *call[10] = {d, Py_None, stream, on == Py_True ? PyTuple_GET_ITEM(self, M_BLOCKS) : Py_None,
                          PyTuple_GET_ITEM(self, M_ARRAY), shape, dtype, device, strides,
                          PyTuple_GET_ITEM(self, M_TENSOR)};
    PyObject *t = new_array(nullptr, call, 10);
    if (t != Py_None) return t;  // a Tensor, or nullptr with the error set
    Py_DECREF(t);
    return PyObject_Vectorcall(fallback, args, 3, nullptr);  // no cached block: the general path
}

PyMethodDef make_tensor_def = {"make_tensor",
                               reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&make_tensor)),
                               METH_FASTCALL, "maker(shape, dtype, device): see _acl.tensor_maker"};

template <class Raw>
void bind_raw(py::module_ &m, const char *name, const char *doc) {
    py::class_<Raw, std::shared_ptr<Raw>>(m, name, doc)
        .def_property_readonly("ptr", [](const Raw &r) { return reinterpret_cast<uintptr_t>(r.ptr()); })
        .def_property_readonly("size", &Raw::size)
        .def("free", &Raw::free, "free now (later calls do nothing)");
}

}  // namespace

void bind_memory(py::module_ &m, PyDeviceClass &device) {
    for (int i = 0; i < 9; ++i) {
        g_names[i] = PyUnicode_InternFromString(kArrayFields[i]);
        if (g_names[i] == nullptr) throw py::error_already_set();
    }
    g_itemsize = PyUnicode_InternFromString("itemsize");
    g_tensor[0] = PyUnicode_InternFromString("_data");
    g_tensor[1] = PyUnicode_InternFromString("_device");
    g_tensor[2] = PyUnicode_InternFromString("_owned");
    if (!g_itemsize || !g_tensor[0] || !g_tensor[1] || !g_tensor[2]) throw py::error_already_set();
    PyObject *fn = PyCFunction_NewEx(&new_array_def, nullptr, m.attr("__name__").ptr());
    if (fn == nullptr) throw py::error_already_set();
    m.add_object("new_array", py::reinterpret_steal<py::object>(fn));
    g_devices_name = PyUnicode_InternFromString("_devices");
    g_index_name = PyUnicode_InternFromString("index");
    if (!g_devices_name || !g_index_name) throw py::error_already_set();
    m.def("tensor_maker", [](py::tuple refs) {
        if (refs.size() != M_COUNT || !PyDict_CheckExact(refs[M_STALE].ptr()) ||
            !PyDict_CheckExact(refs[M_STRIDES].ptr()) || !PyDict_CheckExact(refs[M_SAN_ACTIVE].ptr()))
            throw py::value_error("tensor_maker: refs must be the 12 objects its doc names");
        PyObject *maker = PyCFunction_New(&make_tensor_def, refs.ptr());
        if (maker == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(maker);
    }, py::arg("refs"),
       "AclBackend.empty_tensor in one C call: maker(shape, dtype, device) -> Tensor. refs: (the Python "
       "empty_tensor, which takes every other call; backend; current-stream ContextVar; thread-local default "
       "streams; fork.stale; sanitizer switches; backend name; sanitizer blocks; DeviceArray; Tensor; shape -> "
       "strides dict; numpy.dtype)");
    py::class_<DeviceBlock, std::shared_ptr<DeviceBlock>>(m, "DeviceBlock",
                                                          "A block of the caching allocator, freed when dropped.")
        .def_property_readonly("ptr", &DeviceBlock::ptr)
        .def_property_readonly("nbytes", &DeviceBlock::nbytes)
        .def_property_readonly("capacity", &DeviceBlock::capacity)
        .def_property_readonly("alive", &DeviceBlock::alive)
        .def_property_readonly("stream", [](const DeviceBlock &b) { return reinterpret_cast<uintptr_t>(b.block().stream); })
        .def("record_stream", [](DeviceBlock &b, Stream &s) { b.record_stream(s.handle()); }, py::arg("stream"),
             "mark the block as used by `stream`: once freed it is reused only after that stream's work so far")
        .def_property_readonly("external", [](const DeviceBlock &b) { return b.block().external; },
                               "True for memory pyasc does not own (wrap_pointer)")
        .def_property_readonly("owner", [](const DeviceBlock &b) -> py::object {
            const Block &blk = b.block();
            if (!blk.external || !blk.owner) return py::none();
            return *static_cast<py::object *>(blk.owner.get());
        }, "what owns the memory of an external block (None otherwise)")
        .def("free", &DeviceBlock::release, "return the block to the allocator now (external: let it go)");

    py::class_<PinnedBlock, std::shared_ptr<PinnedBlock>>(m, "PinnedBlock", py::buffer_protocol(),
                                                          "Pinned host memory from the pool (a writable buffer).")
        .def_buffer([](PinnedBlock &b) {
            return py::buffer_info(b.data(), 1, py::format_descriptor<uint8_t>::format(), 1,
                                   {static_cast<py::ssize_t>(b.nbytes())}, {1});
        })
        .def_property_readonly("ptr", [](const PinnedBlock &b) { return reinterpret_cast<uintptr_t>(b.data()); })
        .def_property_readonly("nbytes", &PinnedBlock::nbytes)
        .def("record_stream", [](PinnedBlock &b, Stream &s) { b.record_stream(s.handle()); }, py::arg("stream"))
        .def("free", &PinnedBlock::release);

    bind_raw<DeviceMemory>(m, "DeviceMemory", "Device memory straight from aclrtMalloc (freed when dropped).");
    bind_raw<HostMemory>(m, "HostMemory", "Pinned host memory straight from aclrtMallocHost (freed when dropped).");

    device
        .def("allocate", [](PyDevice &d, size_t nbytes, Stream &stream) {
            Block *b = d.alloc->malloc_cached(nbytes, stream.handle());  // never waits: GIL kept
            if (b == nullptr) {
                py::gil_scoped_release nogil;  // a new segment, or waiting for queued work
                b = d.alloc->malloc(nbytes, stream.handle());
            }
            return std::make_shared<DeviceBlock>(d.alloc, b, nbytes);
        }, py::arg("nbytes"), py::arg("stream"), "a block of the caching allocator, cached per stream")
        .def("wrap_pointer", [](PyDevice &d, uintptr_t ptr, size_t nbytes, Stream &stream, py::object owner) {
            // The owner is dropped with the GIL taken (the allocator lets go of it outside its lock,
            // maybe on a thread without the GIL); at interpreter exit it is leaked, not touched.
            std::shared_ptr<void> keep(new py::object(std::move(owner)), [](void *p) {
                auto *o = static_cast<py::object *>(p);
                if (!Py_IsInitialized() || py_finalizing()) return;
                py::gil_scoped_acquire gil;
                delete o;
            });
            Block *b = nullptr;
            try {
                b = d.alloc->adopt(reinterpret_cast<void *>(ptr), nbytes, stream.handle(), std::move(keep));
            } catch (const ExternalMemoryError &e) {
                throw py::value_error(e.what());
            }
            return std::make_shared<DeviceBlock>(d.alloc, b, nbytes);
        }, py::arg("ptr"), py::arg("nbytes"), py::arg("stream"), py::arg("owner"),
             "a block over device memory someone else owns (never freed by the allocator; `owner` is "
             "kept until the streams that used the block are done with it)")
        .def("allocate_fresh", [](PyDevice &d, size_t nbytes, Stream &stream, py::handle forget) {
            Block *b = d.alloc->malloc_cached(nbytes, stream.handle());  // never waits: GIL kept
            if (b == nullptr) {
                py::gil_scoped_release nogil;  // a new segment, or waiting for queued work
                b = d.alloc->malloc(nbytes, stream.handle());
            }
            auto block = std::make_shared<DeviceBlock>(d.alloc, b, nbytes);
            py::int_ ptr(block->ptr());
            if (PyDict_Check(forget.ptr())) {  // the stream sanitizer's history of a reused address
                int has = PyDict_Contains(forget.ptr(), ptr.ptr());
                if (has < 0 || (has == 1 && PyDict_DelItem(forget.ptr(), ptr.ptr()) < 0)) throw py::error_already_set();
            }
            return py::make_tuple(py::cast(std::move(block)), std::move(ptr));
        }, "allocate, returning (block, block.ptr); `forget`: a dict (the stream sanitizer's records) "
           "whose entry for the address is dropped, or None (the allocation hot path in one call)")
        .def("allocate_host", [](PyDevice &d, size_t nbytes) {
            HostBlock *b = nullptr;
            {
                py::gil_scoped_release nogil;
                b = d.host->malloc(nbytes);
            }
            return std::make_shared<PinnedBlock>(d.host, b, nbytes);
        }, py::arg("nbytes"), "a pinned host block from the pool")
        .def("memory_stats", [](PyDevice &d) { return stats_dict(d.alloc->stats()); })
        .def("host_memory_stats", [](PyDevice &d) { return stats_dict(d.host->stats()); })
        .def("reset_peak_memory_stats", [](PyDevice &d) { d.alloc->reset_peak(); })
        .def("empty_cache", [](PyDevice &d) {
            py::gil_scoped_release nogil;
            d.alloc->empty_cache();
            d.host->empty_cache();
        }, "return cached blocks (device and pinned) to the runtime")
        .def("set_memory_limit", [](PyDevice &d, std::optional<size_t> limit) {
            d.alloc->set_limit(limit ? *limit : CachingAllocator::kNoLimit);
        }, py::arg("nbytes"), "cap the bytes the allocator may reserve (None: no cap)")
        .def_property_readonly("memory_limit", [](PyDevice &d) -> std::optional<size_t> {
            if (d.alloc->limit() == CachingAllocator::kNoLimit) return std::nullopt;
            return d.alloc->limit();
        })
        .def("copy", &copy, py::arg("dst"), py::arg("src"), py::arg("nbytes"), py::arg("stream"),
             py::arg("synchronize") = false, py::arg("dst_offset") = 0, py::arg("src_offset") = 0,
             "copy between DeviceBlock / PinnedBlock / buffer on `stream` (pageable buffers wait); the "
             "offsets are in bytes")
        .def("fill", [](PyDevice &d, DeviceBlock &dst, int value, size_t nbytes, Stream &stream) {
            if (nbytes > dst.nbytes()) throw py::value_error("fill of " + std::to_string(nbytes) + " bytes overflows the block");
            dst.record_stream(stream.handle());
            py::gil_scoped_release nogil;
            d.ctx->activate();
            d.ctx->check(d.ctx->api().aclrtMemsetAsync(reinterpret_cast<void *>(dst.ptr()), dst.nbytes(), value,
                                                       nbytes, stream.handle()),
                         "aclrtMemsetAsync");
        }, py::arg("dst"), py::arg("value"), py::arg("nbytes"), py::arg("stream"), "aclrtMemsetAsync on a block")
        // -- the raw ACL memory calls, on addresses (the simulator validates every one) -----------
        .def("malloc", [](PyDevice &d, size_t size, int policy) { return std::make_shared<DeviceMemory>(d.ctx, size, policy); },
             py::arg("size"), py::arg("policy") = 0, "aclrtMalloc -> DeviceMemory")
        .def("malloc_host", [](PyDevice &d, size_t size) { return std::make_shared<HostMemory>(d.ctx, size, 0); },
             py::arg("size"), "aclrtMallocHost -> HostMemory")
        .def("memcpy", [](PyDevice &d, uintptr_t dst, size_t dst_max, uintptr_t src, size_t count, int kind) {
            py::gil_scoped_release nogil;
            d.ctx->activate();
            d.ctx->check(d.ctx->api().aclrtMemcpy(reinterpret_cast<void *>(dst), dst_max, reinterpret_cast<void *>(src),
                                                  count, static_cast<aclrtMemcpyKind>(kind)),
                         "aclrtMemcpy");
        }, py::arg("dst"), py::arg("dst_max"), py::arg("src"), py::arg("count"), py::arg("kind"), "aclrtMemcpy")
        .def("memcpy_async", [](PyDevice &d, uintptr_t dst, size_t dst_max, uintptr_t src, size_t count, int kind,
                                Stream &stream) {
            py::gil_scoped_release nogil;
            d.ctx->activate();
            d.ctx->check(d.ctx->api().aclrtMemcpyAsync(reinterpret_cast<void *>(dst), dst_max,
                                                       reinterpret_cast<void *>(src), count,
                                                       static_cast<aclrtMemcpyKind>(kind), stream.handle()),
                         "aclrtMemcpyAsync");
        }, py::arg("dst"), py::arg("dst_max"), py::arg("src"), py::arg("count"), py::arg("kind"), py::arg("stream"),
             "aclrtMemcpyAsync")
        .def("memset", [](PyDevice &d, uintptr_t ptr, size_t max_count, int value, size_t count) {
            py::gil_scoped_release nogil;
            d.ctx->activate();
            d.ctx->check(d.ctx->api().aclrtMemset(reinterpret_cast<void *>(ptr), max_count, value, count), "aclrtMemset");
        }, py::arg("ptr"), py::arg("max_count"), py::arg("value"), py::arg("count"), "aclrtMemset")
        .def("memset_async", [](PyDevice &d, uintptr_t ptr, size_t max_count, int value, size_t count, Stream &stream) {
            py::gil_scoped_release nogil;
            d.ctx->activate();
            d.ctx->check(d.ctx->api().aclrtMemsetAsync(reinterpret_cast<void *>(ptr), max_count, value, count,
                                                       stream.handle()),
                         "aclrtMemsetAsync");
        }, py::arg("ptr"), py::arg("max_count"), py::arg("value"), py::arg("count"), py::arg("stream"),
             "aclrtMemsetAsync");
}

}  // namespace pyasc_npu
