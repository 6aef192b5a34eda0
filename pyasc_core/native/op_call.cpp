// pyasc_core._native.OpCall: the base class of pyasc_core.dispatch.OpHandle whose call is the
// dispatcher's hot path in C (issue 13: Python cost to queue an op). A repeated call of a cached
// form (one or two positional arguments keyed as dispatch._key1 / _key2 key them, a cache entry
// without an argument-filling step, the registry unchanged since the handle bound) runs
// kernel(meta, *args) directly: no Python frame for __call__ or the key function, no **kwargs dict.
// Every other call (keywords, other arities or forms, a cache miss, an error while building the
// key) goes to the handle's Python method `_call` unchanged, which builds the same key, so both
// paths always agree (the cache is the handle's own `_cache` dict, filled by `_call`).
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace {

struct OpCall {
    PyObject_HEAD
    PyObject *cache;    // the handle's _cache dict (nullptr: no fast path bound)
    long long version;  // the registry version the cache belongs to
    int kind;           // the key function's form: 1 (_key1), 2 (_key2), 0 (another: always `_call`)
};

// Set once by setup(): the registry, the Tensor type, the scalar input types (bool, int, float).
PyObject *g_registry = nullptr, *g_tensor = nullptr, *g_scalars[3] = {nullptr, nullptr, nullptr};
PyObject *g_version, *g_device, *g_data, *g_dtype, *g_shape, *g_call;

PyObject *slow_call(PyObject *self, PyObject *args, PyObject *kw) {
    PyObject *m = PyObject_GetAttr(self, g_call);
    if (m == nullptr) return nullptr;
    PyObject *r = PyObject_Call(m, args, kw);
    Py_DECREF(m);
    return r;
}

bool is_scalar_type(PyObject *t) { return t == g_scalars[0] || t == g_scalars[1] || t == g_scalars[2]; }

// Writes a._device, a._data.dtype, a._data.shape (new references) to out[0..2]; false: an error
// (cleared; the Python path raises it again).
bool tensor_key(PyObject *a, PyObject **out) {
    PyObject *d = PyObject_GetAttr(a, g_data);
    out[0] = d ? PyObject_GetAttr(a, g_device) : nullptr;
    out[1] = out[0] ? PyObject_GetAttr(d, g_dtype) : nullptr;
    out[2] = out[1] ? PyObject_GetAttr(d, g_shape) : nullptr;
    Py_XDECREF(d);
    if (out[2] != nullptr) return true;
    Py_CLEAR(out[0]);
    Py_CLEAR(out[1]);
    PyErr_Clear();
    return false;
}

// The key _key1 / _key2 make for these arguments (a new tuple), or nullptr (no error set): the
// form has no key there, or building it failed.
PyObject *make_key(int kind, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *items[6];
    Py_ssize_t n = 0;
    if (kind == 1) {
        if (nargs != 1 || reinterpret_cast<PyObject *>(Py_TYPE(args[0])) != g_tensor || !tensor_key(args[0], items))
            return nullptr;
        n = 3;
    } else if (kind == 2) {
        if (nargs != 2) return nullptr;
        PyObject *ta = reinterpret_cast<PyObject *>(Py_TYPE(args[0]));
        PyObject *tb = reinterpret_cast<PyObject *>(Py_TYPE(args[1]));
        if (ta == g_tensor && tb == g_tensor) {
            if (!tensor_key(args[0], items)) return nullptr;
            if (!tensor_key(args[1], items + 3)) {
                for (int i = 0; i < 3; ++i) Py_DECREF(items[i]);
                return nullptr;
            }
            n = 6;
        } else if (ta == g_tensor && is_scalar_type(tb)) {
            if (!tensor_key(args[0], items)) return nullptr;
            items[3] = Py_NewRef(tb);
            n = 4;
        } else if (is_scalar_type(ta) && tb == g_tensor) {
            items[0] = Py_NewRef(ta);
            if (!tensor_key(args[1], items + 1)) {
                Py_DECREF(items[0]);
                return nullptr;
            }
            n = 4;
        } else {
            return nullptr;
        }
    } else {
        return nullptr;
    }
    PyObject *key = PyTuple_New(n);
    if (key == nullptr) {
        for (Py_ssize_t i = 0; i < n; ++i) Py_DECREF(items[i]);
        PyErr_Clear();
        return nullptr;
    }
    for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(key, i, items[i]);
    return key;
}

PyObject *op_call(PyObject *self, PyObject *args, PyObject *kw) {
    auto *o = reinterpret_cast<OpCall *>(self);
    if (o->cache == nullptr || o->kind == 0 || g_registry == nullptr || (kw != nullptr && PyDict_GET_SIZE(kw) != 0))
        return slow_call(self, args, kw);
    PyObject *v = PyObject_GetAttr(g_registry, g_version);  // REGISTRY.version, as _call reads it
    long long version = v != nullptr && PyLong_CheckExact(v) ? PyLong_AsLongLong(v) : -1;
    Py_XDECREF(v);
    if (version == -1 && PyErr_Occurred()) PyErr_Clear();
    if (version != o->version || version == -1) return slow_call(self, args, kw);
    PyObject *const *items = &PyTuple_GET_ITEM(args, 0);
    const Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *key = make_key(o->kind, items, nargs);
    if (key == nullptr) return slow_call(self, args, kw);
    PyObject *entry = PyDict_GetItemWithError(o->cache, key);  // borrowed
    Py_DECREF(key);
    if (entry == nullptr || !PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 3 ||
        PyTuple_GET_ITEM(entry, 2) != Py_None) {
        PyErr_Clear();
        return slow_call(self, args, kw);
    }
    Py_INCREF(entry);  // the kernel may clear the cache while it runs
    PyObject *call[1 + 2 + 1];  // (meta, *args) after a spare slot (PY_VECTORCALL_ARGUMENTS_OFFSET)
    call[1] = PyTuple_GET_ITEM(entry, 0);
    for (Py_ssize_t i = 0; i < nargs; ++i) call[2 + i] = items[i];
    PyObject *r = PyObject_Vectorcall(PyTuple_GET_ITEM(entry, 1), call + 1,
                                      static_cast<size_t>(1 + nargs) | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
    Py_DECREF(entry);
    return r;
}

// handle._bind_fast(cache, version, kind): the hot path's cache (None: none) for calls while the
// registry is at `version`; kind 1 / 2: keys as _key1 / _key2, 0: every call goes to _call.
PyObject *bind_fast(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || (args[0] != Py_None && !PyDict_CheckExact(args[0])) || !PyLong_CheckExact(args[1]) ||
        !PyLong_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "_bind_fast(cache: dict | None, version: int, kind: int)");
        return nullptr;
    }
    auto *o = reinterpret_cast<OpCall *>(self);
    const long long version = PyLong_AsLongLong(args[1]);
    const long kind = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return nullptr;
    Py_XSETREF(o->cache, args[0] == Py_None ? nullptr : Py_NewRef(args[0]));
    o->version = version;
    o->kind = (kind == 1 || kind == 2) ? static_cast<int>(kind) : 0;
    Py_RETURN_NONE;
}

int op_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(reinterpret_cast<OpCall *>(self)->cache);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

int op_clear(PyObject *self) {
    Py_CLEAR(reinterpret_cast<OpCall *>(self)->cache);
    return 0;
}

void op_dealloc(PyObject *self) {
    PyTypeObject *t = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    op_clear(self);
    t->tp_free(self);
    Py_DECREF(t);
}

PyMethodDef op_methods[] = {
    {"_bind_fast", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&bind_fast)), METH_FASTCALL,
     "_bind_fast(cache, version, kind): bind the C call path (see pyasc_core.dispatch.OpHandle._refresh)"},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot op_slots[] = {
    {Py_tp_call, reinterpret_cast<void *>(&op_call)},
    {Py_tp_traverse, reinterpret_cast<void *>(&op_traverse)},
    {Py_tp_clear, reinterpret_cast<void *>(&op_clear)},
    {Py_tp_dealloc, reinterpret_cast<void *>(&op_dealloc)},
    {Py_tp_methods, op_methods},
    {Py_tp_doc, const_cast<char *>("Base of pyasc_core.dispatch.OpHandle: its call in C for cached call forms, "
                                   "else the handle's _call method.")},
    {0, nullptr}};

PyType_Spec op_spec = {"pyasc_core._native.OpCall", sizeof(OpCall), 0,
                       Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, op_slots};

PyObject *intern(const char *s) {
    PyObject *o = PyUnicode_InternFromString(s);
    if (o == nullptr) throw py::error_already_set();
    return o;
}

}  // namespace

void bind_op_call(py::module_ &m) {
    g_version = intern("version");
    g_device = intern("_device");
    g_data = intern("_data");
    g_dtype = intern("dtype");
    g_shape = intern("shape");
    g_call = intern("_call");
    PyObject *t = PyType_FromSpec(&op_spec);
    if (t == nullptr) throw py::error_already_set();
    m.add_object("OpCall", py::reinterpret_steal<py::object>(t));
    m.def("op_call_setup", [](py::object registry, py::object tensor, py::tuple scalars) {
        if (!PyType_Check(tensor.ptr()) || scalars.size() != 3) throw py::type_error("op_call_setup(registry, Tensor, (bool, int, float))");
        Py_XSETREF(g_registry, Py_NewRef(registry.ptr()));
        Py_XSETREF(g_tensor, Py_NewRef(tensor.ptr()));
        for (size_t i = 0; i < 3; ++i) Py_XSETREF(g_scalars[i], Py_NewRef(scalars[i].ptr()));
    }, py::arg("registry"), py::arg("tensor"), py::arg("scalars"),
       "Tell OpCall the op registry (its `version`), the Tensor type and the scalar input types, as "
       "pyasc_core.dispatch keys calls with them.");
}
